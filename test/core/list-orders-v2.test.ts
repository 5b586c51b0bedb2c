// v2's list as its definition behaves over a store (core/operations/list-orders-v2.ts), its parameters
// read by the one judge (core/request-parameters.ts) from the route table: spec gap 51.
import { describe, expect, it } from 'vitest';
import type { MockOutcome, OperationContext, StoreOfOperations } from '../../core/operation-definitions.js';
import { operationDefinitions } from '../../core/operation-definitions.js';
import { cursorAfter, readCursor } from '../../core/operations/order-cursor.js';
import type { OrderStatus } from '../../core/provider-state.js';
import type { StoredOrder } from '../../core/records.js';
import { readParameters } from '../../core/request-parameters.js';
import { routeOf } from '../../core/routes.js';

const statuses: OrderStatus[] = ['pending', 'shipped', 'cancelled'];
/** 45 orders stored out of id order, ids past 2^53 among them, statuses in turn. */
const stored: StoredOrder[] = Array.from({ length: 45 }, (_, index) => ({
  id: index % 2 === 0 ? 9007199254740993n + BigInt(index) : BigInt(45 - index),
  status: statuses[index % 3]!,
}));

// The store's walk by id as a full scan: the mock's index (mocks/store/order-id-index.ts) is held to the
// same answers by test/mocks/order-store/order-id-index.test.ts.
function storeOf(orders: readonly StoredOrder[]): StoreOfOperations {
  const eachOrderById: StoreOfOperations['eachOrderById'] = ({ after, status }, visit) => {
    for (const order of [...orders].sort((left, right) => (left.id < right.id ? -1 : 1)))
      if (
        (after === undefined || order.id > after) &&
        (status === undefined || order.status === status) &&
        !visit(order)
      )
        return;
  };
  return { eachOrderById } as unknown as StoreOfOperations;
}

type Page = { orders: { id: bigint; status: OrderStatus }[]; nextCursor: string | null };

/** The outcome of one call with this query string, as the mock would answer it (parameters read first). */
function list(query: string, orders: readonly StoredOrder[] = stored): MockOutcome | 'bad parameter' {
  const read = readParameters(routeOf('listOrdersV2'), {
    query: () => query,
    headers: new Headers(),
  });
  if (!read.ok) return 'bad parameter';
  const context = { store: storeOf(orders), parameters: read.values } as unknown as OperationContext;
  return operationDefinitions.listOrdersV2.mock(context, '') as MockOutcome;
}

function page(query: string, orders: readonly StoredOrder[] = stored): Page {
  const outcome = list(query, orders);
  if (outcome === 'bad parameter' || outcome.kind !== 'json') throw new Error(`no page: ${JSON.stringify(outcome)}`);
  return outcome.body as Page;
}

/** Every page from the first, following nextCursor. */
function walk(first: string, orders: readonly StoredOrder[] = stored): Page[] {
  const pages = [page(first, orders)];
  for (let last = pages[0]!; last.nextCursor !== null; ) {
    last = page(`${first}&cursor=${last.nextCursor}`, orders);
    pages.push(last);
  }
  return pages;
}

const ascending = (ids: bigint[]) => [...ids].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));

describe("v2's list: listOrdersV2", () => {
  it('gives 20 orders a page by default, in ascending order of id, each with its status', () => {
    const first = page('');
    expect(first.orders.map((order) => order.id)).toEqual(ascending(stored.map((order) => order.id)).slice(0, 20));
    expect(first.orders[0]).toEqual({ id: 2n, status: 'shipped' });
  });

  it('walks every order once, none skipped nor repeated, ids past 2^53 exact', () => {
    const ids = walk('limit=7').flatMap((each) => each.orders.map((order) => order.id));
    expect(ids).toEqual(ascending(stored.map((order) => order.id)));
  });

  it('walks consecutive ids across 2^53, the one right after each cursor included', () => {
    const consecutive = Array.from({ length: 7 }, (_, index) => ({
      id: 9007199254740990n + BigInt(index),
      status: 'pending' as const,
    }));
    const ids = walk('limit=2', consecutive).flatMap((each) => each.orders.map((order) => order.id));
    expect(ids).toEqual(consecutive.map((order) => order.id));
  });

  it('ends with a null nextCursor on the last page, also when it is full', () => {
    const pages = walk('limit=15');
    expect(pages.map((each) => [each.orders.length, each.nextCursor === null])).toEqual([
      [15, false],
      [15, false],
      [15, true],
    ]);
  });

  it('keeps only the orders of the status asked for, over every page', () => {
    const ids = walk('status=cancelled&limit=4').flatMap((each) => each.orders.map((order) => order.id));
    expect(ids).toEqual(ascending(stored.filter((order) => order.status === 'cancelled').map((order) => order.id)));
  });

  it("starts after the cursor's id when orders changed between pages, repeating none", () => {
    const first = page('limit=10');
    const lastId = first.orders.at(-1)!.id;
    const changed = [...stored.filter((order) => order.id !== 2n), { id: 1n, status: 'pending' as const }];
    const next = page(`limit=10&cursor=${first.nextCursor}`, changed);
    const after = ascending(changed.map((order) => order.id)).filter((id) => id > lastId);
    expect(next.orders.map((order) => order.id)).toEqual(after.slice(0, 10));
  });

  it("starts after the cursor's id when that order itself is gone, skipping none", () => {
    const first = page('limit=10');
    const lastId = first.orders.at(-1)!.id;
    const changed = stored.filter((order) => order.id !== lastId);
    const next = page(`limit=10&cursor=${first.nextCursor}`, changed);
    const after = ascending(changed.map((order) => order.id)).filter((id) => id > lastId);
    expect(next.orders.map((order) => order.id)).toEqual(after.slice(0, 10));
  });

  it('refuses a cursor given for another status filter', () => {
    expect(list(`status=pending&cursor=${cursorAfter(3n, 'shipped')}`)).toEqual({
      kind: 'refused',
      code: 'invalid_cursor',
      message: `The cursor "${cursorAfter(3n, 'shipped')}" is not one this server gave for status pending.`,
    });
  });

  it('refuses a cursor it could not have written', () => {
    expect(list('cursor=not-a-cursor')).toEqual({
      kind: 'refused',
      code: 'invalid_cursor',
      message: 'The cursor "not-a-cursor" is not one this server gave for the unfiltered list.',
    });
  });

  it('refuses a limit past 100 and a status that is none, as parameters', () => {
    expect([list('limit=101'), list('limit=0'), list('limit=2.5'), list('status=lost')]).toEqual(
      Array(4).fill('bad parameter'),
    );
  });
});

describe('the cursor', () => {
  it('reads back the id it was written with, exactly past 2^53', () => {
    expect(readCursor(cursorAfter(9223372036854775807n, 'pending'), 'pending')).toBe(9223372036854775807n);
  });

  it('refuses a text that is not the one the mock writes for that id (padding added)', () => {
    expect(readCursor(`${cursorAfter(3n, undefined)}=`, undefined)).toBeUndefined();
  });
});
