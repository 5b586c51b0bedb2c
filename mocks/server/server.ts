import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname as machineName, networkInterfaces } from 'node:os';
import { controlBodyBoundsAt, controlPathOf } from '../control/control.js';
import { createControlAccess } from '../control/control-access.js';
import { corsHeaders } from './cors-headers.js';
import { MockError } from '../base/errors.js';
import { NodeRequest } from './node-request.js';
import { judgeInteraction } from '../pipeline/judge-interaction.js';
import { createMockParts, type OrderMock, type OrderMockOptions } from '../pipeline/mock-parts.js';
import type { Answer } from '../pipeline/pipeline.js';
import { AnswersUnderWay, answerRawSockets } from './raw-sockets.js';
import { networkError, type Reply } from '../base/reply.js';
import { bodyLength, createReplyWriter } from './reply-writer.js';
import { defaultBodyLimit, defaultTimeouts } from './server-defaults.js';
import { createWarmUp } from './warm-up.js';

export { defaultBodyLimit, defaultTimeouts };

/** How to build the standalone server: the mock's options, plus the transport's own. */
export interface ServerOptions extends Omit<OrderMockOptions, 'baseUrl' | 'controlAccess'> {
  /**
   * Origins besides the loopback ones whose pages may call the control plane (`--control-origin`).
   * Any other origin gets 403 `forbidden_origin`. Default: none.
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
   * Called when the server has just let go of much memory (a large request body, a replaced list body,
   * the default session's records once created). The petstore-mock command passes a full garbage
   * collection. Default: nothing.
   */
  collectGarbage?: () => void;
  /**
   * Called when a request body of 1 MiB or more has been read, before the mock reads what it holds: much
   * of that will live a while. The petstore-mock command keeps V8's young generation from growing until
   * `collectGarbage` is called, once the request is answered. Default: nothing.
   */
  onLargeBody?: () => void;
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

// A request or answer body this large is a big load: the command's memory tuning hears of it.
const largeBody = 1024 * 1024;

// The body is read whole first, so that a body over the limit is 413 on every path and the connection stays usable.
async function answerAfterBody(mock: OrderMock, request: NodeRequest, onLargeBody?: () => void): Promise<Answer> {
  try {
    await request.body();
  } catch (error) {
    if (error instanceof MockError) return error.toReply();
    throw error;
  }
  if (request.bytesRead >= largeBody) onLargeBody?.();
  return (await mock.handle(request, { answerEverything: true }))!;
}

// A request that declares no body is answered at once, without waiting a turn for an empty one.
function answerOf(mock: OrderMock, request: NodeRequest, onLargeBody?: () => void): Promise<Answer> {
  if (request.declaresBody) return answerAfterBody(mock, request, onLargeBody);
  return mock.handle(request, { answerEverything: true }) as Promise<Answer>;
}

/** Answers one request and writes the answer with its CORS headers; a failure while writing drops the connection. */
async function answerAndWrite(
  exchange: { request: NodeRequest; incoming: IncomingMessage; outgoing: ServerResponse },
  parts: {
    answerOf: (request: NodeRequest) => Promise<Answer>;
    allowedOrigin: (request: NodeRequest) => string | undefined;
    writeReply: ReturnType<typeof createReplyWriter>;
    largeBodies: ReturnType<typeof createLargeBodyCollector>;
    mock: OrderMock;
    /** What the server does once a request is answered. */
    afterAnswer: (request: NodeRequest, outgoing: ServerResponse) => void;
  },
): Promise<void> {
  const { request, incoming, outgoing } = exchange;
  try {
    const answer = await parts.answerOf(request);
    const cors = corsHeaders(incoming, answer, parts.allowedOrigin(request));
    // While a fault may drop connections, none is kept alive: a client does not resend a request that
    // failed on a fresh connection.
    parts.writeReply(
      outgoing,
      answer,
      parts.mock.dropsConnectionsInAnySession() ? { ...cors, connection: 'close' } : cors,
    );
    if (answer !== networkError) parts.largeBodies.afterReply(answer, outgoing);
    if (answer !== networkError && answer.headers.connection === 'close') incoming.resume();
  } catch {
    outgoing.destroy();
  }
  parts.afterAnswer(request, outgoing);
}

/**
 * What the server checks for the control plane: the bodies of its routes while they arrive, and which
 * origin may read its answers. Other bodies, including a user's handler's, are for their handler to judge.
 */
function controlPlaneRules(control: boolean, access: ReturnType<typeof createControlAccess>) {
  const isControl = (pathname: string) => control && controlPathOf(pathname) !== undefined;
  return {
    boundsAt: (pathname: string) => (control ? controlBodyBoundsAt(pathname) : undefined),
    allowedOrigin: (request: NodeRequest) => (isControl(request.pathname) ? access.allowedOrigin(request) : '*'),
  };
}

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
 * The names a server bound to this address answers to, for the control plane's `Host` check. Bound to
 * every interface, that is every interface's address and the machine's name too.
 */
function boundNames(address: string): string[] {
  if (address !== '0.0.0.0' && address !== '::') return [address];
  const interfaces = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []);
  return [address, machineName(), ...interfaces.map((entry) => entry.address)];
}

