import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { MockError } from '../base/errors.js';
import type { Answer } from '../pipeline/pipeline.js';
import { networkError, type Reply } from '../base/reply.js';
import { bodyLength } from './reply-writer.js';

// Node's parser refuses these requests before any handler sees them; they still get an Error record.
// Undefined when nothing can be answered and the socket is only destroyed.
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
 * Writes a reply straight to a socket and ends it. Nothing after it on the socket is read as a request,
 * so there is no keep-alive; the socket is destroyed once written, or after `timeout` if the client does
 * not read, so that a client that keeps its side open holds nothing.
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

/** A request a connection is answering, and its response. */
export interface AnswerUnderWay {
  request: IncomingMessage;
  response: ServerResponse;
}

// Asked only when a malformed request follows whole ones, so that the usual request makes no promise. The
// socket's close settles it too: a response still queued behind others may see no event of its own then.
function written(answer: AnswerUnderWay, socket: Duplex): Promise<void> {
  const response = answer.response;
  if (response.writableFinished || response.destroyed || socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    response.once('close', resolve).once('finish', resolve);
    socket.once('close', resolve);
  });
}

/**
 * The answers under way on each connection, oldest first, each forgotten once written: a malformed
 * request that follows pipelined ones is answered only after every one of them received whole, so
 * that no request is applied without its answer reaching the client (spec gap 42).
 */
export class AnswersUnderWay {
  readonly #bySocket = new WeakMap<Duplex, Set<AnswerUnderWay>>();

  /** Notes a request as it starts to be answered, until its response is written or dropped. */
  add(request: IncomingMessage, response: ServerResponse): void {
    const socket = request.socket;
    let underWay = this.#bySocket.get(socket);
    if (underWay === undefined) this.#bySocket.set(socket, (underWay = new Set()));
    const answer = { request, response };
    underWay.add(answer);
    const done = () => underWay.delete(answer);
    response.once('finish', done).once('close', done);
  }

  /** Resolves once every request the socket received whole has been answered (or its connection dropped). */
  wholeOnesWritten(socket: Duplex): Promise<void> {
    const whole = [...(this.#bySocket.get(socket) ?? [])].filter((answer) => answer.request.complete);
    if (whole.length === 0) return Promise.resolve();
    return Promise.all(whole.map((answer) => written(answer, socket))).then(() => undefined);
  }
}

/**
 * Answers the sockets Node does not answer itself: a malformed request, and a CONNECT. Returns the
 * sockets still open, for `close` to destroy. Every complete request sent before a malformed one on the
 * same connection is answered first.
 */
export function answerRawSockets(
  server: Server,
  parts: {
    answering: AnswersUnderWay;
    headersTimeout: number;
    /** The pipeline's answer to a CONNECT whose target is a path. */
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
    // The error is about a request not received whole (never applied: its body never arrives), answered
    // after every one received whole before it on the connection, each applied and so owed its answer.
    void parts.answering.wholeOnesWritten(socket).then(() => answerRaw(socket, failure));
  });
  // A CONNECT to a path (CONNECT /v1/store/orders) goes through the pipeline like any method (405 or 404);
  // a CONNECT to a host and port asks for a tunnel, which is 400.
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
