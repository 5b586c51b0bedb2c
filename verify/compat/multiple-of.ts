/** A number as an exact decimal: digits × 10^exponent, read from its shortest text (what the document wrote). */
function decimal(value: bigint | number): { digits: bigint; exponent: number } | undefined {
  if (typeof value === 'bigint') return { digits: value, exponent: 0 };
  if (!Number.isFinite(value)) return undefined;
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(value));
  if (match === null) return undefined;
  const [, sign, whole, fraction = '', power = '0'] = match;
  return { digits: BigInt(`${sign}${whole}${fraction}`), exponent: Number(power) - fraction.length };
}

/**
 * Whether `value` is an integer multiple of `divisor` (JSON Schema's `multipleOf`), exactly: integers
 * past 2^53 as bigints, and decimals as the decimals they are written as (0.3 is a multiple of 0.1,
 * which floating-point division says it is not). A divisor of zero, or a value that is no finite
 * number, divides nothing.
 * @example
 * isMultipleOf(9007199254740993n, 3n) // true
 * isMultipleOf(9007199254740993n, 2) // false
 * isMultipleOf(0.3, 0.1) // true
 */
export function isMultipleOf(value: bigint | number, divisor: bigint | number): boolean {
  const one = decimal(value);
  const other = decimal(divisor);
  if (one === undefined || other === undefined || other.digits === 0n) return false;
  const exponent = Math.min(one.exponent, other.exponent);
  const scaled = (part: { digits: bigint; exponent: number }) => part.digits * 10n ** BigInt(part.exponent - exponent);
  return scaled(one) % scaled(other) === 0n;
}
