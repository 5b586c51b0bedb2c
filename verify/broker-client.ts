// One request to a Pact Broker, under one timeout for the headers and the body, and what its HAL links say.
import { VerifyError } from './errors.js';
import { defaultRequestTimeout } from './observe.js';

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
 * HAL (`broker_invalid_answer`). Its message is one line naming the URL.
 * @example
 * try { await publishPact(publication); } catch (error) { if (error instanceof BrokerError) console.error(error.message); }
 */
export class BrokerError extends VerifyError {}

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

/** Why a request got no answer: the timeout, or the network's own code. */
function unreachableReason(error: unknown, timeout: number): string {
  const { name, cause, message } = error as {
    name?: string;
    cause?: { code?: string; message?: string };
    message?: string;
  };
  if (name === 'TimeoutError' || name === 'AbortError') return `no complete answer within ${timeout / 1000} s`;
  return cause?.code ?? cause?.message ?? message ?? String(error);
}

/**
 * Sends one request to the broker and reads its whole answer under one timeout, then parses it as JSON.
 * @throws BrokerError `broker_unreachable`, `broker_refused` (an error status) or `broker_invalid_answer` (no JSON).
 * @example
 * const { json } = await brokerRequest({ url: 'http://127.0.0.1:9292' }, { method: 'GET', url: 'http://127.0.0.1:9292/' });
 */
export async function brokerRequest(
  access: BrokerAccess,
  request: { method: string; url: string; body?: unknown; timeout?: number | undefined },
): Promise<BrokerAnswer> {
  const timeout = request.timeout ?? defaultRequestTimeout;
  const where = `${request.method} ${request.url}`;
  let status: number;
  let text: string;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: brokerHeaders(access, request.body !== undefined),
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      redirect: 'follow',
      signal: AbortSignal.timeout(timeout),
    });
    status = response.status;
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  } catch (error) {
    throw new BrokerError(
      'broker_unreachable',
      `the Pact Broker did not answer ${where}: ${unreachableReason(error, timeout)}`,
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
