#!/usr/bin/env node
// `npm run bench`: measures the standalone mock beside a bare node:http baseline, Prism's mock server
// and the kit's MSW handlers served through @mswjs/http-middleware, all in one run on this machine,
// and writes bench/RESULTS.md. Each server runs in its own process; autocannon drives them from this
// one, over loopback only. Every figure is the median of several runs, and every throughput and p99
// figure is also given as a ratio to the baseline measured in the same run.
// BENCH_RUNS (default 3) and BENCH_SECONDS (default 5) shorten or lengthen it. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measureExploration } from './explore.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 32;
const key = { authorization: 'Bearer petstore-dev-key' };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const directory = await mkdtemp(join(tmpdir(), 'petstore-bench-'));

function orders(count, shippedEvery = 0) {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    petId: 1000 + index,
    quantity: 1 + (index % 5),
    shipDate: '2026-12-01T09:00:00Z',
    complete: false,
    status: shippedEvery > 0 && index % shippedEvery === 0 ? 'shipped' : 'pending',
  }));
}

async function file(name, contents) {
  const path = join(directory, name);
  await writeFile(path, contents);
  return path;
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** Starts a server process; resolves once a GET of the list has been answered, with the time that took. */
async function start(command, args, env = {}, origin, prefix = '/v1') {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited: ${output}`);
    const url = origin ?? /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1];
    if (url) {
      try {
        const response = await fetch(`${url}${prefix}/store/orders`, { headers: key });
        await response.arrayBuffer();
        if (response.ok) {
          return {
            child,
            origin: url,
            api: `${url}${prefix}`,
            firstAnswerMs: performance.now() - started,
            rss: () => rssMiB(child.pid),
            stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.on('close', done), child.kill('SIGTERM')))),
          };
        }
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const mockCli = join(root, 'dist/bin/petstore-mock.js');
const prismCli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');

const seed100 = await file('orders-100.json', JSON.stringify(orders(100)));
const targets = {
  baseline: async (bodyFile) => start(process.execPath, ['bench/servers/baseline.mjs'], { BODY_FILE: bodyFile }),
  mock: async () => start(process.execPath, [mockCli, '--port', '0', '--seed', seed100]),
  'mock, fast path off (MSW handlers)': async () => start(process.execPath, ['bench/servers/handlers-only.mjs'], { SEED_FILE: seed100 }),
  '@mswjs/http-middleware': async () => start(process.execPath, ['bench/servers/http-middleware.mjs'], { SEED_FILE: seed100 }),
  'Prism mock': async () => {
    const port = await freePort();
    // Prism serves the paths of the document without the base path of its servers (a variable here).
    return start(process.execPath, [prismCli, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn', 'spec/openapi.yaml'], {}, `http://127.0.0.1:${port}`, '');
  },
};

async function load(url, setup) {
  const result = await autocannon({ url, connections, duration: seconds, headers: key, ...setup });
  return { rps: result.requests.average, p99: result.latency.p99, failures: result.errors + result.timeouts + result.non2xx };
}

// The list body the mock serves for 100 orders: the baseline answers the same bytes.
const sample = await targets.mock();
const listBody = await (await fetch(`${sample.origin}/v1/store/orders`, { headers: key })).text();
await sample.stop();
const bodyFile = await file('list-100.json', listBody);

// Enough pending orders that a run of deletes never runs out (ids past the end would answer 404).
const deleteCapacity = 250_000;
const pendingOrders = JSON.stringify(Array.from({ length: deleteCapacity }, (_, index) => ({ id: index + 1 })));
const stateful = (name) => name !== 'baseline' && name !== 'Prism mock';

const results = {};
for (const name of Object.keys(targets)) results[name] = { list: [], delete: [] };
const servers = {};
for (const [name, startTarget] of Object.entries(targets)) servers[name] = await startTarget(bodyFile);

