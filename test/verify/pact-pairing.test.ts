// Pact verification pairs each interaction with the guard's record of its own request, by method,
// path AND query (issue 56: paired by path alone, interactions of v2 "passed" with no answer).
import { describe, expect, it } from 'vitest';
import { pactCases } from '../../verify/pact/pact-cases.js';
import { belowBase, type GuardRecord } from '../../verify/pact/pact-guard.js';
import type { PactInteraction } from '../../verify/pact/pact-interactions.js';
import { pactQueryKey } from '../../verify/pact/pact-query.js';
import { findingsOnlyExchange } from '../../verify/base/results.js';
import type { PactChildOutcome } from '../../verify/pact/run-pact-child.js';

const placed = 'v2-list › the placed orders';
const cancelled = 'v2-list › the cancelled orders';
const interaction = (description: string, query: string): PactInteraction => ({
  description,
  method: 'GET',
  path: '/v2/store/orders',
  query,
  authorization: 'Bearer petstore-dev-key',
  state: undefined,
});
const interactions = [interaction(placed, 'status=placed'), interaction(cancelled, 'status=cancelled')];
const record = (query: string, status: number): GuardRecord => ({
  method: 'GET',
  path: '/v2/store/orders',
  query,
  authorization: 'Bearer petstore-dev-key',
  state: undefined,
  exchange: {
    ...findingsOnlyExchange(`GET /v2/store/orders?${query}`, [], { method: 'GET', path: '/v2/store/orders' }),
    status,
  },
});
const outcome = (failing: string | undefined): PactChildOutcome =>
  ({
    results: {
      interactionResults: interactions.map(({ description }) => ({
        description,
        result: description === failing ? 'Failed' : 'OK',
      })),
      errors:
        failing === undefined
          ? []
          : [
              {
                interaction: failing,
                mismatch: { mismatches: [{ type: 'StatusMismatch', expected: 200, actual: 400 }] },
              },
            ],
    },
  }) as PactChildOutcome;
const verdicts = (cases: ReturnType<typeof pactCases>) => cases.map(({ name, verdict }) => ({ name, verdict }));

describe('Pact verification, two interactions on one path that differ by their query alone', () => {
  it('pairs each with the record of its own query, whatever order the guard saw them in', () => {
    const records = [record('status=cancelled', 200), record('status=placed', 200)];
    const cases = pactCases({ outcome: outcome(undefined), interactions, records, taken: new Set() }, undefined);
    expect(verdicts(cases)).toEqual([
      { name: placed, verdict: 'passed' },
      { name: cancelled, verdict: 'passed' },
    ]);
    expect(cases.map((result) => result.exchanges[0]?.name)).toEqual([placed, cancelled]);
    expect(cases.map((result) => result.exchanges[0]?.status)).toEqual([200, 200]);
  });

  it('fails the one answered wrongly, not the other', () => {
    const records = [record('status=cancelled', 400), record('status=placed', 200)];
    const cases = pactCases({ outcome: outcome(cancelled), interactions, records, taken: new Set() }, undefined);
    expect(verdicts(cases)).toEqual([
      { name: placed, verdict: 'passed' },
      { name: cancelled, verdict: 'failed' },
    ]);
    expect(cases[0]?.exchanges).toMatchObject([{ status: 200, violations: [] }]);
    expect(cases[1]?.exchanges).toMatchObject([
      {
        status: 400,
        violations: [{ code: 'status-unexpected', path: 'status', expected: 'status 200', actual: '400' }],
      },
    ]);
  });

  it('never passes an interaction no request of which reached the provider, though Pact said OK: it could not run', () => {
    const records = [record('status=placed', 200)];
    const cases = pactCases({ outcome: outcome(undefined), interactions, records, taken: new Set() }, undefined);
    expect(verdicts(cases)).toEqual([
      { name: placed, verdict: 'passed' },
      { name: cancelled, verdict: 'error' },
    ]);
    expect(cases[1]).toMatchObject({
      reason:
        "no answer of the provider's to GET /v2/store/orders?status=cancelled reached petstore-verify's guard: Pact's OK alone judged nothing",
      exchanges: [],
    });
  });
});

describe('pactQueryKey', () => {
  it("reads a V4 map and a request's query string alike, pairs ordered by name", () => {
    expect(pactQueryKey({ status: ['placed'], limit: ['2'] })).toBe('limit=2&status=placed');
    expect(pactQueryKey('?status=placed&limit=2')).toBe('limit=2&status=placed');
  });

  it('keeps a query that differs by a value apart', () => {
    expect(pactQueryKey({ status: ['placed'] })).not.toBe(pactQueryKey('status=cancelled'));
  });

  it('reads no query, an empty one and an empty map as the same', () => {
    expect([pactQueryKey(undefined), pactQueryKey(''), pactQueryKey('?'), pactQueryKey({})]).toEqual(['', '', '', '']);
  });
});

describe('belowBase', () => {
  it("takes off the provider's prefix and v1's base path, and keeps v2's", () => {
    expect(belowBase('/petstore/v1/store/orders/3', '/petstore/v1')).toEqual({ path: '/store/orders/3', query: '' });
    expect(belowBase('/petstore/v2/store/orders?limit=2', '/petstore/v1')).toEqual({
      path: '/v2/store/orders',
      query: '?limit=2',
    });
  });
});
