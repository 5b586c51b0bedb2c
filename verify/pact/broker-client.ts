// One request to a Pact Broker, under one timeout for the headers and the body, and what its HAL links say.
import { VerifyError } from '../base/errors.js';
import { defaultRequestTimeout } from '../http/observe.js';

/** A Pact Broker's address and credentials. */
export interface BrokerAccess {
  url: string;
  token?: string;
  username?: string;
  password?: string;
}

/**
 * A Pact Broker that could not be used: not reached or no answer within the timeout
 * (`broker_unreachable`), an error status (`broker_refused`), or an answer that is not the broker's
 * HAL (`broker_invalid_answer`), or a link or redirect to another origin while credentials are set
 * (`broker_foreign_origin`). Its message is one line naming the URL.
 * @example
 * try { await publishPact(publication); } catch (error) { if (error instanceof BrokerError) console.error(error.message); }
 */
export class BrokerError extends VerifyError {}

/**
 * How long the requests to a broker may wait: each at most `timeout` milliseconds (default 10,000),
 * and none past `deadline` (a `Date.now()` time: the run's `--deadline`).
 */
export interface BrokerWaits {
  timeout?: number | undefined;
  deadline?: number | undefined;
}

/**
 * The waits given as a timeout alone (the older signatures' number) or as `BrokerWaits`.
 * @example
 * brokerWaits(5_000) // { timeout: 5000 }
 */
export function brokerWaits(waits: number | BrokerWaits | undefined): BrokerWaits {
  return typeof waits === 'number' ? { timeout: waits } : (waits ?? {});
}

/** A broker's answer: its text, exactly as sent, and that text parsed. */
export interface BrokerAnswer {
  text: string;
  json: unknown;
}

