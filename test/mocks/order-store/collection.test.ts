// The store in users' hands: `await mock.collection()` is the @msw/data collection the mock answers
// from. A write made there (by the test, not the store) is what the next list shows and what decides
// the next cancel; reset returns to the seed; the spec's Order schema guards every record.
import { Collection, Query } from '@msw/data';
import { getResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOrderMock, type OrderMock } from '../../../mocks/adapters/msw.js';
import { authorized, inProcessBase } from '../../support/support.js';

let mock: OrderMock;
beforeEach(() => {
  mock = createOrderMock({ seed: [{ id: 1, petId: 7 }, { id: 2 }, { id: 3, status: 'shipped' }] });
});

const call = async (path: string, method = 'GET', session?: string) =>
  (await getResponse(
    mock.handlers,
    new Request(`${inProcessBase}${path}`, {
      method,
      headers: { ...authorized, ...(session ? { 'x-mock-session': session } : {}) },
    }),
  ))!;
const list = async (session?: string) => (await call('/store/orders', 'GET', session)).text();
const cancel = async (id: bigint | number | string, session?: string) =>
  (await call(`/store/orders/${id}`, 'DELETE', session)).status;

describe('mock.collection()', () => {
  it('is an @msw/data Collection holding the seed, records as mock.orders() returns them', async () => {
    const orders = await mock.collection();
    expect(orders).toBeInstanceOf(Collection);
    expect(orders.all().map((order) => ({ ...order }))).toEqual(await mock.orders());
    expect(orders.all().map((order) => ({ ...order }))).toEqual([
      { id: 1n, petId: 7n, status: 'pending' },
      { id: 2n, status: 'pending' },
      { id: 3n, status: 'shipped' },
    ]);
  });

  it('lists a record created through the collection, and cancels it with 204', async () => {
    const orders = await mock.collection();
    await orders.create({ id: 10n, petId: 70n, quantity: 2, status: 'pending' });
    expect(await list()).toBe('[{"id":1,"petId":7},{"id":2},{"id":3},{"id":10,"petId":70,"quantity":2}]');
    expect(await cancel(10)).toBe(204);
    expect(orders.findFirst((q) => q.where({ id: 10n }))?.status).toBe('cancelled');
  });

  it('answers 409 for a record updated to shipped through the collection', async () => {
    const orders = await mock.collection();
    await orders.update((q) => q.where({ id: 1n }), {
      data(order) {
        order.status = 'shipped';
      },
    });
    expect(await cancel(1)).toBe(409);
    expect((await mock.orders()).find((order) => order.id === 1n)?.status).toBe('shipped');
  });

  it('answers 404 for a record deleted through the collection, and no longer lists it', async () => {
    const orders = await mock.collection();
    orders.delete((q) => q.where({ id: 2n }));
    expect(await cancel(2)).toBe(404);
    expect(await list()).toBe('[{"id":1,"petId":7},{"id":3}]');
  });

  it('shows a change made through the collection to the next list, after a list was already built', async () => {
    expect(await list()).toBe('[{"id":1,"petId":7},{"id":2},{"id":3}]');
    const orders = await mock.collection();
    await orders.update((q) => q.where({ id: 2n }), {
      data(order) {
        order.status = 'cancelled';
      },
    });
    expect(await list()).toBe('[{"id":1,"petId":7},{"id":3}]');
    expect(await cancel(2)).toBe(404);
  });

  it('shows a cancel made through the API to the collection', async () => {
    expect(await cancel(1)).toBe(204);
    expect((await mock.collection()).findFirst((q) => q.where({ id: 1n }))?.status).toBe('cancelled');
  });

  it('never serves a list built while an update was under way, once the update has landed', async () => {
    // @msw/data calls update hooks before it puts the new record in place: a list built from one sees the old record.
    const orders = await mock.collection();
    const during: string[] = [];
    orders.hooks.on('update', () => void during.push(new TextDecoder().decode(mock.store.listBody()[0])));
    await orders.update((q) => q.where({ id: 1n }), {
      data(order) {
        order.status = 'cancelled';
      },
    });
    expect(during).toEqual(['[{"id":1,"petId":7},{"id":2},{"id":3}]']);
    expect(await list()).toBe('[{"id":2},{"id":3}]');
  });

  it('returns to the seed on reset, in a new collection', async () => {
    const before = await mock.collection();
    await before.create({ id: 4n });
    await before.update((q) => q.where({ id: 1n }), {
      data(order) {
        order.status = 'shipped';
      },
    });
    await mock.reset();
    const after = await mock.collection();
    expect(after).not.toBe(before);
    expect(after.all().map((order) => ({ ...order }))).toEqual([
      { id: 1n, petId: 7n, status: 'pending' },
      { id: 2n, status: 'pending' },
      { id: 3n, status: 'shipped' },
    ]);
    expect(await list()).toBe('[{"id":1,"petId":7},{"id":2},{"id":3}]');
    expect(await cancel(1)).toBe(204);
  });

  it('gives the collection of the orders a replacement put in place', async () => {
    await mock.replaceOrders([{ id: 5, status: 'shipped' }]);
    expect((await mock.collection()).all().map((order) => ({ ...order }))).toEqual([{ id: 5n, status: 'shipped' }]);
  });

  it('keeps int64 ids beyond 2^53 exact: 9007199254740993 is not 9007199254740992', async () => {
    const orders = await mock.collection();
    await orders.create({ id: 9007199254740993n, petId: 9223372036854775807n });
    expect(await list()).toBe(
      '[{"id":1,"petId":7},{"id":2},{"id":3},{"id":9007199254740993,"petId":9223372036854775807}]',
    );
    expect(await cancel('9007199254740992')).toBe(404);
    expect(await cancel(9007199254740993n)).toBe(204);
    expect(orders.findFirst(new Query((order) => order.id === 9007199254740993n))?.status).toBe('cancelled');
  });

  it("is a session's own on a named session, apart from the default one", async () => {
    const named = await mock.session('arrange').collection();
    await named.update((q) => q.where({ id: 1n }), {
      data(order) {
        order.status = 'shipped';
      },
    });
    expect(await cancel(1, 'arrange')).toBe(409);
    expect(await cancel(1)).toBe(204);
    expect(named).not.toBe(await mock.collection());
  });
});

