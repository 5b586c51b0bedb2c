import { parse } from 'lossless-json';
import type { CoreErrorCode } from './errors.js';

/**
 * A JSON value with every integer outside the safe range as a `bigint`, so that it stays exact.
 * @example
 * const order: JsonValue = { id: 9007199254740993n, quantity: 1 };
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** Text that is not valid JSON: a `SyntaxError`, as `JSON.parse` throws, with the code `invalid_json`. */
export class JsonSyntaxError extends SyntaxError {
  // A getter, not an own field, so that the error still equals the SyntaxError lossless-json throws.
  get code(): Extract<CoreErrorCode, 'invalid_json'> {
    return 'invalid_json';
  }
}

const integerText = /^-?[0-9]+$/;

function parseNumber(text: string): number | bigint {
  const value = Number(text);
  if (integerText.test(text) && !Number.isSafeInteger(value)) return BigInt(text);
  return value;
}

function parseLosslessly(text: string): JsonValue {
  try {
    return parse(text, null, { parseNumber }) as JsonValue;
  } catch (error) {
    if (error instanceof SyntaxError) throw new JsonSyntaxError(error.message);
    throw error;
  }
}

/**
 * Parses JSON text losslessly: integers outside the safe range become `bigint`s, duplicate keys are
 * a syntax error (unless their values are equal), and `__proto__` stays an own key.
 *
 * For speed `JSON.parse` reads the text, and the result is proved equal to what `lossless-json` would
 * give; anything the proof does not cover goes to `lossless-json` (docs/architecture.md, "int64").
 * @throws JsonSyntaxError, a `SyntaxError` with the code `invalid_json`, when the text is not valid JSON.
 * @example
 * parseJson('{"id": 9223372036854775807}') // { id: 9223372036854775807n }
 */
export function parseJson(text: string): JsonValue {
  let counts = emptyCounts({ textMarked: false });
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return parseLosslessly(text);
    walk(value, counts);
    if (counts.roundedIntegers > 0 && !readLongIntegersFromText(text, counts)) {
      // The text's own escaped NULs would be taken for marks.
      if (text.includes('\\u0000')) return parseLosslessly(text);
      counts = emptyCounts({ textMarked: true });
      value = JSON.parse(markLongIntegers(text, counts));
      if (typeof value !== 'object' || value === null) return parseLosslessly(text);
      walk(value, counts);
    }
  } catch {
    // Not JSON, or too deep to walk: the lossless parser decides, and words the error.
    return parseLosslessly(text);
  }
  // A mark left unread stood where no number may stand: a key.
  if (counts.marks !== 0 || (counts.roundedIntegers > 0 && counts.readFromText === 0)) return parseLosslessly(text);
  const colons = counts.colons ?? colonsIn(text);
  if (escapedColon.test(text) || colons !== counts.keys + counts.colonsInStrings) return parseLosslessly(text);
  return value as JsonValue;
}

interface ParseCounts {
  keys: number;
  colonsInStrings: number;
  roundedIntegers: number;
  /** Integers of 16 digits or more, in the text's order, and the object or array holding each. */
  longIntegers: { holders: object[]; keys: (string | number)[]; inArrays: number };
  colons: number | undefined;
  /** JSON.parse moves such keys out of the text's order. */
  digitKeys: number;
  readFromText: number;
  /** Whether long integers were written as marked strings before the parse. */
  textMarked: boolean;
  marks: number;
}

function emptyCounts({ textMarked }: { textMarked: boolean }): ParseCounts {
  const longIntegers = { holders: [], keys: [], inArrays: 0 };
  return {
    keys: 0,
    colonsInStrings: 0,
    roundedIntegers: 0,
    longIntegers,
    colons: undefined,
    digitKeys: 0,
    readFromText: 0,
    textMarked,
    marks: 0,
  };
}

const mark = '\u0000';
const escapedColon = /\\u003[aA]/;
/** Integers below this have fewer than 16 digits, and JSON.parse reads them exactly. */
const smallestLongInteger = 1e15;

