/** @example int64Minimum // -9223372036854775808n */
export const int64Minimum = -(2n ** 63n);
/** @example int64Maximum // 9223372036854775807n */
export const int64Maximum = 2n ** 63n - 1n;

const decimalInteger = /^-?[0-9]+$/;

/**
 * Reads an int64 from its decimal text, exactly; anything else is `undefined`.
 * @example
 * parseInt64('9007199254740993') // 9007199254740993n
 * parseInt64('9223372036854775808') // undefined
 */
export function parseInt64(text: string): bigint | undefined {
  if (!decimalInteger.test(text)) return undefined;
  const value = BigInt(text);
  return value >= int64Minimum && value <= int64Maximum ? value : undefined;
}

/**
 * Whether `toInt64` would give a value, without making the `bigint`.
 * @example
 * isInt64(7) // true
 * isInt64(2 ** 53) // false: a rounded number
 */
export function isInt64(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= int64Minimum && value <= int64Maximum;
}

/** A `number` beyond the safe range is refused: it was not written as an exact integer. */
export function toInt64(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value === 'bigint') return value >= int64Minimum && value <= int64Maximum ? value : undefined;
  return undefined;
}
