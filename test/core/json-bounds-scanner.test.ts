import { describe, expect, it } from 'vitest';
import { JsonBoundsScanner } from '../../core/json-bounds-scanner.js';

describe('JsonBoundsScanner', () => {
  const bounds = { maxDepth: 2, maxDigits: 3 };

  it('skips digits and brackets inside strings, escaped quotes included', () => {
    expect(new JsonBoundsScanner(bounds).feed('[{"a": "12345 [[[ \\" 6789 {{"}]')).toBeUndefined();
  });

  it('counts a run of digits across chunks', () => {
    const scanner = new JsonBoundsScanner(bounds);
    expect(scanner.feed(new TextEncoder().encode('[12'))).toBeUndefined();
    expect(scanner.feed(new TextEncoder().encode('34]'))).toEqual({ bound: 'digits', limit: 3 });
  });

  it('counts depth across chunks, and forgets levels that closed', () => {
    const scanner = new JsonBoundsScanner(bounds);
    expect(scanner.feed('[[]')).toBeUndefined();
    expect(scanner.feed(',[1]]')).toBeUndefined();
    expect(scanner.feed('[[[')).toEqual({ bound: 'depth', limit: 2 });
  });

  it('reads an escape split across chunks', () => {
    const scanner = new JsonBoundsScanner(bounds);
    expect(scanner.feed('["a\\')).toBeUndefined();
    expect(scanner.feed('"12345"]')).toBeUndefined();
  });

  it('gives no extra depth for a closing bracket without its opening one', () => {
    const scanner = new JsonBoundsScanner(bounds);
    expect(scanner.feed(']]]]')).toBeUndefined();
    expect(scanner.feed('[[[')).toEqual({ bound: 'depth', limit: 2 });
  });

  it('keeps answering the first breach', () => {
    const scanner = new JsonBoundsScanner(bounds);
    scanner.feed('1234');
    expect(scanner.feed('[]')).toEqual({ bound: 'digits', limit: 3 });
  });
});