/** Node's timeouts for slow clients, from the server's options. */
function httpLimits(options: { headersTimeout?: number; requestTimeout?: number }): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const headersTimeout = options.headersTimeout ?? defaultTimeouts.headers;
  const requestTimeout = Math.max(options.requestTimeout ?? defaultTimeouts.request, headersTimeout);
  // Node checks both timeouts only this often, and its default interval is longer than the timeouts.
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

// A response's error comes after its connection failed; the answer is then dropped anyway.
const ignore = () => {};

/**
 * Asks for a garbage collection after a large body has turned into garbage: a large request body once
 * answered, and the previous list body once a new large one is first sent. V8 frees such garbage late.
 */
function createLargeBodyCollector(collectGarbage: (() => void) | undefined): {
  afterRequest(bytesRead: number): void;
  afterReply(reply: Reply, outgoing: ServerResponse): void;
} {
  const sent = new WeakSet<readonly Uint8Array[]>();
  return {
    afterRequest(bytesRead) {
      if (bytesRead >= largeBody) collectGarbage?.();
    },
    // Collected once the body is handed to the system, so that the collection does not delay the answer.
    afterReply(reply, outgoing) {
      const body = reply.body;
      if (collectGarbage === undefined || body === null || typeof body === 'string' || sent.has(body)) return;
      if (bodyLength(body) < largeBody) return;
      sent.add(body);
      outgoing.once('close', () => setImmediate(collectGarbage));
    },
  };
}

/**
 * Creates the standalone HTTP server: a thin node:http adapter over the mock's one pipeline. It adds
 * CORS headers, limits bodies and slow clients, and answers unknown paths with a 404 Error record.
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
  // Without MSW's handlers: the server answers through mock.handle, and starts without loading MSW.
  const mock = createMockParts({ ...options, controlAccess: access }, judgeInteraction);
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const writeReply = createReplyWriter();
  const warmUp = createWarmUp(mock.store, options.collectGarbage);
  const largeBodies = createLargeBodyCollector(options.collectGarbage);
  const { boundsAt, allowedOrigin } = controlPlaneRules(options.control ?? true, access);
  const answerOfRequest = (request: NodeRequest) => answerOf(mock, request, options.onLargeBody);
  const afterAnswer = (request: NodeRequest, outgoing: ServerResponse) => {
    largeBodies.afterRequest(request.bytesRead);
    warmUp.afterAnswer(outgoing);
  };
  const writing = { answerOf: answerOfRequest, allowedOrigin, writeReply, largeBodies, mock, afterAnswer };
  // One object for every request, its origin set when the server listens.
  const requestOptions = { origin: 'http://127.0.0.1', limit: bodyLimit, boundsAt };
  const limits = httpLimits(options);
  // The answers under way on each connection: a malformed request sent after them waits for them.
  const answering = new AnswersUnderWay();
  const answerRequest = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    // A request with no 'error' listener emits none (Node's rule); a response does, after a failed write.
    outgoing.on('error', ignore);
    const request = new NodeRequest(incoming, requestOptions);
    answering.add(incoming, outgoing);
    void answerAndWrite({ request, incoming, outgoing }, writing);
  };
  const server = createHttpServer(limits, answerRequest);
  // An unknown Expect header is ignored like any other request (spec gap 37), rather than Node's bare 417.
  server.on('checkExpectation', answerRequest);
  const rawSockets = answerRawSockets(server, {
    answering,
    headersTimeout: limits.headersTimeout,
    answerPath: (incoming) => answerOfRequest(new NodeRequest(incoming, requestOptions)),
  });

  return {
    mock,
    async listen(port = 4010, host = '127.0.0.1') {
      const address = await listening(server, port, host);
      const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      requestOptions.origin = `http://${hostname}:${address.port}`;
      access.addHosts([host, ...boundNames(address.address)]);
      warmUp.after(250);
      return requestOptions.origin;
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
