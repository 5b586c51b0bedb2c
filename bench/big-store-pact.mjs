// A pact of a big store (issue 59, item 4): `petstore-mock` seeded with ORDERS orders, LISTS distinct
// lists made in one session (a pending order cancelled between lists, so each list differs), then
// `GET /__mock/pact` while another session lists its own small store every few milliseconds. Prints
// how long the pact took, its answer's status and size, the other session's slowest answer and how
// many it got during the build, and the server's peak resident memory (polled every 20 ms).
// `node bench/big-store-pact.mjs [orders] [lists] [max-pact-bytes]` (default 2000 300, and the mock's
// own limit); needs `npm run build`. `MOCK_CLI=/other/dist/bin/petstore-mock.js` runs another build's
// server (one from before the pact was sliced, say).
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
const mock = await startMock(['--seed', seedFile, '--journal-size', '10', ...limit], process.env.MOCK_CLI);
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

// The same pact in this process (`mock.handle`, no network): the longest task of the event loop while
// it is built, as the gap between two turns of a setImmediate loop, in wall time and in the process's
// CPU time (all its threads: an upper bound of the task's own), which a loaded machine does not stretch.
const { createOrderMock } = await import(
  process.env.MOCK_CLI === undefined
    ? '../dist/mocks/index.js'
    : new URL('../mocks/index.js', new URL(`file://${process.env.MOCK_CLI}`)).href
);
const inProcess = createOrderMock({ seed: store, ...(maxPactBytes !== undefined && { maxPactBytes }) });
for (let index = 0; index < lists; index++) {
  await inProcess.handle(new Request('http://petstore.test/v1/store/orders', { headers: key }));
  await inProcess.handle(
    new Request(`http://petstore.test/v1/store/orders/${index + 1}`, { method: 'DELETE', headers: key }),
  );
}
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let turn = performance.now();
let turnCpu = cpuMs();
let longest = 0;
let longestCpu = 0;
let turns = 0;
let turning = true;
const loop = () => {
  const now = performance.now();
  const cpu = cpuMs();
  longest = Math.max(longest, now - turn);
  longestCpu = Math.max(longestCpu, cpu - turnCpu);
  turn = now;
  turnCpu = cpu;
  turns++;
  if (turning) setImmediate(loop);
};
setImmediate(loop);
const begun = performance.now();
const answer = await inProcess.handle(new Request('http://petstore.test/__mock/pact?consumer=bench'));
const tookMs = performance.now() - begun;
turning = false;
// A build that never let the loop turn was one task from start to end.
longest = Math.max(longest, performance.now() - turn);
longestCpu = Math.max(longestCpu, cpuMs() - turnCpu);
console.log(
  `in-process: pact ${answer.status} in ${(tookMs / 1000).toFixed(2)} s, ${turns} turns of the event loop, the longest task ${longest.toFixed(0)} ms (${longestCpu.toFixed(0)} ms of CPU)`,
);
