import { bodyTooLargeFinding } from '../../core/body-limit.js';
import { majorBase } from '../../core/major-base.js';
import type { ObservedResponse } from '../../core/checks.js';
import type { Finding } from '../../core/finding.js';
import { VerifyError } from '../base/errors.js';
import { matchRoute, pathSegments, routes, routesAtPath } from '../../core/routes.js';
import { nearRouteOf } from '../scenario/near-path-step.js';
import { withoutQueries } from '../base/redaction.js';
import { responseText } from '../http/response-text.js';
import { declaredSize } from './declared-size.js';
import type { HarEntry, HarField } from './har-file.js';

/** One entry of the interface, as the judge and the recorder take it, or why it cannot be judged. */
export interface HarExchange {
  /** Its place in the file (from 0), to name it. */
  entry: number;
  method: string;
  /** The URL without its query, fragment or user information. */
  url: string;
  /** The path below the base URL (`/store/orders/3`). */
  operationPath: string;
  /** The major's base path the path is below: `/v2` for v2's calls (below the judged base URL with `/v2` for `/v1`), else none (v1). */
  base?: '/v2';
  /** A v2 call's query as sent, without the `?` (its `cursor` is read to follow a walk; never written whole). */
  query?: string;
  /** The request's `Authorization` header, when the HAR kept it: read for the key choice, never written. */
  authorization: string | undefined;
  status: number;
  /** The answer as the checks read it; undefined when it cannot be judged (`unjudged` says why). */
  observed: ObservedResponse | undefined;
  unjudged?: string;
  /** Why its body is not judged, when its status and headers are and its body is not in the HAR (`observed.bodyUnknown`). */
  bodyUnjudged?: string;
  /** The finding on an answer whose body passes the kit's bound (`body-too-large`): it is judged by that alone. */
  tooLarge?: Finding;
  /** What the HAR's own evidence proves of the answer beyond its kept body (a byte order mark the browser stripped). */
  evidence?: Finding[];
  /** Epoch milliseconds: when the request started and when its answer ended, from the HAR's timings. */
  startedAt: number;
  endedAt: number;
}

/** The entries of a HAR sorted into those of the deployment's interface and those left aside. */
export interface HarSelection {
  /** The base URL of the interface's entries (ending with /v1, or `--base-url`), without credentials or query. */
  baseUrl: string | undefined;
  /** Its entries, in the order their answers ended. */
  exchanges: HarExchange[];
  /** Entries of other hosts and paths: how many, and their hosts (most first). */
  ignored: { entries: number; hosts: string[] };
  /** Entries of the interface at another base URL than the one judged (a second deployment). */
  otherBases: { entries: number; bases: string[] };
}

/**
 * Picks the order interface's entries of a HAR: those under `baseUrl` when given, else under the first
 * base URL (a path ending with `/v1`) below which a path of the route table, or a path near one (a
 * trailing slash, a second slash, another case), comes (not counting a redirect the browser made
 * itself). Each gets its answer as the checks read it (a base64 or still-compressed body decoded,
 * HTTP/2 pseudo-headers dropped; a body the HAR left out, cut or could not decode as unknown, its status
 * and headers still judged), or the reason it cannot be judged: a CORS preflight, an aborted request
 * with no status, an answer from the browser's cache, a redirect the browser made itself (HSTS). A body
 * that decodes past the kit's bound is decoded no further: the entry carries the `body-too-large`
 * finding instead. Sorted by when each answer ended, as a proxy would see them.
 * @example
 * const { exchanges } = await selectHarExchanges(entries, { baseUrl: undefined });
 */
