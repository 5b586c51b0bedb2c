import type { IncomingMessage } from 'node:http';

/** How much of a body to read, and what a larger one rejects with. */
export interface ReadBodyOptions {
  /** The most bytes to read. A body whose Content-Length says more, or that brings more, rejects. Default: no limit. */
  limit?: number;
  /** The error a body over `limit` rejects with. Default: a `RangeError` that names the limit. */
  tooLarge?: (limit: number) => Error;
  /** Called with each chunk as it comes: an error stops the reading there, and the promise rejects with it. */
  inspect?: (chunk: Buffer) => Error | undefined;
}

/**
 * Reads the whole body of a Node request or response (an `IncomingMessage`) into one Buffer, up to
 * `limit` bytes; past it, the message stops being read and the promise rejects with `tooLarge(limit)`.
 * `inspect` sees each chunk first, and may refuse the body there. A stream error rejects with that error.
 * @example
 * const body = await readBody(incoming); // <Buffer 7b 22 ... >
 * const small = await readBody(incoming, { limit: 1024, tooLarge: (limit) => new Error(`over ${limit} bytes`) });
 */
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