// Where a number may stand in valid JSON (after `[`, `:` or `,`): the first 16 digits of a long integer.
const longLiteralStart = /[:,[][ \t\n\r]*-?[1-9][0-9]{15}/g;
const exponent = /[0-9][eE][-+]?[0-9]/;

interface LongLiterals {
  starts: number[];
  ends: number[];
  /** One of them could be digits inside a string. */
  unproved: boolean;
}

// Gives the rounded integers their exact digits from the text, or returns false when it cannot prove
// which literal is which: the literals must be as many as the long integers, and none may be digits in a string.
function readLongIntegersFromText(text: string, counts: ParseCounts): boolean {
  const { holders, keys, inArrays } = counts.longIntegers;
  if (counts.digitKeys > 0) return false;
  const literals = inArrays > 0 ? longLiteralsAnywhere(text) : longLiteralsAfterColons(text, counts);
  if (literals === undefined || literals.starts.length !== keys.length) return false;
  if (literals.unproved && exponent.test(text)) return false;
  for (let index = 0; index < keys.length; index++) {
    const holder = holders[index]!;
    const key = keys[index]!;
    if (!Number.isSafeInteger((holder as Record<string | number, unknown>)[key]))
      setMember(holder, key, BigInt(text.slice(literals.starts[index], literals.ends[index])));
  }
  counts.readFromText = keys.length;
  return true;
}

function longLiteralsAnywhere(text: string): LongLiterals | undefined {
  const literals: LongLiterals = { starts: [], ends: [], unproved: false };
  longLiteralStart.lastIndex = 0;
  while (longLiteralStart.test(text)) {
    const end = longLiteralStart.lastIndex;
    if (!addLongLiteral(text, text.charCodeAt(end - 17) === 0x2d ? end - 17 : end - 16, literals)) return undefined;
  }
  return literals;
}

// Only member values: found while counting the colons, which the duplicate-key check needs anyway.
function longLiteralsAfterColons(text: string, counts: ParseCounts): LongLiterals | undefined {
  const literals: LongLiterals = { starts: [], ends: [], unproved: false };
  let colons = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) {
    colons++;
    let start = at + 1;
    while (isSpace(text.charCodeAt(start))) start++;
    if (!addLongLiteral(text, start, literals)) return undefined;
  }
  counts.colons = colons;
  return literals;
}

// Returns false for a fraction after the digits, which cannot be proved either way.
function addLongLiteral(text: string, start: number, literals: LongLiterals): boolean {
  const first = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const leading = text.charCodeAt(first);
  if (leading < 0x31 || leading > 0x39) return true;
  let end = first + 1;
  while (isDigit(text.charCodeAt(end))) end++;
  if (end - first < 16) return true;
  const next = text.charCodeAt(end);
  if (next === 0x2e) return false;
  if (!(Number.isNaN(next) || isSpace(next) || next === 0x2c || next === 0x5d || next === 0x7d)) return true;
  literals.unproved ||= !followsStringEnd(text, start);
  literals.starts.push(start);
  literals.ends.push(end);
  return true;
}

// Whether the number at `start` follows a closing quote and a colon or comma, so stands outside strings.
// In valid JSON an opening quote follows a space, a bracket, a comma or a colon; any other quote closes.
function followsStringEnd(text: string, start: number): boolean {
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

// Writes every long integer literal as a string starting with a NUL mark, skipping strings whole.
function markLongIntegers(text: string, counts: ParseCounts): string {
  const parts: string[] = [];
  let nextToCopy = 0;
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
        // A leading zero is left alone, so that JSON.parse refuses it and lossless-json says why.
        parts.push(text.slice(nextToCopy, start), '"\\u0000', text.slice(start, at), '"');
        nextToCopy = at;
        counts.marks++;
      }
    } else {
      at++;
    }
  }
  parts.push(text.slice(nextToCopy));
  return parts.join('');
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

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

// Counts keys and colons, notes where each long integer stands, and turns marks back into numbers.
function walk(value: object, counts: ParseCounts): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) visit(value, index, value[index], counts);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    counts.keys++;
    counts.colonsInStrings += colonsInString(key);
    if (isDigit(key.charCodeAt(0))) counts.digitKeys++;
    visit(record, key, record[key], counts);
  }
}

function visit(holder: object, key: string | number, item: unknown, counts: ParseCounts): void {
  if (typeof item === 'number') {
    if (Number.isInteger(item) && (item >= smallestLongInteger || item <= -smallestLongInteger)) {
      counts.longIntegers.holders.push(holder);
      counts.longIntegers.keys.push(key);
      if (typeof key === 'number') counts.longIntegers.inArrays++;
      if (!Number.isSafeInteger(item)) counts.roundedIntegers++;
    }
  } else if (typeof item === 'string') {
    if (counts.textMarked && item.startsWith(mark)) {
      counts.marks--;
      setMember(holder, key, parseNumber(item.slice(1)));
    } else counts.colonsInStrings += colonsInString(item);
  } else if (typeof item === 'object' && item !== null) walk(item, counts);
}

function setMember(holder: object, key: string | number, value: number | bigint): void {
  // Assigning to `__proto__` would set the prototype instead of the key.
  if (key === '__proto__')
    Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
  else (holder as Record<string | number, unknown>)[key] = value;
}
