// The position hint beside the store's collection: every answer the store gives from it is what a
// search of the collection would give, after any change made through the collection's methods.
import { Collection, Query } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderStore, type OrderCollection } from '../../../mocks/store/order-store.js';
import { updatesByRecordWithoutSearch } from '../../../mocks/store/update-by-record.js';

let store: OrderStore;
let orders: OrderCollection;
beforeEach(async () => {
  store = new OrderStore([{ id: 1 }, { id: 2, status: 'shipped' }, { id: 3 }, { id: 4 }, { id: 5, status: 'shipped' }]);
  orders = await store.collection();
});

const statusOf = (id: bigint) => store.find(id)?.status;
const cancelled = (id: bigint) =>
  store.cancel(id).then(
    () => 204,
    (error: { status: number }) => error.status,
  );

describe("the store's position hint", () => {
  it('finds every order, and no other', () => {
    expect([1n, 2n, 3n, 4n, 5n, 6n].map(statusOf)).toEqual([
      'pending',
      'shipped',
      'pending',
      'pending',
      'shipped',
      undefined,
    ]);
  });

  it('follows a record deleted in the middle: the orders after it are found at their new places', async () => {
    expect(statusOf(4n)).toBe('pending');
    orders.delete((q) => q.where({ id: 2n }));
    expect([1n, 2n, 3n, 4n, 5n].map(statusOf)).toEqual(['pending', undefined, 'pending', 'pending', 'shipped']);
    expect(await cancelled(5n)).toBe(409);
    expect(await cancelled(2n)).toBe(404);
    expect(await cancelled(4n)).toBe(204);
  });

  it('follows a record created through the collection, and refuses a second with its id', async () => {
    expect(statusOf(6n)).toBeUndefined();
    await orders.create({ id: 6n, status: 'shipped' });
    expect(statusOf(6n)).toBe('shipped');
    await expect(orders.create({ id: 6n })).rejects.toMatchObject({ code: 'duplicate_order_id' });
    expect(orders.count()).toBe(6);
    expect(await cancelled(6n)).toBe(409);
  });

  it('finds an order created beside a create that a hook of yours refused', async () => {
    orders.hooks.on('create', (event) => {
      if (event.data.record.id === 200n) throw new Error('refused by the test');
    });
    const outcomes = await Promise.allSettled([orders.create({ id: 100n }), orders.create({ id: 200n })]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect([100n, 200n].map(statusOf)).toEqual(['pending', undefined]);
    await expect(orders.create({ id: 100n })).rejects.toMatchObject({ code: 'duplicate_order_id' });
    expect(await cancelled(100n)).toBe(204);
  });

  it('finds an order created while another create waits in a slow hook of yours', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    orders.hooks.on('create', async (event) => {
      if (event.data.record.id === 101n) await released;
    });
    const slow = orders.create({ id: 101n });
    await orders.create({ id: 100n });
    expect([100n, 101n].map(statusOf)).toEqual(['pending', undefined]);
    expect(await cancelled(100n)).toBe(204);
    release();
    await slow;
    expect([100n, 101n].map(statusOf)).toEqual(['cancelled', 'pending']);
  });

  it('follows an order that takes another id: found by the new one, not the old', async () => {
    expect(statusOf(3n)).toBe('pending');
    await orders.update((q) => q.where({ id: 3n }), {
      data(order) {
        order.id = 30n;
      },
    });
    expect(statusOf(30n)).toBe('pending');
    expect(statusOf(3n)).toBeUndefined();
    expect(await cancelled(30n)).toBe(204);
    expect(await cancelled(3n)).toBe(404);
  });

  it('refuses an id change to an id the store holds, and keeps both orders where they were', async () => {
    await expect(
      orders.update((q) => q.where({ id: 3n }), {
        data(order) {
          order.id = 4n;
        },
      }),
    ).rejects.toMatchObject({ code: 'duplicate_order_id' });
    expect([3n, 4n].map(statusOf)).toEqual(['pending', 'pending']);
  });

  it('follows a collection cleared and filled again', async () => {
    expect(statusOf(1n)).toBe('pending');
    orders.clear();
    expect(statusOf(1n)).toBeUndefined();
    await orders.create({ id: 7n });
    await orders.create({ id: 1n, status: 'shipped' });
    expect([1n, 7n, 2n].map(statusOf)).toEqual(['shipped', 'pending', undefined]);
    expect(await cancelled(1n)).toBe(409);
    expect(await cancelled(7n)).toBe(204);
  });

  it('follows a status changed through the collection', async () => {
    expect(statusOf(1n)).toBe('pending');
    await orders.update((q) => q.where({ id: 1n }), {
      data(order) {
        order.status = 'shipped';
      },
    });
    expect(await cancelled(1n)).toBe(409);
  });
});

