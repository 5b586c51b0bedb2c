import {
  STATUS_CODES,
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname as machineName, networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import type { JsonBounds } from '../core/json-bounds-scanner.js';
import { JsonBoundsScanner } from '../core/json-bounds-scanner.js';
import { boundsError, controlBodyBoundsAt, controlPathOf } from './control.js';
import { createControlAccess } from './control-access.js';
import { MockError } from './errors.js';
import { readBody } from './read-body.js';
import { createOrderMock, type OrderMock, type OrderMockOptions } from './order-mock.js';
import type { Answer, MockRequest } from './pipeline.js';
import { networkError, type Reply } from './reply.js';
import { defaultBodyLimit, defaultTimeouts } from './server-defaults.js';

export { defaultBodyLimit, defaultTimeouts };

/** How to build the standalone server: the mock's options, plus the transport's own. */
export interface ServerOptions extends Omit<OrderMockOptions, 'baseUrl' | 'controlAccess'> {
  /**
   * Origins besides the loopback ones whose pages may call the control plane (`--control-origin`).
   * A control request from any other origin is refused with 403 `forbidden_origin`, and its answer
   * names no origin in `Access-Control-Allow-Origin`. Default: none.
   */
  controlOrigins?: readonly string[];
  /** A key the control plane then requires as `Authorization: Bearer KEY` (`--control-key`). Default: none. */
  controlKey?: string;
  /** The largest request body to read, in bytes; a larger one gets 413. Default: 32 MiB. */
  bodyLimit?: number;
  /** Milliseconds a client may take to send its headers; then 408 and the connection closes. Default: 10,000. */
  headersTimeout?: number;
  /** Milliseconds a client may take to send its whole request; then 408 and the connection closes. Default: 30,000. */
  requestTimeout?: number;
  /**
   * Called when the server has just let go of much memory: after answering a request with a body of
   * 1 MiB or more (a `PUT /__mock/orders` of 100,000 orders leaves about 40 MB of garbage: the body,
   * its text, its parse), after sending a list body of 1 MiB or more for the first time (the one it
   * replaced is garbage), and once the default session's records are created, for 10,000 orders or
   * more. The petstore-mock command passes a full garbage collection, so that the garbage does not
   * stay resident until V8 gets to it. Default: nothing.
   */
  collectGarbage?: () => void;
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

const exposedHeaders = 'Allow, Deprecation, Sunset, WWW-Authenticate, ETag';
const simpleCors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposedHeaders };

/** The headers of a Node request as Fetch's `Headers#get` reads them: repeated headers joined with ", ". */
function headersOf(incoming: IncomingMessage): MockRequest['headers'] {
  const raw = incoming.rawHeaders;
  return {
    get(name: string): string | null {
      const lower = name.toLowerCase();
      let value: string | null = null;
      for (let index = 0; index < raw.length; index += 2) {
        if (raw[index]!.length === lower.length && raw[index]!.toLowerCase() === lower)
          value = value === null ? raw[index + 1]! : `${value}, ${raw[index + 1]}`;
      }
      return value;
    },
  };
}

// The request target as an absolute URL. A target in origin form is taken as a path, whatever it
// holds (`//v1/...` is a path, not an authority); anything else is parsed against the origin.
function urlOf(target: string, origin: string): string {
  if (target.startsWith('/')) return origin + target;
  try {
    return new URL(target, origin).href;
  } catch {
    return target;
  }
}

// What the URL parser rewrites in a path, beyond percent-encoding: a backslash, which it reads as a
// slash, and a dot segment (`.` or `..`, either dot percent-encoded, any case), which it resolves.
const rewritten = /\\|(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;

/**
 * The path of a request target as the client wrote it, when the URL parser would not keep it: one
 * with a backslash or a dot segment, which no path of the specification has (spec gap 32). Undefined
 * for any other.
 */
function pathAsWrittenOf(target: string): string | undefined {
  const afterAuthority = target.startsWith('/') ? target : target.replace(/^[a-z][a-z\d+.-]*:[/\\]*[^/\\?#]*/i, '');
  const path = afterAuthority.split(/[?#]/, 1)[0]!;
  return rewritten.test(path) ? path : undefined;
}

function bodyLength(body: Reply['body']): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((total, part) => total + part.byteLength, 0);
}

/** The one place a reply meets the socket. A network error (a fault with `network: true`) drops the connection without an answer. */
function createReplyWriter(): (outgoing: ServerResponse, reply: Answer, cors: Record<string, string>) => void {
  return (outgoing, reply, cors) => {
    if (reply === networkError) return void outgoing.destroy();
    const headers: Record<string, string | number> = { ...cors, ...reply.headers };
    const body = reply.body;
    const length = bodyLength(body);
    // A reply that gives its own length (the answer to HEAD: the length GET would send) keeps it.
    if (reply.status !== 204 && reply.status !== 304 && headers['content-length'] === undefined)
      headers['content-length'] = length;
    outgoing.writeHead(reply.status, headers);
    if (body === null || typeof body === 'string') {
      outgoing.end(body ?? undefined);
    } else {
      // Parts in one write: corked, they leave in as few packets as one buffer would.
      outgoing.cork();
      for (const part of body) outgoing.write(part);
      outgoing.end();
      outgoing.uncork();
    }
  };
}

const methodsWithoutBody = new Set(['GET', 'HEAD']);
const largeBody = 1024 * 1024;

function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return (length !== undefined && length !== '0') || incoming.headers['transfer-encoding'] !== undefined;
}

function tooLarge(limit: number): MockError {
  return new MockError('payload_too_large', `Request body too large: the limit is ${limit} bytes.`, {
    headers: { connection: 'close' },
  });
}

/** A Node request as the pipeline reads it: no Fetch `Request` is built unless a user's handler needs one. */
class NodeRequest implements MockRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: MockRequest['headers'];
  /** The path of the URL, parsed once ('' for a target that is no URL), or the path as written (below). */
  readonly pathname: string;
  /** The path as the client wrote it, when the URL parser would rewrite it (a dot segment, a backslash): the pipeline refuses it so. */
  readonly pathAsWritten: string | undefined;
  /** The request's headers as Node read them: name, value, name, value... */
  readonly raw: readonly string[];
  /** How many bytes of body were read (0 until read). */
  bytesRead = 0;
  readonly #incoming: IncomingMessage;
  readonly #limit: number;
  #body: Promise<Buffer> | undefined;

  readonly #bounds: JsonBounds | undefined;

  /** `boundsAt(pathname)`: what a JSON body at that path may hold, checked as it comes (the control plane's bodies). */
  constructor(
    incoming: IncomingMessage,
    options: { origin: string; limit: number; boundsAt: (pathname: string) => JsonBounds | undefined },
  ) {
    const origin = options.origin;
    this.#incoming = incoming;
    this.#limit = options.limit;
    this.method = incoming.method ?? 'GET';
    this.url = urlOf(incoming.url ?? '/', origin);
    this.headers = headersOf(incoming);
    this.raw = incoming.rawHeaders;
    this.pathAsWritten = pathAsWrittenOf(incoming.url ?? '/');
    this.pathname = this.pathAsWritten ?? pathnameOf(this.url);
    this.#bounds = options.boundsAt(this.pathname);
  }

  /** The body, read once (an empty one when the request declares none). */
  body(): Promise<Buffer> {
    this.#body ??= hasBody(this.#incoming)
      ? readBody(this.#incoming, { limit: this.#limit, tooLarge, inspect: this.#inspector() })
      : Promise.resolve(Buffer.alloc(0));
    return this.#body.then((body) => {
      this.bytesRead = body.length;
      return body;
    });
  }

  // A body past its bounds is refused as it comes: the rest is never read (the connection closes).
  #inspector(): ((chunk: Buffer) => MockError | undefined) | undefined {
    if (this.#bounds === undefined) return undefined;
    const scanner = new JsonBoundsScanner(this.#bounds);
    return (chunk) => {
      const breach = scanner.feed(chunk);
      return breach === undefined ? undefined : boundsError(breach, { connection: 'close' });
    };
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.body());
  }

  async toRequest(): Promise<Request> {
    return toFetchRequest(this, await this.body());
  }
}

// The path of a request's URL, or '' for a target that is no URL (the pipeline answers it with 400).
function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function toFetchRequest(request: NodeRequest, body: Buffer): Request {
  // A Request would resolve the dot segments and backslashes, and so name another path than the client's.
  if (request.pathAsWritten !== undefined) throw new TypeError('Fetch cannot carry this path as written.');
  const headers = new Headers();
  const raw = request.raw;
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const hasContent = !methodsWithoutBody.has(request.method) && body.length > 0;
  // The Buffer as it is: Request copies its body anyway (a second copy of a 9 MB PUT would be garbage).
  return new Request(request.url, {
    method: request.method,
    headers,
    body: hasContent ? (body as Uint8Array<ArrayBuffer>) : null,
  });
}

/**
 * The CORS fields of an answer. The API's answers let any origin read them (a web app on another
 * origin calls it); the control plane's name only an origin that may call it, the request's own.
 */
function corsHeaders(
  incoming: IncomingMessage,
  reply: Answer,
  allowedOrigin: string | undefined,
): Record<string, string> {
  if (allowedOrigin === undefined) return { vary: 'Origin' };
  const cors =
    allowedOrigin === '*'
      ? simpleCors
      : { ...simpleCors, 'access-control-allow-origin': allowedOrigin, vary: 'Origin' };
  const allow = reply === networkError ? undefined : reply.headers.allow;
  if (
    incoming.method !== 'OPTIONS' ||
    incoming.headers['access-control-request-method'] === undefined ||
    allow === undefined
  )
    return cors;
  return {
    ...cors,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': incoming.headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
    'access-control-max-age': '600',
  };
}

/**
 * A request's answer once its body is read whole (within the limit), whatever the route: a body over
 * the limit is 413 on every path, and the connection is free for the next request.
 */
async function answerAfterBody(mock: OrderMock, request: NodeRequest): Promise<Answer> {
  try {
    await request.body();
  } catch (error) {
    if (error instanceof MockError) return error.toReply();
    throw error;
  }
  return (await mock.handle(request, { answerEverything: true }))!;
}

/** Answers one request and writes the answer, with its CORS fields; a failure while writing drops the connection. */
async function answerAndWrite(
  exchange: { request: NodeRequest; incoming: IncomingMessage; outgoing: ServerResponse },
  parts: {
    answerOf: (request: NodeRequest) => Promise<Answer>;
    allowedOrigin: (request: NodeRequest) => string | undefined;
    writeReply: ReturnType<typeof createReplyWriter>;
    afterLargeReply: ReturnType<typeof createLargeReplyCollector>;
    mock: OrderMock;
  },
): Promise<void> {
  const { request, incoming, outgoing } = exchange;
  try {
    const answer = await parts.answerOf(request);
    const cors = corsHeaders(incoming, answer, parts.allowedOrigin(request));
    // While a fault may drop a connection, none is kept: a dropped request on a fresh connection is not sent again.
    parts.writeReply(
      outgoing,
      answer,
      parts.mock.dropsConnectionsInAnySession() ? { ...cors, connection: 'close' } : cors,
    );
    if (answer !== networkError) parts.afterLargeReply(answer, outgoing);
    if (answer !== networkError && answer.headers.connection === 'close') incoming.resume();
  } catch {
    outgoing.destroy();
  }
}

/**
 * What the adapter checks of the control plane: the bodies of the control routes that read one, as
 * they come (any other body, a user's handler's under /__mock or not, is theirs to judge), and which
 * origin may read an answer (the API's, any).
 */
function controlPlaneRules(control: boolean, access: ReturnType<typeof createControlAccess>) {
  const isControl = (pathname: string) => control && controlPathOf(pathname) !== undefined;
  return {
    boundsAt: (pathname: string) => (control ? controlBodyBoundsAt(pathname) : undefined),
    allowedOrigin: (request: NodeRequest) => (isControl(request.pathname) ? access.allowedOrigin(request) : '*'),
  };
}

/** Starts the server listening; resolves with the address it is bound to. */
function listening(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Answers the sockets Node hands over (a CONNECT) or gives up on (a malformed request), which are the
 * server's to end: each is destroyed once its answer is written, and at close whatever is left (the set
 * returned). A request before a malformed one on the same connection (pipelined), received whole, is
 * answered first: its answer is not lost.
 */
function answerRawSockets(
  server: Server,
  parts: {
    answering: WeakMap<Duplex, { request: IncomingMessage; written: Promise<void> }>;
    headersTimeout: number;
    /** The answer to a CONNECT whose target is a path: the pipeline's, as for any method. */
    answerPath: (incoming: IncomingMessage) => Promise<Answer>;
  },
): Set<Duplex> {
  const rawSockets = new Set<Duplex>();
  const answerRaw = (socket: Duplex, answer: Answer) => {
    rawSockets.add(socket);
    socket.once('close', () => rawSockets.delete(socket));
    writeRawReply(socket, answer, parts.headersTimeout);
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const failure = clientFailure(error, socket);
    if (failure === undefined) return void socket.destroy();
    // One not received whole is the request this error is about (a timeout, a bad body): answered at once.
    const earlier = parts.answering.get(socket);
    if (earlier === undefined || !earlier.request.complete) answerRaw(socket, failure);
    else void earlier.written.then(() => answerRaw(socket, failure));
  });
  // CONNECT: Node hands the socket over rather than answering. A path (CONNECT /v1/store/orders) goes
  // through the pipeline like any method (405 with Allow, or 404); a host and port (a tunnel) is 400.
  server.on('connect', async (incoming: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    const target = incoming.url ?? '';
    const answer = target.startsWith('/')
      ? await parts.answerPath(incoming).catch((): Answer => networkError)
      : notAProxy();
    answerRaw(socket, answer);
  });
  return rawSockets;
}

/**
 * Creates the standalone HTTP server: a thin node:http adapter over the mock's one pipeline
 * (`mock.handle`). It reads a request's body within the limit before answering, adds CORS headers so
 * a web app on another origin can call it, bounds bodies and slow clients, and answers what the
 * mock does not know with a 404 Error record.
 * @example
 * import { createServer } from 'petstore-contract-kit/server';
 *
 * const server = createServer({ seed: [{ id: 1 }] });
 * const origin = await server.listen(0, '127.0.0.1');
 * await fetch(`${origin}/v1/store/orders`, { headers: { authorization: 'Bearer petstore-dev-key' } });
 * await server.close();
 */
export function createServer(options: ServerOptions = {}): MockServer {
  const access = createControlAccess({ origins: options.controlOrigins, key: options.controlKey });
  const mock = createOrderMock({ ...options, controlAccess: access });
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const writeReply = createReplyWriter();
  const warmUp = createWarmUp(mock, options.collectGarbage);
  const afterLargeReply = createLargeReplyCollector(options.collectGarbage);
  let origin = 'http://127.0.0.1';

  const { boundsAt, allowedOrigin } = controlPlaneRules(options.control ?? true, access);

  const answerOf = (request: NodeRequest) => answerAfterBody(mock, request);

  const limits = httpLimits(options);
  // The answer under way on each connection: a malformed request after it (pipelined) waits for it.
  const answering = new WeakMap<Duplex, { request: IncomingMessage; written: Promise<void> }>();
  const answerRequest = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    incoming.on('error', () => {});
    outgoing.on('error', () => {});
    const request = new NodeRequest(incoming, { origin, limit: bodyLimit, boundsAt });
    const written = new Promise<void>((resolve) => outgoing.once('close', resolve).once('finish', resolve));
    answering.set(incoming.socket, { request: incoming, written });
    await answerAndWrite(
      { request, incoming, outgoing },
      { answerOf, allowedOrigin, writeReply, afterLargeReply, mock },
    );
    if (request.bytesRead >= largeBody) options.collectGarbage?.();
    warmUp.soon();
  };
  const server = createHttpServer(limits, answerRequest);
  // An expectation other than 100-continue is answered as if it were not there (spec gap 37), not
  // with Node's bare 417: the key check, the Error records, CORS and the journal as for any request.
  server.on('checkExpectation', answerRequest);
  const rawSockets = answerRawSockets(server, {
    answering,
    headersTimeout: limits.headersTimeout,
    answerPath: (incoming) => answerOf(new NodeRequest(incoming, { origin, limit: bodyLimit, boundsAt })),
  });

  return {
    mock,
    async listen(port = 4010, host = '127.0.0.1') {
      const address = await listening(server, port, host);
      const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      origin = `http://${hostname}:${address.port}`;
      access.addHosts([host, ...boundNames(address.address)]);
      warmUp.after(250);
      return origin;
    },
    close() {
      warmUp.cancel();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of rawSockets) socket.destroy();
      });
    },
  };
}

