import { STATUS_CODES, createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse } from 'msw';
import { matchRoute, type OperationName } from '../spec/routes.js';
import { MockError, errorToResponse, noOperation } from './errors.js';
import { networkError, type NetworkError } from './faults.js';
import { answererOf, createOrderMock, type OrderMock, type OrderMockOptions } from './handlers.js';
import type { Reply, RequestHead } from './reply.js';

/**
 * The largest request body the server reads, in bytes, unless told otherwise: 32 MiB (about 250,000 orders on `PUT /__mock/orders`).
 * @example
 * createServer({ bodyLimit: defaultBodyLimit * 2 })
 */
export const defaultBodyLimit = 32 * 1024 * 1024;

/**
 * How long a client may take to send its request headers, and its whole request, unless told
 * otherwise: 10 s and 30 s. A slower client gets 408 `request_timeout` and the connection is closed.
 * @example
 * createServer({ headersTimeout: defaultTimeouts.headers / 2 })
 */
export const defaultTimeouts = { headers: 10_000, request: 30_000 } as const;

/** How to build the standalone server: the mock's options, plus the transport's own. */
export interface ServerOptions extends Omit<OrderMockOptions, 'baseUrl'> {
  /** The largest request body to read, in bytes; a larger one gets 413. Default: 32 MiB. */
  bodyLimit?: number;
  /** Milliseconds a client may take to send its headers; then 408 and the connection closes. Default: 10,000. */
  headersTimeout?: number;
  /** Milliseconds a client may take to send its whole request; then 408 and the connection closes. Default: 30,000. */
  requestTimeout?: number;
  /** Called with one line a request (method, path, status, milliseconds; never a header). Default: silent. */
  log?: (line: string) => void;
  /**
   * Called when the server has just let go of much memory: after answering a request with a body of
   * 1 MiB or more (a `PUT /__mock/orders` of 100,000 orders leaves about 40 MB of garbage: the body,
   * its text, its parse), after sending a list body of 1 MiB or more for the first time (the one it
   * replaced is garbage), and once the default session's records are created, for 10,000 orders or
   * more. The petstore-mock command passes a full garbage collection, so that the garbage does not
   * stay resident until V8 gets to it. Default: nothing.
   */
  collectGarbage?: () => void;
  /**
   * Whether plain calls of the interface skip MSW's request matching and go straight to the mock's
   * operations (`mock.answer`), which answer them identically and several times faster. Default: true.
   */
  fastPath?: boolean;
}

/** A standalone HTTP server over the mock's handlers. */
export interface MockServer {
  /** The mock behind the server: its handlers and store controls. */
  mock: OrderMock;
  /** Starts listening; resolves with the origin, for example `http://127.0.0.1:4010` (the API is under `/v1`). */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

const exposedHeaders = 'Allow, Deprecation, Sunset, WWW-Authenticate';
const simpleCors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposedHeaders };

// A path parameter the fast path takes as it is: no percent-encoding to decode, nothing MSW would read
// differently, and not a dot segment (`.`, `..`), which URL parsing removes before MSW sees the path.
const plainParameter = /^(?!\.\.?$)[A-Za-z0-9\-._~+]+$/;

/**
 * The interface call a Node request is, when it is a plain one the fast path can answer exactly as
 * the MSW handlers do: a call of an operation of the route table under /v1, with its own method, in
 * origin form, without a body. Anything else (HEAD, OPTIONS, a body, percent-encoding, the control
 * plane) goes through the handlers.
 */
