import { bodyLimit } from '../../core/body-limit.js';

/**
 * Reads an HTTP/1.1 response from the bytes a connection carries, as RFC 9112 frames it, without
 * changing them: the validating proxy forwards the bytes as they come and gives a copy to this reader
 * to check. It says when the response is complete, whether the connection closed before (a
 * truncation), and whether bytes came after its end (a 204 followed by content).
 */
export class RawResponseReader {
  readonly #method: string;
  #buffer: Buffer = Buffer.alloc(0);
  #status: number | undefined;
  #headers: [string, string][] = [];
  #framing: { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' } | undefined;
  #body: Buffer[] = [];
  #bodySize = 0;
  #complete = false;
  #trailingBytes = false;
  #malformed: string | undefined;
  #limit: number;
  #overLimit = false;

  /**
   * @param method the request's method (a response to HEAD has no content).
   * @param limit the most body bytes to keep for checking; past it the body is still framed, not kept.
   */
  constructor(method: string, limit = bodyLimit) {
    this.#method = method.toUpperCase();
    this.#limit = limit;
  }

  /** Whether the response has ended as its framing says. */
  get complete(): boolean {
    return this.#complete;
  }

  /** Feeds the next bytes of the connection. */
  push(chunk: Buffer): void {
    if (this.#malformed !== undefined) return;
    if (this.#complete) {
      if (chunk.length > 0) this.#trailingBytes = true;
      return;
    }
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    this.#advance();
  }

  /** The connection closed: a close-delimited body ends here; any other unfinished response is truncated. */
  close(): void {
    if (!this.#complete && this.#framing?.kind === 'close') {
      this.#keep(this.#buffer);
      this.#buffer = Buffer.alloc(0);
      this.#complete = true;
    }
  }

  /** What was read: the final status, its header fields in order, the body (as sent, still encoded), and what went wrong. */
  result(): {
    status?: number;
    headers: [string, string][];
    body: Buffer;
    complete: boolean;
    trailingBytes: boolean;
    malformed?: string;
    overLimit: boolean;
  } {
    return {
      ...(this.#status !== undefined && { status: this.#status }),
      headers: this.#headers,
      body: Buffer.concat(this.#body),
      complete: this.#complete,
      trailingBytes: this.#trailingBytes,
      ...(this.#malformed !== undefined && { malformed: this.#malformed }),
      overLimit: this.#overLimit,
    };
  }

  #keep(bytes: Buffer): void {
    this.#bodySize += bytes.length;
    if (this.#bodySize > this.#limit) this.#overLimit = true;
    else if (bytes.length > 0) this.#body.push(bytes);
  }

  #header(name: string): string | undefined {
    const values = this.#headers.filter(([field]) => field.toLowerCase() === name).map(([, value]) => value);
    return values.length === 0 ? undefined : values.join(', ');
  }

  #advance(): void {
    while (this.#framing === undefined) {
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
      this.#buffer = this.#buffer.subarray(end + 4);
      const match = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
      if (match === null) {
        this.#malformed = `the status line is not HTTP/1.1: ${JSON.stringify(statusLine.slice(0, 40))}`;
        return;
      }
      const status = Number(match[1]);
      const headers = headerFields(lines);
      // Interim responses (100 Continue, 103 Early Hints) come before the final one.
      if (status >= 100 && status < 200 && status !== 101) continue;
      this.#status = status;
      this.#headers = headers;
      const encoding = this.#header('transfer-encoding');
      const length = this.#header('content-length');
      if (this.#method === 'HEAD' || status === 204 || status === 304 || status < 200) this.#framing = { kind: 'none' };
      else if (encoding !== undefined && /(^|,)\s*chunked\s*$/i.test(encoding)) this.#framing = { kind: 'chunked' };
      else if (length !== undefined && /^\d+$/.test(length.trim()))
        this.#framing = { kind: 'length', length: Number(length.trim()) };
      else this.#framing = { kind: 'close' };
    }
    const framing = this.#framing;
    if (framing.kind === 'none') {
      this.#complete = true;
      if (this.#buffer.length > 0) this.#trailingBytes = true;
    } else if (framing.kind === 'length') {
      const wanted = framing.length - this.#bodySize;
      this.#keep(this.#buffer.subarray(0, wanted));
      if (this.#buffer.length >= wanted) {
        this.#complete = true;
        if (this.#buffer.length > wanted) this.#trailingBytes = true;
      }
      this.#buffer = Buffer.alloc(0);
    } else if (framing.kind === 'chunked') {
      this.#chunks();
    }
  }

  // chunk = chunk-size [ extensions ] CRLF data CRLF; the last chunk is 0, then trailer fields and CRLF.
  #chunks(): void {
    for (;;) {
      const lineEnd = this.#buffer.indexOf('\r\n');
      if (lineEnd === -1) return;
      const size = Number.parseInt(this.#buffer.subarray(0, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
      if (Number.isNaN(size)) {
        this.#malformed = 'a chunk size is not hexadecimal';
        return;
      }
      if (size === 0) {
        // The last chunk: trailer fields, if any, then an empty line.
        const afterSize = lineEnd + 2;
        let finish: number;
        if (
          this.#buffer.length >= afterSize + 2 &&
          this.#buffer[afterSize] === 13 &&
          this.#buffer[afterSize + 1] === 10
        )
          finish = afterSize + 2;
        else {
          const end = this.#buffer.indexOf('\r\n\r\n', afterSize - 2);
          if (end === -1) return;
          finish = end + 4;
        }
        this.#complete = true;
        if (this.#buffer.length > finish) this.#trailingBytes = true;
        this.#buffer = Buffer.alloc(0);
        return;
      }
      if (this.#buffer.length < lineEnd + 2 + size + 2) return;
      this.#keep(this.#buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      this.#buffer = this.#buffer.subarray(lineEnd + 2 + size + 2);
    }
  }
}

/** An HTTP/1.1 request head as a client sent it. */
export interface RawRequestHead {
  method: string;
  target: string;
  version: string;
  headers: [string, string][];
  /** How many bytes the head took, its final CRLFCRLF included. */
  length: number;
}

/** Reads a request head from the first bytes of a connection, or undefined until it is whole. */
export function readRequestHead(bytes: Buffer): RawRequestHead | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [requestLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
  return { method, target, version, headers: headerFields(lines), length: end + 4 };
}

// The field lines of a head, as name and value, in order (RFC 9112 §5: name ":" OWS value OWS).
function headerFields(lines: readonly string[]): [string, string][] {
  return lines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
}
