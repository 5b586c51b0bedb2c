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
