// The store's walk in ascending order of id (mocks/store/order-id-index.ts over the records, the seed's
// own order before them): whatever happened to the store, through its methods or its collection's, a
// walk from any id, filtered or not, gives what a full scan of the store gives, ids past 2^53 exact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOrderMock } from '../../../mocks/index.js';
import { OrderStore } from '../../../mocks/store/order-store.js';
import type { OrderStatus } from '../../../core/order-status.js';
import { cursorAfter } from '../../../core/operations/order-cursor.js';
import { authorized } from '../../support/support.js';

const statuses: OrderStatus[] = ['pending', 'shipped', 'cancelled'];
type From = { after?: bigint; status?: OrderStatus };

/** The ids a walk gives, `wanted` of them at most. */
function walked(store: OrderStore, from: From, wanted = Number.POSITIVE_INFINITY): bigint[] {
  const ids: bigint[] = [];
  store.eachOrderById(from, (order) => ids.push(order.id) < wanted);
  return ids;
}

/** The same from a full scan of the store's copies. */
function scanned(store: OrderStore, { after, status }: From, wanted = Number.POSITIVE_INFINITY): bigint[] {
  return store
    .all()
    .filter((order) => (after === undefined || order.id > after) && (status === undefined || order.status === status))
    .map((order) => order.id)
    .sort((left, right) => (left < right ? -1 : left > right ? 1 : 0))
    .slice(0, wanted);
}

// Ids near 0, near 2^53 and near both ends of int64, so that neighbours round to one float64.
const idArbitrary = fc.oneof(
  fc.bigInt({ min: 1n, max: 40n }),
  fc.bigInt({ min: 2n ** 53n - 4n, max: 2n ** 53n + 4n }),
  fc.bigInt({ min: 2n ** 63n - 4n, max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -(2n ** 63n), max: -(2n ** 63n) + 4n }),
);
const seedArbitrary = fc.uniqueArray(fc.record({ id: idArbitrary, status: fc.constantFrom(...statuses) }), {
  selector: (order) => order.id,
  maxLength: 12,
});

type Operation =
  | { kind: 'create'; id: bigint; status: OrderStatus }
  | { kind: 'cancel' | 'ship' | 'delete'; id: bigint }
  | { kind: 'change id'; id: bigint; to: bigint }
  | { kind: 'reset' | 'materialize' }
  | { kind: 'replace'; orders: { id: bigint; status: OrderStatus }[] };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), id: idArbitrary, status: fc.constantFrom(...statuses) }),
  fc.record({ kind: fc.constantFrom('cancel' as const, 'ship' as const, 'delete' as const), id: idArbitrary }),
  fc.record({ kind: fc.constant('change id' as const), id: idArbitrary, to: idArbitrary }),
  fc.record({ kind: fc.constantFrom('reset' as const, 'materialize' as const) }),
  fc.record({ kind: fc.constant('replace' as const), orders: seedArbitrary }),
);

// Refusals (a duplicate id, an unknown order, a shipped one) are part of the sequence: the walk must agree after them too.
async function apply(store: OrderStore, operation: Operation): Promise<void> {
  const settle = (work: () => Promise<unknown>) => work().catch(() => undefined);
  switch (operation.kind) {
    case 'create':
      return void (await settle(async () =>
        (await store.collection()).create({ id: operation.id, status: operation.status }),
      ));
    case 'cancel':
      return void (await settle(() => store.cancel(operation.id)));
    case 'ship':
      return void (await store.change(operation.id, { from: ['pending'], to: 'shipped' }));
    case 'delete':
      return void (await store.collection()).delete((q) => q.where((order) => order.id === operation.id));
    case 'change id':
      return void (await settle(async () =>
        (
          await store.collection()
        ).update((q) => q.where((order) => order.id === operation.id), {
          data: (draft) => {
            draft.id = operation.to;
          },
        }),
      ));
    case 'reset':
      return store.reset();
    case 'materialize':
      return store.materialize();
    case 'replace':
      return store.replace(operation.orders);
  }
}

function agrees(store: OrderStore, probes: readonly From[]): void {
  for (const probe of probes) {
    expect(walked(store, probe)).toEqual(scanned(store, probe));
    expect(walked(store, probe, 2)).toEqual(scanned(store, probe, 2));
  }
}

const probeArbitrary = fc.array(
  fc.record({ after: fc.option(idArbitrary, { nil: undefined }), status: fc.constantFrom(undefined, ...statuses) }),
  { minLength: 1, maxLength: 4 },
);

