/**
 * The key the mock accepts when none is configured, and the key the shipped pact sends. Documented in
 * the README; never use it for anything real.
 * @example
 * fetch(url, { headers: { authorization: `Bearer ${developmentApiKey}` } })
 */
export const developmentApiKey = 'petstore-dev-key';

/**
 * The key a step with `key: wrong` sends: one no deployment accepts.
 * @example
 * authorizationHeader('wrong', 'my-key') // { authorization: 'Bearer petstore-verify-wrong-key' }
 */
export const wrongApiKey = 'petstore-verify-wrong-key';

/**
 * The key choices a request of a scenario step or an exploration can make:
 * - `valid`: the accepted key, `Bearer <key>`;
 * - `none`: no `Authorization` header;
 * - `wrong`: a key no deployment accepts, `Bearer petstore-verify-wrong-key`;
 * - `basic`: another scheme, `Basic` credentials made of the accepted key (a 401 all the same);
 * - `lowercase-scheme`: the accepted key with the scheme written `bearer` (accepted: RFC 9110 §11.1
 *   makes the scheme name case-insensitive);
 * - keys near the accepted one, each refused: `prefixed` (a character before it), `suffixed` (a
 *   character after it), `containing` (one on each side), `truncated` (its last character cut).
 */
export const keyChoices = [
  'valid',
  'none',
  'wrong',
  'basic',
  'lowercase-scheme',
  'prefixed',
  'suffixed',
  'containing',
  'truncated',
] as const;
/** Which key a request sends (see `keyChoices`). */
export type KeyChoice = (typeof keyChoices)[number];

/**
 * Whether a key choice is one the interface accepts (the accepted key, in any case of the scheme name).
 * @example
 * isAcceptedKey('lowercase-scheme') // true
 * isAcceptedKey('basic') // false
 */
export function isAcceptedKey(choice: KeyChoice | undefined): boolean {
  return choice === undefined || choice === 'valid' || choice === 'lowercase-scheme';
}

/**
 * The `Authorization` header a key choice sends, for a deployment that accepts `apiKey`.
 * @example
 * authorizationHeader('valid', 'petstore-dev-key') // { authorization: 'Bearer petstore-dev-key' }
 * authorizationHeader('none', 'petstore-dev-key') // {}
 * authorizationHeader('basic', 'petstore-dev-key') // { authorization: 'Basic cGV0c3RvcmUtZGV2LWtleTo=' }
 */
export function authorizationHeader(
  choice: KeyChoice | undefined,
  apiKey: string = developmentApiKey,
): { authorization?: string } {
  switch (choice) {
    case 'none':
      return {};
    case 'wrong':
      return { authorization: `Bearer ${apiKey === wrongApiKey ? 'petstore-verify-other-key' : wrongApiKey}` };
    case 'basic':
      return { authorization: `Basic ${btoa(`${apiKey}:`)}` };
    case 'lowercase-scheme':
      return { authorization: `bearer ${apiKey}` };
    case 'prefixed':
      return { authorization: `Bearer x${apiKey}` };
    case 'suffixed':
      return { authorization: `Bearer ${apiKey}x` };
    case 'containing':
      return { authorization: `Bearer x${apiKey}x` };
    case 'truncated':
      return { authorization: `Bearer ${apiKey.slice(0, -1)}` };
    default:
      return { authorization: `Bearer ${apiKey}` };
  }
}
