import { matchRoute } from '../../core/routes.js';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { majorBase } from '../../core/major-base.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { proxyErrorRecord } from '../base/errors.js';
import { hopByHopFields } from '../http/hop-by-hop-fields.js';
import type { ProxyExchange } from './proxy-report.js';
import { RawResponseReader, type RawRequestHead } from '../http/raw-response.js';
import { withoutQueries } from '../base/redaction.js';

// Transfer-Encoding stays: the body's bytes are forwarded as they come. Host is the upstream's, and
// the proxy's own credentials (RFC 9110 §11.7) go no further.
const notForwarded = new Set([...hopByHopFields, 'proxy-authenticate', 'proxy-authorization', 'host']);
// How long, after a response is complete, the proxy still listens for bytes after its end before closing.
const trailingGrace = 30;

/** Answers on a client's connection with a JSON body, then closes it. */
export function respondAndClose(socket: Socket, status: number, body: string, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The implementation the proxy forwards to, read once from its base URL. */
export interface Upstream {
  url: URL;
  /** The base URL's path, without a trailing slash (`/v1`, `/api/v1`). */
  basePath: string;
  secure: boolean;
  port: number;
}

/** The upstream of a base URL: its URL, base path, scheme and port. */
export function upstreamOf(href: string): Upstream {
  const url = new URL(href);
  const secure = url.protocol === 'https:';
  return {
    url,
    basePath: url.pathname.replace(/\/+$/, ''),
    secure,
    port: Number(url.port || (secure ? 443 : 80)),
  };
}

/**
 * Where a request goes: under `/v1`, to the upstream's base path (an operation's path); under `/v2`, to
 * v2's base beside it (`majorBase`: `/api/v2` for an upstream at `/api/v1`), a path of v2's operations
 * being v2's operation path; else, and under `/v2` for an upstream whose base does not end with `/v1`,
 * to the upstream's origin as sent.
 * @example
 * routeRequest('GET', '/v2/store/orders?limit=2', upstreamOf('http://127.0.0.1:8080/api/v1')).targetPath // '/api/v2/store/orders?limit=2'
 */
export function routeRequest(
  method: string,
  path: string,
  upstream: Upstream,
): { operationPath?: string; base?: '/v2'; targetPath: string } {
  const [pathname = '/', search = ''] = path.split(/(?=\?)/);
  const underApi = pathname === '/v1' || pathname.startsWith('/v1/');
  const operationPath = underApi ? pathname.slice('/v1'.length) || '/' : undefined;
  const underV2 = pathname === '/v2' || pathname.startsWith('/v2/');
  const v2Base = underV2 ? majorBase(upstream.basePath, '/v2') : undefined;
  const below = underApi
    ? `${upstream.basePath}${operationPath}`
    : v2Base !== undefined
      ? `${v2Base}${pathname.slice('/v2'.length)}`
      : pathname;
  const targetPath = `${below}${search}`;
  const v2Path = underV2 ? pathname.slice('/v2'.length) : undefined;
  if (v2Path !== undefined && matchRoute(method, v2Path, '/v2') !== undefined)
    return { targetPath, operationPath: v2Path, base: '/v2' };
  return { targetPath, ...(operationPath !== undefined && { operationPath }) };
}

/** The request head sent upstream: the new target and Host, the client's fields but the per-connection ones. */
function upstreamHead(head: RawRequestHead, targetPath: string, upstream: Upstream): string {
  const connectionFields = new Set(
    head.headers
      .filter(([name]) => name.toLowerCase() === 'connection')
      .flatMap(([, value]) => value.split(','))
      .map((name) => name.trim().toLowerCase()),
  );
  const fields = head.headers.filter(
    ([name]) => !notForwarded.has(name.toLowerCase()) && !connectionFields.has(name.toLowerCase()),
  );
  return [
    `${head.method} ${targetPath} HTTP/1.1`,
    `host: ${upstream.url.host}`,
    ...fields.map(([name, value]) => `${name}: ${value}`),
    'connection: close',
    '',
    '',
  ].join('\r\n');
}

function connectUpstream(upstream: Upstream): Socket {
  const { hostname } = upstream.url;
  return upstream.secure
    ? connectTls({ host: hostname, port: upstream.port, servername: hostname })
    : connectTcp({ host: hostname, port: upstream.port });
}

function newExchange(
  method: string,
  path: string,
  { operationPath, base }: { operationPath?: string | undefined; base?: '/v2' | undefined },
): ProxyExchange {
  return {
    method,
    path,
    status: 0,
    violations: [],
    disagreements: [],
    durationMs: 0,
    ...(operationPath !== undefined && { operationPath }),
    ...(base !== undefined && { base }),
  };
}

/** What one exchange needs: the client's connection and head, and where it goes, is checked and is recorded. */
export interface RelayOptions {
  client: Socket;
  head: RawRequestHead;
  /** The bytes of the body that came with the head. */
  bodyStart: Buffer;
  upstream: Upstream;
  checkLimit: number;
  /** Checks the exchange once its response is over; the exchange is recorded when it has. */
  check: (exchange: ProxyExchange, reader: RawResponseReader) => Promise<void>;
  record: (exchange: ProxyExchange) => void;
}

/** Once the upstream is connected: the request's head and the body's first bytes, then the rest as the client sends it. */
function sendOnConnect(link: { server: Socket; client: Socket; upstream: Upstream; bytes: readonly Buffer[] }): void {
  const { server, client } = link;
  server.on(link.upstream.secure ? 'secureConnect' : 'connect', () => {
    for (const bytes of link.bytes) if (bytes.length > 0) server.write(bytes);
    client.pipe(server, { end: false });
    client.resume();
  });
}

/**
 * Forwards one exchange: the request to the upstream, its response back byte for byte as it comes,
 * then checks and records it once the response is over (or answers 502 when the upstream cannot be reached).
 */
export function relayExchange(relay: RelayOptions): Promise<void> {
  const { client, head, bodyStart, upstream, checkLimit, check, record } = relay;
  let ended = () => {};
  const over = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const started = performance.now();
  const { method, target: path } = head;
  const { targetPath, ...operation } = routeRequest(method, path, upstream);
  const requestHead = upstreamHead(head, targetPath, upstream);
  const exchange = newExchange(method, withoutQueries(path), operation);
  const reader = new RawResponseReader(method, checkLimit);
  const server = connectUpstream(upstream);
  let answered = false;
  let finished = false;
  let grace: NodeJS.Timeout | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(grace);
    reader.close();
    exchange.status = reader.result().status ?? 0;
    // The client has had every byte: its connection need not wait for the check (a body may take a while to decode).
    client.end();
    server.destroy();
    void check(exchange, reader).then(() => {
      exchange.durationMs = performance.now() - started;
      record(exchange);
      ended();
    });
  };
  sendOnConnect({ server, client, upstream, bytes: [Buffer.from(requestHead), bodyStart] });
  server.on('data', (chunk: Buffer) => {
    answered = true;
    client.write(chunk);
    reader.push(chunk);
    // Once the response is whole, a moment more for bytes after its end, then the exchange is over.
    if (reader.complete && grace === undefined) grace = setTimeout(finish, trailingGrace);
  });
  server.on('end', finish);
  server.on('close', finish);
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (answered) return finish();
    finished = true;
    const reason = error.code ?? error.message;
    answerUnreachable(client, upstream, reason);
    record({
      ...exchange,
      status: 502,
      unchecked: `upstream unreachable: ${reason}`,
      durationMs: performance.now() - started,
    });
    ended();
  });
  // A client that goes away takes its upstream connection with it.
  client.on('close', () => {
    if (!finished) server.destroy();
  });
  return over;
}

function answerUnreachable(client: Socket, upstream: Upstream, reason: string): void {
  const answer = proxyErrorRecord('upstream_unreachable', `The proxy cannot reach ${upstream.url.origin}: ${reason}.`);
  if (!client.destroyed) respondAndClose(client, 502, stringifyJson(answer), 'Bad Gateway');
}
