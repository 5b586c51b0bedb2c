import { connect as connectTcp, createServer, type AddressInfo, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { stringifyJson } from '../spec/json.js';
import type { ErrorRecord } from '../spec/records.js';
import { matchRoute } from '../spec/routes.js';
import { checkAgainstSpec, type Finding, type ObservedResponse } from './checks.js';
import { loadPrismOracle, withSecondOracle, type Disagreement, type PrismOracle } from './prism.js';
import { RawResponseReader, readRequestHead } from './raw-response.js';
import { responseText } from './response-text.js';

/** How to build a validating proxy. */
export interface ProxyOptions {
  /** The implementation to forward to: its base URL, ending with /v1 (for example https://staging.example.com/v1). */
  upstream: string;
  /** Check responses with Prism's validator too. Default: true. */
  prism?: boolean;
  /** Called once a response has been forwarded and checked. */
  onExchange?: (exchange: ProxyExchange) => void;
  /** The largest response body to keep for checking, in bytes (it is forwarded whatever its size). Default: 32 MiB. */
  checkLimit?: number;
}

/** One request forwarded, and what the checks found in its response. */
export interface ProxyExchange {
  method: string;
  /** The path as the client sent it, query included. */
  path: string;
  /** The operation's path below the base URL (`/store/orders`), or undefined when the request is for no operation of the spec. */
  operationPath?: string;
  /** The status, or 0 when no status line came. */
  status: number;
  violations: Finding[];
  disagreements: Disagreement[];
  /** Why the response was not checked, when it was not. */
  unchecked?: string;
  durationMs: number;
}

/** What the proxy has seen since it started. */
export interface ProxyReport {
  upstream: string;
  exchanges: number;
  checked: number;
  violations: number;
  disagreements: number;
  /** The most recent exchanges with a violation (at most 1,000). */
  violated: ProxyExchange[];
}

/** A running validating proxy. */
export interface ValidatingProxy {
  /** Starts listening; resolves with the origin (the API is under `/v1`). */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
  /** Everything seen so far; also served as JSON at `GET /__verify/report`. */
  report(): ProxyReport;
}

// RFC 9110 §7.6.1: these describe one connection. Transfer-Encoding stays: the body's bytes are forwarded as they come.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'host',
]);
/** Where the proxy serves its report (`GET`), beside the API it forwards. */
export const reportPath = '/__verify/report';
const violatedKept = 1000;
// How long, after a response is complete, the proxy still listens for bytes after its end before closing.
const trailingGrace = 30;

