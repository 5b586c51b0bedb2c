// The one place where what a run was given in confidence is taken out of what it writes: every
// report, log line and file of petstore-verify and its proxy passes through a Redaction.

/** What a run was given that no report may carry. */
export interface Confidences {
  /** Keys, tokens and passwords, as given (an API key, a broker token or password). */
  secrets?: readonly (string | undefined)[];
  /** URLs as given: each one's password and query values are secrets too. */
  urls?: readonly (string | undefined)[];
}

/** What takes the place of a secret in a text. */
export const redactedMark = '[redacted]';

// A secret shorter than this could be any word of a report: `?v=1` is no token.
const shortestSecret = 4;
const userInformation = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;

/**
 * Takes out of any text the secrets a run was given (and their percent-encoded spelling), within
 * any word (a near key the harness sent holds the real one), and the user information of every URL
 * in it (`https://user:password@host` becomes `https://host`).
 */
export class Redaction {
  readonly #secrets: string[];

  constructor(confidences: Confidences = {}) {
    const given = [...(confidences.secrets ?? []), ...(confidences.urls ?? []).flatMap(secretsOfUrl)];
    const spellings = given.flatMap((secret) =>
      secret === undefined || secret.length < shortestSecret ? [] : [secret, encodeURIComponent(secret)],
    );
    // The longest first: a secret that contains another is taken out whole.
    this.#secrets = [...new Set(spellings)].sort((left, right) => right.length - left.length);
    if (this.#secrets.length > fewSecrets) this.#index = secretIndex(this.#secrets);
    this.#byPrefix = secretsByPrefix(this.#secrets);
  }

  /** Each secret under its first characters: to find the beginning of one where a text was cut. */
  readonly #byPrefix: Map<string, string[]>;

  /** With many secrets (a HAR's tokens and cookies), what reads a text once. */
  readonly #index: SecretIndex | undefined;

  /** The text with every secret and all user information taken out. */
  text(text: string): string {
    let redacted = text.replace(userInformation, '$1');
    if (this.#index !== undefined) redacted = coveredText(redacted, this.#index);
    else for (const secret of this.#secrets) redacted = redacted.replaceAll(secret, redactedMark);
    return this.#byPrefix.size === 0 ? redacted : withoutCutSecrets(redacted, this.#byPrefix);
  }

  /** A copy of a value (a report) with every string in it redacted; numbers, bigints and booleans as they are. */
  value<Value>(value: Value): Value {
    return redactedValue(value, this) as Value;
  }
}

// Up to this many, each secret is replaced in turn; beyond, a text is read once (a replace each would
// cost the text's length times the secrets: minutes for a HAR of thousands of distinct tokens).
const fewSecrets = 32;

/** Many secrets as a text is read once: their first characters, their lengths (longest first), and themselves. */
interface SecretIndex {
  prefixes: Set<string>;
  lengths: number[];
  secrets: Set<string>;
}

function secretIndex(secrets: readonly string[]): SecretIndex {
  return {
    prefixes: new Set(secrets.map((secret) => secret.slice(0, shortestSecret))),
    lengths: [...new Set(secrets.map((secret) => secret.length))].sort((left, right) => right - left),
    secrets: new Set(secrets),
  };
}

// The longest secret at `at`, when one starts there.
function secretAt(text: string, at: number, index: SecretIndex): string | undefined {
  if (!index.prefixes.has(text.slice(at, at + shortestSecret))) return undefined;
  for (const length of index.lengths) {
    const candidate = text.slice(at, at + length);
    if (candidate.length === length && index.secrets.has(candidate)) return candidate;
  }
  return undefined;
}

// The text with every character of every occurrence of a secret covered, overlapping occurrences
// merged into one mark: no part of a secret is left beside another one.
function coveredText(text: string, index: SecretIndex): string {
  let result = '';
  let copied = 0;
  let start = -1;
  let end = 0;
  for (let at = 0; at + shortestSecret <= text.length; at++) {
    const found = secretAt(text, at, index);
    if (found === undefined) continue;
    if (start === -1 || at > end) {
      if (start !== -1) result += `${text.slice(copied, start)}${redactedMark}`;
      copied = start === -1 ? copied : end;
      start = at;
    }
    end = Math.max(end, at + found.length);
  }
  if (start === -1) return text;
  return `${result}${text.slice(copied, start)}${redactedMark}${text.slice(end)}`;
}

function secretsByPrefix(secrets: readonly string[]): Map<string, string[]> {
  const byPrefix = new Map<string, string[]>();
  for (const secret of secrets) {
    const prefix = secret.slice(0, shortestSecret);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), secret]);
  }
  return byPrefix;
}

