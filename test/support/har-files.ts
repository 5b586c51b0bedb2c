// HAR 1.2 files shaped as browsers write them (http://www.softwareishard.com/blog/har-12-spec/): Chrome's
// DevTools export (its private `_`-fields, and the sanitized default without Authorization and cookies),
// Firefox's (`pageref`, `_securityState`, its cache and timing fields). Built here from their documented
// formats; test/verify/har-browser.test.ts has Chromium write one through Playwright's recordHar.
import { writeFile } from 'node:fs/promises';

/** One exchange to write as an entry. */
export interface HarExchangeSpec {
  method?: string;
  url: string;
  status: number;
  /** Request header fields, as the browser sent them. */
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  /** Response field lines after `responseHeaders`, as they are: a name twice (two Content-Type fields). */
  responseFieldLines?: readonly [string, string][];
  /** The response body's text (JSON as text, so ids stay exact). */
  body?: string;
  /** Milliseconds after the HAR began: when the request started, and how long it took. */
  at?: number;
  time?: number;
  /** Fields merged into the entry, its response (Chromium's `_error`, `_failureText`) or its content, as they are. */
  entry?: Record<string, unknown>;
  response?: Record<string, unknown>;
  content?: Record<string, unknown>;
}

const began = Date.parse('2026-11-27T10:00:00.000Z');
const field = ([name, value]: [string, string]) => ({ name, value });

/** Options of a browser's export. */
export interface HarShape {
  browser: 'chrome' | 'firefox';
  /** Chrome's default export since 2025: no Authorization, Cookie or Set-Cookie. */
  sanitized?: boolean;
  /** Chrome over HTTP/2 writes the pseudo-headers (`:method`, `:status`) among the fields. */
  http2?: boolean;
}

function entryOf(spec: HarExchangeSpec, index: number, shape: HarShape): Record<string, unknown> {
  const url = new URL(spec.url);
  const method = spec.method ?? 'GET';
  const strip = (headers: Record<string, string>) =>
    Object.entries(headers).filter(([name]) => !shape.sanitized || !/^(authorization|cookie|set-cookie)$/i.test(name));
  const pseudoRequest: [string, string][] = shape.http2
    ? [
        [':method', method],
        [':authority', url.host],
        [':scheme', url.protocol.slice(0, -1)],
        [':path', `${url.pathname}${url.search}`],
      ]
    : [];
  const requestHeaders = [...pseudoRequest, ...strip(spec.requestHeaders ?? {})];
  const responseHeaders = [
    ...(shape.http2 ? [[':status', String(spec.status)] as [string, string]] : []),
    ...strip(spec.responseHeaders ?? {}),
    ...(spec.responseFieldLines ?? []),
  ];
  const cookieHeader = spec.requestHeaders?.cookie ?? spec.requestHeaders?.Cookie;
  const cookies =
    shape.sanitized || cookieHeader === undefined
      ? []
      : cookieHeader
          .split(';')
          .map((pair) => ({ name: pair.split('=')[0]!.trim(), value: pair.split('=').slice(1).join('=') }));
  const text = spec.body ?? '';
  const size = Buffer.byteLength(text);
  const startedDateTime = new Date(began + (spec.at ?? index * 100)).toISOString();
  const time = spec.time ?? 20;
  const common = {
    startedDateTime,
    time,
    request: {
      method,
      url: spec.url,
      httpVersion: shape.http2 ? 'h2' : shape.browser === 'firefox' ? 'HTTP/1.1' : 'http/1.1',
      headers: requestHeaders.map(field),
      queryString: [...url.searchParams].map(field),
      cookies,
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: spec.status,
      statusText: '',
      httpVersion: shape.http2 ? 'h2' : 'HTTP/1.1',
      headers: responseHeaders.map(field),
      cookies: [],
      content: {
        size,
        mimeType: spec.responseHeaders?.['content-type'] ?? 'x-unknown',
        ...(text !== '' && { text }),
        ...spec.content,
      },
      redirectURL: spec.responseHeaders?.location ?? '',
      headersSize: -1,
      bodySize: size,
      ...(shape.browser === 'chrome' && { _transferSize: size + 200, _error: null }),
      ...spec.response,
    },
    cache: {},
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0, wait: time - 2, receive: 1 },
    serverIPAddress: '127.0.0.1',
  };
  const privateFields =
    shape.browser === 'chrome'
      ? {
          _initiator: { type: 'script', stack: { callFrames: [] } },
          _priority: 'High',
          _resourceType: 'fetch',
          connection: String(1000 + index),
        }
      : { pageref: 'page_1', _securityState: 'insecure', connection: '443', secureConnectionStart: undefined };
  return { ...privateFields, ...common, ...spec.entry };
}

/**
 * A HAR file's JSON as `shape`'s browser exports it, with one entry per exchange.
 * @example
 * const har = harOf([{ url: 'https://staging.example.com/v1/store/orders', status: 200, body: '[]' }], { browser: 'chrome' });
 */
export function harOf(exchanges: readonly HarExchangeSpec[], shape: HarShape): object {
  const creator =
    shape.browser === 'chrome' ? { name: 'WebInspector', version: '537.36' } : { name: 'Firefox', version: '133.0' };
  const pages =
    shape.browser === 'firefox'
      ? [
          {
            startedDateTime: new Date(began).toISOString(),
            id: 'page_1',
            title: 'Orders',
            pageTimings: { onContentLoad: -1, onLoad: -1 },
          },
        ]
      : [];
  return {
    log: {
      version: '1.2',
      creator,
      ...(shape.browser === 'firefox' && { browser: creator }),
      pages,
      entries: exchanges.map((exchange, index) => entryOf(exchange, index, shape)),
    },
  };
}

/** Writes `harOf(exchanges, shape)` to `file`. */
export async function writeHar(file: string, exchanges: readonly HarExchangeSpec[], shape: HarShape): Promise<string> {
  await writeFile(file, JSON.stringify(harOf(exchanges, shape), null, 2));
  return file;
}

/**
 * `exchanges` with `fields` merged into the response of those at `indices`: Chromium's `_error` of a
 * request it aborted, or its `_failureText` of an answer cut off after its status.
 * @example
 * withResponseFields(exchanges, [1], { _failureText: 'net::ERR_ABORTED' })
 */
export function withResponseFields(
  exchanges: readonly HarExchangeSpec[],
  indices: readonly number[],
  fields: Record<string, unknown>,
): HarExchangeSpec[] {
  return exchanges.map((exchange, index) =>
    indices.includes(index) ? { ...exchange, response: { ...exchange.response, ...fields } } : exchange,
  );
}