/** The headers of every request to the broker: HAL, and the token or the user and password. */
function brokerHeaders(access: BrokerAccess, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/hal+json, application/json' };
  if (withBody) headers['content-type'] = 'application/json';
  if (access.token !== undefined) headers.authorization = `Bearer ${access.token}`;
  else if (access.username !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${access.username}:${access.password ?? ''}`).toString('base64')}`;
  return headers;
}

/** One line of an answer's text, for a message. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Why a request got no answer: the timeout, the run's deadline, or the network's own code. */
function unreachableReason(error: unknown, wait: { ms: number; byDeadline: boolean }): string {
  const { name, cause, message } = error as {
    name?: string;
    cause?: { code?: string; message?: string };
    message?: string;
  };
  if (name === 'TimeoutError' || name === 'AbortError')
    return wait.byDeadline
      ? "no complete answer before the run's deadline"
      : `no complete answer within ${wait.ms / 1000} s`;
  // undici's code for a connection the broker closed before its whole answer: said in words.
  if (cause?.code === 'UND_ERR_SOCKET') return 'the connection closed before a whole answer (UND_ERR_SOCKET)';
  return cause?.code ?? cause?.message ?? message ?? String(error);
}

/** The statuses fetch would follow; 301, 302 and 303 turn a POST into a GET without its body, as fetch does. */
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Redirects followed for one request at most, as fetch's own limit. */
const maxRedirects = 20;

/** A request of one hop: its method, URL and body (a redirect may change each). */
interface Hop {
  method: string;
  url: string;
  body?: unknown;
}

/** Whether the request carries the broker's credentials (a token, or a user and password). */
function hasCredentials(access: BrokerAccess): boolean {
  return access.token !== undefined || access.username !== undefined;
}

/**
 * Refuses a URL on another origin than the broker's when the request carries credentials: they go
 * to the broker's origin only, as Pact's own clients send them. Without credentials nothing can leak,
 * and a public broker whose links name another host is followed.
 * @throws BrokerError `broker_foreign_origin` naming the broker, the request and the foreign origin.
 */
function assertBrokerOrigin(access: BrokerAccess, hop: Hop, how: string): void {
  const { origin } = new URL(brokerBase(access.url));
  const foreign = new URL(hop.url).origin;
  if (foreign === origin || !hasCredentials(access)) return;
  throw new BrokerError(
    'broker_foreign_origin',
    `the Pact Broker at ${origin} ${how} another origin, ${hop.method} ${hop.url}: its credentials go to ${origin} only, so it is not sent (if ${foreign} is the broker too, set PACT_BROKER_BASE_URL to it)`,
  );
}

/** The next hop of a redirect, or undefined for an answer that is not one (or names no Location). */
function redirectOf(response: Response, hop: Hop): Hop | undefined {
  const location = response.headers.get('location');
  if (!redirectStatuses.has(response.status) || location === null) return undefined;
  const url = new URL(location, hop.url).href;
  const keepsMethod = response.status === 307 || response.status === 308 || hop.method === 'GET';
  return keepsMethod ? { ...hop, url } : { method: 'GET', url };
}

/**
 * Sends a request and follows its redirects itself (fetch's own following may forward the
 * Authorization header to another origin, depending on the runtime), each hop checked to stay on the
 * broker's origin, and reads the last answer whole.
 */
async function fetchFromBroker(access: BrokerAccess, first: Hop, signal: AbortSignal): Promise<Response> {
  let hop = first;
  for (let hops = 0; ; hops += 1) {
    const response = await fetch(hop.url, {
      method: hop.method,
      headers: brokerHeaders(access, hop.body !== undefined),
      ...(hop.body !== undefined && { body: JSON.stringify(hop.body) }),
      redirect: 'manual',
      signal,
    });
    const next = redirectOf(response, hop);
    if (next === undefined) return response;
    await response.arrayBuffer();
    // As fetch's own following ends: the broker did not answer (`broker_unreachable`), with the reason.
    if (hops === maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
    assertBrokerOrigin(access, next, `redirects ${hop.method} ${hop.url} to`);
    hop = next;
  }
}

/**
 * How long a request may wait: its timeout, or what is left before the deadline when that is sooner.
 * @throws BrokerError `broker_unreachable` when the deadline has passed: the request is not sent.
 */
function waitFor(access: BrokerAccess, where: string, waits: BrokerWaits): { ms: number; byDeadline: boolean } {
  const timeout = waits.timeout ?? defaultRequestTimeout;
  if (waits.deadline === undefined) return { ms: timeout, byDeadline: false };
  const left = waits.deadline - Date.now();
  if (left <= 0)
    throw new BrokerError(
      'broker_unreachable',
      `the Pact Broker at ${new URL(brokerBase(access.url)).origin} was not asked ${where}: the run passed its deadline`,
    );
  return left < timeout ? { ms: left, byDeadline: true } : { ms: timeout, byDeadline: false };
}

/**
 * Sends one request to the broker and reads its whole answer under one timeout (or what is left
 * before the deadline, when that is sooner), then parses it as JSON.
 * @throws BrokerError `broker_foreign_origin` (credentials and a URL or redirect to another origin),
 * `broker_unreachable` (no whole answer in time, or the deadline passed before it was sent),
 * `broker_refused` (an error status) or `broker_invalid_answer` (no JSON).
 * @example
 * const { json } = await brokerRequest({ url: 'http://127.0.0.1:9292' }, { method: 'GET', url: 'http://127.0.0.1:9292/' });
 */
export async function brokerRequest(
  access: BrokerAccess,
  request: { method: string; url: string; body?: unknown } & BrokerWaits,
): Promise<BrokerAnswer> {
  const where = `${request.method} ${request.url}`;
  assertBrokerOrigin(access, request, 'links to');
  const wait = waitFor(access, where, request);
  let status: number;
  let text: string;
  try {
    const response = await fetchFromBroker(access, request, AbortSignal.timeout(wait.ms));
    status = response.status;
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof BrokerError) throw error;
    throw new BrokerError(
      'broker_unreachable',
      `the Pact Broker did not answer ${where}: ${unreachableReason(error, wait)}`,
    );
  }
  if (status >= 400)
    throw new BrokerError('broker_refused', `the Pact Broker answered ${where} with ${status}: ${excerpt(text)}`);
  try {
    return { text, json: text.trim() === '' ? {} : (JSON.parse(text) as unknown) };
  } catch {
    throw new BrokerError(
      'broker_invalid_answer',
      `the Pact Broker answered ${where} with ${status} and no JSON (is it a Pact Broker?): ${excerpt(text)}`,
    );
  }
}

/**
 * The href of a HAL resource's link `relation`, resolved against `base` and its template filled in;
 * undefined when the resource has no such link.
 * @example
 * halLink({ _links: { 'pb:x': { href: '/pacts/provider/{provider}' } } }, 'pb:x', 'http://b', { provider: 'p q' }) // 'http://b/pacts/provider/p%20q'
 */
export function halLink(
  resource: unknown,
  relation: string,
  base: string,
  values: Record<string, string> = {},
): string | undefined {
  const link = (resource as { _links?: Record<string, { href?: unknown } | undefined> } | null)?._links?.[relation];
  if (typeof link?.href !== 'string') return undefined;
  const href = link.href.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(values[name]),
  );
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

/**
 * `halLink`, required: `answer` is the request the resource answered (`GET http://broker/`), and
 * its URL what the link is resolved against.
 * @throws BrokerError `broker_invalid_answer` naming the link and the request.
 * @example
 * const href = requiredLink(index, 'pb:provider-pacts-for-verification', 'GET http://127.0.0.1:9292/', { provider });
 */
export function requiredLink(
  resource: unknown,
  relation: string,
  answer: string,
  values: Record<string, string> = {},
): string {
  const href = halLink(resource, relation, answer.slice(answer.indexOf(' ') + 1), values);
  if (href === undefined)
    throw new BrokerError(
      'broker_invalid_answer',
      `the Pact Broker's answer to ${answer} has no ${relation} link (is it a Pact Broker?)`,
    );
  return href;
}

/**
 * The broker's base URL with one slash at its end, to resolve its paths against.
 * @example
 * brokerBase('https://broker.example.com/pact') // 'https://broker.example.com/pact/'
 */
export function brokerBase(url: string): string {
  return `${url.replace(/\/+$/, '')}/`;
}