export async function selectHarExchanges(
  entries: readonly HarEntry[],
  options: { baseUrl: string | undefined },
): Promise<HarSelection> {
  const given = options.baseUrl === undefined ? undefined : stripped(new URL(options.baseUrl));
  const base = given ?? firstBase(entries);
  // v2 is served beside v1: its base URL is v1's with `/v2` for `/v1` (as the run and the proxy take it).
  const v2Base = base === undefined ? undefined : majorBase(base, '/v2');
  const exchanges: HarExchange[] = [];
  const ignoredHosts = new Map<string, number>();
  const otherBases = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const url = URL.canParse(entry.request.url) ? new URL(entry.request.url) : undefined;
    const found = url === undefined ? undefined : interfacePathOf(url, given);
    const v2 = found === undefined && url !== undefined ? v2PathOf(url) : undefined;
    if (v2 !== undefined) {
      // Named by the v1 base beside it: what --base-url takes to judge it.
      const beside = `${v2.base.slice(0, -'/v2'.length)}/v1`;
      if (v2.base !== v2Base) otherBases.set(beside, (otherBases.get(beside) ?? 0) + 1);
      else
        exchanges.push({
          ...(await exchangeOf(entry, index, v2.path, `${v2.base}${v2.path}`, '/v2')),
          base: '/v2',
          query: url!.search.slice(1),
        });
      continue;
    }
    if (found === undefined) {
      const host = url?.host || '(no host)';
      ignoredHosts.set(host, (ignoredHosts.get(host) ?? 0) + 1);
      continue;
    }
    if (found.base !== base) {
      otherBases.set(found.base, (otherBases.get(found.base) ?? 0) + 1);
      continue;
    }
    exchanges.push(await exchangeOf(entry, index, found.path, `${found.base}${found.path}`));
  }
  exchanges.sort((left, right) => left.endedAt - right.endedAt || left.startedAt - right.startedAt);
  const byCount = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  return {
    baseUrl: base,
    exchanges,
    ignored: { entries: sum(ignoredHosts), hosts: byCount(ignoredHosts) },
    otherBases: { entries: sum(otherBases), bases: byCount(otherBases) },
  };
}

