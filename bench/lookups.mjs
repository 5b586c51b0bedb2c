// Refusals and cancels in a big store, in process (issue 37, item 3): `mock.handle` of
// - a DELETE of an id no order has (404),
// - a DELETE of a shipped order among the last (409),
// - a DELETE of a pending order among the last (204),
// with 250,000 orders (and 100,000 for the cancel), each against the same call on a 1,000-order store,
// so that a cost in proportion to the store's size shows as a ratio. Medians of `calls` calls each,
// the store's records created first (a cancel of its first order).
// Run in a process of its own (node --expose-gc), with a full collection before each timed part, so that
// what earlier measurements left on the heap is not collected inside these.
// `node bench/lookups.mjs [calls]` (needs `npm run build`); MOCKS_MODULE: another build's dist/mocks/index.js.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { key, median, orders } from './support.mjs';

const origin = 'http://petstore.test';
const cancel = (id) => new Request(`${origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: key });

/** A mock of `count` orders (one in 3 shipped: ids 1, 4, 7, …), its records created. */
async function bigMock(createOrderMock, count) {
  const mock = createOrderMock({ seed: orders(count, 3), journalSize: 0 });
  const first = await mock.handle(cancel(2));
  if (first.status !== 204) throw new Error(`the first cancel answered ${first.status}`);
  return mock;
}

/** The median time of `mock.handle` for each id, in µs, checking every answer's status. */
async function timed(mock, ids, status) {
  const times = [];
  for (const id of ids) {
    const began = performance.now();
    const answer = await mock.handle(cancel(id));
    times.push((performance.now() - began) * 1000);
    if (answer.status !== status) throw new Error(`DELETE ${id} answered ${answer.status}, not ${status}`);
  }
  return median(times);
}

// Ids among the last of `count` orders: shipped ones (id ≡ 1 mod 3) or pending ones (the id below each).
function lastIds(count, calls, shipped) {
  const lastShipped = count - ((count - 1) % 3);
  return Array.from({ length: calls }, (_, index) => lastShipped - 3 * index - (shipped ? 0 : 1)).filter(
    (id) => id > 2,
  );
}

const collect = () => globalThis.gc?.();

/** Measures each workload on a small and a big store, in a process of its own; µs medians and the big store's ratio. */
export function measureLookups({ calls = 30 } = {}) {
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), String(calls), '--json'],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(output);
}

/** Measures each workload on a small and a big store, in this process. */
async function measureHere({ calls = 30, mocks = '../dist/mocks/index.js' } = {}) {
  const { createOrderMock } = await import(mocks);
  const rows = [];
  const small = 1_000;
  const workloads = [
    ['404, an unknown id', 250_000, 404, (n) => Array.from({ length: calls }, (_, index) => n + 10 + index)],
    ['409, a shipped order among the last', 250_000, 409, (n) => lastIds(n, calls, true)],
    ['204, a pending order among the last', 100_000, 204, (n) => lastIds(n, calls, false)],
  ];
  // Warmed up first, so that the first workload measured does not pay for compiling the path.
  for (const [, , status, ids] of workloads)
    for (let round = 0; round < 5; round++) await timed(await bigMock(createOrderMock, small), ids(small), status);
  for (const [workload, count, status, ids] of workloads) {
    const smallMock = await bigMock(createOrderMock, small);
    collect();
    const smallTime = await timed(smallMock, ids(small), status);
    const bigStore = await bigMock(createOrderMock, count);
    collect();
    const bigTime = await timed(bigStore, ids(count), status);
    rows.push({ workload, count, smallTime, bigTime });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const calls = Number(process.argv[2] ?? 30);
  const rows = await measureHere({ calls, mocks: process.env.MOCKS_MODULE ?? '../dist/mocks/index.js' });
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(rows));
    process.exit(0);
  }
  console.log('| workload | orders | in µs | with 1,000 orders, µs | × |');
  console.log('|---|---|---|---|---|');
  for (const row of rows)
    console.log(
      `| ${row.workload} | ${row.count.toLocaleString('en')} | ${row.bigTime.toFixed(0)} | ${row.smallTime.toFixed(0)} | ${(row.bigTime / row.smallTime).toFixed(1)} |`,
    );
}
