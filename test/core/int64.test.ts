import { describe, expect, it } from 'vitest';
import { isInt64, parseInt64, toInt64 } from '../../core/int64.js';

describe('parseInt64', () => {
  it.each([
    ['0', 0n],
    ['-1', -1n],
    ['007', 7n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
  ])('reads %s exactly', (text, value) => {
    expect(parseInt64(text)).toBe(value);
  });

  it.each(['', '-', '+1', '1.0', '1e3', ' 1', '1 ', '0x1', '9223372036854775808', '-9223372036854775809', '١'])(
    'refuses %j',
    (text) => {
      expect(parseInt64(text)).toBeUndefined();
    },
  );
});

describe('toInt64', () => {
  it('takes safe integers and in-range bigints, and refuses the rest', () => {
    expect(toInt64(42)).toBe(42n);
    expect(toInt64(2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(toInt64(2n ** 63n)).toBeUndefined();
    expect(toInt64(1e19)).toBeUndefined();
    expect(toInt64(1.5)).toBeUndefined();
    expect(toInt64('1')).toBeUndefined();
  });
});

describe('isInt64', () => {
  it.each([
    0,
    -1,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
    2n ** 63n - 1n,
    -(2n ** 63n),
    9007199254740993n,
    1.5,
    2 ** 53,
    1e19,
    NaN,
    2n ** 63n,
    '1',
    null,
    undefined,
  ])('agrees with toInt64 on %s', (value) => {
    expect(isInt64(value)).toBe(toInt64(value) !== undefined);
  });
});
