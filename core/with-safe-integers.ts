/**
 * Turns every `bigint` that fits a safe integer into a `number`: the shape `parseJson` gives, for
 * values from a parser that makes every integer a `bigint` (YAML's `intAsBigInt`).
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