// Where a message cut a quoted text short (core's previews cut at 40 or 60 characters, before any
// redaction can see the whole secret, and quote or mark the cut): a closing quote (escaped too, as a
// YAML or JSON text quoting the message writes it), or an ellipsis.
const cutMark = /^(?:\\?"|\.\.\.|…)/;

/**
 * The text with the beginning of any secret that a cut left behind taken out too: a run of at least
 * four of a secret's first characters, ending inside a word of the secret (its next character a letter or a
 * digit), where the text then closes a quote or shows an ellipsis. (`Bearer` before a quote is left: the
 * secret goes on with a space, or `%20`.)
 */
function withoutCutSecrets(text: string, byPrefix: Map<string, string[]>): string {
  let result = '';
  let copied = 0;
  for (let at = 0; at + shortestSecret <= text.length; at++) {
    const candidates = byPrefix.get(text.slice(at, at + shortestSecret));
    if (candidates === undefined) continue;
    for (const secret of candidates) {
      let length = shortestSecret;
      while (length < secret.length && text[at + length] === secret[length]) length++;
      // A run that stops where the secret's own word stops (`hostile` of `hostile-provider-key`, before
      // `-`) is as likely a word of the message (a realm="hostile") as a cut secret: left.
      if (length === secret.length || !/[A-Za-z0-9]/.test(secret[length]!)) continue;
      if (!cutMark.test(text.slice(at + length, at + length + 3))) continue;
      result += `${text.slice(copied, at)}${redactedMark}`;
      copied = at + length;
      at = copied - 1;
      break;
    }
  }
  return copied === 0 ? text : `${result}${text.slice(copied)}`;
}

function redactedValue(value: unknown, redaction: Redaction): unknown {
  if (typeof value === 'string') return redaction.text(value);
  if (Array.isArray(value)) return value.map((item) => redactedValue(item, redaction));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactedValue(item, redaction)]));
}

// A URL's password and query values (`?token=…`), decoded: what a URL given to a run may carry in confidence.
function secretsOfUrl(href: string | undefined): string[] {
  if (href === undefined || !URL.canParse(href)) return [];
  const url = new URL(href);
  return [decoded(url.password), url.password, ...url.searchParams.values()];
}

// A URL part's percent-decoded text, or itself where it is no valid percent-encoding (`%E0%A4%A`).
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * A URL's text without its query or fragment (`?…`) and without user information: what a report may
 * show of a request or a redirect, which can carry a session or a token the run was never told of.
 */
