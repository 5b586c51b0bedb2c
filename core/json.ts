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
 * The text is parsed by the engine's `JSON.parse`, and the result is then proved equal to what the
 * lossless parser would give. A walk counts the keys and finds every integer of 16 digits or more (one
 * that may lie beyond 2^53). When some were rounded, their exact digits are read from the text: the
 * integer literals of 16 digits or more, in order, must be exactly those integers (nothing else in the
 * text looks like one, and no number has an exponent). Where that cannot be proved (an exponent, a key
 * that begins with a digit, which `JSON.parse` would reorder, digits in a string that look like a
 * literal), the long literals are written as strings with a mark, a leading NUL, and the text is parsed
 * again. The colons of the text outside its strings must be exactly the keys: a duplicate key, which
 * `JSON.parse` would silently drop, has a colon of its own. Whatever this cannot prove (an escaped
 * colon or NUL, a mark where a key stands, invalid JSON) goes to the lossless parser `lossless-json`,
 * which answers exactly and words the syntax errors. A 1 MB list of 10,000 orders whose every id is
 * beyond 2^53 parses in 1.7 times the time of `JSON.parse` in Node and 2.5 times in Chromium
 * (bench/RESULTS.md); `test/json.test.ts` compares the two parsers on generated texts.
 * @throws SyntaxError when the text is not valid JSON.
 * @example
 * parseJson('{"id": 9223372036854775807}') // { id: 9223372036854775807n }
 */
export function parseJson(text: string): JsonValue {
  let tally = newTally({ unmark: false });
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return parseLosslessly(text);
    walk(value, tally);
    if (tally.roundedIntegers > 0 && !readFromSource(text, tally)) {
      // A mark could be taken for an escaped NUL of the text: such a text goes to the lossless parser.
      if (text.includes('\\u0000')) return parseLosslessly(text);
      tally = newTally({ unmark: true });
      value = JSON.parse(markLongIntegers(text, tally));
      if (typeof value !== 'object' || value === null) return parseLosslessly(text);
      walk(value, tally);
    }
  } catch {
    // Not JSON, or nesting too deep to walk: the lossless parser decides, and words the error.
    return parseLosslessly(text);
  }
  // A mark that is not read back as a number stood where no number may stand (a key).
  if (tally.marks !== 0 || (tally.roundedIntegers > 0 && tally.fromSource === 0)) return parseLosslessly(text);
  const colons = tally.colons ?? colonsIn(text);
  if (escapedColon.test(text) || colons !== tally.keys + tally.colonsInStrings) return parseLosslessly(text);
  return value as JsonValue;
}

interface Tally {
  keys: number;
  colonsInStrings: number;
  /** Integers JSON.parse gave rounded (beyond 2^53). */
  roundedIntegers: number;
  /** Integers of 16 digits or more, in the order of the text: where each stands. */
  longIntegers: { holders: object[]; keys: (string | number)[]; inArrays: number };
  /** The colons of the text, when they were counted on the way. */
  colons: number | undefined;
  /** Keys that begin with a digit: JSON.parse puts the integer ones first, out of the text's order. */
  digitKeys: number;
  /** Integers read exactly from the text's literals. */
  fromSource: number;
  /** Whether the text was marked: strings with a mark are numbers. */
  unmark: boolean;
  /** Marks written and not yet read back. */
  marks: number;
}

function newTally({ unmark }: { unmark: boolean }): Tally {
  const longIntegers = { holders: [], keys: [], inArrays: 0 };
  return {
    keys: 0,
    colonsInStrings: 0,
    roundedIntegers: 0,
    longIntegers,
    colons: undefined,
    digitKeys: 0,
    fromSource: 0,
    unmark,
    marks: 0,
  };
}

const marker = '\u0000';
const escapedColon = /\\u003[aA]/;
/** Below this, an integer has fewer than 16 digits and JSON.parse gives it exactly. */
const longIntegerMagnitude = 1e15;

