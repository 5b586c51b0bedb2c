// The one judge of a request's query and header parameters (core/request-parameters.ts): what a text is
// read as, and the violations the mock answers 400 invalid_parameter with (spec gap 50).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parameterMessage, readParameters, type HeldParameter } from '../../core/request-parameters.js';
import { routeOf, type Route } from '../../core/routes.js';

/** A route of the table with the given parameters (each test's own path, so its validators are its own). */
function routeWith(path: string, query: HeldParameter[], requestHeaders: HeldParameter[] = []): Route {
  return { ...routeOf('listOrders'), path, query, requestHeaders } as unknown as Route;
}

const limit: HeldParameter = {
  name: 'limit',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  explode: true,
};
const status: HeldParameter = {
  name: 'status',
  required: false,
  schema: { type: 'string', enum: ['pending', 'shipped'] },
  explode: true,
};
const after: HeldParameter = {
  name: 'after',
  required: true,
  schema: { type: 'integer', format: 'int64' },
  explode: true,
};
const ids: HeldParameter = {
  name: 'id',
  required: false,
  schema: { type: 'array', items: { type: 'integer', format: 'int64' } },
  explode: true,
};
const tags: HeldParameter = {
  name: 'tag',
  required: false,
  schema: { type: 'array', items: { type: 'string' } },
  explode: false,
};
const trace: HeldParameter = {
  name: 'X-Trace',
  required: true,
  schema: { type: 'string', minLength: 2 },
  explode: false,
};

const ratio: HeldParameter = { name: 'ratio', required: false, schema: { type: 'number' }, explode: true };
const flag: HeldParameter = { name: 'flag', required: false, schema: { type: 'boolean' }, explode: true };
const headerTags: HeldParameter = {
  name: 'X-Tags',
  required: false,
  schema: { type: 'array', items: { type: 'string' } },
  explode: false,
};

const listRoute = routeWith('/test/list', [limit, status]);
const read = (route: Route, query: string, headers: Record<string, string> = {}) =>
  readParameters(route, { query: () => query, headers: new Headers(headers) });

