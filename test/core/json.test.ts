// parseJson takes JSON.parse's fast road and proves its answer equal to the lossless parser's; these
// tests compare the two on generated texts: big integers in every position, duplicate keys (equal
// and not), escaped colons and NULs, digits inside strings, __proto__, deep nesting, broken texts.
import fc from 'fast-check';

import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';

// Seeded, so a run is the same on every machine (FUZZ_SEED=N widens the search by hand; fast-check prints
// the seed of a failure). Unseeded, it found a leading-zero integer the fast path took (fixed; tested below).
fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED ?? 20261124) });

const integerText = /^-?[0-9]+$/;
function lossless(text: string): unknown {
  return parse(text, null, {
    parseNumber: (literal: string) =>
      integerText.test(literal) && !Number.isSafeInteger(Number(literal)) ? BigInt(literal) : Number(literal),
  });
}

/** What a parser gives: its value, or the class and message of what it throws. */
function outcome(parser: (text: string) => unknown, text: string): { value: unknown } | { error: string } {
  try {
    return { value: parser(text) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const space = fc.constantFrom('', '', '', ' ', '\n  ', '\t');
const bigIntegers = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.constantFrom(
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '1000000000000000',
    '9999999999999999',
    '9223372036854775807',
    '-9223372036854775808',
    '18446744073709551616',
  ),
);
const numberTexts = fc.oneof(
  fc.integer().map(String),
  bigIntegers,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  bigIntegers.map((digits) => `${digits.replace('-', '')}.5`),
  bigIntegers.map((digits) => `${digits}e2`),
  bigIntegers.map((digits) => `1.${digits.replace('-', '')}`),
  bigIntegers.map((digits) => `2E-${digits.replace('-', '')}`),
  fc.constantFrom(
    '-0',
    '0',
    '1e400',
    '-1e400',
    '0.1',
    '1E+5',
    '12345678901234567e0',
    '1.2345678901234567e16',
    '9007199254740993.0',
    '1e16',
  ),
);
const stringTexts = fc.oneof(
  fc.string().map((text) => JSON.stringify(text)),
  fc.constantFrom(
    '"a:b"',
    '"::"',
    '"\\u003a"',
    '"\\u003A"',
    '"\\u0000"',
    '"\\u00001234567890123456789"',
    '"\\\\u0000"',
    '"12345678901234567890"',
    '"x\\"12345678901234567890"',
    '"\\\\"',
    // Digits in a string that look like a literal where a number may stand.
    '": 12345678901234567,"',
    '"[9007199254740993]"',
    '",-9007199254740993}"',
    '":12345678901234567,"',
    '"\\":12345678901234567,"',
  ),
);
const keyTexts = fc.oneof(
  stringTexts,
  fc.constantFrom('"id"', '"id"', '"a"', '"__proto__"', '"k:v"', '"\\u003a"', '"0"', '"7"', '"01"', '"1e3"'),
);
const { valueText } = fc.letrec<{ valueText: string; arrayText: string; objectText: string }>((tie) => ({
  valueText: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberTexts,
    stringTexts,
    fc.constantFrom('true', 'false', 'null'),
    tie('arrayText'),
    tie('objectText'),
  ),
  arrayText: fc
    .array(fc.tuple(space, tie('valueText'), space), { maxLength: 5 })
    .map((items) => `[${items.map((item) => item.join('')).join(',')}]`),
  objectText: fc
    .array(fc.tuple(space, keyTexts, space, tie('valueText'), space), { maxLength: 5 })
    .map(
      (members) =>
        `{${members.map(([before, key, between, value, after]) => `${before}${key}${between}:${value}${after}`).join(',')}}`,
    ),
}));
// A document the way seeds and bodies come: mostly a list of objects, sometimes anything.
const documents = fc.oneof(
  fc
    .array(fc.tuple(space, valueText), { maxLength: 6 })
    .map((items) => `[${items.map((item) => item.join('')).join(',')}]`),
  valueText,
);
// A document with one character removed, doubled or replaced: mostly broken.
const brokenDocuments = fc
  .tuple(documents, fc.nat(), fc.constantFrom('', ',', ':', '"', '}', ']', '0', ' '))
  .map(([text, position, character]) => {
    const at = text.length === 0 ? 0 : position % text.length;
    return text.slice(0, at) + character + text.slice(at + 1);
  });

describe('parseJson', () => {
  it('gives what the lossless parser gives, value or error, on generated documents', () => {
    fc.assert(
      fc.property(documents, (text) => {
        expect(outcome(parseJson, text)).toEqual(outcome(lossless, text));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives what the lossless parser gives on broken documents too', () => {
    fc.assert(
      fc.property(brokenDocuments, (text) => {
        expect(outcome(parseJson, text)).toEqual(outcome(lossless, text));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a long integer with a leading zero, as the lossless parser does', () => {
    const text = '{" ":[-9007199254740993,{"a:b"\t:09007199254740993\n  ,"   ":10000000000000000000}]}';
    expect(outcome(parseJson, text)).toEqual(outcome(lossless, text));
    expect(() => parseJson('[09007199254740993]')).toThrow(SyntaxError);
  });

  it('reads integers beyond 2^53 exactly in a large list, wherever they are', () => {
    const orders = Array.from(
      { length: 2000 },
      (_, index) => `{"id":${2n ** 62n + BigInt(index)},"petId":${index},"note":"${2n ** 60n}:${index}"}`,
    );
    const value = parseJson(`[${orders.join(',')}]`) as { id: bigint; petId: number; note: string }[];
    expect(value[1999]).toEqual({ id: 2n ** 62n + 1999n, petId: 1999, note: `${2n ** 60n}:1999` });
  });

  it("reads exact integers under keys JSON.parse puts first, which are out of the text's order", () => {
    expect(parseJson('{"b":9007199254740993,"0":9007199254740992}')).toEqual({
      b: 9007199254740993n,
      0: 9007199254740992n,
    });
  });

  it('keeps a number with an exponent rounded beside a string that holds its digits as a literal would', () => {
    expect(parseJson('["x: 12345678901234567,", 12345678901234567e0]')).toEqual([
      'x: 12345678901234567,',
      12345678901234568,
    ]);
  });

  it('keeps a number with a fraction rounded beside a string that holds its digits as a literal would', () => {
    expect(parseJson('["x: 9007199254740993,", 9007199254740993.0]')).toEqual([
      'x: 9007199254740993,',
      9007199254740992,
    ]);
  });

  it('keeps a number with an exponent rounded beside a string that opens with a colon and its digits', () => {
    expect(parseJson('[":12345678901234567,", 1.2345678901234567e16]')).toEqual([
      ':12345678901234567,',
      12345678901234568,
    ]);
  });

  it('keeps a number with an exponent rounded beside a string with an escaped quote before a colon and its digits', () => {
    expect(parseJson('{"a":"\\":12345678901234567,", "b":1.2345678901234567e16}')).toEqual({
      a: '":12345678901234567,',
      b: 12345678901234568,
    });
  });

  it('reads an exact integer in an array beside a string that holds a colon and digits as a member would', () => {
    expect(parseJson('[":9007199254740993,", 9007199254740995]')).toEqual([':9007199254740993,', 9007199254740995n]);
  });

  it("refuses a duplicate key JSON.parse would drop, with the lossless parser's words", () => {
    expect(() => parseJson('[{"id":1,"status":"shipped","id":2}]')).toThrow(
      new SyntaxError("Duplicate key 'id' encountered at position 29"),
    );
  });

  it('refuses a duplicate key even beside an escaped colon, which makes the colons add up', () => {
    expect(() => parseJson('[{"id":1,"id":2,"note":"\\u003a"}]')).toThrow(
      new SyntaxError("Duplicate key 'id' encountered at position 10"),
    );
  });

  it('refuses a long integer where a key stands, as the lossless parser does', () => {
    expect(() => parseJson('{12345678901234567:1}')).toThrow(
      new SyntaxError("Quoted object key expected but got '1' at position 1"),
    );
  });

  it('keeps __proto__ an own key when its value is an integer beyond 2^53', () => {
    const value = parseJson('{"__proto__":9007199254740993}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(9007199254740993n);
  });

  it('answers nesting deeper than it can walk as the lossless parser does', () => {
    const text = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    expect(outcome(parseJson, text)).toEqual(outcome(lossless, text));
  });
});

describe('lossless JSON', () => {
  it('keeps integers beyond 2^53 exact both ways', () => {
    const text = '[{"id":9007199254740993,"petId":-9223372036854775808,"quantity":2,"ratio":0.5}]';
    const value = parseJson(text);
    expect(value).toEqual([{ id: 9007199254740993n, petId: -9223372036854775808n, quantity: 2, ratio: 0.5 }]);
    expect(stringifyJson(value)).toBe(text);
  });

  it('refuses duplicate keys and keeps __proto__ an own key', () => {
    expect(() => parseJson('{"a":1,"a":2}')).toThrow(SyntaxError);
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
