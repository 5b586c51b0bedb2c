import { MockOptionError, refusal, type MockError } from './errors.js';
import type { RequestHead } from './reply.js';

// RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const bearerToken = /^[A-Za-z0-9\-._~+/]+=*$/;
const bearerScheme = /^Bearer(?: |$)/i;
import type { ErrorCode } from './errors.js';

export interface BearerRealm {
  realm: string;
  missing: { code: ErrorCode; message: string };
  invalid: { code: ErrorCode; message: string; description: string };
}

const apiRealm: BearerRealm = {
  realm: 'petstore',
  missing: { code: 'missing_api_key', message: 'Missing API key: send it as "Authorization: Bearer <API_KEY>".' },
  invalid: { code: 'invalid_api_key', message: 'Invalid API key.', description: 'The API key is not valid' },
};

/** Whether a string can be sent as a bearer token at all (RFC 6750 `b64token`). */
export function isValidBearerToken(token: string): boolean {
  return bearerToken.test(token);
}

// Constant time: the time taken says nothing of how much of a key was right. Keys are ASCII, so
// comparing UTF-16 code units is comparing bytes, in plain JavaScript that also runs in a browser.
function constantTimeEqual(candidate: string, key: string): boolean {
  let difference = candidate.length ^ key.length;
  for (let index = 0; index < candidate.length; index++) {
    difference |= candidate.charCodeAt(index) ^ key.charCodeAt(index % key.length);
  }
  return difference === 0;
}

/** The bearer check every operation runs first: undefined for an accepted key, else the 401 to answer with. */
export function createAuthenticator(
  apiKeys: readonly string[],
  realm: BearerRealm = apiRealm,
): (request: RequestHead) => MockError | undefined {
  if (apiKeys.length === 0) throw new MockOptionError('invalid_option', 'At least one API key is required.');
  for (const key of apiKeys) {
    if (!isValidBearerToken(key))
      throw new MockOptionError(
        'invalid_option',
        'An API key must be a bearer token: letters, digits and - . _ ~ + / (then = padding).',
      );
  }
  const keys = [...apiKeys];
  return (request) => {
    const header = request.headers.get('authorization');
    if (header === null || !bearerScheme.test(header)) {
      // No credentials, or another scheme: RFC 6750 section 3.1 says not to name an error code.
      return refusal(realm.missing.code, realm.missing.message, {
        headers: { 'www-authenticate': `Bearer realm="${realm.realm}"` },
      });
    }
    const candidate = header.slice('Bearer'.length).trim();
    let accepted = false;
    for (const key of keys) accepted = constantTimeEqual(candidate, key) || accepted;
    if (accepted) return undefined;
    return refusal(realm.invalid.code, realm.invalid.message, {
      headers: {
        'www-authenticate': `Bearer realm="${realm.realm}", error="invalid_token", error_description="${realm.invalid.description}"`,
      },
    });
  };
}