function plainCall(
  incoming: IncomingMessage,
): { operation: OperationName; parameter: string; pathname: string } | undefined {
  const target = incoming.url;
  if (target === undefined || !target.startsWith('/v1/') || target.includes('#')) return undefined;
  const headers = incoming.headers;
  if (
    (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
    headers['transfer-encoding'] !== undefined
  )
    return undefined;
  const match = matchRoute(incoming.method ?? '', target.slice('/v1'.length));
  if (match === undefined) return undefined;
  const pathname = target.split('?')[0]!;
  if (match.parameter === undefined)
    return match.route.parameter === null ? { operation: match.route.operation, parameter: '', pathname } : undefined;
  return plainParameter.test(match.parameter)
    ? { operation: match.route.operation, parameter: match.parameter, pathname }
    : undefined;
}

/** The headers of a Node request as Fetch's `Headers#get` reads them: repeated headers joined with ", ". */
function requestHead(incoming: IncomingMessage): RequestHead {
  const raw = incoming.rawHeaders;
  return {
    headers: {
      get(name: string): string | null {
        const lower = name.toLowerCase();
        let value: string | null = null;
        for (let index = 0; index < raw.length; index += 2) {
          if (raw[index]!.length === lower.length && raw[index]!.toLowerCase() === lower)
            value = value === null ? raw[index + 1]! : `${value}, ${raw[index + 1]}`;
        }
        return value;
      },
    },
  };
}

// A body of bytes up to 64 KiB is sent as Latin-1 text, made once for each body: Node writes a string
// body and the head in one write, where bytes take a second, gathered write (a list of 100 orders
// answered 0.42× the bare server's rate as bytes). Latin-1 maps each byte to one character, so the
// bytes sent are the same.
const smallBody = 64 * 1024;
const latin1Texts = new WeakMap<readonly Uint8Array[], string>();
function latin1Text(body: readonly Uint8Array[]): string {
  let text = latin1Texts.get(body);
  if (text === undefined) latin1Texts.set(body, (text = Buffer.concat(body).toString('latin1')));
  return text;
}

// The one place a reply meets the socket, for the fast path and the handlers alike. A network error
// (a fault with `network: true`) drops the connection without an answer.
function writeReply(
  outgoing: ServerResponse,
  reply: Reply | NetworkError,
  cors: Record<string, string> = simpleCors,
): number {
  if (reply === networkError) {
    outgoing.destroy();
    return 0;
  }
  const headers: Record<string, string | number> = { ...cors, ...reply.headers };
  // A reply that gives its own length (the answer to HEAD: the length GET would send) keeps it.
  const body = reply.body;
  const length =
    body === null
      ? 0
      : typeof body === 'string'
        ? Buffer.byteLength(body)
        : body.reduce((total, part) => total + part.byteLength, 0);
  if (reply.status !== 204 && reply.status !== 304 && headers['content-length'] === undefined)
    headers['content-length'] = length;
  outgoing.writeHead(reply.status, headers);
  if (body === null || typeof body === 'string') {
    outgoing.end(body ?? undefined);
  } else if (length <= smallBody) {
    outgoing.end(latin1Text(body), 'latin1');
  } else {
    // Parts in one write: corked, they leave in as few packets as one buffer would.
    outgoing.cork();
    for (const part of body) outgoing.write(part);
    outgoing.end();
    outgoing.uncork();
  }
  return reply.status;
}
const methodsWithoutBody = new Set(['GET', 'HEAD']);
const largeBody = 1024 * 1024;

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (declared > limit) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners('data');
        request.pause();
        reject(new BodyTooLarge());
      } else {
        chunks.push(chunk);
      }
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function toFetchRequest(incoming: IncomingMessage, origin: string, body: Buffer): Request {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
  }
  const method = incoming.method ?? 'GET';
  const hasBody = !methodsWithoutBody.has(method) && body.length > 0;
  // The Buffer as it is: Request copies its body anyway (a second copy of a 9 MB PUT would be garbage).
  return new Request(new URL(incoming.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (body as Uint8Array<ArrayBuffer>) : null,
  });
}

async function writeResponse(
  outgoing: ServerResponse,
  response: Response,
  cors: Record<string, string>,
): Promise<void> {
  if (response.type === 'error') return void writeReply(outgoing, networkError);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  writeReply(outgoing, { status: response.status, headers, body: await response.text() }, cors);
}

function corsHeaders(request: IncomingMessage, response: Response): Record<string, string> {
  const headers: Record<string, string> = { ...simpleCors };
  const allow = response.headers.get('allow');
  if (
    request.method === 'OPTIONS' &&
    request.headers['access-control-request-method'] !== undefined &&
    allow !== null
  ) {
    headers['access-control-allow-methods'] = allow;
    headers['access-control-allow-headers'] =
      request.headers['access-control-request-headers'] ?? 'Authorization, Content-Type';
    headers['access-control-max-age'] = '600';
  }
  return headers;
}

/**
 * Creates the standalone HTTP server: a thin adapter that turns each Node request into a Fetch
 * `Request`, answers it with the mock's MSW handlers, and writes the `Response` back. It adds CORS
 * headers so a web app on another origin can call it, and answers what no handler matches with a
 * 404 Error record.
 * @example
 * import { createServer } from 'petstore-contract-kit/server';
 *
 * const server = createServer({ seed: [{ id: 1 }] });
 * const origin = await server.listen(0, '127.0.0.1');
 * await fetch(`${origin}/v1/store/orders`, { headers: { authorization: 'Bearer petstore-dev-key' } });
 * await server.close();
 */
