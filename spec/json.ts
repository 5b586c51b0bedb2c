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

/**
 * Parses JSON text losslessly: every integer literal outside the safe range becomes a `bigint`,
 * every other number a `number`. Duplicate keys are a syntax error, and `__proto__` stays an own key.
 * @throws SyntaxError when the text is not valid JSON.
 * @example
 * parseJson('{"id": 9223372036854775807}') // { id: 9223372036854775807n }
 */
export function parseJson(text: string): JsonValue {
  return parse(text, null, { parseNumber }) as JsonValue;
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
