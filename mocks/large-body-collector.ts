import type { ServerResponse } from 'node:http';
import { bodyLength } from './body-length.js';
import type { Reply } from './reply.js';

const largeBody = 1024 * 1024;

/**
 * Asks for a garbage collection after a large body has turned into garbage: a large request body once
 * answered, and the previous list body once a new large one is first sent. V8 frees such garbage late.
 */
export function createLargeBodyCollector(collectGarbage: (() => void) | undefined): {
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
