import { stringifyJson } from '../../core/stringify-json.js';

/**
 * An answer of the mock before any transport.
 * @example
 * const reply: Reply = { status: 204, headers: {}, body: null };
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Text, or bytes already encoded in parts, so that a big list is encoded once and sent many times. */
  body: string | readonly Uint8Array[] | null;
}

/** What a fault with `network: true` answers: the adapters drop the connection. */
export const networkError = 'network-error';
export type NetworkError = typeof networkError;

export interface RequestHead {
  headers: { get(name: string): string | null };
}

/** A JSON reply; a `bigint` is written as an exact JSON number. */
export function jsonReply(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: stringifyJson(body) };
}

export function replyToResponse(reply: Reply): Response {
  return new Response(responseBody(reply.body), { status: reply.status, headers: reply.headers });
}

// One part goes to the Response as it is: a Blob costs more than the rest of the answer (bench/RESULTS.md).
function responseBody(body: Reply['body']): string | Uint8Array<ArrayBuffer> | Blob | null {
  if (typeof body === 'string' || body === null) return body;
  const parts = body as readonly Uint8Array<ArrayBuffer>[];
  return parts.length === 1 ? parts[0]! : new Blob(parts as Uint8Array<ArrayBuffer>[]);
}

/** A JSON response; a `bigint` is written as an exact JSON number. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return replyToResponse(jsonReply(body, status, headers));
}

/** The reply of a Fetch `Response`; `Response.error()` is a dropped connection. */
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
