// v2's list in a big store, in process (issue 56): `mock.handle` of `GET /v2/store/orders` (the first
// page, a page in the middle of a walk, a page filtered by a common status, one filtered by a rare one)
// beside v1's list of the same store, with 100,000 orders unchanged since the seed (no records yet:
// orders read back from the seed's bytes) and after a change (a cancel: the store's records), and with
// 1,000 orders after a change. Ids start past 2^53; one order in three is shipped, one in 10,000 cancelled.
// `node --expose-gc bench/v2-list.mjs [calls] [dist folder]` (needs `npm run build`; the dist folder,
// `dist` by default, lets a run measure another checkout's build, such as main's before a change).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { key, median } from './support.mjs';

const calls = Number(process.argv[2] ?? 20);
const dist = pathToFileURL(resolve(process.argv[3] ?? new URL('../dist', import.meta.url).pathname)).href;
const { createOrderMock } = await import(`${dist}/mocks/index.js`);
const { cursorAfter } = await import(`${dist}/core/operations/order-cursor.js`);
const origin = 'http://petstore.test';
const get = (path) => new Request(`${origin}${path}`, { headers: key });
const firstId = 2n ** 53n + 1n;

// `shuffled`: the ids in a fixed scrambled order, so that the store's index is sorted rather than found in order.
function seed(count, shuffled = false) {
  return Array.from({ length: count }, (_, index) => ({
    id: firstId + BigInt(shuffled ? (index * 7919) % count : index),
    petId: 1000 + index,
    quantity: 1 + (index % 5),
    shipDate: '2026-12-01T09:00:00Z',
    complete: false,
    status: index % 10_000 === 5_000 ? 'cancelled' : index % 3 === 0 ? 'shipped' : 'pending',
  }));
}

// The median of `calls` calls; `first` receives the first call's time (the store's index is made then).
async function timed(mock, path, first = () => {}) {
  const times = [];
  for (let call = 0; call < calls; call++) {
    const began = performance.now();
    const answer = await mock.handle(get(path));
    times.push(performance.now() - began);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
  }
  first(times[0]);
  return median(times);
}

async function row(label, count, changed, shuffled = false) {
  const orders = seed(count, shuffled);
  const mock = createOrderMock({ seed: orders, journalSize: 0 });
  if (changed) {
    // The second order of the seed is pending.
    const cancel = new Request(`${origin}/v1/store/orders/${orders[1].id}`, { method: 'DELETE', headers: key });
    if ((await mock.handle(cancel)).status !== 204) throw new Error('the first cancel failed');
  }
  globalThis.gc?.();
  const middle = cursorAfter(firstId + BigInt(count / 2), undefined);
  let firstCall = 0;
  return {
    orders: label,
    'v1 list (ms)': await timed(mock, '/v1/store/orders'),
    'v2 first page (ms)': await timed(mock, '/v2/store/orders', (time) => (firstCall = time)),
    'its first call (ms)': firstCall,
    'v2 middle page (ms)': await timed(mock, `/v2/store/orders?cursor=${middle}`),
    'v2 pending, 100 (ms)': await timed(mock, '/v2/store/orders?status=pending&limit=100'),
    'v2 cancelled (rare) (ms)': await timed(mock, '/v2/store/orders?status=cancelled'),
  };
}

const rows = [
  await row('100000, unchanged since the seed', 100_000, false),
  await row('100000, after a change', 100_000, true),
  await row('1000, after a change', 1_000, true),
  await row('100000, ids shuffled, unchanged since the seed', 100_000, false, true),
  await row('100000, ids shuffled, after a change', 100_000, true, true),
];
console.log(`Node ${process.version}, ${calls} calls each, medians, ${dist}`);
console.table(
  rows.map((entry) =>
    Object.fromEntries(
      Object.entries(entry).map(([name, value]) => [
        name,
        typeof value === 'number' ? Number(value.toFixed(2)) : value,
      ]),
    ),
  ),
);
