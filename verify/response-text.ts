import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { VerifyError } from './errors.js';

/** The content codings the harness asks for (`Accept-Encoding`), and so decodes (RFC 9110 §8.4.1). */
export const acceptedEncodings = 'gzip, deflate, br';

/**
 * The text of a response body, as the harness and the validating proxy read it: its content codings
 * undone (last applied first, RFC 9110 §8.4), then its bytes read as UTF-8, with `invalidUtf8` when
 * some are not (RFC 8259 §8.1; the text then holds replacement characters). A byte order mark is kept,
 * so that a check can name it.
 * @throws Error when the body cannot be decoded as its Content-Encoding says, in one line.
 */
export function responseText(
  body: Buffer,
  contentEncoding: string | undefined,
): { text: string; invalidUtf8: boolean } {
  let decoded = body;
  for (const coding of (contentEncoding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity')
    .reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoded = gunzipSync(decoded);
    else if (coding === 'deflate') decoded = inflateSync(decoded);
    else if (coding === 'br') decoded = brotliDecompressSync(decoded);
    else
      throw new VerifyError(
        'undecodable_body',
        `${coding} is not an encoding the harness asked for (${acceptedEncodings})`,
      );
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(decoded), invalidUtf8: false };
  } catch {
    return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(decoded), invalidUtf8: true };
  }
}
