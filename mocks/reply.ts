import { stringifyJson } from '../core/stringify-json.js';

/**
 * An answer of the mock before any transport: a status, headers and a body. The MSW handlers turn it
 * into a Fetch `Response`; the standalone server writes it to the socket directly.
 * @example
 * const reply: Reply = { status: 204, headers: {}, body: null };
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /**
   * The content: text, or bytes already encoded, in parts sent one after the other (the list of a
   * big store: views of the bytes its seed is held in, written once and sent many times).
   */
  body: string | readonly Uint8Array[] | null;
}

/**
 * What a fault with `network: true` answers instead of a reply: the adapters drop the connection
 * (MSW's `Response.error()`, a destroyed socket on the standalone server).
 */
export const networkError = 'network-error';
/** The answer of a dropped connection. */
export type NetworkError = typeof networkError;

/** What an operation reads of a request: its headers (a Fetch `Request` is one). */
export interface RequestHead {
  headers: { get(name: string): string | null };
}

/**
 * A JSON reply, serialised losslessly (a `bigint` is written as an exact JSON number).
 * @example
 * jsonReply([{ id: 1n }]) // { status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id":1}]' }
 */
export function jsonReply(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: stringifyJson(body) };
}

/**
 * The Fetch `Response` of a reply.
 * @example
 * replyToResponse({ status: 204, headers: {}, body: null }).status // 204
 */
export function replyToResponse(reply: Reply): Response {
  return new Response(responseBody(reply.body), { status: reply.status, headers: reply.headers });
}

// Bytes in one part go to the Response as they are: a Blob made of them costs more than the rest of
// the kit's answer in process (the list of 100 orders under setupServer: bench/RESULTS.md, "In process").
function responseBody(body: Reply['body']): string | Uint8Array<ArrayBuffer> | Blob | null {
  if (typeof body === 'string' || body === null) return body;
  const parts = body as readonly Uint8Array<ArrayBuffer>[];
  return parts.length === 1 ? parts[0]! : new Blob(parts as Uint8Array<ArrayBuffer>[]);
}

/**
 * A JSON response, serialised losslessly (a `bigint` is written as an exact JSON number).
 * @example
 * jsonResponse([{ id: 1n }]) // 200, body '[{"id":1}]'
 */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return replyToResponse(jsonReply(body, status, headers));
}

/**
 * The reply of a Fetch `Response` (what MSW's handlers answer), its body read as bytes; a
 * `Response.error()` is a dropped connection.
 * @example
 * await replyOfResponse(new Response('ok')) // { status: 200, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: [<ok>] }
 */
export async function replyOfResponse(response: Response): Promise<Reply | NetworkError> {
  if (response.type === 'error') return networkError;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    status: response.status,
    headers,
    body: response.body === null ? null : [new Uint8Array(await response.arrayBuffer())],
  };
}
