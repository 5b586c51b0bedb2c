import { parse, stringify } from 'lossless-json';

/**
 * A JSON value as the kit holds it: integers outside JavaScript's safe range are `bigint`, so
 * 9007199254740993 stays 9007199254740993 instead of becoming 9007199254740992.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

const integerText = /^-?[0-9]+$/;

function parseNumber(text: string): number | bigint {
  const value = Number(text);
  if (integerText.test(text) && !Number.isSafeInteger(value)) return BigInt(text);
  return value;
}

function parseLosslessly(text: string): JsonValue {
  return parse(text, null, { parseNumber }) as JsonValue;
}

/**
 * Parses JSON text losslessly: every integer literal outside the safe range becomes a `bigint`,
 * every other number a `number`. Duplicate keys are a syntax error (unless their values are equal), and `__proto__` stays an own key.
 *
 * Large bodies (a seed of 100,000 orders is 9 MB) are parsed by the engine's `JSON.parse`, and the
 * result is then proved equal to what the lossless parser would give. Integer literals of 16 digits
 * or more (which may lie beyond 2^53) are written as strings with a mark, a leading NUL, before
 * `JSON.parse` sees them, and read back as exact numbers by a walk; the walk also counts the keys and
 * finds any integer `JSON.parse` rounded (then the text is marked and parsed again). The
 * colons of the text outside its strings must be exactly the keys: a duplicate key, which
 * `JSON.parse` would silently drop, has a colon of its own. Whatever this cannot prove (an escaped
 * colon or NUL, a rounded number, a mark where a key stands, invalid JSON) goes to the lossless
 * parser `lossless-json`, which answers exactly and words the syntax errors. A 9 MB list of 100,000
 * orders parses in about 60 ms this way (ids beyond 2^53: about 190 ms); `lossless-json` takes about
 * 260 ms. `test/json.test.ts` compares the two parsers on generated texts.
 * @throws SyntaxError when the text is not valid JSON.
 * @example
 * parseJson('{"id": 9223372036854775807}') // { id: 9223372036854775807n }
 */
export function parseJson(text: string): JsonValue {
  const tally: Tally = { keys: 0, colonsInStrings: 0, roundedIntegers: 0, marks: 0 };
  let value: unknown;
  try {
    // A member value of 16 digits or more near the start (ids beyond 2^53 in the first orders of a
    // list) says to mark before the first parse; a long integer anywhere else is found rounded by the
    // walk, and the text is marked then.
    let marking = longMemberInteger.test(text.length > 65_536 ? text.slice(0, 65_536) : text);
    for (;;) {
      // A mark could be taken for an escaped NUL of the text: such a text goes to the lossless parser.
      if (marking && text.includes('\\u0000')) return parseLosslessly(text);
      value = JSON.parse(marking ? markLongIntegers(text, tally) : text);
      if (typeof value !== 'object' || value === null) return parseLosslessly(text);
      value = tallied(value, tally, marking);
      if (marking || tally.roundedIntegers === 0) break;
      Object.assign(tally, { keys: 0, colonsInStrings: 0, roundedIntegers: 0, marks: 0 });
      marking = true;
    }
  } catch {
    // Not JSON, or nesting too deep to walk: the lossless parser decides, and words the error.
    return parseLosslessly(text);
  }
  // A mark that is not read back as a number stood where no number may stand (a key).
  if (tally.roundedIntegers > 0 || tally.marks !== 0) return parseLosslessly(text);
  if (escapedColon.test(text) || colonsIn(text) !== tally.keys + tally.colonsInStrings) return parseLosslessly(text);
  return value as JsonValue;
}

interface Tally {
  keys: number;
  colonsInStrings: number;
  roundedIntegers: number;
  /** Marks written and not yet read back. */
  marks: number;
}

const longMemberInteger = /:\s*-?[0-9]{16}/;
const marker = '\u0000';
const escapedColon = /\\u003[aA]/;

