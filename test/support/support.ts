import { readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type OutgoingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import { extname, join, normalize } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createOrderMock, type OrderMock, type OrderMockOptions } from '../../mocks/adapters/msw.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { createServer, type ServerOptions } from '../../mocks/server/server.js';

/** The development key, as a user would type it from the README. */
export const developmentKey = 'petstore-dev-key';
export const authorized = { authorization: `Bearer ${developmentKey}` };

/** A real standalone server on 127.0.0.1, port 0, with helpers to call the API and the control plane. */
export async function startServer(options: ServerOptions = {}) {
  const server = createServer(options);
  const origin = await server.listen(0, '127.0.0.1');
  return {
    server,
    origin,
    api: (path: string, init: RequestInit = {}) => fetch(`${origin}/v1${path}`, init),
    withKey: (path: string, init: RequestInit = {}) =>
      fetch(`${origin}/v1${path}`, {
        ...init,
        headers: { ...authorized, ...(init.headers as Record<string, string>) },
      }),
    control: (path: string, init: RequestInit = {}) => fetch(`${origin}/__mock${path}`, init),
    storedOrders: async () => parseJson(await (await fetch(`${origin}/__mock/orders`)).text()),
    close: () => server.close(),
  };
}

/** Reads a response body losslessly (ids beyond 2^53 stay exact). */
export async function jsonOf(response: Response): Promise<JsonValue> {
  return parseJson(await response.text());
}

/** Asserts the response is an Error record with this status and code (and message, when given), as JSON. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
  message?: string | RegExp,
): Promise<Record<string, JsonValue>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = parseJson(text) as Record<string, JsonValue>;
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe('string');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

/** One request as `sendRaw` sends it: any method, any request target, repeated headers, a body. */
export interface Exchange {
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
}

/** What came back: status, headers (without the per-connection ones) and body, or a dropped connection. */
export type Observed =
  | { status: number; headers: Record<string, string | string[] | undefined>; body: string }
  | 'connection dropped';

/**
 * Sends a request with node:http, which (unlike fetch) sends any method, any target and repeated
 * headers as given. A body goes with an exact Content-Length. Fails after `timeout` ms without an answer.
 */
export function sendRaw(origin: string, exchange: Exchange, timeout = 10_000): Promise<Observed> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const headers = { ...exchange.headers };
    if (
      exchange.body !== undefined &&
      headers['content-length'] === undefined &&
      headers['transfer-encoding'] === undefined
    ) {
      headers['content-length'] = String(Buffer.byteLength(exchange.body));
    }
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: exchange.method,
        path: exchange.path,
        headers,
        agent: false,
        timeout,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = incoming.headers;
          resolve({ status: incoming.statusCode!, headers: rest, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`no answer to ${exchange.method} ${exchange.path} within ${timeout} ms`)),
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve('connection dropped') : reject(error),
    );
    outgoing.end(exchange.body);
  });
}

/** The base URL the in-process mock answers in tests: an address that never leaves the process. */
export const inProcessBase = 'https://api.example.com/v1';

/**
 * Registers, for the surrounding describe block, an in-process mock under MSW's setupServer: a fresh
 * mock with these options before each test, every unhandled request an error. Returns a getter for it.
 */
export function useInProcessMock(options: OrderMockOptions): () => OrderMock {
  const server = setupServer();
  let mock: OrderMock;
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  beforeEach(() => {
    mock = createOrderMock(options);
    server.resetHandlers(...mock.handlers);
  });
  return () => mock;
}

/** A plain node:http server of a test's own (an upstream, a broker, a static site) on 127.0.0.1. */
export interface LocalServer {
  server: Server;
  origin: string;
  port: number;
  close: () => Promise<void>;
}

/**
 * Starts `handler` on 127.0.0.1, port 0: the one way a test starts an HTTP server of its own (the
 * kit's mock is `startServer`; a provider on raw sockets is test/support/hostile-provider.ts).
 */
export async function listenLocally(handler?: RequestListener): Promise<LocalServer> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    port,
    // Kept-alive connections (a browser's) would hold close() until they time out: they end with it.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Serves the files of `directory` as any static host would (a folder's index.html for its path), on 127.0.0.1. */
export function serveDirectory(directory: string): Promise<LocalServer> {
  return listenLocally(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(directory, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
}