/**
 * The names a server bound to this address answers to, for the control plane's `Host` check: the
 * address itself; bound to every interface (`0.0.0.0`, `::`), each interface's address and the
 * machine's name too.
 */
function boundNames(address: string): string[] {
  if (address !== '0.0.0.0' && address !== '::') return [address];
  const interfaces = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []);
  return [address, machineName(), ...interfaces.map((entry) => entry.address)];
}

/** Node's timeouts for slow clients, from the options. */
function httpLimits(options: ServerOptions): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const headersTimeout = options.headersTimeout ?? defaultTimeouts.headers;
  const requestTimeout = Math.max(options.requestTimeout ?? defaultTimeouts.request, headersTimeout);
  // Node checks both timeouts on this interval (30 s by default, longer than the timeouts themselves).
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * The default session's records are created in the background (reads come from its seed meanwhile;
 * a cancel waits for them), so that its first change does not wait for 100,000 records: once the
 * first request has been answered, or after 250 ms without one, whichever comes first.
 */
function createWarmUp(mock: OrderMock, collectGarbage: (() => void) | undefined) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    void mock.store.materialize().then(
      () => mock.store.size >= 10_000 && collectGarbage?.(),
      () => {},
    );
  };
  return {
    soon: () => started || setImmediate(start),
    after: (milliseconds: number) => (timer = setTimeout(start, milliseconds).unref()),
    cancel: () => clearTimeout(timer),
  };
}

