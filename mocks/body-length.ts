import type { Reply } from './reply.js';

/** The bytes a reply's body takes on the wire. Node only: `Buffer.byteLength` does not copy the text. */
export function bodyLength(body: Reply['body']): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((total, part) => total + part.byteLength, 0);
}
