import type { ServerResponse } from 'node:http';
import type { Answer } from './pipeline.js';
import { networkError, type Reply } from './reply.js';

/** The bytes a reply's body takes on the wire. Node only: `Buffer.byteLength` does not copy the text. */
export function bodyLength(body: Reply['body']): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((total, part) => total + part.byteLength, 0);
}

/** Writes a reply to a node:http response: the one place a reply meets the socket. A network error drops the connection. */
export function createReplyWriter(): (outgoing: ServerResponse, reply: Answer, cors: Record<string, string>) => void {
  return (outgoing, reply, cors) => {
    if (reply === networkError) return void outgoing.destroy();
    const headers: Record<string, string | number> = { ...cors, ...reply.headers };
    const body = reply.body;
    const length = bodyLength(body);
    // A reply that sets its own length keeps it: the answer to HEAD gives the length GET would send.
    if (reply.status !== 204 && reply.status !== 304 && headers['content-length'] === undefined)
      headers['content-length'] = length;
    outgoing.writeHead(reply.status, headers);
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