/**
 * A list body of 1 MiB or more sent for the first time was just written: the one it replaces (9 MB
 * for 100,000 orders, at each change) is garbage, which V8 frees late. Collected once the body has
 * been handed to the system, so that the collection does not hold up the end of the answer.
 */
function createLargeReplyCollector(
  collectGarbage: (() => void) | undefined,
): (reply: Reply, outgoing: ServerResponse) => void {
  const sent = new WeakSet<readonly Uint8Array[]>();
  return (reply, outgoing) => {
    const body = reply.body;
    if (collectGarbage === undefined || body === null || typeof body === 'string' || sent.has(body)) return;
    if (bodyLength(body) < largeBody) return;
    sent.add(body);
    outgoing.once('close', () => setImmediate(collectGarbage));
  };
}

// Requests Node's parser refuses never reach the handler; answer them with an Error record too
// (undefined: nothing can be answered, the socket is only destroyed).
function clientFailure(error: NodeJS.ErrnoException, socket: Duplex): Reply | undefined {
  if (!socket.writable || error.code === 'ECONNRESET') return undefined;
  const failure =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new MockError('headers_too_large', 'Request headers too large.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new MockError('request_timeout', 'The request was not received in time.')
        : new MockError('invalid_request', 'Malformed HTTP request.');
  return failure.toReply();
}

/**
 * Writes a reply straight to a socket Node gave up on or handed over (a client error, a CONNECT),
 * and ends it for good: no keep-alive, for what follows on the socket is not a request Node will
 * read, and destroyed once written (or after `timeout`, if the client does not read), so that a
 * client that keeps its side open holds nothing.
 */
function writeRawReply(socket: Duplex, answer: Answer, timeout: number): void {
  if (answer === networkError || !socket.writable) return void socket.destroy();
  const body = answer.body === null ? [] : typeof answer.body === 'string' ? [Buffer.from(answer.body)] : answer.body;
  const fields = { ...answer.headers, 'content-length': String(bodyLength(answer.body)), connection: 'close' };
  const head = Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const timer = setTimeout(() => socket.destroy(), timeout).unref();
  socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n`);
  for (const part of body) socket.write(part);
  socket.end(() => {
    clearTimeout(timer);
    socket.destroy();
  });
}

const notAProxy = (): Reply =>
  new MockError(
    'invalid_request',
    'CONNECT asks for a tunnel to another host: the mock is the server, not a proxy.',
  ).toReply();
