import type { Finding } from '../../core/finding.js';

/** What a HAR entry says of its answer's body besides the body it kept. */
export interface DeclaredSizeInput {
  status: number;
  headers: Headers;
  /** `response.content.size`: the body's length once its content codings are undone (Chrome, Firefox, Playwright). */
  contentSize: unknown;
  /** The body's text once its content codings are undone, as the checks read it. */
  text: string;
  invalidUtf8: boolean;
}

/** The HAR's own evidence on an answer's size: a finding it proves, or why its body cannot be judged. */
export type SizeEvidence = { finding: Finding } | { unjudged: string } | undefined;

// What a browser's decoding of a UTF-8 body strips (the WHATWG decode, DevTools' text): its byte order mark.
const byteOrderMarkBytes = 3;

/**
 * Weighs what a HAR entry declares of its answer's size against the bytes it kept: `content.size`
 * (always the decoded length) and, when no content coding applies, the `Content-Length` the deployment sent (it counts the bytes as sent: RFC 9110 §8.6). A body 3 bytes short
 * of both, in UTF-8 and kept whole otherwise, is one whose byte order mark the browser stripped: an
 * `encoding` finding (RFC 8259 §8.1). Any other shortfall is the HAR tool's (a cut, a size limit): the
 * body is not judged (its answer is, on its status and headers), never blamed on the deployment. A body
 * longer than its `Content-Length` (text read in another charset and kept as UTF-8) is not the bytes
 * sent: its body is not judged either. `response.bodySize` is not read:
 * it counts what crossed the wire (compressed, or with Chrome's transfer framing, 0 from a cache).
 * @example
 * declaredSize({ status: 200, headers: new Headers({ 'content-length': '112' }), contentSize: 109, text, invalidUtf8: false })
 * // { finding: { code: 'encoding', ... } } when `text` is 109 bytes of JSON
 */
export function declaredSize(input: DeclaredSizeInput): SizeEvidence {
  const { headers, text } = input;
  const length = Buffer.byteLength(text, 'utf8');
  const declared: { what: string; bytes: number }[] = [];
  if (typeof input.contentSize === 'number' && Number.isInteger(input.contentSize) && input.contentSize > length)
    declared.push({ what: 'content.size', bytes: input.contentSize });
  const contentLength = contentLengthOf(headers);
  const coded = (headers.get('content-encoding') ?? '')
    .split(',')
    .some((coding) => coding.trim() !== '' && coding.trim().toLowerCase() !== 'identity');
  // A coded answer's Content-Length counts the coded bytes, and a browser keeps the decoded text: it
  // says nothing of the text. Nor does it of a text a browser read in another charset.
  const comparable = contentLength !== undefined && !coded && utf8(headers) && !input.invalidUtf8;
  if (comparable && contentLength > length) declared.push({ what: 'Content-Length', bytes: contentLength });
  if (comparable && contentLength < length)
    return {
      unjudged: `the HAR holds more than the answer's Content-Length declared (${length} bytes for ${contentLength}): not the bytes the deployment sent`,
    };
  const largest = declared.reduce<{ what: string; bytes: number } | undefined>(
    (most, item) => (most === undefined || item.bytes > most.bytes ? item : most),
    undefined,
  );
  if (largest === undefined || input.invalidUtf8) return undefined;
  // A Content-Length equal to the text says the deployment sent no more: the tool's content.size is then no evidence of a mark.
  if (contentLength !== length && strippedByteOrderMark(input, declared, length))
    return {
      finding: {
        code: 'encoding',
        path: '',
        expected: 'a JSON text without a byte order mark (RFC 8259 §8.1)',
        actual: `one before the JSON: its ${declared.map(({ what }) => what).join(' and ')} declares ${largest.bytes} bytes, 3 more than the ${length} the HAR kept, the byte order mark a browser strips`,
      },
    };
  if (largest.what === 'content.size')
    return { unjudged: `its body is cut in the HAR (${length} of ${largest.bytes} bytes kept)` };
  return {
    unjudged: `the HAR kept less than the answer had (its Content-Length declares ${largest.bytes} bytes, the HAR holds ${length})`,
  };
}

// Every size declared is 3 bytes more than the text, which is whole but for that and has no mark left.
function strippedByteOrderMark(
  input: DeclaredSizeInput,
  declared: readonly { bytes: number }[],
  length: number,
): boolean {
  return (
    input.status !== 204 &&
    length > 0 &&
    !input.text.startsWith('\uFEFF') &&
    declared.every(({ bytes }) => bytes - length === byteOrderMarkBytes)
  );
}

// A Content-Length of digits only (RFC 9110 §8.6); a list of the same value, as a proxy may send, is that value.
function contentLengthOf(headers: Headers): number | undefined {
  const values = new Set((headers.get('content-length') ?? '').split(',').map((value) => value.trim()));
  const [value] = values;
  return values.size === 1 && value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

// A body whose text a browser read as UTF-8 (no charset, or utf-8): another charset's text is kept transcoded.
function utf8(headers: Headers): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(headers.get('content-type') ?? '')?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}
