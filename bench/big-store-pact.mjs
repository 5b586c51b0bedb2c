// A pact of a big store (issue 59, item 4): `petstore-mock` seeded with ORDERS orders, LISTS distinct
// lists made in one session (a pending order cancelled between lists, so each list differs), then
// `GET /__mock/pact` while another session lists its own small store every few milliseconds. Prints
// how long the pact took, its answer's status and size, the other session's slowest answer and how
// many it got during the build, and the server's peak resident memory (polled every 20 ms).
// `node bench/big-store-pact.mjs [orders] [lists] [max-pact-bytes]` (default 2000 300, and the mock's
// own limit); needs `npm run build`.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { key, orders, startMock } from './support.mjs';

const [count = 2000, lists = 300, maxPactBytes] = process.argv.slice(2).map(Number);
// Orders of two fields, as the attack's: 300 lists of 2,000 fit the 32 MiB of bodies a session's pact keeps.
const store = Array.from({ length: count }, (_, index) => ({ id: index + 1, petId: 1000 + index }));
const seedFile = join(tmpdir(), `big-store-pact-${process.pid}.json`);
await writeFile(seedFile, JSON.stringify(store));
const limit = maxPactBytes === undefined ? [] : ['--max-pact-bytes', String(maxPactBytes)];
const mock = await startMock(['--seed', seedFile, '--journal-size', '10', ...limit]);
const big = { ...key, 'x-mock-session': 'big' };
const small = { ...key, 'x-mock-session': 'small' };
try {
  await fetch(`${mock.origin}/__mock/orders`, {
    method: 'PUT',
    headers: small,
    body: JSON.stringify(orders(3)),
  });
  await fetch(`${mock.origin}/__mock/orders`, { method: 'PUT', headers: big, body: JSON.stringify(store) });
  const made = performance.now();
  for (let index = 0; index < lists; index++) {
    await (await fetch(`${mock.api}/store/orders`, { headers: big })).arrayBuffer();
    await (await fetch(`${mock.api}/store/orders/${index + 1}`, { method: 'DELETE', headers: big })).arrayBuffer();
  }
  const madeMs = performance.now() - made;
  const rssBefore = await mock.rss();
  let peak = rssBefore;
  let building = true;
  const sampler = (async () => {
    while (building) {
      peak = Math.max(peak, await mock.rss());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const latencies = [];
  const other = (async () => {
    while (building) {
      const sent = performance.now();
      let status;
      try {
        const response = await fetch(`${mock.api}/store/orders`, { headers: small });
        await response.arrayBuffer();
        status = response.status;
      } catch (error) {
        status = error.cause?.code ?? error.message;
      }
      if (building) latencies.push({ ms: performance.now() - sent, status });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${mock.origin}/__mock/pact?consumer=bench`, { headers: big });
  const body = Buffer.from(await response.arrayBuffer());
  const pactMs = performance.now() - started;
  building = false;
  await Promise.all([sampler, other]);
  const slowest = Math.max(0, ...latencies.map((one) => one.ms));
  const refused = latencies.filter((one) => one.status !== 200).map((one) => one.status);
  const code = response.ok ? '' : ` ${JSON.parse(body.toString('utf8')).code}`;
  console.log(
    `${count} orders, ${lists} distinct lists (made in ${(madeMs / 1000).toFixed(1)} s): pact ${response.status}${code}, ${(body.length / 1024 / 1024).toFixed(1)} MiB in ${(pactMs / 1000).toFixed(2)} s; ` +
      `the other session: ${latencies.length} answers during the build, slowest ${slowest.toFixed(0)} ms, ${refused.length} not 200${refused.length === 0 ? '' : ` (${[...new Set(refused)].join(', ')})`}; ` +
      `server RSS ${rssBefore.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB`,
  );
} finally {
  await mock.stop();
}