function respond(socket: Socket, status: number, body: string, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * A proxy to put in front of any implementation of the order interface: it forwards every request
 * unchanged (requests under `/v1` to the upstream base URL, others to its origin; only the request
 * target, `Host` and the per-connection fields change), passes every response back byte for byte as
 * the upstream sent it (a 204 followed by stray bytes included), and checks each response for an
 * operation of the spec with the harness's checks and Prism's validator, reporting violations
 * (truncated and undecodable responses included) through `onExchange` and `report()`. Each
 * connection carries one exchange.
 * @example
 * const proxy = createValidatingProxy({ upstream: 'https://staging.example.com/v1', onExchange: console.log });
 * const origin = await proxy.listen(4020, '127.0.0.1'); // point the frontend at `${origin}/v1`
 */
export function createValidatingProxy(options: ProxyOptions): ValidatingProxy {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const secure = upstream.protocol === 'https:';
  const port = Number(upstream.port || (secure ? 443 : 80));
  const checkLimit = options.checkLimit ?? 32 * 1024 * 1024;
  let prism: PrismOracle | undefined;
  const totals = { exchanges: 0, checked: 0, violations: 0, disagreements: 0 };
  const violated: ProxyExchange[] = [];
  const sockets = new Set<Socket>();

  const report = (): ProxyReport => ({
    upstream: upstream.href.replace(/\/+$/, ''),
    ...totals,
    violated: [...violated],
  });

  const record = (exchange: ProxyExchange) => {
    totals.exchanges++;
    if (exchange.unchecked === undefined) totals.checked++;
    totals.violations += exchange.violations.length;
    totals.disagreements += exchange.disagreements.length;
    if (exchange.violations.length > 0) {
      violated.push(exchange);
      if (violated.length > violatedKept) violated.shift();
    }
    options.onExchange?.(exchange);
  };

  const check = (exchange: ProxyExchange, method: string, reader: RawResponseReader): void => {
    const read = reader.result();
    if (exchange.operationPath === undefined || matchRoute(method, exchange.operationPath) === undefined) {
      exchange.unchecked = 'no operation of the specification';
      return;
    }
    if (read.malformed !== undefined) {
      exchange.violations.push({
        path: '',
        message: `expected an HTTP/1.1 response, got one the proxy cannot read: ${read.malformed}`,
      });
      return;
    }
    if (read.status === undefined || !read.complete) {
      exchange.violations.push({
        path: '',
        message: `expected a whole response, got ${read.status === undefined ? 'the connection closed before the status line' : 'the connection closed before the whole body came'}`,
      });
      return;
    }
    if (read.overLimit) {
      exchange.unchecked = `the body is over the check limit of ${checkLimit} bytes`;
      return;
    }
    const headers = new Headers();
    for (const [name, value] of read.headers) headers.append(name, value);
    let text: string;
    let invalidUtf8: boolean;
    try {
      ({ text, invalidUtf8 } = responseText(read.body, headers.get('content-encoding') ?? undefined));
    } catch (error) {
      exchange.violations.push({
        path: 'content-encoding',
        message: `expected a body encoded as its Content-Encoding says, got one that cannot be decoded (${(error as Error).message})`,
      });
      return;
    }
    const observed: ObservedResponse = {
      status: read.status,
      headers,
      text,
      ...(invalidUtf8 && { invalidUtf8 }),
      ...(read.trailingBytes && { trailingBytes: true }),
    };
    const findings = checkAgainstSpec(method, exchange.operationPath, observed);
    exchange.disagreements = withSecondOracle(prism, method, exchange.operationPath, observed, findings);
    exchange.violations.push(...findings);
  };

  function proxyConnection(client: Socket): void {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const head = readRequestHead(buffered);
      if (head === undefined) return;
      client.off('data', onData);
      client.pause();
      forward(client, head, buffered.subarray(head.length));
    };
    client.on('data', onData);
  }

  function forward(client: Socket, head: NonNullable<ReturnType<typeof readRequestHead>>, bodyStart: Buffer): void {
    const started = performance.now();
    const { method, target: path } = head;
    if (method === 'GET' && path.split('?')[0] === reportPath) {
      respond(client, 200, stringifyJson(report()), 'OK');
      return;
    }
    const [pathname = '/', search = ''] = path.split(/(?=\?)/);
    const underApi = pathname === '/v1' || pathname.startsWith('/v1/');
    const operationPath = underApi ? pathname.slice('/v1'.length) || '/' : undefined;
    const targetPath = `${underApi ? `${basePath}${operationPath}` : pathname}${search}`;
    const connectionFields = new Set(
      head.headers
        .filter(([name]) => name.toLowerCase() === 'connection')
        .flatMap(([, value]) => value.split(','))
        .map((name) => name.trim().toLowerCase()),
    );
    const fields = head.headers.filter(
      ([name]) => !hopByHop.has(name.toLowerCase()) && !connectionFields.has(name.toLowerCase()),
    );
    const requestHead = [
      `${method} ${targetPath} HTTP/1.1`,
      `host: ${upstream.host}`,
      ...fields.map(([name, value]) => `${name}: ${value}`),
      'connection: close',
      '',
      '',
    ].join('\r\n');
    const exchange: ProxyExchange = {
      method,
      path,
      status: 0,
      violations: [],
      disagreements: [],
      durationMs: 0,
      ...(operationPath !== undefined && { operationPath }),
    };
    const reader = new RawResponseReader(method, checkLimit);
    const server = secure
      ? connectTls({ host: upstream.hostname, port, servername: upstream.hostname })
      : connectTcp({ host: upstream.hostname, port });
    let answered = false;
    let finished = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(grace);
      reader.close();
      exchange.status = reader.result().status ?? 0;
      check(exchange, method, reader);
      exchange.durationMs = performance.now() - started;
      record(exchange);
      client.end();
      server.destroy();
    };
    server.on(secure ? 'secureConnect' : 'connect', () => {
      server.write(requestHead);
      if (bodyStart.length > 0) server.write(bodyStart);
      client.pipe(server, { end: false });
      client.resume();
    });
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
      const record502: ErrorRecord = {
        code: 'upstream_unreachable',
        message: `The proxy cannot reach ${upstream.origin}: ${reason}.`,
        status: 502,
      };
      if (!client.destroyed) respond(client, 502, stringifyJson(record502), 'Bad Gateway');
      record({
        ...exchange,
        status: 502,
        unchecked: `upstream unreachable: ${reason}`,
        durationMs: performance.now() - started,
      });
    });
    // A client that goes away takes its upstream connection with it.
    client.on('close', () => {
      if (!finished) server.destroy();
    });
  }

  const server = createServer(proxyConnection);
  return {
    async listen(listenPort = 4020, host = '127.0.0.1') {
      if (options.prism !== false) prism = await loadPrismOracle();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listenPort, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    },
    close() {
      return new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
    },
    report,
  };
}
