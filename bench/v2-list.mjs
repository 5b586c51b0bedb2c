// v2's list in a big store, in process (issue 56): `mock.handle` of `GET /v2/store/orders` (the first
// page, a page deep in a walk, a filtered page) with 1,000 and 100,000 orders, beside v1's list of the
// same store, its records created first (a cancel), and with 100,000 orders unchanged since the seed.
// A page is one pass over the store keeping the limit + 1 smallest ids after the cursor.
// `node --expose-gc bench/v2-list.mjs [calls]` (needs `npm run build`).
import { key, median, orders } from './support.mjs';

const { createOrderMock } = await import('../dist/mocks/index.js');
const origin = 'http://petstore.test';
const calls = Number(process.argv[2] ?? 20);
const get = (path) => new Request(`${origin}${path}`, { headers: key });

async function timed(mock, path) {
  const times = [];
  for (let call = 0; call < calls; call++) {
    const began = performance.now();
    const answer = await mock.handle(get(path));
    times.push(performance.now() - began);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
  }
  return median(times);
}

const rows = [];
// A store unchanged since its seed answers from the seed's bytes: its orders are read back for a page.
{
  const mock = createOrderMock({ seed: orders(100_000, 3), journalSize: 0 });
  rows.push({
    orders: '100000, unchanged seed',
    'v1 list (ms)': await timed(mock, '/v1/store/orders'),
    'v2 first page of 20 (ms)': await timed(mock, '/v2/store/orders'),
  });
}
for (const count of [1_000, 100_000]) {
  const mock = createOrderMock({ seed: orders(count, 3), journalSize: 0 });
  if (
    (await mock.handle(new Request(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: key }))).status !== 204
  )
    throw new Error('the first cancel failed');
  globalThis.gc?.();
  const deep = await mock.handle(get(`/v2/store/orders?limit=100`));
  const cursor = JSON.parse(
    new TextDecoder().decode(deep.body instanceof Uint8Array ? deep.body : new TextEncoder().encode(deep.body)),
  ).nextCursor;
  rows.push({
    orders: count,
    'v1 list (ms)': await timed(mock, '/v1/store/orders'),
    'v2 first page of 20 (ms)': await timed(mock, '/v2/store/orders'),
    'v2 next page of 20 (ms)': await timed(mock, `/v2/store/orders?cursor=${cursor}`),
    'v2 pending, 100 (ms)': await timed(mock, '/v2/store/orders?status=pending&limit=100'),
  });
}
console.log(`Node ${process.version}, ${calls} calls each, medians`);
console.table(
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([name, value]) => [
        name,
        typeof value === 'number' && name !== 'orders' ? Number(value.toFixed(2)) : value,
      ]),
    ),
  ),
);