export function createServer(options: ServerOptions = {}): MockServer {
  const mock = createOrderMock(options);
  const answerer = answererOf(mock);
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  let origin = 'http://127.0.0.1';

  // `read.bytes` is set to the size of the body once read.
  async function answer(incoming: IncomingMessage, read: { bytes: number }): Promise<Response> {
    let body: Buffer;
    try {
      body = await readBody(incoming, bodyLimit);
      read.bytes = body.length;
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return new MockError('payload_too_large', `Request body too large: the limit is ${bodyLimit} bytes.`, {
          headers: { connection: 'close' },
        }).toResponse();
      }
      throw error;
    }
    let request: Request;
    try {
      request = toFetchRequest(incoming, origin, body);
    } catch {
      return unroutable(incoming);
    }
    return (
      (await getResponse(mock.handlers, request)) ??
      noOperation(request.method, new URL(request.url).pathname).toResponse()
    );
  }

  // What Fetch cannot represent (TRACE, TRACK, a target that is not a path): the handlers are asked
  // which methods the path allows, so that a 405 names them, or a 404 when the path is unknown.
  async function unroutable(incoming: IncomingMessage): Promise<Response> {
    let url: URL;
    try {
      url = new URL(incoming.url ?? '/', origin);
    } catch {
      return new MockError('invalid_request', 'The request target is not a valid path.').toResponse();
    }
    const headers = new Headers();
    if (incoming.headers.authorization !== undefined) headers.set('authorization', incoming.headers.authorization);
    const probe = await getResponse(mock.handlers, new Request(url, { method: 'OPTIONS', headers }));
    const allow = probe?.headers.get('allow');
    if (probe === undefined || allow === null || allow === undefined)
      return probe ?? noOperation(incoming.method ?? '', url.pathname).toResponse();
    return new MockError('method_not_allowed', `Method ${incoming.method} is not allowed on ${url.pathname}.`, {
      headers: { allow },
    }).toResponse();
  }

  // The default session's records are created in the background (reads come from its seed
  // meanwhile; a cancel waits for them), so that its first change does not wait for 100,000 records:
  // once the first request has been answered, or after 250 ms without one, whichever comes first.
  let warmUpTimer: NodeJS.Timeout | undefined;
  let warmingUp = false;
  function warmUp(): void {
    if (warmingUp) return;
    warmingUp = true;
    clearTimeout(warmUpTimer);
    void answerer.materialize().then(
      (size) => size >= 10_000 && options.collectGarbage?.(),
      () => {},
    );
  }

  // A list body of 1 MiB or more sent for the first time was just written: the one it replaces (9 MB
  // for 100,000 orders, at each change) is garbage, which V8 frees late. Collected once the body has
  // been handed to the system, so that the collection does not hold up the end of the answer.
  const sentLargeBodies = new WeakSet<readonly Uint8Array[]>();
  function afterLargeReply(reply: Reply, outgoing: ServerResponse): void {
    const { collectGarbage } = options;
    const body = reply.body;
    if (collectGarbage === undefined || body === null || typeof body === 'string' || sentLargeBodies.has(body)) return;
    if (body.reduce((total, part) => total + part.byteLength, 0) < largeBody) return;
    sentLargeBodies.add(body);
    outgoing.once('close', () => setImmediate(collectGarbage));
  }

  const fastPath = options.fastPath ?? true;
  const headersTimeout = options.headersTimeout ?? defaultTimeouts.headers;
  const requestTimeout = Math.max(options.requestTimeout ?? defaultTimeouts.request, headersTimeout);
  const limits = {
    headersTimeout,
    requestTimeout,
    // Node checks both timeouts on this interval (30 s by default, longer than the timeouts themselves).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
  const server = createHttpServer(limits, async (incoming, outgoing) => {
    const started = performance.now();
    incoming.on('error', () => {});
    outgoing.on('error', () => {});
    const call = fastPath ? plainCall(incoming) : undefined;
    if (call !== undefined) {
      let status = 0;
      try {
        const head = requestHead(incoming);
        const reply = await answerer.answer(call.operation, call.parameter, head);
        status = writeReply(outgoing, reply);
        if (reply !== networkError) afterLargeReply(reply, outgoing);
        answerer.record(
          head,
          incoming.method!,
          call.pathname,
          reply === networkError ? 'network' : status,
          call.operation,
        );
      } catch {
        outgoing.destroy();
      }
      options.log?.(
        `${incoming.method} ${incoming.url?.split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms`,
      );
      if (!warmingUp) setImmediate(warmUp);
      return;
    }
    let response: Response;
    const read = { bytes: 0 };
    try {
      response = await answer(incoming, read);
    } catch (error) {
      response = errorToResponse(error);
    }
    try {
      await writeResponse(outgoing, response, corsHeaders(incoming, response));
    } catch {
      outgoing.destroy();
    }
    if (read.bytes >= largeBody) options.collectGarbage?.();
    if (!warmingUp) setImmediate(warmUp);
    if (response.headers.get('connection') === 'close') incoming.resume();
    options.log?.(
      `${incoming.method} ${incoming.url?.split('?')[0]} ${response.status} ${(performance.now() - started).toFixed(1)}ms`,
    );
  });

  // Requests Node's parser refuses never reach the handler; answer them with an Error record too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const failure =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new MockError('headers_too_large', 'Request headers too large.')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new MockError('request_timeout', 'The request was not received in time.')
          : new MockError('invalid_request', 'Malformed HTTP request.');
    const body = JSON.stringify(failure.toRecord());
    socket.end(
      `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  return {
    mock,
    listen(port = 4010, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          origin = `http://${hostname}:${address.port}`;
          resolve(origin);
          warmUpTimer = setTimeout(warmUp, 250).unref();
        });
      });
    },
    close() {
      clearTimeout(warmUpTimer);
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
