import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { stringifyJson } from '../spec/json.js';
import type { ErrorRecord } from '../spec/records.js';
import { matchRoute } from '../spec/routes.js';
import { checkAgainstSpec, type Finding, type ObservedResponse } from './checks.js';
import { compareOracles, loadPrismOracle, type Disagreement, type PrismOracle } from './prism.js';

/** How to build a validating proxy. */
export interface ProxyOptions {
  /** The implementation to forward to: its base URL, ending with /v1 (for example https://staging.example.com/v1). */
  upstream: string;
  /** Check responses with Prism's validator too. Default: true. */
  prism?: boolean;
  /** Called once a response has been forwarded and checked. */
  onExchange?: (exchange: ProxyExchange) => void;
  /** The largest response body to buffer for checking, in bytes (it is forwarded whatever its size). Default: 32 MiB. */
  checkLimit?: number;
}

/** One request forwarded, and what the checks found in its response. */
export interface ProxyExchange {
  method: string;
  /** The path as the client sent it, query included. */
  path: string;
  /** The operation's path below the base URL (`/store/orders`), or undefined when the request is for no operation of the spec. */
  operationPath?: string;
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

// RFC 9110 §7.6.1: these describe one connection and are not forwarded.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const reportPath = '/__verify/report';
const violatedKept = 1000;

function forwardedHeaders(rawHeaders: string[], extraHopByHop: string | undefined, alsoDropped: string[] = []): string[] {
  const dropped = new Set([...hopByHop, ...alsoDropped]);
  for (const name of (extraHopByHop ?? '').split(',')) if (name.trim()) dropped.add(name.trim().toLowerCase());
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (!dropped.has(rawHeaders[index]!.toLowerCase())) kept.push(rawHeaders[index]!, rawHeaders[index + 1]!);
  }
  return kept;
}

function decoded(body: Buffer, encoding: string | null): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return body;
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      throw new Error(`content-encoding ${encoding} is not one the proxy decodes`);
  }
}

function errorRecord(outgoing: ServerResponse, status: number, code: string, message: string): void {
  const record: ErrorRecord = { code, message, status };
  const body = stringifyJson(record);
  outgoing.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  outgoing.end(body);
}

/**
 * A proxy to put in front of any implementation of the order interface: it forwards every request
 * unchanged (requests under `/v1` to the upstream base URL, others to its origin), streams every
 * response back unaltered, and checks each response for an operation of the spec with the
 * harness's Ajv checks and Prism's validator, reporting violations through `onExchange` and
 * `report()`.
 * @example
 * const proxy = createValidatingProxy({ upstream: 'https://staging.example.com/v1', onExchange: console.log });
 * const origin = await proxy.listen(4020, '127.0.0.1'); // point the frontend at `${origin}/v1`
 */
export function createValidatingProxy(options: ProxyOptions): ValidatingProxy {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const checkLimit = options.checkLimit ?? 32 * 1024 * 1024;
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  let prism: PrismOracle | undefined;
  const totals = { exchanges: 0, checked: 0, violations: 0, disagreements: 0 };
  const violated: ProxyExchange[] = [];

  const report = (): ProxyReport => ({ upstream: upstream.href.replace(/\/+$/, ''), ...totals, violated: [...violated] });

  const check = (exchange: ProxyExchange, method: string, response: IncomingMessage, chunks: Buffer[] | undefined): void => {
    if (exchange.operationPath === undefined || matchRoute(method, exchange.operationPath) === undefined) {
      exchange.unchecked = 'no operation of the specification';
      return;
    }
    if (chunks === undefined) {
      exchange.unchecked = `the body is over the check limit of ${checkLimit} bytes`;
      return;
    }
    const headers = new Headers();
    for (let index = 0; index < response.rawHeaders.length; index += 2) headers.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
    let text: string;
    try {
      text = decoded(Buffer.concat(chunks), headers.get('content-encoding')).toString('utf8');
    } catch (error) {
      exchange.unchecked = (error as Error).message;
      return;
    }
    const observed: ObservedResponse = { status: exchange.status, headers, text };
    const findings = checkAgainstSpec(method, exchange.operationPath, observed);
    if (prism !== undefined) {
      const compared = compareOracles(findings, prism.check(method, exchange.operationPath, observed), observed);
      findings.push(...compared.violations);
      exchange.disagreements = compared.disagreements;
    }
    exchange.violations = findings;
    totals.checked++;
  };

  const handle = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const started = performance.now();
    const method = incoming.method ?? 'GET';
    const path = incoming.url ?? '/';
    if (method === 'GET' && path.split('?')[0] === reportPath) {
      const body = stringifyJson(report());
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      outgoing.end(body);
      return;
    }
    const [pathname = '/', search = ''] = path.split(/(?=\?)/);
    const underApi = pathname === '/v1' || pathname.startsWith('/v1/');
    const operationPath = underApi ? pathname.slice('/v1'.length) || '/' : undefined;
    const target = new URL(upstream.origin);
    target.pathname = underApi ? `${basePath}${operationPath}` : pathname;
    target.search = search;

    // Node takes request headers as a flat [name, value, ...] list, as rawHeaders are: order and repeats kept.
    const headers = [...forwardedHeaders(incoming.rawHeaders, incoming.headers.connection, ['host']), 'host', target.host];
    const upstreamRequest = send(target, { method, headers: headers as unknown as Record<string, string> });
    upstreamRequest.on('response', (response) => {
      const exchange: ProxyExchange = { method, path, status: response.statusCode ?? 0, violations: [], disagreements: [], durationMs: 0, ...(operationPath !== undefined && { operationPath }) };
      outgoing.writeHead(exchange.status, response.statusMessage, forwardedHeaders(response.rawHeaders, response.headers.connection));
      let chunks: Buffer[] | undefined = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > checkLimit) chunks = undefined;
        else chunks?.push(chunk);
      });
      response.pipe(outgoing);
      response.on('end', () => {
        check(exchange, method, response, chunks);
        exchange.durationMs = performance.now() - started;
        totals.exchanges++;
        totals.violations += exchange.violations.length;
        totals.disagreements += exchange.disagreements.length;
        if (exchange.violations.length > 0) {
          violated.push(exchange);
          if (violated.length > violatedKept) violated.shift();
        }
        options.onExchange?.(exchange);
      });
      response.on('error', () => outgoing.destroy());
    });
    upstreamRequest.on('error', (error) => {
      if (outgoing.destroyed) return; // the client left first
      const reason = (error as NodeJS.ErrnoException).code ?? error.message;
      if (!outgoing.headersSent) errorRecord(outgoing, 502, 'upstream_unreachable', `The proxy cannot reach ${target.origin}: ${reason}.`);
      else outgoing.destroy();
      totals.exchanges++;
      options.onExchange?.({ method, path, status: 502, violations: [], disagreements: [], unchecked: `upstream unreachable: ${reason}`, durationMs: performance.now() - started, ...(operationPath !== undefined && { operationPath }) });
    });
    // A client that goes away takes its upstream request with it.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstreamRequest.destroy();
    });
    incoming.pipe(upstreamRequest);
  };

  const server = createHttpServer(handle);
  return {
    async listen(port = 4020, host = '127.0.0.1') {
      if (options.prism !== false) prism = await loadPrismOracle();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    report,
  };
}
