#!/usr/bin/env node
// `npm run soak` (not part of npm test): a million mixed requests against the standalone server, with
// its memory sampled every second, written to bench/SOAK.md. Memory must stay flat: the heap the
// server retains (measured after a full garbage collection) in the last tenth of the samples may not
// sit more than 10% above the samples after warm-up. RSS is reported beside it.
// SOAK_REQUESTS sets the count (default 1,000,000). Loopback only. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const total = Number(process.env.SOAK_REQUESTS ?? 1_000_000);
const orderCount = 100;
const key = 'Bearer petstore-dev-key';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const directory = await mkdtemp(join(tmpdir(), 'petstore-soak-'));
const seedFile = join(directory, 'orders.json');
await writeFile(
  seedFile,
  JSON.stringify(
    Array.from({ length: orderCount }, (_, index) => ({
      id: index + 1,
      status: index % 4 === 0 ? 'shipped' : 'pending',
    })),
  ),
);

const child = spawn(process.execPath, ['--expose-gc', join(root, 'bench/servers/soak-server.mjs')], {
  env: { ...process.env, SEED_FILE: seedFile },
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const origin = await new Promise((resolve) => {
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const match = /listening on (http:\/\/\S+)\/v1/.exec(output);
    if (match) resolve(match[1]);
  });
});
const mib = (bytes) => bytes / 1048576;
// The server's memory after a full collection: { heap, rss } in MiB.
const memory = () =>
  new Promise((resolve) => {
    child.once('message', ({ heapUsed, rss }) => resolve({ heap: mib(heapUsed), rss: mib(rss) }));
    child.send('memory');
  });

// A small deterministic generator, so that two soaks send the same mix.
let state = 42;
const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
const sessions = Array.from({ length: 200 }, (_, index) => `soak-${index}`);
const mix = [
  () => ({ method: 'GET', path: '/v1/store/orders', headers: { authorization: key } }),
  () => ({
    method: 'DELETE',
    path: `/v1/store/orders/${1 + Math.floor(random() * orderCount * 1.2)}`,
    headers: { authorization: key },
  }),
  () => ({ method: 'GET', path: `/v1/pets/${Math.floor(random() * 1e6)}`, headers: { authorization: key } }),
  () => ({ method: 'GET', path: '/v1/store/orders', headers: {} }),
  () => ({
    method: 'DELETE',
    path: `/v1/store/orders/${1 + Math.floor(random() * orderCount)}`,
    headers: { authorization: key, 'x-mock-session': sessions[Math.floor(random() * sessions.length)] },
  }),
  () => ({
    method: 'GET',
    path: '/v1/store/orders',
    headers: { authorization: key, 'x-mock-session': sessions[Math.floor(random() * sessions.length)] },
  }),
  () => ({ method: 'DELETE', path: '/v1/store/orders/9223372036854775808', headers: { authorization: key } }),
  () => ({ method: 'POST', path: '/__mock/reset', headers: {} }),
];
const weights = [30, 25, 10, 5, 10, 15, 3, 2];
const pick = () => {
  let roll = random() * 100;
  for (const [index, weight] of weights.entries()) {
    if ((roll -= weight) < 0) return mix[index]();
  }
  return mix[0]();
};

const samples = [];
const sampler = setInterval(async () => samples.push(await memory()), 1000);
const atStart = await memory();
const started = performance.now();
const result = await autocannon({
  url: origin,
  connections: 32,
  amount: total,
  requests: [{ setupRequest: (request) => ({ ...request, ...pick() }) }],
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const atEnd = await memory();
const alive = await fetch(`${origin}/v1/store/orders`, { headers: { authorization: key } });
child.kill('SIGTERM');
await rm(directory, { recursive: true, force: true });

const tenth = Math.max(1, Math.floor(samples.length / 10));
const warm = (field) => median(samples.slice(tenth, 2 * tenth).map((sample) => sample[field]));
const last = (field) => median(samples.slice(-tenth).map((sample) => sample[field]));
const peak = (field) => Math.max(...samples.map((sample) => sample[field]));
const flat = last('heap') <= warm('heap') * 1.1;
const statuses = Object.entries(result.statusCodeStats ?? {})
  .map(([status, { count }]) => `${status}: ${count}`)
  .join(', ');
const lines = [
  '# Soak',
  '',
  `Measured ${new Date().toISOString()} by \`npm run soak\` (Node ${process.version}, loopback, autocannon with 32 connections): ${result.requests.total.toLocaleString('en-US')} requests in ${seconds.toFixed(0)} s.`,
  'The mix: lists (with and without a key, in 200 sessions), cancellations of known and unknown orders, pet reads, an out-of-range id, and a reset now and then.',
  '',
  '| figure | value |',
  '|---|---|',
  `| requests | ${result.requests.total.toLocaleString('en-US')} (${(result.requests.total / seconds).toFixed(0)} a second) |`,
  `| statuses | ${statuses} |`,
  `| errors and timeouts (connection level) | ${result.errors} and ${result.timeouts} |`,
  `| p99 latency | ${result.latency.p99} ms |`,
  `| memory samples | ${samples.length}, one a second, each after a full garbage collection |`,
  '| | heap retained | RSS |',
  `| at start | ${atStart.heap.toFixed(1)} MiB | ${atStart.rss.toFixed(0)} MiB |`,
  `| after warm-up (median of the second tenth of the samples) | ${warm('heap').toFixed(1)} MiB | ${warm('rss').toFixed(0)} MiB |`,
  `| at the end (median of the last tenth) | ${last('heap').toFixed(1)} MiB | ${last('rss').toFixed(0)} MiB |`,
  `| peak | ${peak('heap').toFixed(1)} MiB | ${peak('rss').toFixed(0)} MiB |`,
  `| after the run | ${atEnd.heap.toFixed(1)} MiB | ${atEnd.rss.toFixed(0)} MiB |`,
  `| memory flat (heap retained at the end within 10% of warm-up) | ${flat ? 'yes' : 'no'} | |`,
  `| server answering after the run | ${alive.status === 200 ? 'yes' : `no (${alive.status})`} |`,
  '',
];
await writeFile(new URL('SOAK.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
process.exit(flat && alive.status === 200 && result.errors === 0 ? 0 : 1);
