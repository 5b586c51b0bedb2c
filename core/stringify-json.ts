import { stringify } from 'lossless-json';

/**
 * Serialises a value to JSON text, writing every `bigint` as an exact JSON number.
 * @example
 * stringifyJson([{ id: 9007199254740993n }]) // '[{"id":9007199254740993}]'
 */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
}