export function withoutQueries(text: string): string {
  return text
    .replace(/([?#])[^\s"'<>]+/g, '$1…')
    .replace(/(\/\/)[^\s"'<>/@]*@/g, '$1')
    .replace(/;[^\s"'<>/?#]+/g, '');
}

/** A URL's origin and path: no user, password, query or fragment. */
export function withoutCredentials(href: string): string {
  const url = new URL(href);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

// Header fields whose values are credentials whatever their name's case: a key, a token, a session.
const credentialField = /authorization|cookie|token|secret|session|passw|api[-_]?key|csrf|xsrf|^x-[a-z-]*key$/i;

/**
 * The credentials a message's header fields (and cookies) carry, to give a `Redaction` as `secrets`: an
 * `Authorization` value and its token, the whole `Cookie` and `Set-Cookie` values and each cookie's
 * value that is a credential (`credentialValue`), and the value of any field named as a key, token,
 * secret or session. What a HAR file holds that no output may show.
 * @example
 * secretsOfFields([{ name: 'Authorization', value: 'Bearer abc123' }, { name: 'Cookie', value: 'sid=s3cr3t; theme=dark' }])
 * // ['Bearer abc123', 'abc123', 'sid=s3cr3t; theme=dark', 's3cr3t']
 */
export function secretsOfFields(fields: readonly { name: string; value: string }[]): string[] {
  return fields.flatMap(({ name, value }) => {
    if (typeof value !== 'string' || !credentialField.test(name)) return [];
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization')
      return [value, value.replace(/^\s*\S+\s+/, '').trim()];
    if (lower === 'cookie') return [value, ...value.split(';').flatMap(cookieSecret)];
    if (lower === 'set-cookie')
      return [value, ...value.split('\n').flatMap((line) => cookieSecret(line.split(';')[0] ?? ''))];
    // Not a flag or a short number (`X-Session-Id: 1001`): taken out, it would take an order id out of every line.
    return plainValue(value) ? [] : [value];
  });
}

// A cookie's value when it is a credential: named as one (`sid`, `session`, `XSRF-TOKEN`) or token-long.
// A site's plain cookies (`tab=orders`, `filter=pending`) stay: taken out, their words would go from every
// line and from the saved scenario's paths and states.
const cookieSecret = (pair: string) => {
  const value = pair.slice(pair.indexOf('=') + 1).trim();
  return credentialValue(pair.slice(0, Math.max(0, pair.indexOf('='))).trim(), value) ? [value] : [];
};

/**
 * Whether a named value seen in traffic (a query or fragment parameter, a cookie, a path segment's
 * parameter) is a credential: its name says so, or it is long enough to be a token.
 * @example
 * credentialValue('sid', 'abc123') // true
 * credentialValue('tab', 'orders') // false
 * credentialValue('auth', 'true') // false
 */
export function credentialValue(name: string, value: string): boolean {
  // A flag or a short number (`auth=true`, `session_count=3`) is no key, and taken out it would take out
  // `true` and the order ids from every line and saved file.
  if (plainValue(value)) return false;
  return credentialParameter.test(name) || value.length >= tokenLength;
}

const plainValue = (value: string) => /^(?:true|false|null|yes|no|on|off|\d{1,15})$/i.test(value.trim());

// Parameters (query, fragment, cookie) whose values are credentials, and the length from which any value is taken for a token.
const credentialParameter = /token|key|secret|sess|passw|auth|sig|code|jwt|sid|state|nonce|csrf|xsrf/i;
const tokenLength = 16;

/**
 * The credentials a URL seen in traffic carries (not one given to a run, whose every query value is a
 * secret): its user and password, the values of query (and fragment) parameters named as credentials
 * (`access_token`, `api_key`, `sig`), and any such value long enough to be a token. Short plain values (`?page=2`,
 * `?next=orders`) stay: taken out, they would take the same words out of every line.
 * @example
 * secretsOfTrafficUrl('https://u:p4ss@host/v1/store/orders?access_token=t0k3n&page=2') // ['u', 'p4ss', 't0k3n']
 */
export function secretsOfTrafficUrl(href: string): string[] {
  if (!URL.canParse(href)) return [];
  const url = new URL(href);
  // A fragment's parameters too: a redirect's `#access_token=…` (OAuth's implicit flow) is quoted in findings.
  const parameters = [...url.searchParams, ...new URLSearchParams(url.hash.slice(1))];
  const query = parameters.flatMap(([name, value]) => (credentialValue(name, value) ? [value] : []));
  // Parameters of a path segment (`/orders;jsessionid=…`) carry sessions.
  const segmentParameters = [...url.pathname.matchAll(/;([^/=;]*)=([^/;]+)/g)].flatMap(([, name, value]) =>
    credentialValue(name!, value!) ? [value!] : [],
  );
  return [
    url.username,
    decoded(url.username),
    url.password,
    decoded(url.password),
    ...query,
    ...segmentParameters,
  ].filter((secret) => secret !== '');
}