describe('flattenRecordKeys', () => {
  it("leaves a record's keys and values as they were", async () => {
    const { flattenRecordKeys } = await import('../../../mocks/store/flat-record-keys.js');
    const key = Symbol('key');
    const relations = Symbol('relations');
    const record = { id: 1n, [key]: `${'a'.repeat(20)}${'b'.repeat(20)}`, [relations]: new Map() };
    flattenRecordKeys(record);
    expect(record).toEqual({ id: 1n, [key]: `${'a'.repeat(20)}${'b'.repeat(20)}`, [relations]: new Map() });
  });
});

describe('updatesByRecordWithoutSearch', () => {
  it('is false for the installed @msw/data, whose update(record) searches the collection first', async () => {
    expect(await updatesByRecordWithoutSearch()).toBe(false);
  });

  it('is true for a collection whose update(record) finds the record without findFirst', async () => {
    class UpdatesInPlace extends Collection<StandardSchemaV1<{ id: number }, { id: number }>> {}
    // update(record) that finds the record by identity through updateMany, never through findFirst.
    Object.defineProperty(UpdatesInPlace.prototype, 'update', {
      async value(this: Collection<never>, record: object, options: object) {
        const [updated] = await this.updateMany(new Query((candidate) => candidate === record), options as never);
        return updated;
      },
    });
    expect(await updatesByRecordWithoutSearch(UpdatesInPlace as never)).toBe(true);
  });
});

describe.each([true, false])('a cancel that updates by the record itself: %s', (updateByRecord) => {
  it('cancels a pending order once, refuses a shipped one and an unknown one', async () => {
    const byRecord = new OrderStore([{ id: 1 }, { id: 2, status: 'shipped' }], { updateByRecord });
    const update = vi.spyOn(await byRecord.collection(), 'update');
    const outcome = (id: bigint) =>
      byRecord.cancel(id).then(
        () => 204,
        (error: { status: number }) => error.status,
      );
    expect([await outcome(1n), await outcome(1n), await outcome(2n), await outcome(3n)]).toEqual([204, 404, 409, 404]);
    expect(byRecord.all().map((order) => order.status)).toEqual(['cancelled', 'shipped']);
    // One update, for the one cancel: given the record itself, or an id predicate.
    expect(update.mock.calls.map(([predicate]) => predicate instanceof Query)).toEqual([!updateByRecord]);
  });

  it('gives one of 50 concurrent cancels of one order its 204', async () => {
    const byRecord = new OrderStore([{ id: 1 }, { id: 2 }], { updateByRecord });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => byRecord.cancel(1n)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('the default seed', () => {
  it('passes the check every other seed goes through, and cannot be changed', async () => {
    const { defaultSeed } = await import('../../../mocks/store/default-seed.js');
    const { OrderSeed } = await import('../../../mocks/store/order-seed.js');
    const checked = OrderSeed.from(defaultSeed.map((order) => ({ ...order })));
    expect(OrderSeed.from(defaultSeed).orders()).toEqual(checked.orders());
    expect(Object.isFrozen(defaultSeed) && defaultSeed.every((order) => Object.isFrozen(order))).toBe(true);
  });
});
