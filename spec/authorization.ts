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

/** Which key a request of a scenario step sends: an accepted one, none, or one that is not accepted. */
export type KeyChoice = 'valid' | 'none' | 'wrong';

/**
 * The `Authorization` header a step's key choice sends: the accepted key as a bearer token, nothing,
 * or a wrong key (never the accepted one, whatever it is).
 * @example
 * authorizationHeader('valid', 'petstore-dev-key') // { authorization: 'Bearer petstore-dev-key' }
 * authorizationHeader('none', 'petstore-dev-key') // {}
 */
export function authorizationHeader(choice: KeyChoice | undefined, apiKey: string = developmentApiKey): { authorization?: string } {
  if (choice === 'none') return {};
  if (choice === 'wrong') return { authorization: `Bearer ${apiKey === wrongApiKey ? 'petstore-verify-other-key' : wrongApiKey}` };
  return { authorization: `Bearer ${apiKey}` };
}
