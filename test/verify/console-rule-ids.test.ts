// A finding's console line names its rule id (issue 56), as the JSON's, JUnit's and the GitHub
// annotations' `code` do: last on the line, in brackets, after where it is.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../core/finding.js';
import type { CheckedExchange } from '../../verify/base/results.js';
import { exchangeLines, findingLine, ruledFindingLine } from '../../verify/report/console.js';

const wrongId: Finding = { code: 'body-schema', path: '/0/id', expected: 'integer', actual: '"1"' };
const noPath: Finding = { code: 'no-answer', path: '', expected: 'a whole answer in time', actual: 'none' };
const advisory: Finding = {
  code: 'order-listed',
  path: '/1/id',
  expected: 'order 3 out of the list',
  actual: 'listed',
  advisory: true,
};

const exchange = (fields: Partial<CheckedExchange>): CheckedExchange => ({
  name: 'list the orders',
  method: 'GET',
  path: '/store/orders',
  status: 200,
  violations: [],
  warnings: [],
  disagreements: [],
  durationMs: 3,
  ...fields,
});

describe("a finding's console line", () => {
  it('ends with its rule id, after where it is', () => {
    expect(ruledFindingLine('list-orders', 'list the orders', wrongId)).toBe(
      'list-orders › list the orders: expected integer, got "1" (at /0/id) [body-schema]',
    );
  });

  it('ends with its rule id where it has no path', () => {
    expect(ruledFindingLine('list-orders', 'list the orders', noPath, 'pact')).toBe(
      'pact › list-orders › list the orders: expected a whole answer in time, got none [no-answer]',
    );
  });

  it("names the rule on a violation's, a known failure's, a pending pact's and a warning's line under the call", () => {
    const lines = exchangeLines(
      'scenarios',
      'list-orders',
      exchange({ violations: [wrongId], known: [noPath], pending: [wrongId], warnings: [advisory] }),
    );
    expect(lines).toEqual([
      '✗ list-orders › list the orders (GET /store/orders → 200, 3 ms)',
      '    list-orders › list the orders: expected integer, got "1" (at /0/id) [body-schema]',
      '    known failure (baseline): list-orders › list the orders: expected a whole answer in time, got none [no-answer]',
      '    pending pact (fails nothing): list-orders › list the orders: expected integer, got "1" (at /0/id) [body-schema]',
      '    warning (advisory; --strict makes it a violation): list-orders › list the orders: expected order 3 out of the list, got listed (at /1/id) [order-listed]',
    ]);
  });

  it("leaves findingLine, JUnit's failure message, without it: JUnit gives the rule as the failure's type", () => {
    expect(findingLine('list-orders', 'list the orders', wrongId)).toBe(
      'list-orders › list the orders: expected integer, got "1" (at /0/id)',
    );
  });
});
