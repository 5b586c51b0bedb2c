// Big stores through the public entry points: a seed file of 20,000 orders on the command line, the
// standalone server's answers while the store's records are being created, sessions sharing one
// seed, the garbage-collection hook. (Speed and memory are measured in bench/scale.mjs, not here.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSeedFile } from '../../../mocks/index.js';
import { stringifyJson } from '../../../core/stringify-json.js';
import { cliPath, startCommand } from '../../support/cli-support.js';
import { authorized, jsonOf, startServer } from '../../support/support.js';

const count = 20_000;
// Ids in descending order, beyond 2^53 every tenth order, one in three shipped, one in a thousand already cancelled.
const orders = Array.from({ length: count }, (_, index) => ({
  id: index % 10 === 0 ? 2n ** 62n - BigInt(index) : BigInt(count - index),
  petId: BigInt(1000 + index),
  quantity: 1 + (index % 5),
  shipDate: '2026-12-01T09:00:00Z',
  complete: index % 7 === 0,
  status: index % 1000 === 999 ? 'cancelled' : index % 3 === 0 ? 'shipped' : 'pending',
}));
const listed = (from: typeof orders) =>
  stringifyJson(from.filter((order) => order.status !== 'cancelled').map(({ status: _, ...fields }) => fields));
const pendingIds = orders.filter((order) => order.status === 'pending').map((order) => order.id);
// Each test moves 20,000 orders through a server, a process or both, in a second or two on a quiet machine: the
// time limits are generous so that a loaded machine makes a test slower, never red. Nothing here is timed.
const slow = { timeout: 120_000 };

let directory: string;
let seedFile: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-big-'));
  seedFile = join(directory, 'orders.json');
  await writeFile(seedFile, stringifyJson(orders));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('petstore-mock --seed with 20,000 orders', slow, () => {
  it('lists every order of the file, exactly, ids beyond 2^53 included', async () => {
    const mock = await startCommand(process.execPath, [cliPath, '--port', '0', '--seed', seedFile]);
    try {
      const response = await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(listed(orders));
    } finally {
      await mock.stop();
    }
  });

  it('cancels at once after starting, and lists without the cancelled orders', async () => {
    const mock = await startCommand(process.execPath, [cliPath, '--port', '0', '--seed', seedFile]);
    try {
      const cancelled = pendingIds.slice(0, 3);
      const statuses = await Promise.all(
        cancelled.map(
          async (id) =>
            (await fetch(`${mock.baseUrl}/store/orders/${id}`, { method: 'DELETE', headers: authorized })).status,
        ),
      );
      expect(statuses).toEqual([204, 204, 204]);
      const again = await fetch(`${mock.baseUrl}/store/orders/${cancelled[0]}`, {
        method: 'DELETE',
        headers: authorized,
      });
      expect(again.status).toBe(404);
      const list = await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized });
      expect(await list.text()).toBe(
        listed(orders.map((order) => (cancelled.includes(order.id) ? { ...order, status: 'cancelled' } : order))),
      );
    } finally {
      await mock.stop();
    }
  });
});

