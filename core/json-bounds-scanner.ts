export interface JsonBounds {
  maxDepth: number;
  /** The longest run of digits outside strings. */
  maxDigits: number;
}

export interface JsonBoundBreach {
  bound: 'depth' | 'digits';
  limit: number;
}

/**
 * Checks a JSON text's nesting and digit runs chunk by chunk, before any parse, so that a hostile body is
 * refused without overflowing the stack or building a huge `bigint`. The syntax is left to the parser.
 */
export class JsonBoundsScanner {
  readonly #bounds: JsonBounds;
  #depth = 0;
  #digits = 0;
  #inString = false;
  #escaped = false;
  #breach: JsonBoundBreach | undefined;

  constructor(bounds: JsonBounds) {
    this.#bounds = bounds;
  }

  /** Bytes or text will do: the characters that matter are ASCII. */
  feed(chunk: Uint8Array | string): JsonBoundBreach | undefined {
    if (this.#breach !== undefined) return this.#breach;
    const bytes = typeof chunk !== 'string';
    for (let at = 0; at < chunk.length && this.#breach === undefined; at++)
      this.#next(bytes ? (chunk as Uint8Array)[at]! : (chunk as string).charCodeAt(at));
    return this.#breach;
  }

  #next(code: number): void {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (code === 0x5c) this.#escaped = true;
      else if (code === 0x22) this.#inString = false;
      return;
    }
    if (code >= 0x30 && code <= 0x39) {
      if (++this.#digits > this.#bounds.maxDigits) this.#breach = { bound: 'digits', limit: this.#bounds.maxDigits };
      return;
    }
    this.#digits = 0;
    if (code === 0x22) this.#inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++this.#depth > this.#bounds.maxDepth) this.#breach = { bound: 'depth', limit: this.#bounds.maxDepth };
    } else if ((code === 0x5d || code === 0x7d) && this.#depth > 0) this.#depth--;
  }
}
