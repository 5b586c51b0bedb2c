import { Collection } from '@msw/data';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { stringifyJson } from '../../../core/stringify-json.js';
import { OrderSeed, OrderStore, storedOrderSchema, toStoredOrders } from '../../../mocks/store/order-store.js';
import { storedOrders } from '../../support/arbitraries.js';

const text = (parts: readonly Uint8Array[]) => new TextDecoder().decode(Buffer.concat(parts));

describe('OrderStore', () => {
  it('holds orders in an @msw/data collection validated by the spec Order schema', async () => {
    const store = new OrderStore([{ id: 1, petId: 9007199254740993n }]);
    await store.materialize();
    expect(store.find(1n)).toEqual({ id: 1n, petId: 9007199254740993n, status: 'pending' });
    expect(store.find(2n)).toBeUndefined();
  });

  it('gives @msw/data a schema that refuses what the spec refuses', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const orders = new Collection({ schema: storedOrderSchema });
      await expect(
        orders.create({ id: 1n, status: 'pending', shipDate: '2026-12-01T09:00:00Z' }),
      ).resolves.toMatchObject({ id: 1n });
      const invalids = [
        { id: 2n, status: 'lost' },
        { status: 'pending' },
        { id: 2n ** 63n },
        // biome-ignore lint/correctness/noPrecisionLoss: the point of the case: this number is 9007199254740992.
        { id: 9007199254740993 },
        { id: 2n, shipDate: 'soon' },
        { id: 2n, price: 3 },
      ];
      for (const invalid of invalids) {
        await expect(
          orders.create(invalid as never),
          JSON.stringify(invalid, (_, value) => (typeof value === 'bigint' ? `${value}n` : value)),
        ).rejects.toThrow(/does not match the schema/);
      }
      expect(orders.count()).toBe(1);
    } finally {
      quiet.mockRestore();
    }
  });

  it('gives @msw/data records as the store holds them: int64 fields as bigint, a status (pending when absent), documented fields in order', async () => {
    const orders = new Collection({ schema: storedOrderSchema });
    const record = await orders.create({ complete: true, petId: 7, id: 9007199254740993n });
    expect({ ...record }).toEqual({ id: 9007199254740993n, petId: 7n, complete: true, status: 'pending' });
    expect(Object.keys(record)).toEqual(['id', 'petId', 'complete', 'status']);
  });

  it('applies replacements in the order they were asked for', async () => {
    const store = new OrderStore([]);
    void store.replace([{ id: 1 }]);
    await store.replace([{ id: 2 }]);
    expect(store.all().map((order) => order.id)).toEqual([2n]);
  });

  it('caches the list body until the store changes', async () => {
    const store = new OrderStore([{ id: 1 }, { id: 2 }]);
    expect(text(store.listBody())).toBe('[{"id":1},{"id":2}]');
    await store.cancel(1n);
    expect(text(store.listBody())).toBe('[{"id":2}]');
    await store.replace([{ id: 3 }]);
    expect(text(store.listBody())).toBe('[{"id":3}]');
  });

  it('writes the list body as the lossless serialiser writes the documented fields', () => {
    fc.assert(
      fc.property(fc.array(storedOrders, { maxLength: 8 }), (orders) => {
        const unique = [...new Map(orders.map((order) => [order.id, order])).values()];
        const expected = stringifyJson(
          unique.filter((order) => order.status !== 'cancelled').map(({ status: _, ...fields }) => fields),
        );
        expect(text(new OrderStore(unique).listBody())).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('holds a seed as its list body and reads the same orders back, cancelled ones in their places', () => {
    fc.assert(
      fc.property(fc.array(storedOrders, { maxLength: 8 }), (orders) => {
        const unique = [...new Map(orders.map((order) => [order.id, order])).values()];
        // Compared as JSON: the list writes -0 as 0, as any JSON does.
        expect(stringifyJson(OrderSeed.from(unique).orders())).toBe(stringifyJson(toStoredOrders(unique)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads any slice of a seed back alone, as the same orders the whole read gives', () => {
    fc.assert(
      fc.property(fc.array(storedOrders, { maxLength: 12 }), fc.nat(), fc.nat(), (orders, one, other) => {
        const seed = OrderSeed.from([...new Map(orders.map((order) => [order.id, order])).values()]);
        const [from, to] = [one % (seed.size + 1), other % (seed.size + 1)].sort((left, right) => left - right) as [
          number,
          number,
        ];
        expect(stringifyJson(seed.orders(from, to))).toBe(stringifyJson(seed.orders().slice(from, to)));
      }),
      { numRuns: 500 },
    );
  });

  it('finds each order by id once its records exist, whatever the order of the ids', async () => {
    const ids = [5n, -(2n ** 63n), 2n ** 63n - 1n, 9007199254740993n, 0n, 3n];
    const store = new OrderStore(ids.map((id) => ({ id, status: 'shipped' })));
    await store.materialize();
    for (const id of ids) expect(store.find(id)).toEqual({ id, status: 'shipped' });
    for (const id of [1n, 4n, 9007199254740992n, -(2n ** 63n) + 1n]) expect(store.find(id)).toBeUndefined();
    await expect(store.cancel(9007199254740993n)).rejects.toThrow(
      'Order 9007199254740993 has already shipped and cannot be cancelled.',
    );
    await expect(store.cancel(9007199254740992n)).rejects.toThrow('Order 9007199254740992 not found.');
  });

  it("lists the seed's orders without those cancelled since, whichever they are", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(storedOrders, { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (orders, picks) => {
          const store = new OrderStore([...new Map(orders.map((order) => [order.id, order])).values()]);
          const held = store.all();
          for (const pick of picks) {
            if (held.length > 0) await store.cancel(held[pick % held.length]!.id).catch(() => {});
            // -0 is written 0, as any JSON serialiser writes it.
            const listed = store
              .all()
              .filter((order) => order.status !== 'cancelled')
              .map(({ status: _, ...fields }) =>
                Object.is(fields.quantity, -0) ? { ...fields, quantity: 0 } : fields,
              );
            expect(text(store.listBody())).toBe(stringifyJson(listed));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads from its seed until its first change, and the seed stays as it was', async () => {
    const seed = OrderSeed.from([{ id: 1 }, { id: 2, status: 'shipped' }]);
    const first = new OrderStore(seed);
    const second = new OrderStore(seed);
    await first.cancel(1n);
    expect(first.all().map((order) => order.status)).toEqual(['cancelled', 'shipped']);
    expect(second.all().map((order) => order.status)).toEqual(['pending', 'shipped']);
    expect(seed.orders().map((order) => order.status)).toEqual(['pending', 'shipped']);
    await first.reset();
    expect(text(first.listBody())).toBe('[{"id":1},{"id":2}]');
  });

  it('checks a seed once: a checked seed is taken as it is', () => {
    const seed = OrderSeed.from([{ id: 1 }]);
    expect(OrderSeed.from(seed)).toBe(seed);
    expect(() => OrderSeed.from([{ id: 1 }, { id: 1 }], '/orders')).toThrow(
      'Invalid orders: id 1 appears more than once.',
    );
  });

  it('lets exactly one of 200 concurrent cancels of a pending order win, while its records are being created', async () => {
    const store = new OrderStore(Array.from({ length: 10_000 }, (_, index) => ({ id: index + 1 })));
    const outcomes = await Promise.allSettled(Array.from({ length: 200 }, () => store.cancel(9_999n)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(
      outcomes
        .filter((outcome) => outcome.status === 'rejected')
        .map((outcome) => (outcome as PromiseRejectedResult).reason.code),
    ).toEqual(Array(199).fill('order_not_found'));
    expect(store.find(9_999n)?.status).toBe('cancelled');
  });

  it('answers reads from its seed while its records are being created, and keeps every record in order', async () => {
    const store = new OrderStore(Array.from({ length: 10_000 }, (_, index) => ({ id: 10_000 - index })));
    const cancelled = store.cancel(5n);
    expect(JSON.parse(text(store.listBody()))).toHaveLength(10_000);
    await cancelled;
    expect(store.all().map((order) => Number(order.id))).toEqual(
      Array.from({ length: 10_000 }, (_, index) => 10_000 - index),
    );
    expect(JSON.parse(text(store.listBody()))).toHaveLength(9_999);
  });

  it('cancels in the orders a replacement put in place while the earlier ones were being created', async () => {
    const store = new OrderStore(Array.from({ length: 10_000 }, (_, index) => ({ id: index + 1 })));
    const cancelled = store.cancel(7n);
    await store.replace([{ id: 7, status: 'shipped' }]);
    await expect(cancelled).rejects.toThrow('Order 7 has already shipped and cannot be cancelled.');
    expect(store.all()).toEqual([{ id: 7n, status: 'shipped' }]);
  });
});
