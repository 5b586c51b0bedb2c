// A fake whose orders survive a page reload: persistOrders keeps a session's orders in a storage
// (localStorage in the browser; a Map here) after each change, and restores them at start.
import { describe, expect, it } from 'vitest';
import { createOrderMock, persistOrders, type OrderStorage } from '../../../mocks/adapters/msw.js';

function memoryStorage(initial: Record<string, string> = {}): OrderStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const headers = { authorization: 'Bearer petstore-dev-key' };
const cancel = (mock: ReturnType<typeof createOrderMock>, id: string) =>
  mock.handle(new Request(`http://localhost/v1/store/orders/${id}`, { method: 'DELETE', headers }));

// Saving happens on a later turn, once the change is in place: wait for the storage to hold it.
async function saved(storage: ReturnType<typeof memoryStorage>, key: string): Promise<string> {
  await expect.poll(() => storage.items.get(key)).toBeDefined();
  return storage.items.get(key)!;
}

describe('persistOrders', () => {
  it('saves every order with its status after a cancel, int64 ids exact', async () => {
    const storage = memoryStorage();
    const mock = createOrderMock({ seed: [{ id: 9007199254740993n, petId: 7 }, { id: 2 }] });
    await persistOrders(mock, { storage, key: 'orders' });
    await cancel(mock, '9007199254740993');
    await expect
      .poll(() => storage.items.get('orders'))
      .toBe('[{"id":9007199254740993,"petId":7,"status":"cancelled"},{"id":2,"status":"pending"}]');
  });

  it('restores the saved orders at start, so a new mock carries on where the last one stopped', async () => {
    const storage = memoryStorage({
      orders: '[{"id":9007199254740993,"status":"cancelled"},{"id":2,"status":"shipped"}]',
    });
    const mock = createOrderMock();
    const persisted = await persistOrders(mock, { storage, key: 'orders' });
    expect(persisted.restored).toBe(true);
    expect(await mock.orders()).toEqual([
      { id: 9007199254740993n, status: 'cancelled' },
      { id: 2n, status: 'shipped' },
    ]);
    expect(await cancel(mock, '2')).toMatchObject({ status: 409 });
  });

  it('saves a write made through the collection', async () => {
    const storage = memoryStorage();
    const mock = createOrderMock({ seed: [{ id: 1 }] });
    await persistOrders(mock, { storage, key: 'orders' });
    const orders = await mock.collection();
    await orders.create({ id: 5n, status: 'shipped' });
    await expect
      .poll(() => storage.items.get('orders'))
      .toBe('[{"id":1,"status":"pending"},{"id":5,"status":"shipped"}]');
  });

  it('saves the seed again after a reset', async () => {
    const storage = memoryStorage({ orders: '[{"id":8}]' });
    const mock = createOrderMock({ seed: [{ id: 1 }] });
    await persistOrders(mock, { storage, key: 'orders' });
    await mock.reset();
    await expect.poll(() => storage.items.get('orders')).toBe('[{"id":1,"status":"pending"}]');
  });

  it('forgets saved orders that are no longer valid, and starts from the seed', async () => {
    const storage = memoryStorage({ orders: '[{"id":1,"status":"lost"}]' });
    const mock = createOrderMock({ seed: [{ id: 3 }] });
    const persisted = await persistOrders(mock, { storage, key: 'orders' });
    expect(persisted.restored).toBe(false);
    expect(storage.items.has('orders')).toBe(false);
    expect(await mock.orders()).toEqual([{ id: 3n, status: 'pending' }]);
  });

  it('forgets saved text that is not JSON', async () => {
    const storage = memoryStorage({ orders: '[{"id":' });
    const mock = createOrderMock({ seed: [{ id: 3 }] });
    expect((await persistOrders(mock, { storage, key: 'orders' })).restored).toBe(false);
    expect(storage.items.has('orders')).toBe(false);
  });

  it('stops saving once stopped', async () => {
    const storage = memoryStorage();
    const mock = createOrderMock({ seed: [{ id: 1 }, { id: 2 }] });
    const persisted = await persistOrders(mock, { storage, key: 'orders' });
    await cancel(mock, '1');
    const first = await saved(storage, 'orders');
    persisted.stop();
    // A listener of its own tells when the store has announced the next change: saving would have happened by then.
    const announced = new Promise<void>((resolve) => mock.store.onChange(resolve));
    await cancel(mock, '2');
    await announced;
    expect(storage.items.get('orders')).toBe(first);
  });

  it('saves a burst of changes once, after the last of them', async () => {
    const storage = memoryStorage();
    const writes: string[] = [];
    const mock = createOrderMock({ seed: [{ id: 1 }] });
    await persistOrders(mock, {
      storage: {
        ...storage,
        setItem: (key, value) => {
          writes.push(value);
          storage.setItem(key, value);
        },
      },
      key: 'orders',
    });
    // Two replacements in one turn: each is in place at once, so one save holds the last.
    void mock.replaceOrders([{ id: 2 }]);
    void mock.replaceOrders([{ id: 3 }]);
    await saved(storage, 'orders');
    // Every save scheduled in that turn has run once the event loop has passed its timers.
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['[{"id":3,"status":"pending"}]']);
  });
});