// Writes every integer literal of 16 digits or more as a string marked by a leading NUL (the text
// is valid JSON: JSON.parse read it). Strings are skipped whole, so digits inside them stay as they are.
function markLongIntegers(text: string, tally: Tally): string {
  const parts: string[] = [];
  let copiedUpTo = 0;
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      let end = text.indexOf('"', at + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return text;
      at = end + 1;
    } else if (code === 0x2d || isDigit(code)) {
      const start = at;
      if (code === 0x2d) at++;
      const digits = at;
      while (isDigit(text.charCodeAt(at))) at++;
      const next = text.charCodeAt(at);
      if (next === 0x2e || next === 0x65 || next === 0x45) {
        // A fraction or an exponent: not an integer literal. Skip the rest of the number.
        at++;
        while (
          isDigit(text.charCodeAt(at)) ||
          text.charCodeAt(at) === 0x2b ||
          text.charCodeAt(at) === 0x2d ||
          text.charCodeAt(at) === 0x65 ||
          text.charCodeAt(at) === 0x45
        )
          at++;
      } else if (at - digits >= 16 && text.charCodeAt(digits) !== 0x30) {
        // (A leading zero is not JSON: left as it is, JSON.parse refuses it and the lossless parser words why.)
        parts.push(text.slice(copiedUpTo, start), '"\\u0000', text.slice(start, at), '"');
        copiedUpTo = at;
        tally.marks++;
      }
    } else {
      at++;
    }
  }
  parts.push(text.slice(copiedUpTo));
  return parts.join('');
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// Whether the character at `at` follows an odd number of backslashes.
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

function colonsIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count++;
  return count;
}

function colonsInString(text: string): number {
  return text.includes(':') ? colonsIn(text) : 0;
}

// Counts what the colon check needs and the integers JSON.parse rounded; with `unmark`, turns the
// marked strings back into exact numbers. Returns the value, changed in place where it holds marks.
function tallied(value: unknown, tally: Tally, unmark: boolean): unknown {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) tally.roundedIntegers++;
    return value;
  }
  if (typeof value === 'string') {
    if (unmark && value.startsWith(marker)) {
      tally.marks--;
      return parseNumber(value.slice(1));
    }
    tally.colonsInStrings += colonsInString(value);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const result = tallied(item, tally, unmark);
      if (result !== item) value[index] = result;
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    tally.keys++;
    tally.colonsInStrings += colonsInString(key);
    const item = record[key];
    const result = tallied(item, tally, unmark);
    // defineProperty, not assignment: assigning to a key named __proto__ would set the prototype.
    if (result !== item)
      Object.defineProperty(record, key, { value: result, writable: true, enumerable: true, configurable: true });
  }
  return value;
}

/**
 * Serialises a value to JSON text, writing every `bigint` as an exact JSON number.
 * @example
 * stringifyJson([{ id: 9007199254740993n }]) // '[{"id":9007199254740993}]'
 */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

/**
 * Turns every `bigint` that fits a safe integer into a `number`, leaving the rest: the shape
 * `parseJson` gives, for values read by a parser that makes every integer a `bigint` (YAML's `intAsBigInt`).
 * @example
 * withSafeIntegers({ id: 7n, big: 9007199254740993n }) // { id: 7, big: 9007199254740993n }
 */
export function withSafeIntegers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(withSafeIntegers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withSafeIntegers(item)]));
  }
  return value;
}

/** What a JSON text may hold, checked in one pass over its bytes before it is parsed. */
export interface JsonBounds {
  /** The deepest nesting of arrays and objects. */
  maxDepth: number;
  /** The most digits in a run of them outside strings (an integer literal, or a number's parts). */
  maxDigits: number;
}

/** A bound a JSON text goes past: which one, and the bound. */
export interface JsonBoundBreach {
  bound: 'depth' | 'digits';
  limit: number;
}

/**
 * Checks a JSON text's nesting and digit runs as its bytes (or characters) come, before any parse:
 * constant work per byte, so a body nested 10,000 deep or holding an integer of 30 million digits is
 * refused as soon as it passes the bound, without a parse that overflows the stack or a conversion to
 * `bigint` that takes seconds. Strings are skipped (escapes included); the text's syntax is not checked
 * (the parse does that). Feed it chunks in order; it answers the first breach, and the same from then on.
 * @example
 * const scanner = new JsonBoundsScanner({ maxDepth: 32, maxDigits: 19 });
 * scanner.feed('[{"id": 99999999999999999999}]'); // { bound: 'digits', limit: 19 }
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

  /** Reads the next chunk (bytes, or text: the characters that matter are ASCII); the first breach, or undefined. */
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
    if (isDigit(code)) {
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
