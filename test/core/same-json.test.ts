import { describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { sameJson } from '../../core/same-json.js';

describe('sameJson', () => {
  it('takes objects as the same whatever the order of their keys, as Pact sends a state back sorted', () => {
    const written = parseJson('{"orders":[{"status":"shipped","quantity":2,"id":9007199254740993}]}');
    const sent = parseJson('{"orders":[{"id":9007199254740993,"quantity":2,"status":"shipped"}]}');
    expect(sameJson(written, sent)).toBe(true);
  });

  it('compares integers by exact value whatever their width, never through float64', () => {
    expect(sameJson({ id: 1 }, { id: 1n })).toBe(true);
    expect(sameJson(parseJson('[1.0]'), parseJson('[1]'))).toBe(true);
    expect(sameJson(parseJson('9007199254740993'), parseJson('9007199254740992'))).toBe(false);
    expect(sameJson(9223372036854775807n, 9223372036854775806n)).toBe(false);
    expect(sameJson(2 ** 53, 9007199254740992n)).toBe(true);
    expect(sameJson(1, '1')).toBe(false);
    expect(sameJson(1.5, 1.5)).toBe(true);
  });

  it('tells apart what differs: an item order, a missing or extra key, a null, an array for an object', () => {
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ id: 1 }, { id: 1, status: 'pending' })).toBe(false);
    expect(sameJson({ id: 1, status: 'pending' }, { id: 1, petId: 'pending' })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({}, null)).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({ a: null }, { a: null })).toBe(true);
  });
});