describe('a big store in the standalone server', slow, () => {
  it('answers reads from the seed while the records are being created, and every change after them', async () => {
    const mock = await startServer({ seed: orders });
    try {
      // The first request starts the default session's records; these come while they are created.
      const [first, cancel, second] = await Promise.all([
        mock.withKey('/store/orders'),
        mock.withKey(`/store/orders/${pendingIds[10]}`, { method: 'DELETE' }),
        mock.withKey('/store/orders'),
      ]);
      expect(await first.text()).toBe(listed(orders));
      expect(cancel.status).toBe(204);
      expect([
        listed(orders),
        listed(orders.map((order) => (order.id === pendingIds[10] ? { ...order, status: 'cancelled' } : order))),
      ]).toContain(await second.text());
      expect(((await jsonOf(await mock.withKey('/store/orders'))) as unknown[]).length).toBe(orders.length - 20 - 1);
    } finally {
      await mock.close();
    }
  });

  it('gives each new session the seed, whatever the default session changed', async () => {
    const mock = await startServer({ seed: orders });
    try {
      expect((await mock.withKey(`/store/orders/${pendingIds[0]}`, { method: 'DELETE' })).status).toBe(204);
      const session = await mock.withKey('/store/orders', { headers: { ...authorized, 'x-mock-session': 'fresh' } });
      expect(await session.text()).toBe(listed(orders));
      expect(
        (
          await mock.withKey(`/store/orders/${pendingIds[0]}`, {
            method: 'DELETE',
            headers: { ...authorized, 'x-mock-session': 'fresh' },
          })
        ).status,
      ).toBe(204);
      expect((await mock.control('/reset', { method: 'POST' })).status).toBe(204);
      expect(await (await mock.withKey('/store/orders')).text()).toBe(listed(orders));
    } finally {
      await mock.close();
    }
  });

  it('takes 20,000 orders by PUT, and refuses a bad one among them without changing the store', async () => {
    const mock = await startServer();
    try {
      const before = await (await mock.withKey('/store/orders')).text();
      const bad = [...orders.slice(0, count - 1), { ...orders[count - 1]!, shipDate: 'soon' }];
      const refused = await mock.control('/orders', { method: 'PUT', body: stringifyJson(bad) });
      expect(refused.status).toBe(400);
      expect(((await jsonOf(refused)) as { message: string }).message).toBe(
        `Invalid orders: /${count - 1}/shipDate must match format "date-time".`,
      );
      expect(await (await mock.withKey('/store/orders')).text()).toBe(before);
      expect((await mock.control('/orders', { method: 'PUT', body: stringifyJson(orders) })).status).toBe(204);
      expect(await (await mock.withKey('/store/orders')).text()).toBe(listed(orders));
    } finally {
      await mock.close();
    }
  });

  it("asks for a garbage collection after a large body, after the default session's records, and after a new large list", async () => {
    const calls: string[] = [];
    let step = 'start';
    const mock = await startServer({ seed: orders, collectGarbage: () => calls.push(step) });
    try {
      step = 'first list';
      await (await mock.withKey('/store/orders')).arrayBuffer();
      // The hook is called once an answer has closed, and once the records are created: wait for the calls (expect.poll's limit is set in vitest.config.ts).
      await expect.poll(() => calls.filter((call) => call === 'first list').length).toBe(2); // a new list body, then the records
      step = 'cancel and list';
      await (await mock.withKey(`/store/orders/${pendingIds[0]}`, { method: 'DELETE' })).arrayBuffer();
      await (await mock.withKey('/store/orders')).arrayBuffer();
      await (await mock.withKey('/store/orders')).arrayBuffer();
      await expect.poll(() => calls.filter((call) => call === 'cancel and list').length).toBe(1); // once for the new body, not for the same one sent again
      step = 'put';
      await (await mock.control('/orders', { method: 'PUT', body: stringifyJson(orders) })).arrayBuffer();
      await expect.poll(() => calls.includes('put')).toBe(true);
      // By now the second, repeated list has long closed: still one call for it and the first.
      expect(calls.filter((call) => call === 'cancel and list')).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });
  it('tells of a large request body before the mock reads it, and asks for a collection once it is answered', async () => {
    const events: string[] = [];
    const mock = await startServer({
      onLargeBody: () => events.push(`large body, the store holding ${mock.server.mock.store.size} orders`),
      collectGarbage: () => events.push('collect'),
    });
    try {
      const few = orders.slice(0, 3);
      expect((await mock.control('/orders', { method: 'PUT', body: stringifyJson(few) })).status).toBe(204);
      expect(events).toEqual([]);
      expect((await mock.control('/orders', { method: 'PUT', body: stringifyJson(orders) })).status).toBe(204);
      await expect.poll(() => events.length).toBeGreaterThanOrEqual(2);
      expect(events.slice(0, 2)).toEqual(['large body, the store holding 3 orders', 'collect']);
    } finally {
      await mock.close();
    }
  });
});

describe('readSeedFile', slow, () => {
  it('reads a JSON seed file into a seed the server takes as it is', async () => {
    const mock = await startServer({ seed: await readSeedFile(seedFile) });
    try {
      expect(await (await mock.withKey('/store/orders')).text()).toBe(listed(orders));
    } finally {
      await mock.close();
    }
  });

  it('names the file and the first problem of a bad seed', async () => {
    const bad = join(directory, 'bad.json');
    await writeFile(bad, stringifyJson([{ id: 1 }, { id: 1 }]));
    await expect(readSeedFile(bad)).rejects.toThrow(`seed file ${bad}: Invalid orders: id 1 appears more than once.`);
  });
});