describe("the collection's schema", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['an unknown status', { id: 4n, status: 'lost' }],
    ['no id', { status: 'pending' }],
    ['an id beyond int64', { id: 2n ** 63n }],
    // biome-ignore lint/correctness/noPrecisionLoss: the point of the case: this number is 9007199254740992.
    ['an id given as a number beyond 2^53, which is not exact', { id: 9007199254740993 }],
    ['a shipDate that is no date-time', { id: 4n, shipDate: 'soon' }],
    ['a field the Order does not have', { id: 4n, price: 3 }],
    ['a quantity that is no integer', { id: 4n, quantity: 1.5 }],
  ])('refuses a record with %s, and the store does not change', async (_, record) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const orders = await mock.collection();
    await expect(orders.create(record as never)).rejects.toThrow(/does not match the schema/);
    expect(orders.count()).toBe(3);
    expect(await list()).toBe('[{"id":1,"petId":7},{"id":2},{"id":3}]');
  });

  it('refuses an update that breaks the schema, and the record stays as it was', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const orders = await mock.collection();
    // @msw/data 1.1.7 means to say "resulting record does not match the schema", but its message
    // writes the record with JSON.stringify, which throws on a bigint: the update is refused all the same.
    await expect(
      orders.update((q) => q.where({ id: 1n }), {
        data(order) {
          order.status = 'lost' as never;
        },
      }),
    ).rejects.toThrow();
    expect({ ...orders.findFirst((q) => q.where({ id: 1n })) }).toEqual({ id: 1n, petId: 7n, status: 'pending' });
    expect(await cancel(1)).toBe(204);
  });

  it('refuses a record whose id the store holds (duplicate_order_id)', async () => {
    const orders = await mock.collection();
    await expect(orders.create({ id: 2n, status: 'shipped' })).rejects.toMatchObject({
      code: 'duplicate_order_id',
      message: 'Invalid order: id 2 is already in the store.',
    });
    expect(orders.count()).toBe(3);
    expect(await cancel(2)).toBe(204);
  });

  it('refuses an update that gives a record the id of another (duplicate_order_id)', async () => {
    const orders = await mock.collection();
    await expect(
      orders.update((q) => q.where({ id: 1n }), {
        data(order) {
          order.id = 3n;
        },
      }),
    ).rejects.toMatchObject({ code: 'duplicate_order_id' });
    expect(await cancel(1)).toBe(204);
  });

  it('takes int64 fields given as safe numbers and holds them as bigint, status pending when absent', async () => {
    const orders = await mock.collection();
    const created = await orders.create({ id: 4, petId: 8 });
    expect({ ...created }).toEqual({ id: 4n, petId: 8n, status: 'pending' });
    expect(await cancel(4)).toBe(204);
  });
});
