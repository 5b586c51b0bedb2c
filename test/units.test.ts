import { Collection } from '@msw/data';
import { describe, expect, it, vi } from 'vitest';
import { parseInt64, toInt64 } from '../spec/int64.js';
import { parseJson, stringifyJson } from '../spec/json.js';
import { OrderStore, storedOrderSchema } from '../mocks/order-store.js';

describe('parseInt64', () => {
  it.each([
    ['0', 0n],
    ['-1', -1n],
    ['007', 7n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
  ])('reads %s exactly', (text, value) => {
    expect(parseInt64(text)).toBe(value);
  });

  it.each(['', '-', '+1', '1.0', '1e3', ' 1', '1 ', '0x1', '9223372036854775808', '-9223372036854775809', '١'])('refuses %j', (text) => {
    expect(parseInt64(text)).toBeUndefined();
  });
});

describe('toInt64', () => {
  it('takes safe integers and in-range bigints, and refuses the rest', () => {
    expect(toInt64(42)).toBe(42n);
    expect(toInt64(2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(toInt64(2n ** 63n)).toBeUndefined();
    expect(toInt64(1e19)).toBeUndefined();
    expect(toInt64(1.5)).toBeUndefined();
    expect(toInt64('1')).toBeUndefined();
  });
});

describe('lossless JSON', () => {
  it('keeps integers beyond 2^53 exact both ways', () => {
    const text = '[{"id":9007199254740993,"petId":-9223372036854775808,"quantity":2,"ratio":0.5}]';
    const value = parseJson(text);
    expect(value).toEqual([{ id: 9007199254740993n, petId: -9223372036854775808n, quantity: 2, ratio: 0.5 }]);
    expect(stringifyJson(value)).toBe(text);
  });

  it('refuses duplicate keys and keeps __proto__ an own key', () => {
    expect(() => parseJson('{"a":1,"a":2}')).toThrow(SyntaxError);
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('OrderStore', () => {
  it('holds orders in an @msw/data collection validated by the spec Order schema', async () => {
    const store = new OrderStore([{ id: 1, petId: 9007199254740993n }]);
    await store.settled();
    expect(store.find(1n)).toEqual({ id: 1n, petId: 9007199254740993n, status: 'pending' });
    expect(store.find(2n)).toBeUndefined();
  });

  it('gives @msw/data a schema that refuses what the spec refuses', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const orders = new Collection({ schema: storedOrderSchema });
      await expect(orders.create({ id: 1n, status: 'pending', shipDate: '2026-12-01T09:00:00Z' })).resolves.toMatchObject({ id: 1n });
      for (const invalid of [{ id: 2n, status: 'lost' }, { id: 2n }, { id: 2n ** 63n, status: 'pending' }, { id: 2n, status: 'pending', shipDate: 'soon' }]) {
        await expect(orders.create(invalid as never), JSON.stringify(invalid, (_, value) => (typeof value === 'bigint' ? `${value}n` : value))).rejects.toThrow(
          /does not match the schema/,
        );
      }
      expect(orders.count()).toBe(1);
    } finally {
      quiet.mockRestore();
    }
  });

  it('applies replacements in the order they were asked for', async () => {
    const store = new OrderStore([]);
    void store.replace([{ id: 1 }]);
    void store.replace([{ id: 2 }]);
    await store.settled();
    expect(store.all().map((order) => order.id)).toEqual([2n]);
  });

  it('caches the list body until the store changes', async () => {
    const store = new OrderStore([{ id: 1 }, { id: 2 }]);
    await store.settled();
    expect(store.listBody()).toBe('[{"id":1},{"id":2}]');
    store.cancel(1n);
    expect(store.listBody()).toBe('[{"id":2}]');
    await store.replace([{ id: 3 }]);
    expect(store.listBody()).toBe('[{"id":3}]');
  });
});
