import {
  createBrotliDecompress,
  createGunzip,
  createInflate,
  type BrotliDecompress,
  type Gunzip,
  type Inflate,
} from 'node:zlib';
import { bodyLimit } from '../../core/body-limit.js';
import { VerifyError } from '../base/errors.js';

/** The content codings the harness asks for (`Accept-Encoding`), and so decodes (RFC 9110 §8.4.1). */
export const acceptedEncodings = 'gzip, deflate, br';

/** The most content codings one body may carry here: no server applies more than two; each costs a decoder. */
const maxCodings = 4;

/**
 * How many decoded bytes any one decode has held at most since `peak` was last set to 0: a seam for
 * tests and the benchmark, which show that the bound holds while decoding, not only after it.
 * @example
 * decodeMeter.peak = 0;
 * await responseText(bomb, 'gzip').catch(() => undefined);
 * decodeMeter.peak <= bodyLimit + decodeChunk // true: one chunk past the bound at most
 */
export const decodeMeter = { peak: 0 };

/**
 * What the decoders write at a time: the most a decode may pass the bound by before it stops.
 * @example
 * decodeChunk // 16384
 */
export const decodeChunk = 16 * 1024;

function decoderOf(coding: string): Gunzip | Inflate | BrotliDecompress | undefined {
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip({ chunkSize: decodeChunk });
  if (coding === 'deflate') return createInflate({ chunkSize: decodeChunk });
  if (coding === 'br') return createBrotliDecompress({ chunkSize: decodeChunk });
  return undefined;
}

function tooLarge(coding: string | undefined, sent: number, limit: number): VerifyError {
  return new VerifyError(
    'body_too_large',
    coding === undefined
      ? `a body of more than ${limit} bytes as sent`
      : `a body whose ${coding} coding decodes past ${limit} bytes (from ${sent} bytes as sent)`,
  );
}

/**
 * Undoes one content coding as a stream, counting what comes out: past `limit` it stops and destroys
 * the decoder at once, so that what it holds stays within one chunk of the bound, however far the
 * body would decode.
 */
function undo(input: Buffer, coding: string, context: { sent: number; limit: number }): Promise<Buffer> {
  const decoder = decoderOf(coding);
  if (decoder === undefined)
    return Promise.reject(
      new VerifyError('undecodable_body', `${coding} is not an encoding the harness asked for (${acceptedEncodings})`),
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let held = 0;
    decoder.on('data', (chunk: Buffer) => {
      held += chunk.length;
      decodeMeter.peak = Math.max(decodeMeter.peak, held);
      if (held > context.limit) {
        decoder.destroy();
        reject(tooLarge(coding, context.sent, context.limit));
      } else chunks.push(chunk);
    });
    // zlib's own one-line reason (`incorrect header check`, `unexpected end of file`).
    decoder.on('error', (error) => reject(new Error(error.message)));
    decoder.on('end', () => resolve(Buffer.concat(chunks, held)));
    decoder.end(input);
  });
}

/**
 * A body's bytes with its content codings undone (last applied first, RFC 9110 §8.4), each decoded
 * as a stream and stopped as soon as its output passes `limit` (default `bodyLimit`), as a body
 * whose bytes as sent pass it is refused before any decoding.
 * @throws VerifyError `body_too_large` past the bound; `undecodable_body` for a coding the harness
 * did not ask for, or more than 4; Error, in one line, for a body that is not in its coding.
 * @example
 * const bytes = await decodedBytes(gzipSync('[]'), 'gzip'); // <Buffer 5b 5d>
 */
export async function decodedBytes(
  body: Buffer,
  contentEncoding: string | undefined,
  limit = bodyLimit,
): Promise<Buffer> {
  if (body.length > limit) throw tooLarge(undefined, body.length, limit);
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity')
    .reverse();
  if (codings.length > maxCodings)
    throw new VerifyError(
      'undecodable_body',
      `${codings.length} content codings: the harness undoes at most ${maxCodings} (${contentEncoding})`,
    );
  let decoded = body;
  for (const coding of codings) decoded = await undo(decoded, coding, { sent: body.length, limit });
  return decoded;
}

/**
 * The text of a response body, as the harness, the validating proxy and `har` read it: its content
 * codings undone within the kit's bound (`decodedBytes`), then its bytes read as UTF-8, with
 * `invalidUtf8` when some are not (RFC 8259 §8.1; the text then holds replacement characters). A
 * byte order mark is kept, so that a check can name it.
 * @throws VerifyError `body_too_large` or `undecodable_body`, Error: as `decodedBytes`.
 * @example
 * const { text } = await responseText(gzipSync('[]'), 'gzip'); // '[]'
 */
export async function responseText(
  body: Buffer,
  contentEncoding: string | undefined,
  limit = bodyLimit,
): Promise<{ text: string; invalidUtf8: boolean }> {
  const decoded = await decodedBytes(body, contentEncoding, limit);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(decoded), invalidUtf8: false };
  } catch {
    return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(decoded), invalidUtf8: true };
  }
}
