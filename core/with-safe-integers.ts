/** Gives values read with YAML's `intAsBigInt` the shape `parseJson` gives: small integers as numbers. */
export function withSafeIntegers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(withSafeIntegers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withSafeIntegers(item)]));
  }
  return value;
}
