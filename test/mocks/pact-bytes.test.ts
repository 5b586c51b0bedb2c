// Issue 57, item 2: one pact, one set of bytes. The same tests, met in any order of tests, files and
// workers, write the same file: interactions sorted, descriptions numbered in that order.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderMock, type OrderMock } from '../../mocks/adapters/order-mock.js';
import { inFileOrder } from '../../mocks/pact/pact-merge.js';

const withKey = { authorization: 'Bearer petstore-dev-key' };
let directory: string;
let runs = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-pact-bytes-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const call = (mock: OrderMock, method: string, path: string, headers: Record<string, string> = withKey) =>
  mock.handle(new Request(`http://localhost/v1${path}`, { method, headers }));

/** The tests of the suite: each starts from the seed, as the README's pattern resets before each. */
const tests: Record<string, (mock: OrderMock) => Promise<unknown>> = {
  'lists the seed': (mock) => call(mock, 'GET', '/store/orders'),
  'cancels, then lists the rest': async (mock) => {
    await call(mock, 'DELETE', '/store/orders/1');
    await call(mock, 'GET', '/store/orders');
  },
  'is refused a shipped order': (mock) => call(mock, 'DELETE', '/store/orders/3'),
  'cancels twice': async (mock) => {
    await call(mock, 'DELETE', '/store/orders/2');
    await call(mock, 'DELETE', '/store/orders/2');
    await call(mock, 'GET', '/store/orders');
  },
  'lists without a key': (mock) => call(mock, 'GET', '/store/orders', {}),
  'reads a pet': (mock) => call(mock, 'GET', '/pets/1'),
  'cancels an unknown order': (mock) => call(mock, 'DELETE', '/store/orders/99'),
};

/** A permutation of the names, from a seed (a small linear congruential generator: the same each run). */
function shuffled(names: string[], seed: number): string[] {
  const order = [...names];
  let state = seed;
  for (let index = order.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const other = state % (index + 1);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/** One run: the tests in this order, split over `workers` mocks, each writing into one folder at its end. */
async function pactOfRun(order: string[], workers: number): Promise<string> {
  const dir = join(directory, `run-${runs++}`);
  const mocks = Array.from({ length: workers }, () => createOrderMock());
  for (const [index, name] of order.entries()) {
    const mock = mocks[index % workers]!;
    await mock.reset();
    await tests[name]!(mock);
  }
  // The workers end in the other order than they began: the last one writes first.
  for (const mock of [...mocks].reverse()) await mock.pact({ consumer: 'web-app', dir });
  return readFile(join(dir, 'web-app-petstore-order-interface.json'), 'utf8');
}

describe('the pact of the same tests', () => {
  it('is the same bytes whatever the order of tests, files and workers', async () => {
    const names = Object.keys(tests);
    const first = await pactOfRun(names, 1);
    for (const [seed, workers] of [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 2],
      [5, 1],
      [6, 3],
    ] as const) {
      const order = shuffled(names, seed);
      expect(await pactOfRun(order, workers), `order ${order.join(', ')} over ${workers} workers`).toBe(first);
    }
  });

  it('numbers the same description in the order of the provider states, not of the tests', async () => {
    const pact = JSON.parse(await pactOfRun(Object.keys(tests), 1)) as {
      interactions: { description: string; providerStates: { params: { orders: { id: number }[] } }[] }[];
    };
    const lists = pact.interactions.filter((interaction) =>
      interaction.description.startsWith('GET /store/orders 200'),
    );
    expect(lists.map((interaction) => interaction.description)).toEqual([
      'GET /store/orders 200 (with the key)',
      'GET /store/orders 200 (with the key) #2',
      'GET /store/orders 200 (with the key) #3',
    ]);
    expect(lists.map((interaction) => interaction.providerStates[0]!.params.orders.map((order) => order.id))).toEqual([
      [1, 2, 3, 4, 5],
      [1, 3, 4, 5],
      [2, 3, 4, 5],
    ]);
  });
});

describe('the kit metadata of a pact file', () => {
  it('sorts the calls and tests left out, a test whose name holds "; " kept whole', () => {
    const leftOut = 'test "b": did not pass; test "a; z": did not pass; GET /v1/store/orders 503: fault';
    const sorted = inFileOrder({ interactions: [], metadata: { 'petstore-contract-kit': { leftOut } } });
    expect(sorted.metadata).toEqual({
      'petstore-contract-kit': {
        leftOut: 'GET /v1/store/orders 503: fault; test "a; z": did not pass; test "b": did not pass',
      },
    });
  });
});
