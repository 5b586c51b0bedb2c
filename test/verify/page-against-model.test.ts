// One page of v2's list against the model's store, from where it starts (spec gap 62): what a first
// page, a page after one seen, a page from a cursor seen nowhere and a page with no store prove.
import { describe, expect, it } from 'vitest';
import { pageAgainstModel, type PageStart } from '../../verify/scenario/page-against-model.js';

const store = [
  { id: 1n, status: 'pending' },
  { id: 2n, status: 'shipped' },
  { id: 3n, status: 'pending' },
  { id: 5n, status: 'pending' },
];

function judged(
  query: string,
  start: PageStart,
  ids: number[],
  nextCursor: string | null,
  known: typeof store | 'no store' = store,
) {
  const body = { orders: ids.map((id) => ({ id: BigInt(id), status: id === 2 ? 'shipped' : 'pending' })), nextCursor };
  return pageAgainstModel({
    query: new URLSearchParams(query),
    start,
    body,
    store: known === 'no store' ? undefined : known,
  });
}

describe('pageAgainstModel', () => {
  it("passes a first page with a null nextCursor that shows exactly the filter's orders", () => {
    expect(judged('status=pending', 'first', [1, 3, 5], null).findings).toEqual([]);
  });

  it('names the first order a first page with a null nextCursor leaves out', () => {
    expect(judged('status=pending', 'first', [1, 3], null).findings).toEqual([
      {
        code: 'page-skips-order',
        path: '/nextCursor',
        expected: 'a next cursor while orders of the filter are left (5)',
        actual: 'null',
      },
    ]);
  });

  it('passes a page shorter than its limit that has a next cursor', () => {
    expect(judged('status=pending&limit=3', 'first', [1], 'c').findings).toEqual([]);
  });

  it('names the order a page after a page seen skips, and says where the next page starts', () => {
    const { findings, seen } = judged('status=pending&limit=1', { after: 1n }, [5], 'c');
    expect(findings).toEqual([
      {
        code: 'page-skips-order',
        path: '/orders/0/id',
        expected: '3, the next order of the filter after 1',
        actual: '5',
      },
    ]);
    expect(seen).toEqual({ nextCursor: 'c', next: { after: 5n } });
  });

  it('names an order a page after a page seen gives again', () => {
    expect(judged('limit=2', { after: 3n }, [3, 5], null).findings.map((finding) => finding.code)).toEqual([
      'page-repeats-order',
    ]);
  });

  it('judges a page from a cursor seen nowhere only for what it leaves after its last order', () => {
    expect(judged('status=pending', 'unknown', [3], 'c').findings).toEqual([]);
    expect(judged('status=pending', 'unknown', [3], null).findings.map((finding) => finding.path)).toEqual([
      '/nextCursor',
    ]);
  });

  it('judges a page with no store by what it shows of itself: its limit and its filter, not what it leaves out', () => {
    expect(judged('status=pending', 'first', [1], null, 'no store').findings).toEqual([]);
    expect(
      judged('status=pending&limit=1', 'first', [1, 2], null, 'no store').findings.map(
        (finding) => `${finding.code} ${finding.path}`,
      ),
    ).toEqual(['page-over-limit /orders', 'filter-ignored /orders/1/status']);
  });
});
