import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { acceptedEncodings, responseText } from './response-text.js';
import { bodyLimit } from '../../core/body-limit.js';
import { KitError } from '../../core/errors.js';
import { VerifyError } from '../base/errors.js';
import type { Observation } from '../../core/observation.js';

/** How long the harness waits for one whole answer (headers and body) unless told otherwise: 10 s. */
export const defaultRequestTimeout = 10_000;

/** The target did not answer at all (refused, unknown host, unroutable): the run cannot go on. */
export class TargetUnreachable extends KitError<'target_unreachable'> {
  override name = 'TargetUnreachable';

  constructor(message: string) {
    super('target_unreachable', message);
  }
}

// Causes that mean nothing answered at all: the run cannot go on (exit 2), as opposed to a target
// that answered badly (a violation).
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

function parserFailure(error: NodeJS.ErrnoException): string {
  return `the answer is not valid HTTP/1.1 (${error.message.replace(/^Parse Error: /, '')})`;
}

/** A response whose connection has closed, as an observation: whole and decoded, or the failure it is. */
async function observationOf(response: IncomingMessage, body: Buffer, trailingBytes: boolean): Promise<Observation> {
  if (!response.complete) return { failure: 'the connection closed before the whole response came' };
  const encoding = response.headers['content-encoding'];
  let text: string;
  let invalidUtf8: boolean;
  try {
    ({ text, invalidUtf8 } = await responseText(body, encoding));
  } catch (error) {
    if (error instanceof VerifyError && error.code === 'body_too_large')
      return { failure: error.message, tooLarge: true };
    return {
      failure: `the body could not be decoded as its Content-Encoding (${encoding}) says: ${(error as Error).message}`,
    };
  }
  const headers = new Headers();
  for (let index = 0; index < response.rawHeaders.length; index += 2)
    headers.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
  return {
    status: response.statusCode ?? 0,
    headers,
    text,
    ...(invalidUtf8 && { invalidUtf8 }),
    ...(trailingBytes && { trailingBytes }),
  };
}

/** Why a request failed, from its error: the target cannot be reached, answered what is not HTTP, or broke the connection. */
function requestFailure(error: NodeJS.ErrnoException, url: string): Observation | TargetUnreachable {
  if (unreachableCodes.has(error.code ?? '')) return new TargetUnreachable(`cannot reach ${url}: ${error.code}`);
  if (error.code?.startsWith('HPE_')) return { failure: parserFailure(error) };
  return { failure: `the connection failed before an answer came (${error.code ?? error.message})` };
}

/**
 * Reads a response's body within the bound as sent: `tooLarge` as soon as its bytes pass it (nothing
 * more is kept; decoding has a bound of its own), else the whole body once the connection closes.
 */
function readBody(response: IncomingMessage, on: { tooLarge: () => void; closed: (body: Buffer) => void }): void {
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > bodyLimit) on.tooLarge();
    else chunks.push(chunk);
  });
  response.on('error', () => undefined);
  response.on('close', () => {
    if (size <= bodyLimit) on.closed(Buffer.concat(chunks));
  });
}

/**
 * Sends one request and reads the whole response under one timeout, inside the same error handling:
 * whether the headers or the body stall, the outcome is the same failure. Each exchange has its own
 * connection (no keep-alive to race with), redirects are not followed, and the body is decoded as
 * its Content-Encoding says, within the kit's bound (`bodyLimit`, as sent and decoded: past it the
 * failure is `tooLarge`, and nothing more is read). The text is strict UTF-8: a byte order mark stays
 * in it (RFC 8259 §8.1 forbids one) and invalid UTF-8 is noted, not replaced; bytes after the end of
 * the response (a 204 followed by content) are noted too.
 * @throws TargetUnreachable when nothing answered at all (refused, unknown host).
 * @example
 * const observed = await observe('http://127.0.0.1:4010/v1/store/orders', { method: 'GET', headers }, 10_000);
 * if ('failure' in observed) console.log(observed.failure);
 */
export function observe(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Uint8Array | string },
  timeout = defaultRequestTimeout,
): Promise<Observation> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    let responded = false;
    let trailingBytes = false;
    const settle = (outcome: Observation | TargetUnreachable) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome instanceof TargetUnreachable) reject(outcome);
      else resolve(outcome);
    };
    const request = send(target, {
      method: init.method,
      headers: {
        'accept-encoding': acceptedEncodings,
        ...init.headers,
        ...(init.body !== undefined && { 'content-length': String(Buffer.byteLength(init.body)) }),
      },
      agent: false,
    });
    const timer = setTimeout(() => {
      settle({
        failure: `no complete answer within ${timeout} ms (the headers or the body stalled)`,
        timedOut: true,
        ...(!responded && { silent: true }),
      });
      request.destroy();
    }, timeout);
    request.on('error', (error: NodeJS.ErrnoException) => {
      // After a whole response, the parser's complaint is about what came after it.
      if (error.code === 'HPE_CLOSED_CONNECTION' || (responded && error.code?.startsWith('HPE_'))) {
        trailingBytes = true;
        return;
      }
      settle(requestFailure(error, url));
    });
    request.on('response', (response: IncomingMessage) => {
      responded = true;
      readBody(response, {
        tooLarge: () => {
          settle({ failure: `a body of more than ${bodyLimit} bytes as sent`, tooLarge: true });
          request.destroy();
        },
        // Let an error the parser raises for bytes after the response land before judging.
        closed: (body) => setImmediate(() => void observationOf(response, body, trailingBytes).then(settle)),
      });
    });
    request.end(init.body);
  });
}