// The first 16 digits of an integer literal of 16 digits or more where a number may stand in valid
// JSON (after `[`, `:` or `,`). Digits in a string can look the same; readFromSource tells them apart.
const longLiteralStart = /[:,[][ \t\n\r]*-?[1-9][0-9]{15}/g;
// A number with an exponent (in valid JSON the exponent's digits follow the `e` and its sign).
const exponent = /[0-9][eE][-+]?[0-9]/;

/** The integer literals of 16 digits or more found in a text, where each starts and ends, in order. */
interface LongLiterals {
  starts: number[];
  ends: number[];
  /** Whether one of them could be digits in a string. */
  unproved: boolean;
}

// Reads the rounded integers' exact digits from the text, or answers false when it cannot prove them.
// Every integer literal of 16 digits or more outside the strings is found (after a colon when the walk
// found every integer of 16 digits or more in an object) and ends before a delimiter. A literal found is
// proved outside the strings when a member's colon or a comma stands right after a closing quote (see
// closesString). When the literals found are as many as the integers of 16 digits or more the walk
// found, and each is proved or the text has no exponent (nor a fraction after a long integer part),
// every such integer came from a literal and none from a string: they are those integers, in the text's
// order. (A key that begins with a digit could be put first by JSON.parse, out of that order: not proved.)
function readFromSource(text: string, tally: Tally): boolean {
  const { holders, keys, inArrays } = tally.longIntegers;
  if (tally.digitKeys > 0) return false;
  const literals = inArrays > 0 ? literalsAnywhere(text) : literalsAfterColons(text, tally);
  if (literals === undefined || literals.starts.length !== keys.length) return false;
  if (literals.unproved && exponent.test(text)) return false;
  for (let index = 0; index < keys.length; index++) {
    const holder = holders[index]!;
    const key = keys[index]!;
    if (!Number.isSafeInteger((holder as Record<string | number, unknown>)[key]))
      setMember(holder, key, BigInt(text.slice(literals.starts[index], literals.ends[index])));
  }
  tally.fromSource = keys.length;
  return true;
}

function literalsAnywhere(text: string): LongLiterals | undefined {
  const literals: LongLiterals = { starts: [], ends: [], unproved: false };
  longLiteralStart.lastIndex = 0;
  while (longLiteralStart.test(text)) {
    const end = longLiteralStart.lastIndex;
    if (!noteLongLiteral(text, text.charCodeAt(end - 17) === 0x2d ? end - 17 : end - 16, literals)) return undefined;
  }
  return literals;
}

// The member values only, found while counting the colons (which the duplicate-key check needs anyway).
function literalsAfterColons(text: string, tally: Tally): LongLiterals | undefined {
  const literals: LongLiterals = { starts: [], ends: [], unproved: false };
  let colons = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) {
    colons++;
    let start = at + 1;
    while (isSpace(text.charCodeAt(start))) start++;
    if (!noteLongLiteral(text, start, literals)) return undefined;
  }
  tally.colons = colons;
  return literals;
}

// Notes the integer literal of 16 digits or more that starts at `start` (its sign or first digit), if
// one does; false when a fraction follows the digits: a number that is no integer literal, or digits in
// a string, not proved. (An exponent after them is a number where a literal stands, or digits in a
// string: either way, not a literal, and found by the exponent test if it matters.)
function noteLongLiteral(text: string, start: number, literals: LongLiterals): boolean {
  const first = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const leading = text.charCodeAt(first);
  if (leading < 0x31 || leading > 0x39) return true;
  let end = first + 1;
  while (isDigit(text.charCodeAt(end))) end++;
  if (end - first < 16) return true;
  const next = text.charCodeAt(end);
  if (next === 0x2e) return false;
  // A literal ends where the text ends or before a space, a comma or a bracket.
  if (!(Number.isNaN(next) || isSpace(next) || next === 0x2c || next === 0x5d || next === 0x7d)) return true;
  literals.unproved ||= !closesString(text, start);
  literals.starts.push(start);
  literals.ends.push(end);
  return true;
}

// Whether the number at `start` follows a colon or a comma that follows a closing quote, and so stands
// outside the strings. The quote is not escaped (no backslash before it) and cannot open a string: in
// valid JSON an opening quote follows a space, a bracket, a brace, a comma or a colon.
function closesString(text: string, start: number): boolean {
  let at = start - 1;
  while (isSpace(text.charCodeAt(at))) at--;
  const separator = text.charCodeAt(at);
  if (separator !== 0x3a && separator !== 0x2c) return false;
  at--;
  while (isSpace(text.charCodeAt(at))) at--;
  if (text.charCodeAt(at) !== 0x22) return false;
  const before = text.charCodeAt(at - 1);
  return !(
    isSpace(before) ||
    before === 0x5c ||
    before === 0x5b ||
    before === 0x7b ||
    before === 0x2c ||
    before === 0x3a
  );
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

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

// Counts what the colon check needs and the integers JSON.parse rounded, notes where each integer of
// 16 digits or more stands, and turns the marked strings back into exact numbers.
function walk(value: object, tally: Tally): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) visit(value, index, value[index], tally);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    tally.keys++;
    tally.colonsInStrings += colonsInString(key);
    if (isDigit(key.charCodeAt(0))) tally.digitKeys++;
    visit(record, key, record[key], tally);
  }
}

function visit(holder: object, key: string | number, item: unknown, tally: Tally): void {
  if (typeof item === 'number') {
    if (Number.isInteger(item) && (item >= longIntegerMagnitude || item <= -longIntegerMagnitude)) {
      tally.longIntegers.holders.push(holder);
      tally.longIntegers.keys.push(key);
      if (typeof key === 'number') tally.longIntegers.inArrays++;
      if (!Number.isSafeInteger(item)) tally.roundedIntegers++;
    }
  } else if (typeof item === 'string') {
    if (tally.unmark && item.startsWith(marker)) {
      tally.marks--;
      setMember(holder, key, parseNumber(item.slice(1)));
    } else tally.colonsInStrings += colonsInString(item);
  } else if (typeof item === 'object' && item !== null) walk(item, tally);
}

function setMember(holder: object, key: string | number, value: number | bigint): void {
  // defineProperty for __proto__: assigning to a key named __proto__ would set the prototype.
  if (key === '__proto__')
    Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
  else (holder as Record<string | number, unknown>)[key] = value;
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