/** The base URL and the path of a call of one of v2's operations (a path of v2's routes below a `/v2`), else undefined. */
function v2PathOf(url: URL): { base: string; path: string } | undefined {
  for (let at = url.pathname.indexOf('/v2/'); at !== -1; at = url.pathname.indexOf('/v2/', at + 1)) {
    const path = url.pathname.slice(at + 3);
    if (routesAtPath(pathSegments(path), '/v2').length > 0)
      return { base: `${url.origin}${url.pathname.slice(0, at + 3)}`, path };
  }
  return undefined;
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((total, count) => total + count, 0);

/** A URL's origin and path, no trailing slash: no user information, query or fragment. */
function stripped(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The base URL of the first entry of the interface the deployment answered: not a redirect the browser
 * made itself (HSTS's `http:` first), which would leave every real call at "another base URL".
 */
function firstBase(entries: readonly HarEntry[]): string | undefined {
  let first: string | undefined;
  let firstV2: string | undefined;
  for (const entry of entries) {
    const url = URL.canParse(entry.request.url) ? new URL(entry.request.url) : undefined;
    const found = url === undefined ? undefined : interfacePathOf(url, undefined);
    if (found === undefined) {
      // A HAR of v2's calls alone: v1's base URL is v2's with `/v1` for `/v2`.
      if (url !== undefined && browserRedirect(entry) === undefined)
        firstV2 ??= v2PathOf(url)?.base.replace(/\/v2$/, '/v1');
      continue;
    }
    if (browserRedirect(entry) === undefined) return found.base;
    first ??= found.base;
  }
  return first ?? firstV2;
}

/** Why Chrome made a redirect itself (`307 Internal Redirect`, `Non-Authoritative-Reason: HSTS`), when it did. */
function browserRedirect(entry: HarEntry): string | undefined {
  const reason = headerNamed(entry.response.headers, 'non-authoritative-reason');
  if (reason !== undefined) return reason.slice(0, 40);
  return entry.response.statusText === 'Internal Redirect' ? 'Internal Redirect' : undefined;
}

/** The base URL and the interface path of a URL, when a path of the route table (any method) is below a `/v1`. */
function interfacePathOf(url: URL, given: string | undefined): { base: string; path: string } | undefined {
  const full = `${url.origin}${url.pathname}`;
  if (given !== undefined) {
    if (!full.startsWith(`${given}/`)) return undefined;
    const path = full.slice(given.length);
    return ofTheInterface(path) ? { base: given, path } : undefined;
  }
  for (let at = url.pathname.indexOf('/v1/'); at !== -1; at = url.pathname.indexOf('/v1/', at + 1)) {
    const path = url.pathname.slice(at + 3);
    if (ofTheInterface(path)) return { base: `${url.origin}${url.pathname.slice(0, at + 3)}`, path };
  }
  return undefined;
}

// A path of the route table (any method), or one near it (a near path of any method is the interface's too).
const ofTheInterface = (path: string) =>
  routesAtPath(pathSegments(path)).length > 0 || routes.some((route) => nearRouteOf(route.method, path) !== undefined);

const headerNamed = (fields: readonly HarField[], name: string) => {
  const value = fields.find((field) => field.name.toLowerCase() === name)?.value;
  return typeof value === 'string' ? value : undefined;
};

async function exchangeOf(
  entry: HarEntry,
  index: number,
  operationPath: string,
  url: string,
  base = '/v1',
): Promise<HarExchange> {
  const { request, response } = entry;
  const startedAt = Date.parse(entry.startedDateTime);
  const exchange: HarExchange = {
    entry: index,
    method: request.method.toUpperCase(),
    url: withoutQueries(url),
    operationPath,
    authorization: headerNamed(request.headers, 'authorization'),
    status: response.status,
    observed: undefined,
    startedAt,
    endedAt: startedAt + Math.max(0, entry.time),
  };
  const unjudged = whyUnjudged(entry, exchange, base);
  if (unjudged !== undefined) return { ...exchange, unjudged };
  const failure = entry.response._error ?? entry.response._failureText ?? undefined;
  const shortBody = endedEarly(failure);
  // Playwright keeps the status of an answer whose body was cut off (the page left before reading it).
  const cutOff =
    failure === undefined
      ? undefined
      : shortBody !== undefined
        ? `its answer ended before its whole body came (${shortBody}): its body is not judged`
        : `its answer was cut off after its status (aborted: ${String(failure).slice(0, 80)}): its body is not in the HAR`;
  const read = await observedOf(entry);
  if ('tooLarge' in read) return { ...exchange, tooLarge: read.tooLarge };
  const bodyUnjudged = cutOff ?? ('unjudged' in read ? read.unjudged : undefined);
  if (bodyUnjudged === undefined && !('unjudged' in read)) {
    const { evidence, ...observed } = read;
    return { ...exchange, observed, ...(evidence !== undefined && { evidence: [evidence] }) };
  }
  // Judged on what it shows: its status and headers.
  const observed = { status: exchange.status, headers: headersOf(entry), text: '', bodyUnknown: true };
  // The browser's own network error says the deployment ended its answer early: the proxy's no-answer (spec gap 47).
  const evidence: Finding[] =
    shortBody === undefined
      ? []
      : [
          {
            code: 'no-answer',
            path: '',
            expected: 'a whole response',
            actual: `the connection closed before the whole body came (the browser's ${shortBody})`,
          },
        ];
  return { ...exchange, observed, bodyUnjudged, ...(evidence.length > 0 && { evidence }) };
}

/**
 * Chromium's network errors for an answer whose body ended before what its framing declared (fewer
 * bytes than its Content-Length, or a chunked body without its last chunk): the deployment's doing, as
 * the proxy's `no-answer` when the connection closes before the whole body; a page or a user that gives
 * up is `net::ERR_ABORTED` instead.
 */
function endedEarly(failure: unknown): string | undefined {
  return failure === 'net::ERR_CONTENT_LENGTH_MISMATCH' || failure === 'net::ERR_INCOMPLETE_CHUNKED_ENCODING'
    ? failure
    : undefined;
}

/** Why an entry of the interface says nothing of what the deployment answered, when it does not. */
function whyUnjudged(entry: HarEntry, exchange: HarExchange, base: string): string | undefined {
  if (exchange.method === 'OPTIONS') return 'a CORS preflight, not a call of the interface';
  const failure = entry.response._error ?? entry.response._failureText ?? undefined;
  const why = typeof failure === 'string' ? `: ${failure.slice(0, 80)}` : '';
  if (exchange.status <= 0) return `no answer came (aborted${why})`;
  const redirect = browserRedirect(entry);
  if (redirect !== undefined) return `the browser's own redirect (${redirect}), not the deployment's answer`;
  if (entry._fromCache !== undefined || exchange.status === 304)
    return "the browser's cache answered it (a 304 or _fromCache), not the deployment";
  // A service worker (an offline cache, or a mock such as MSW's) may answer without the deployment.
  if (entry._fetchedViaServiceWorker === true)
    return "a service worker in the page answered it (Chrome's _fetchedViaServiceWorker), perhaps without asking the deployment";
  const { method, operationPath } = exchange;
  if (
    matchRoute(method, operationPath, base) === undefined &&
    (base !== '/v1' || nearRouteOf(method, operationPath) === undefined)
  )
    return 'no operation of the specification (this method at this path)';
  return undefined;
}

/** The answer as the checks read it, or why its body cannot be judged, or the finding on a body past the bound. */
async function observedOf(
  entry: HarEntry,
): Promise<(ObservedResponse & { evidence?: Finding }) | { unjudged: string } | { tooLarge: Finding }> {
  const { response } = entry;
  const headers = headersOf(entry);
  const { text, encoding, size } = response.content;
  if (encoding !== undefined && encoding !== 'base64')
    return { unjudged: `its body is in an encoding HAR does not define (${String(encoding).slice(0, 20)})` };
  if (text === undefined) {
    if (typeof size === 'number' && size > 0)
      return {
        unjudged: `its body (${size} bytes) is not in the HAR: export with content, or record the session again`,
      };
    if (!bodyKnownEmpty(response.status, size, headers))
      return { unjudged: 'its body is not in the HAR (the page never read it, or the export left it out)' };
    return { status: response.status, headers, text: '' };
  }
  // Node's decoder skips what is not base64: garbage would be judged as bytes the deployment sent.
  if (encoding === 'base64' && /[^A-Za-z0-9+/=\s]|=[^=\s]/.test(text))
    return { unjudged: 'its body is marked base64 but is not base64' };
  const bytes = Buffer.from(text, encoding === 'base64' ? 'base64' : 'utf8');
  let decoded: { text: string; invalidUtf8: boolean };
  try {
    decoded = await decodedBody(bytes, headers.get('content-encoding') ?? undefined);
  } catch (error) {
    if (error instanceof VerifyError && error.code === 'body_too_large')
      return { tooLarge: bodyTooLargeFinding(error.message) };
    throw error;
  }
  const sizes = declaredSize({ status: response.status, headers, contentSize: size, ...decoded });
  if (sizes !== undefined && 'unjudged' in sizes) return sizes;
  return {
    status: response.status,
    headers,
    text: decoded.text,
    ...(decoded.invalidUtf8 && { invalidUtf8: true }),
    ...(sizes !== undefined && { evidence: sizes.finding }),
  };
}

/** The answer's header fields as Fetch holds them. */
function headersOf(entry: HarEntry): Headers {
  const headers = new Headers();
  for (const { name, value } of entry.response.headers) {
    // HTTP/2 pseudo-headers (`:status`) and names Fetch refuses are not fields of the answer.
    if (name.startsWith(':')) continue;
    try {
      headers.append(name, String(value));
    } catch {
      // A field no HTTP message could carry: left out.
    }
  }
  return headers;
}

/**
 * Whether an answer the HAR keeps no text of had no body: a `content.size` of 0, a `Content-Length: 0`,
 * or a status that has none (204, 304). Playwright writes `size: -1` for a body the page never read,
 * and a tool may leave `content` out: judged as empty, an honest list would be a violation.
 */
function bodyKnownEmpty(status: number, size: unknown, headers: Headers): boolean {
  return size === 0 || headers.get('content-length')?.trim() === '0' || status === 204 || status === 304;
}

/**
 * A body's text: browsers keep it decoded whatever its `Content-Encoding`; a tool that keeps the bytes as
 * sent (a proxy's HAR) has them decoded here, as the proxy would.
 */
async function decodedBody(
  bytes: Buffer,
  contentEncoding: string | undefined,
): Promise<{ text: string; invalidUtf8: boolean }> {
  if (contentEncoding !== undefined) {
    try {
      return await responseText(bytes, contentEncoding);
    } catch (error) {
      // Past the bound is past it, whatever else the bytes could be read as.
      if (error instanceof VerifyError && error.code === 'body_too_large') throw error;
      // Not in that coding: decoded already, as a browser keeps it.
    }
  }
  return responseText(bytes, undefined);
}
