#!/usr/bin/env node
// Measures the standalone mock on this machine and writes bench/RESULTS-mock.md:
//   start-up to the first answered request, requests a second for GET /v1/store/orders and for the
//   bare node:http baseline in the same run, and server memory (RSS) holding 10,000 orders.
// Loopback only. Run with `npm run bench:mock` after `npm run build`.
import { spawn } from 'node:child_process';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const cli = new URL('../dist/bin/petstore-mock.js', import.meta.url).pathname;
const headers = { authorization: 'Bearer petstore-dev-key' };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function startMock(args = []) {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', async (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)\/v1/.exec(output);
      if (!match || child.listening) return;
      child.listening = true;
      const response = await fetch(`${match[1]}/v1/store/orders`, { headers });
      await response.arrayBuffer();
      resolve({ child, origin: match[1], firstAnswerMs: performance.now() - started, stop: () => new Promise((done) => { child.on('close', done); child.kill('SIGTERM'); }) });
    });
    child.on('error', reject);
  });
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

async function load(url, requestHeaders = {}) {
  const result = await autocannon({ url, connections: 50, duration: 5, headers: requestHeaders });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, errors: result.errors + result.non2xx };
}

// Warm the client (fetch loads undici on first use) so start-up figures are the server's.
await fetch('data:,warm').catch(() => {});

const startups = [];
for (let run = 0; run < 5; run++) {
  const mock = await startMock();
  startups.push(mock.firstAnswerMs);
  await mock.stop();
}

const mock = await startMock();
const rssDefault = await rssMiB(mock.child.pid);
const listBody = await (await fetch(`${mock.origin}/v1/store/orders`, { headers })).text();
const baselineServer = createServer((_, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(listBody) });
  response.end(listBody);
}).listen(0, '127.0.0.1');
await new Promise((resolve) => baselineServer.once('listening', resolve));
const baselineUrl = `http://127.0.0.1:${baselineServer.address().port}/`;

const mockRuns = [];
const baselineRuns = [];
for (let run = 0; run < 3; run++) {
  baselineRuns.push(await load(baselineUrl));
  mockRuns.push(await load(`${mock.origin}/v1/store/orders`, headers));
}
baselineServer.close();
const rssAfterLoad = await rssMiB(mock.child.pid);
await mock.stop();

const directory = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
const seedPath = join(directory, 'orders.json');
const orders = Array.from({ length: 10_000 }, (_, index) => ({
  id: index + 1, petId: 1000 + index, quantity: 1 + (index % 5), shipDate: '2026-12-01T09:00:00Z', complete: false, status: index % 3 === 0 ? 'shipped' : 'pending',
}));
await writeFile(seedPath, JSON.stringify(orders));
const large = await startMock(['--seed', seedPath]);
const rssLarge = await rssMiB(large.child.pid);
const listLarge = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  await (await fetch(`${large.origin}/v1/store/orders`, { headers })).arrayBuffer();
  listLarge.push(performance.now() - started);
}
const cancelLarge = [];
for (let id = 2; id < 50; id += 3) {
  const started = performance.now();
  await (await fetch(`${large.origin}/v1/store/orders/${id}`, { method: 'DELETE', headers })).arrayBuffer();
  cancelLarge.push(performance.now() - started);
}
await large.stop();
await rm(directory, { recursive: true, force: true });

const mockRps = median(mockRuns.map((run) => run.requestsPerSecond));
const baselineRps = median(baselineRuns.map((run) => run.requestsPerSecond));
const lines = [
  '# Mock figures',
  '',
  `Measured ${new Date().toISOString()} by \`npm run bench:mock\` on this machine (Node ${process.version}), loopback only. Medians; autocannon, 50 connections, 5 s a run, 3 runs each, alternating.`,
  '',
  '| figure | value |',
  '|---|---|',
  `| start-up to first answered request (median of 5) | ${median(startups).toFixed(0)} ms |`,
  `| GET /v1/store/orders (5 orders), requests a second | ${mockRps.toFixed(0)} |`,
  `| bare node:http, same body, requests a second | ${baselineRps.toFixed(0)} |`,
  `| mock / baseline | ${(mockRps / baselineRps).toFixed(2)} |`,
  `| p99 latency, mock / baseline | ${median(mockRuns.map((run) => run.p99Ms))} ms / ${median(baselineRuns.map((run) => run.p99Ms))} ms |`,
  `| errors or non-2xx during load | ${mockRuns.reduce((sum, run) => sum + run.errors, 0)} |`,
  `| server RSS after start-up, default seed (5 orders) | ${rssDefault.toFixed(0)} MiB |`,
  `| server RSS after start-up, 10,000 orders (seed file) | ${rssLarge.toFixed(0)} MiB |`,
  `| server RSS, default seed, after the load runs | ${rssAfterLoad.toFixed(0)} MiB |`,
  `| GET /v1/store/orders with 10,000 orders (median of 5, client-side) | ${median(listLarge).toFixed(1)} ms |`,
  `| DELETE of a pending order among 10,000 (median of ${cancelLarge.length}, client-side) | ${median(cancelLarge).toFixed(2)} ms |`,
  '',
];
await writeFile(new URL('RESULTS-mock.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
