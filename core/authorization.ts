/**
 * The key the mock accepts when none is configured, and the shipped pact sends. Never use it for anything real.
 * @example
 * fetch(url, { headers: { authorization: `Bearer ${developmentApiKey}` } })
 */
export const developmentApiKey = 'petstore-dev-key';

/** What a step with `key: wrong` sends: a key no deployment accepts. */
export const wrongApiKey = 'petstore-verify-wrong-key';

/** Only `valid` and `lowercase-scheme` are accepted (RFC 9110); the rest probe near misses. */
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
export type KeyChoice = (typeof keyChoices)[number];

export function isAcceptedKey(choice: KeyChoice | undefined): boolean {
  return choice === undefined || choice === 'valid' || choice === 'lowercase-scheme';
}

/** The `Authorization` header a key choice sends to a deployment that accepts `apiKey`. */
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
