import type { ServerResponse } from 'node:http';
import type { Answer } from '../pipeline/pipeline.js';
import { networkError, type Reply } from '../base/reply.js';

/** The bytes a reply's body takes on the wire. Node only: `Buffer.byteLength` does not copy the text. */
export function bodyLength(body: Reply['body']): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((total, part) => total + part.byteLength, 0);
}

/**
 * The CORS fields then the reply's own (a field of the reply's replaces the CORS field of that name, in
 * its place), with the body's length unless the reply has one: as the flat name, value list node:http
 * takes, without an object made for each answer.
 */
function headerList(reply: Reply, cors: Record<string, string>, body: Reply['body']): (string | number)[] {
  const own = reply.headers;
  const fields: (string | number)[] = [];
  for (const name in cors) fields.push(name, own[name] ?? cors[name]!);
  for (const name in own) if (cors[name] === undefined) fields.push(name, own[name]!);
  // A reply that sets its own length keeps it: the answer to HEAD gives the length GET would send.
  if (reply.status !== 204 && reply.status !== 304 && own['content-length'] === undefined)
    fields.push('content-length', bodyLength(body));
  return fields;
}

/** Writes a reply to a node:http response: the one place a reply meets the socket. A network error drops the connection. */
export function createReplyWriter(): (outgoing: ServerResponse, reply: Answer, cors: Record<string, string>) => void {
  return (outgoing, reply, cors) => {
    if (reply === networkError) return void outgoing.destroy();
    const body = reply.body;
    outgoing.writeHead(reply.status, headerList(reply, cors, body));
    if (body === null || typeof body === 'string') {
      outgoing.end(body ?? undefined);
    } else {
      // Corked, the parts leave in as few packets as one buffer would.
      outgoing.cork();
      for (const part of body) outgoing.write(part);
      outgoing.end();
      outgoing.uncork();
    }
  };
}