describe('readParameters', () => {
  it('reads nothing for a route without query or header parameters', () => {
    let asked = false;
    const reading = readParameters(routeOf('listOrders'), {
      query: () => {
        asked = true;
        return 'limit=x';
      },
      headers: new Headers(),
    });
    expect({ reading, asked }).toEqual({ reading: { ok: true, values: { query: {}, header: {} } }, asked: false });
  });

  it('reads an integer as a number and a string as it is', () => {
    expect(read(listRoute, 'limit=5&status=shipped')).toEqual({
      ok: true,
      values: { query: { limit: 5, status: 'shipped' }, header: {} },
    });
  });

  it("gives a parameter that is not sent its schema's default", () => {
    expect(read(listRoute, '')).toEqual({ ok: true, values: { query: { limit: 20 }, header: {} } });
  });

  it('ignores a parameter the route does not declare', () => {
    expect(read(listRoute, 'colour=red&_=1700000000')).toEqual({
      ok: true,
      values: { query: { limit: 20 }, header: {} },
    });
  });

  it('refuses an integer written with anything but decimal digits', () => {
    expect(read(listRoute, 'limit=1e1')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'limit', expected: 'must be an integer', actual: '"1e1"' }],
    });
  });

  it.each(['+5', '1.0', ' 5', '0x10', '５'])('refuses the integer text %j, not decimal digits', (text) => {
    expect(read(listRoute, `limit=${encodeURIComponent(text)}`)).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'limit', expected: 'must be an integer', actual: JSON.stringify(text) }],
    });
  });

  it.each([
    ['01', '1'],
    ['-0', '0'],
    ['007', '7'],
    ['-012', '-12'],
  ])('refuses the integer %j, written otherwise than its one decimal form (spec gap 58)', (text, canonical) => {
    expect(read(listRoute, `limit=${text}`)).toEqual({
      ok: false,
      violations: [
        {
          in: 'query',
          name: 'limit',
          expected: `must be an integer written as ${canonical}, without leading zeros or -0`,
          actual: JSON.stringify(text),
        },
      ],
    });
  });

  it('reads 0 and negative integers in their one decimal form', () => {
    const range: HeldParameter = { name: 'n', required: true, schema: { type: 'integer' }, explode: true };
    const route = routeWith('/test/zero', [range]);
    expect([read(route, 'n=0'), read(route, 'n=-12')]).toEqual([
      { ok: true, values: { query: { n: 0 }, header: {} } },
      { ok: true, values: { query: { n: -12 }, header: {} } },
    ]);
  });

  it('refuses an int64 list item written with a leading zero, naming its one form', () => {
    expect(read(routeWith('/test/exploded-zero', [ids]), 'id=1&id=09007199254740993')).toEqual({
      ok: false,
      violations: [
        {
          in: 'query',
          name: 'id',
          expected:
            'must be a list of integers, each without leading zeros or -0 (9007199254740993, not 09007199254740993)',
          actual: '"1", "09007199254740993"',
        },
      ],
    });
  });

  it('refuses a value whose percent-decoded bytes are not UTF-8, showing it as sent', () => {
    expect(read(listRoute, 'status=%FF')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'status', expected: 'must be UTF-8 once percent-decoded', actual: '"%FF"' }],
    });
  });

  it('shows every value of a list as sent when one of them is not UTF-8', () => {
    expect(read(routeWith('/test/joined-bytes', [tags]), 'tag=a,%C3')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'tag', expected: 'must be UTF-8 once percent-decoded', actual: '"a,%C3"' }],
    });
  });

  it('reads any text as URLSearchParams writes it: + and %XX decoded, a stray % kept', () => {
    const route = routeWith('/test/any-text', [
      { name: 'q', required: true, schema: { type: 'string' }, explode: true },
    ]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 12 }), (text) => {
        expect(read(route, new URLSearchParams({ q: text }).toString())).toEqual({
          ok: true,
          values: { query: { q: text }, header: {} },
        });
      }),
      { numRuns: 200 },
    );
    expect(read(route, 'q=50%25+off%zz%')).toEqual({ ok: true, values: { query: { q: '50% off%zz%' }, header: {} } });
  });

  it("reads a number in JSON's grammar, an exponent included", () => {
    expect(read(routeWith('/test/number', [ratio]), 'ratio=-1.5e2')).toEqual({
      ok: true,
      values: { query: { ratio: -150 }, header: {} },
    });
  });

  it.each(['+1', '01', '.5', '1.', 'NaN', 'Infinity', ''])(
    "refuses the number text %j, outside JSON's grammar",
    (text) => {
      expect(read(routeWith('/test/number', [ratio]), `ratio=${encodeURIComponent(text)}`)).toEqual({
        ok: false,
        violations: [{ in: 'query', name: 'ratio', expected: 'must be a number', actual: JSON.stringify(text) }],
      });
    },
  );

  it('reads a boolean from true and false only', () => {
    expect(read(routeWith('/test/boolean', [flag]), 'flag=false')).toEqual({
      ok: true,
      values: { query: { flag: false }, header: {} },
    });
  });

  it.each(['1', 'TRUE', 'yes', ''])('refuses the boolean text %j', (text) => {
    expect(read(routeWith('/test/boolean', [flag]), `flag=${text}`)).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'flag', expected: 'must be true or false', actual: JSON.stringify(text) }],
    });
  });

  it('refuses a value past its bounds, in the words of the schema', () => {
    expect(read(listRoute, 'limit=101')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'limit', expected: 'must be <= 100', actual: '"101"' }],
    });
  });

  it('refuses a value outside its enum', () => {
    expect(read(listRoute, 'status=lost')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'status', expected: 'must be one of "pending", "shipped"', actual: '"lost"' }],
    });
  });

  it('refuses a parameter that is no list given twice', () => {
    expect(read(listRoute, 'limit=5&limit=6')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'limit', expected: 'must be given once', actual: '"5", "6"' }],
    });
  });

  it('refuses a required parameter that is missing', () => {
    expect(read(routeWith('/test/required', [after]), '')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'after', expected: 'is required', actual: 'nothing' }],
    });
  });

  it('reads a small int64 as a bigint too, as a path id is read', () => {
    expect(read(routeWith('/test/int64-small', [after]), 'after=7')).toEqual({
      ok: true,
      values: { query: { after: 7n }, header: {} },
    });
  });

  it('reads an int64 past 2^53 exactly, as a bigint', () => {
    expect(read(routeWith('/test/int64', [after]), 'after=9007199254740993')).toEqual({
      ok: true,
      values: { query: { after: 9007199254740993n }, header: {} },
    });
  });

  it('refuses an integer past the int64 range', () => {
    const reading = read(routeWith('/test/int64-range', [after]), 'after=9223372036854775808');
    expect(reading).toEqual({
      ok: false,
      violations: [
        {
          in: 'query',
          name: 'after',
          expected: 'must be an integer from -9223372036854775808 to 9223372036854775807, written exactly',
          actual: '"9223372036854775808"',
        },
      ],
    });
  });

  it('reads an exploded list from the repeated parameter, each item as its type', () => {
    expect(read(routeWith('/test/exploded', [ids]), 'id=1&id=9007199254740993')).toEqual({
      ok: true,
      values: { query: { id: [1n, 9007199254740993n] }, header: {} },
    });
  });

  it('reads a list that is not exploded from one comma-joined value', () => {
    expect(read(routeWith('/test/joined', [tags]), 'tag=a,b')).toEqual({
      ok: true,
      values: { query: { tag: ['a', 'b'] }, header: {} },
    });
  });

  it('refuses a list whose item is not its type', () => {
    expect(read(routeWith('/test/exploded-wrong', [ids]), 'id=1&id=two')).toEqual({
      ok: false,
      violations: [{ in: 'query', name: 'id', expected: 'must be a list of integers', actual: '"1", "two"' }],
    });
  });

  it('reads a header parameter whatever the case of its name', () => {
    expect(read(routeWith('/test/header', [], [trace]), '', { 'x-trace': 'abc' })).toEqual({
      ok: true,
      values: { query: {}, header: { 'X-Trace': 'abc' } },
    });
  });

  it('reads a header list from one comma-joined value, the spaces around each item dropped', () => {
    expect(read(routeWith('/test/header-list', [], [headerTags]), '', { 'x-tags': 'a, b ,c' })).toEqual({
      ok: true,
      values: { query: {}, header: { 'X-Tags': ['a', 'b', 'c'] } },
    });
  });

  it('refuses a header parameter that breaks its schema', () => {
    expect(read(routeWith('/test/header-short', [], [trace]), '', { 'x-trace': 'a' })).toEqual({
      ok: false,
      violations: [{ in: 'header', name: 'X-Trace', expected: 'must NOT have fewer than 2 characters', actual: '"a"' }],
    });
  });
});

describe('parameterMessage', () => {
  it('says the first violation and counts the others', () => {
    const reading = read(listRoute, 'limit=0&status=lost');
    expect(reading.ok ? '' : parameterMessage(reading.violations)).toBe(
      'The query parameter limit must be >= 1; got "0" (and 1 more).',
    );
  });
});