for (let run = 0; run < runs; run++) {
  for (const [name, server] of Object.entries(servers)) {
    results[name].list.push(await load(`${server.api}/store/orders`));
    if (stateful(name)) {
      const seeded = await fetch(`${server.origin}/__mock/orders`, { method: 'PUT', body: pendingOrders });
      if (seeded.status !== 204) throw new Error(`${name}: seeding for deletes answered ${seeded.status}`);
    }
    let next = 1;
    const prefix = new URL(server.api).pathname.replace(/\/$/, '');
    results[name].delete.push(
      await load(`${server.api}/store/orders/1`, {
        method: 'DELETE',
        requests: [{ method: 'DELETE', setupRequest: (request) => ({ ...request, path: `${prefix}/store/orders/${next++}` }) }],
      }),
    );
    if (stateful(name)) await fetch(`${server.origin}/__mock/orders`, { method: 'PUT', body: '[]' });
    process.stdout.write(`run ${run + 1}/${runs}: ${name}\n`);
  }
}
for (const server of Object.values(servers)) await server.stop();

const summary = {};
for (const [name, { list, delete: deletes }] of Object.entries(results)) {
  summary[name] = {
    list: { rps: median(list.map((r) => r.rps)), p99: median(list.map((r) => r.p99)), failures: list.reduce((sum, r) => sum + r.failures, 0) },
    delete: { rps: median(deletes.map((r) => r.rps)), p99: median(deletes.map((r) => r.p99)), failures: deletes.reduce((sum, r) => sum + r.failures, 0) },
  };
}