describe("the store's walk in ascending order of id", () => {
  it('agrees with a full scan after any sequence of creates, cancels, ships, deletes, id changes, resets and replacements', async () => {
    await fc.assert(
      fc.asyncProperty(
        seedArbitrary,
        fc.array(operationArbitrary, { maxLength: 12 }),
        probeArbitrary,
        async (seed, operations, probes) => {
          const store = new OrderStore(seed);
          agrees(store, probes);
          for (const operation of operations) {
            await apply(store, operation);
            agrees(store, probes);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('agrees with a full scan when a hook of yours walks the store while an id change is under way', async () => {
    const store = new OrderStore([{ id: 1 }, { id: 5 }, { id: 9 }]);
    const orders = await store.collection();
    // Update hooks run before the record is replaced, some turns of the microtask queue later: walks
    // from inside one and at each of the 20 turns after it see the old id or the new one, never a mix.
    const seen: bigint[][] = [];
    orders.hooks.on('update', () => {
      const walk = (turn: number) => {
        seen.push(walked(store, {}));
        if (turn < 20) queueMicrotask(() => walk(turn + 1));
      };
      walk(0);
    });
    await orders.update((q) => q.where((order) => order.id === 5n), {
      data: (draft) => {
        draft.id = 20n;
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(21);
    expect(seen[0]).toEqual([1n, 5n, 9n]);
    expect(seen.filter((ids) => ids.join() !== '1,5,9' && ids.join() !== '1,9,20')).toEqual([]);
    expect(walked(store, {})).toEqual([1n, 9n, 20n]);
    expect(walked(store, { after: 9n })).toEqual([20n]);
    expect(walked(store, { after: 1n })).toEqual([9n, 20n]);
  });

  it('gives each store of one seed its own orders: a change in one is not seen by another, nor after a reset', async () => {
    const seed = [{ id: 3 }, { id: 2n ** 53n + 1n }, { id: 1, status: 'shipped' as const }];
    const [first, second] = [new OrderStore(seed), new OrderStore(seed)];
    await (await first.collection()).create({ id: 2n, status: 'pending' });
    await first.cancel(3n);
    expect(walked(first, { status: 'pending' })).toEqual([2n, 2n ** 53n + 1n]);
    expect(walked(second, { status: 'pending' })).toEqual([3n, 2n ** 53n + 1n]);
    await first.reset();
    expect(walked(first, {})).toEqual([1n, 3n, 2n ** 53n + 1n]);
  });

  it('gives the first order by id after a delete and a create with no walk between, the count of records unchanged', async () => {
    // The delete's hook, not the count of records, tells the index its positions moved: the walk of one
    // order checks no order against another.
    const store = new OrderStore([{ id: 1 }, { id: 5 }, { id: 3 }]);
    const orders = await store.collection();
    await orders.delete((q) => q.where((order) => order.id === 1n));
    await orders.create({ id: 4n, status: 'pending' });
    expect(walked(store, {}, 1)).toEqual([3n]);
  });

  it('finds the orders of a rare status among thousands out of id order, past the skips a walk takes one by one', async () => {
    // 3,000 orders, ids scrambled, one in 500 cancelled: the walk skips more than 1,024 before its second order.
    const seed = Array.from({ length: 3_000 }, (_, index) => ({
      id: 2n ** 53n + BigInt((index * 7919) % 3_000),
      status: index % 500 === 250 ? ('cancelled' as const) : ('pending' as const),
    }));
    const store = new OrderStore(seed);
    await store.materialize();
    for (const probe of [{ status: 'cancelled' as const }, { status: 'cancelled' as const, after: 2n ** 53n + 1_500n }])
      expect(walked(store, probe)).toEqual(scanned(store, probe));
    expect(walked(store, { status: 'cancelled' })).toHaveLength(6);
  });
});

describe("v2's list over the index, through the mock", () => {
  it('pages a session of its own and the default one apart, each from its own store, ids past 2^53 exact', async () => {
    const seed = [{ id: 2n ** 53n + 1n }, { id: 2n ** 53n + 3n }, { id: 7 }];
    const mock = createOrderMock({ seed });
    const page = async (query: string, session?: string) => {
      const answer = await mock.handle(
        new Request(`http://petstore.test/v2/store/orders?${query}`, {
          headers: {
            ...authorized,
            ...(session === undefined ? {} : { 'x-mock-session': session }),
          },
        }),
      );
      if (typeof answer !== 'object') throw new Error('no answer');
      return { status: answer.status, text: answer.body };
    };
    const cancelled = await mock.handle(
      new Request('http://petstore.test/v1/store/orders/9007199254740993', {
        method: 'DELETE',
        headers: { ...authorized, 'x-mock-session': 'a' },
      }),
    );
    expect(typeof cancelled === 'object' && cancelled.status).toBe(204);
    expect(await page(`status=pending&limit=1&cursor=${cursorAfter(7n, 'pending')}`, 'a')).toEqual({
      status: 200,
      text: `{"orders":[{"id":9007199254740995,"status":"pending"}],"nextCursor":null}`,
    });
    expect(await page(`status=pending&limit=1&cursor=${cursorAfter(7n, 'pending')}`)).toEqual({
      status: 200,
      text: `{"orders":[{"id":9007199254740993,"status":"pending"}],"nextCursor":"${cursorAfter(9007199254740993n, 'pending')}"}`,
    });
  });
});
