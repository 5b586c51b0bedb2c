import type { IncomingMessage } from 'node:http';

export interface ReadBodyOptions {
  /** Default: no limit. */
  limit?: number;
  /** Default: a `RangeError`. */
  tooLarge?: (limit: number) => Error;
  /** Sees each chunk first; an error it returns stops the reading. */
  inspect?: (chunk: Buffer) => Error | undefined;
}

/** Reads a Node message's whole body into one Buffer; past `limit` it stops reading and rejects. */
export function readBody(incoming: IncomingMessage, options: ReadBodyOptions = {}): Promise<Buffer> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const tooLarge = options.tooLarge ?? ((most: number) => new RangeError(`the body is over ${most} bytes`));
  return new Promise((resolve, reject) => {
    if (Number(incoming.headers['content-length']) > limit) return reject(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = (error: Error) => {
      incoming.removeAllListeners('data');
      incoming.pause();
      reject(error);
    };
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return refuse(tooLarge(limit));
      const refusal = options.inspect?.(chunk);
      if (refusal !== undefined) return refuse(refusal);
      chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}