// Start-up: from spawning the process to the first answered list, median of 7 (Prism: of 3), each
// after the previous process has exited; the mock's first, so that no Prism process is still exiting.
const startups = { mock: [], 'Prism mock': [] };
for (const [name, runsOf] of [['mock', 7], ['Prism mock', 3]]) {
  for (let run = 0; run < runsOf; run++) {
    const server = await targets[name]();
    startups[name].push(server.firstAnswerMs);
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Scale: list latency, memory and cancel latency with 1,000, 10,000 and 100,000 orders (one in three shipped).
const scale = [];
for (const count of [1_000, 10_000, 100_000]) {
  const seed = await file(`orders-${count}.json`, JSON.stringify(orders(count, 3)));
  const mock = await start(process.execPath, [mockCli, '--port', '0', '--seed', seed]);
  const rssStarted = await mock.rss();
  const listTimes = [];
  let listBytes = 0;
  for (let run = 0; run < 11; run++) {
    const began = performance.now();
    listBytes = (await (await fetch(`${mock.origin}/v1/store/orders`, { headers: key })).arrayBuffer()).byteLength;
    listTimes.push(performance.now() - began);
  }
  const cancelTimes = [];
  for (let id = 2; cancelTimes.length < 201; id += 3) {
    const began = performance.now();
    const response = await fetch(`${mock.origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: key });
    await response.arrayBuffer();
    cancelTimes.push(performance.now() - began);
    if (response.status !== 204) throw new Error(`cancel of ${id} answered ${response.status}`);
  }
  scale.push({ count, rssStarted, rssAfter: await mock.rss(), list: median(listTimes), listBytes, cancel: median(cancelTimes), startup: mock.firstAnswerMs });
  await mock.stop();
}
await rm(directory, { recursive: true, force: true });

// Exploration against the mock: explored steps a second, beside the raw rate of the same requests without checks.
const exploration = await measureExploration({ runs: 300, rounds: runs });

const base = summary.baseline;
const ratio = (value, of) => (value / of).toFixed(2);
const yes = (met) => (met ? 'met' : 'not met');
const mock = summary.mock;
const prism = summary['Prism mock'];
const startupMock = median(startups.mock);
const startupPrism = median(startups['Prism mock']);
const lines = [
  '# Benchmark results',
  '',
  `Measured ${new Date().toISOString()} by \`npm run bench\` (Node ${process.version}, ${runs} runs of ${seconds} s for each server and workload, alternating, ` +
    `autocannon with ${connections} connections from the bench process, each server in its own process, loopback only). Figures are medians; ratios are to the ` +
    'bare node:http baseline measured in the same run. The machine is shared and has 2 cores, so absolute figures move from run to run; the ratios move less.',
  '',
  '## Throughput and p99 latency',
  '',
  '`list`: `GET /v1/store/orders` holding 100 orders (the baseline answers the same bytes). `delete`: `DELETE /v1/store/orders/{id}` of a different pending order each time (the baseline answers 204).',
  '',
  '| server | list req/s | × baseline | list p99 | × baseline | delete req/s | × baseline | delete p99 | × baseline | failed requests |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...Object.entries(summary).map(
    ([name, { list, delete: deletes }]) =>
      `| ${name} | ${list.rps.toFixed(0)} | ${ratio(list.rps, base.list.rps)} | ${list.p99} ms | ${ratio(list.p99, base.list.p99)} | ` +
      `${deletes.rps.toFixed(0)} | ${ratio(deletes.rps, base.delete.rps)} | ${deletes.p99} ms | ${ratio(deletes.p99, base.delete.p99)} | ${list.failures + deletes.failures} |`,
  ),
  '',
  '## Goals',
  '',
  '| goal | measured | |',
  '|---|---|---|',
  `| list: at least 0.5× the baseline's requests a second | ${ratio(mock.list.rps, base.list.rps)}× | ${yes(mock.list.rps >= 0.5 * base.list.rps)} |`,
  `| delete: at least 0.5× the baseline's requests a second | ${ratio(mock.delete.rps, base.delete.rps)}× | ${yes(mock.delete.rps >= 0.5 * base.delete.rps)} |`,
  `| list: p99 within 2× the baseline's | ${ratio(mock.list.p99, base.list.p99)}× | ${yes(mock.list.p99 <= 2 * base.list.p99)} |`,
  `| delete: p99 within 2× the baseline's | ${ratio(mock.delete.p99, base.delete.p99)}× | ${yes(mock.delete.p99 <= 2 * base.delete.p99)} |`,
  `| list: at least 5× Prism's requests a second | ${ratio(mock.list.rps, prism.list.rps)}× | ${yes(mock.list.rps >= 5 * prism.list.rps)} |`,
  `| delete: at least 5× Prism's requests a second | ${ratio(mock.delete.rps, prism.delete.rps)}× | ${yes(mock.delete.rps >= 5 * prism.delete.rps)} |`,
  `| start-up to the first answered request under 300 ms | ${startupMock.toFixed(0)} ms (Prism: ${startupPrism.toFixed(0)} ms) | ${yes(startupMock < 300)} |`,
  `| cancel at 100,000 orders under 1 ms | ${scale.at(-1).cancel.toFixed(2)} ms round trip | ${yes(scale.at(-1).cancel < 1)} |`,
  `| exploration: at least 0.5× the raw rate of the same requests without checks | ${exploration.ratio.toFixed(2)}× | ${yes(exploration.ratio >= 0.5)} |`,
  '',
  '## Exploration',
  '',
  `\`petstore-verify explore\` against the mock (default seed), ${exploration.runs} runs, median of ${exploration.rounds} rounds, each on a fresh mock after a warm-up of 20 runs. ` +
    'Each step is sent to the mock and to the in-process model, and judged by Ajv, Prism and the model comparison. The raw rate replays the very same requests ' +
    '(the state changes included), one after another with the same HTTP client, without any check.',
  '',
  '| runs | steps | requests | explored steps a second | raw requests a second | ratio (raw time / explore time) | one-time start-up (Prism) |',
  '|---|---|---|---|---|---|---|',
  `| ${exploration.runs} | ${exploration.steps} | ${exploration.requests} | ${exploration.stepsPerSecond.toFixed(0)} | ${exploration.rawRequestsPerSecond.toFixed(0)} | ${exploration.ratio.toFixed(2)} | ${exploration.prismLoadMs.toFixed(0)} ms |`,
  '',
  '## Scale',
  '',
  'The mock started with a seed file of N orders (one in three shipped). List: median of 11 sequential requests; cancel: median of 201 sequential cancellations of different pending orders; both client-side round trips over loopback. RSS: the server process.',
  '',
  '| orders | start-up | RSS after start-up | list | list body | RSS after | cancel |',
  '|---|---|---|---|---|---|---|',
  ...scale.map(
    (row) =>
      `| ${row.count.toLocaleString('en-US')} | ${row.startup.toFixed(0)} ms | ${row.rssStarted.toFixed(0)} MiB | ${row.list.toFixed(1)} ms | ` +
      `${(row.listBytes / 1024).toFixed(0)} KiB | ${row.rssAfter.toFixed(0)} MiB | ${row.cancel.toFixed(2)} ms |`,
  ),
  '',
];
await writeFile(new URL('RESULTS.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
