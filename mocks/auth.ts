import { MockError } from './errors.js';
import type { RequestHead } from './reply.js';

// RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const bearerToken = /^[A-Za-z0-9\-._~+/]+=*$/;
const bearerScheme = /^Bearer(?: |$)/i;
const realm = 'Bearer realm="petstore"';

/**
 * Whether a string can be sent as a bearer token at all (RFC 6750 `b64token`).
 * @example
 * isValidBearerToken('petstore-dev-key') // true
 * isValidBearerToken('two words') // false
 */
export function isValidBearerToken(token: string): boolean {
  return bearerToken.test(token);
}

// Compares every character of the candidate whatever the contents, so the time taken says nothing
// of how much of a key was right. Keys are ASCII (RFC 6750 b64token, never empty), so comparing UTF-16
// code units is comparing bytes; it spares encoding the header on every call. Pure JavaScript, so the
// same code runs in the browser.
function constantTimeEqual(candidate: string, key: string): boolean {
  let difference = candidate.length ^ key.length;
  for (let index = 0; index < candidate.length; index++) {
    difference |= candidate.charCodeAt(index) ^ key.charCodeAt(index % key.length);
  }
  return difference === 0;
}

/**
 * Builds the bearer check every operation runs first. It returns nothing when the request carries
 * an accepted key, else the 401 `MockError` to answer with (with `WWW-Authenticate`, RFC 6750 section 3).
 * Keys are compared in constant time, every key every time; they are never logged.
 * @example
 * const authenticate = createAuthenticator(['secret']);
 * authenticate(new Request('http://x/v1/store/orders', { headers: { authorization: 'bearer secret' } })) // undefined
 */
export function createAuthenticator(apiKeys: readonly string[]): (request: RequestHead) => MockError | undefined {
  if (apiKeys.length === 0) throw new TypeError('At least one API key is required.');
  for (const key of apiKeys) {
    if (!isValidBearerToken(key))
      throw new TypeError('An API key must be a bearer token: letters, digits and - . _ ~ + / (then = padding).');
  }
  const keys = [...apiKeys];
  return (request) => {
    const header = request.headers.get('authorization');
    if (header === null || !bearerScheme.test(header)) {
      // No credentials, or another scheme: RFC 6750 section 3.1 says not to name an error code.
      return new MockError('missing_api_key', 'Missing API key: send it as "Authorization: Bearer <API_KEY>".', {
        headers: { 'www-authenticate': realm },
      });
    }
    const candidate = header.slice('Bearer'.length).trim();
    let accepted = false;
    for (const key of keys) accepted = constantTimeEqual(candidate, key) || accepted;
    if (accepted) return undefined;
    return new MockError('invalid_api_key', 'Invalid API key.', {
      headers: { 'www-authenticate': `${realm}, error="invalid_token", error_description="The API key is not valid"` },
    });
  };
}
