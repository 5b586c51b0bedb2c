#!/usr/bin/env node
// `npm run bench`: measures the standalone mock beside a bare node:http baseline, Prism's mock server
// and the kit's MSW handlers served through @mswjs/http-middleware, all in one run on this machine,
// and writes bench/RESULTS.md. Each server runs in its own process; autocannon drives them from this
// one, over loopback only. Every figure is the median of several runs, and every throughput and p99
// figure is also given as a ratio to the baseline measured in the same run.
// BENCH_RUNS (default 3) and BENCH_SECONDS (default 5) shorten or lengthen it. Needs `npm run build`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { measureExploration } from './explore.mjs';
import { measureCancelCpu } from './cancel-cpu.mjs';
import { measureInProcess } from './in-process.mjs';
import { measureLookups } from './lookups.mjs';
import { measureRecordCreation } from './msw-data.mjs';
import { bigStoreGoals, measureBigStores } from './scale.mjs';
import { key, median, mockCli, orders, root, start } from './support.mjs';

/** The line after which bench/RESULTS.md is written by hand: each run keeps what follows it. */
const handWrittenMarker =
  '<!-- Written by hand below this line: npm run bench keeps it. Each section says when and how it was measured. -->';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// The held-out workload of issue 37: 50 connections, 5 s rounds, alternating.
const connections = 50;
const loadBefore = loadavg();
const directory = await mkdtemp(join(tmpdir(), 'petstore-bench-'));

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

const prismCli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');

const seed100 = await file('orders-100.json', JSON.stringify(orders(100)));
const targets = {
  baseline: async (bodyFile) => start(process.execPath, ['bench/servers/baseline.mjs'], { BODY_FILE: bodyFile }),
  mock: async () => start(process.execPath, [mockCli, '--port', '0', '--seed', seed100]),
  'mock, through the MSW handlers': async () =>
    start(process.execPath, ['bench/servers/handlers-only.mjs'], { SEED_FILE: seed100 }),
  '@mswjs/http-middleware': async () =>
    start(process.execPath, ['bench/servers/http-middleware.mjs'], { SEED_FILE: seed100 }),
  'Prism mock': async () => {
    const port = await freePort();
    // Prism serves the paths of the document without the base path of its servers (a variable here).
    return start(
      process.execPath,
      [prismCli, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn', 'spec/openapi.yaml'],
      {},
      `http://127.0.0.1:${port}`,
      '',
    );
  },
};

async function load(url, setup) {
  const result = await autocannon({ url, connections, duration: seconds, headers: key, ...setup });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
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
      // A store's first change creates its records (about a second for 250,000): once, before the measured run.
      const warmed = await fetch(`${server.api}/store/orders/0`, { method: 'DELETE', headers: key });
      if (warmed.status !== 404) throw new Error(`${name}: the warm-up cancel answered ${warmed.status}`);
    }
    let next = 1;
    const prefix = new URL(server.api).pathname.replace(/\/$/, '');
    results[name].delete.push(
      await load(`${server.api}/store/orders/1`, {
        method: 'DELETE',
        requests: [
          { method: 'DELETE', setupRequest: (request) => ({ ...request, path: `${prefix}/store/orders/${next++}` }) },
        ],
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
    list: {
      rps: median(list.map((r) => r.rps)),
      p99: median(list.map((r) => r.p99)),
      failures: list.reduce((sum, r) => sum + r.failures, 0),
    },
    delete: {
      rps: median(deletes.map((r) => r.rps)),
      p99: median(deletes.map((r) => r.p99)),
      failures: deletes.reduce((sum, r) => sum + r.failures, 0),
    },
  };
}

// Start-up: from spawning the process to the first answered list, median of 9 (Prism: of 3), each
// after the previous process has exited. The baseline, the mock with its default seed (issue 37's goal)
// and the mock with the 100-order seed file take turns, so that a change in the machine's load falls on
// all three; Prism's starts come last, so that no Prism process is still exiting during the others.
const startups = { baseline: [], mock: [], 'mock, default seed': [], 'Prism mock': [] };
const startOf = {
  baseline: targets.baseline,
  mock: targets.mock,
  'mock, default seed': async () => start(process.execPath, [mockCli, '--port', '0']),
  'Prism mock': targets['Prism mock'],
};
async function timeStart(name) {
  const server = await startOf[name](bodyFile);
  startups[name].push(server.firstAnswerMs);
  await server.stop();
  await new Promise((resolve) => setTimeout(resolve, 200));
}
for (let run = 0; run < 9; run++) for (const name of ['baseline', 'mock, default seed', 'mock']) await timeStart(name);
for (let run = 0; run < 3; run++) await timeStart('Prism mock');

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
  const listAfterCancelTimes = [];
  for (let id = 2; cancelTimes.length < 201; id += 3) {
    const began = performance.now();
    const response = await fetch(`${mock.origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: key });
    await response.arrayBuffer();
    cancelTimes.push(performance.now() - began);
    if (response.status !== 204) throw new Error(`cancel of ${id} answered ${response.status}`);
    if (cancelTimes.length % 20 === 0) {
      const listed = performance.now();
      await (await fetch(`${mock.origin}/v1/store/orders`, { headers: key })).arrayBuffer();
      listAfterCancelTimes.push(performance.now() - listed);
    }
  }
  // The first cancel may wait for the store's records (created in the background after the first answer): apart.
  scale.push({
    count,
    rssStarted,
    rssAfter: await mock.rss(),
    list: median(listTimes),
    listBytes,
    firstCancel: cancelTimes[0],
    cancel: median(cancelTimes.slice(1)),
    listAfterCancel: median(listAfterCancelTimes),
    startup: mock.firstAnswerMs,
  });
  await mock.stop();
}
await rm(directory, { recursive: true, force: true });

// Big stores against the default one, as ratios measured in the same rounds; and @msw/data's records.
const big = await measureBigStores({ rounds: Math.max(5, runs) });
const records = measureRecordCreation({ rounds: runs });

// Exploration against the mock: explored steps a second, beside the raw rate of the same requests without checks.
const exploration = await measureExploration({ runs: 300, rounds: runs });

// In process, per request: mock.handle, getResponse and setupServer with the kit's handlers against a bare MSW handler.
const inProcess = await measureInProcess({ rounds: runs, seconds: 2 });

// The cancel on a small store (server CPU per cancel), and refusals and cancels in big stores, in process.
const cancelCpu = await measureCancelCpu({ rounds: Math.max(5, runs), bursts: 40 });
const lookups = measureLookups({ calls: 30 });
const loadAfter = loadavg();
const kitThroughMsw = inProcess.ways["getResponse over the kit's handlers"];
const kitUnderSetupServer = inProcess.ways["setupServer, the kit's handlers"];
const handleAlone = inProcess.ways['mock.handle'];

const base = summary.baseline;
const ratio = (value, of) => (value / of).toFixed(2);
const yes = (met) => (met ? 'met' : 'not met');
const mock = summary.mock;
const prism = summary['Prism mock'];
const startupMock = median(startups.mock);
const startupPrism = median(startups['Prism mock']);
const startupBaseline = median(startups.baseline);
const startupDefault = median(startups['mock, default seed']);
const lookupOf = (prefix) => lookups.find((row) => row.workload.startsWith(prefix));
const lines = [
  '# Benchmark results',
  '',
  `Measured ${new Date().toISOString()} by \`npm run bench\` (Node ${process.version}, ${runs} runs of ${seconds} s for each server and workload, alternating, ` +
    `autocannon with ${connections} connections from the bench process, each server in its own process, loopback only). Figures are medians; ratios are to the ` +
    'bare node:http baseline measured in the same run. The machine is shared and has 2 cores, so absolute figures move from run to run; the ratios move less. ' +
    `Load average (1, 5, 15 min) at the start: ${loadBefore.map((value) => value.toFixed(2)).join(', ')}; at the end: ${loadAfter.map((value) => value.toFixed(2)).join(', ')}.`,
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
  `| list: at least 0.8× the baseline's requests a second | ${ratio(mock.list.rps, base.list.rps)}× | ${yes(mock.list.rps >= 0.8 * base.list.rps)} |`,
  `| delete: at least 0.9× the baseline's requests a second | ${ratio(mock.delete.rps, base.delete.rps)}× | ${yes(mock.delete.rps >= 0.9 * base.delete.rps)} |`,
  `| list: p99 within 1.5× the baseline's | ${ratio(mock.list.p99, base.list.p99)}× | ${yes(mock.list.p99 <= 1.5 * base.list.p99)} |`,
  `| delete: p99 within 1.5× the baseline's | ${ratio(mock.delete.p99, base.delete.p99)}× | ${yes(mock.delete.p99 <= 1.5 * base.delete.p99)} |`,
  `| list: at least 5× Prism's requests a second | ${ratio(mock.list.rps, prism.list.rps)}× | ${yes(mock.list.rps >= 5 * prism.list.rps)} |`,
  `| delete: at least 5× Prism's requests a second | ${ratio(mock.delete.rps, prism.delete.rps)}× | ${yes(mock.delete.rps >= 5 * prism.delete.rps)} |`,
  `| in process, list: the kit's handlers under setupServer at least as fast as a bare MSW handler | ${kitUnderSetupServer.listRatio.toFixed(2)}× (getResponse: ${kitThroughMsw.listRatio.toFixed(2)}×; mock.handle: ${handleAlone.listRatio.toFixed(2)}×) | ${yes(kitUnderSetupServer.listRatio >= 1 && kitThroughMsw.listRatio >= 1)} |`,
  `| in process, cancel: the kit's handlers under setupServer at least as fast as a bare MSW handler | ${kitUnderSetupServer.cancelRatio.toFixed(2)}× (getResponse: ${kitThroughMsw.cancelRatio.toFixed(2)}×; mock.handle: ${handleAlone.cancelRatio.toFixed(2)}×) | ${yes(kitUnderSetupServer.cancelRatio >= 1 && kitThroughMsw.cancelRatio >= 1)} |`,
  `| start-up to the first answered request under 300 ms | ${startupMock.toFixed(0)} ms (Prism: ${startupPrism.toFixed(0)} ms) | ${yes(startupMock < 300)} |`,
  ...bigStoreGoals(big).map(([goal, measured, met]) => `| ${goal} | ${measured} | ${met} |`),
  `| exploration: at least 0.5× the raw rate of the same requests without checks | ${exploration.ratio.toFixed(2)}× | ${yes(exploration.ratio >= 0.5)} |`,
  '',
  '### Issue 37: speed on the one core',
  '',
  '| goal | measured | |',
  '|---|---|---|',
  `| list: at least 0.85× the baseline's requests a second (${connections} connections) | ${ratio(mock.list.rps, base.list.rps)}× | ${yes(mock.list.rps >= 0.85 * base.list.rps)} |`,
  `| list: p99 within 1.5× the baseline's | ${ratio(mock.list.p99, base.list.p99)}× | ${yes(mock.list.p99 <= 1.5 * base.list.p99)} |`,
  `| cancel on a 100-order store (bursts, reset between): server CPU per cancel within 4× the baseline's | ${cancelCpu.cpuRatio.toFixed(2)}× (${cancelCpu.mock.cpuUs.toFixed(1)} µs against ${cancelCpu.baseline.cpuUs.toFixed(1)} µs) | ${yes(cancelCpu.cpuRatio <= 4)} |`,
  `| cancel on a 100-order store: at least 0.25× the baseline's cancels a second | ${cancelCpu.rpsRatio.toFixed(2)}× | ${yes(cancelCpu.rpsRatio >= 0.25)} |`,
  `| a 404 for an unknown id at 250,000 orders within 50 µs in process (a process of its own) | ${lookupOf('404').bigTime.toFixed(0)} µs (${lookupOf('404').smallTime.toFixed(0)} µs at 1,000) | ${yes(lookupOf('404').bigTime <= 50)} |`,
  `| a 409 for a shipped order at 250,000 orders within 50 µs in process | ${lookupOf('409').bigTime.toFixed(0)} µs (${lookupOf('409').smallTime.toFixed(0)} µs at 1,000) | ${yes(lookupOf('409').bigTime <= 50)} |`,
  `| a cancel near the end of 100,000 orders within 10 ms in process | ${(lookupOf('204').bigTime / 1000).toFixed(1)} ms | ${yes(lookupOf('204').bigTime <= 10_000)} |`,
  `| start-up to the first answered list, default seed, within 1.6× the baseline's | ${(startupDefault / startupBaseline).toFixed(2)}× (${startupDefault.toFixed(0)} ms against ${startupBaseline.toFixed(0)} ms; with the 100-order seed file: ${(startupMock / startupBaseline).toFixed(2)}×) | ${yes(startupDefault <= 1.6 * startupBaseline)} |`,
  '',
  '## In process',
  '',
  `\`node bench/in-process.mjs\`: one process, no network (MSW intercepts; \`mock.handle\` needs none), ${inProcess.rounds} rounds of ${inProcess.seconds} s of timed requests for each way, alternating; medians, ` +
    'and ratios to the bare MSW handler (answering the same bytes, or 204) taken within each round: `getResponse` and `mock.handle` against `getResponse` over the bare handler, ' +
    '`setupServer` against the same `setupServer` given the bare handler. List: 100 orders, the body read whole; cancel: a pending order among 100 (made pending again between batches, untimed).',
  '',
  '| way | list req/s | × bare | cancel req/s | × bare |',
  '|---|---|---|---|---|',
  ...Object.entries(inProcess.ways).map(
    ([name, way]) =>
      `| ${name} | ${way.list.toFixed(0)} | ${way.listRatio.toFixed(2)} | ${way.cancel.toFixed(0)} | ${way.cancelRatio.toFixed(2)} |`,
  ),
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
  'The mock started with a seed file of N orders (one in three shipped). List: median of 11 sequential requests; cancel: median of 200 sequential cancellations of different pending orders ' +
    "(the first apart: it may wait for the store's records, created in the background once the first request is answered); list after a cancel: median of 10 lists, each after 20 more cancels. " +
    'All client-side round trips over loopback. RSS: the server process.',
  '',
  '| orders | start-up | RSS after start-up | list | list body | first cancel | cancel | list after a cancel | RSS after |',
  '|---|---|---|---|---|---|---|---|---|',
  ...scale.map(
    (row) =>
      `| ${row.count.toLocaleString('en-US')} | ${row.startup.toFixed(0)} ms | ${row.rssStarted.toFixed(0)} MiB | ${row.list.toFixed(1)} ms | ` +
      `${(row.listBytes / 1024).toFixed(0)} KiB | ${row.firstCancel.toFixed(0)} ms | ${row.cancel.toFixed(2)} ms | ${row.listAfterCancel.toFixed(1)} ms | ${row.rssAfter.toFixed(0)} MiB |`,
  ),
  '',
  '## Big stores',
  '',
  `${big.count.toLocaleString('en-US')} orders against the default seed, medians of ${big.rounds} rounds; each round starts a default mock, a mock with the orders (\`--seed\`, JSON), ` +
    'then a default mock given the orders by `PUT /__mock/orders`; ratios are taken within each round. First answer: from spawning the process to the first answered `GET /v1/store/orders`. ' +
    'New session: the first `GET /v1/store/orders` with a new `X-Mock-Session`. RSS: the server process, after each step.',
  '',
  '| | default | 100,000 orders | ratio or difference |',
  '|---|---|---|---|',
  `| first answer | ${big.defaultFirstAnswer.toFixed(0)} ms | ${big.firstAnswer.toFixed(0)} ms | ${big.firstAnswerRatio.toFixed(2)}× |`,
  `| RSS after the first answer | ${big.defaultRss.toFixed(0)} MiB | ${big.rss.toFixed(0)} MiB | +${(big.rss - big.defaultRss).toFixed(0)} MiB |`,
  `| a new session's first answer | | ${big.sessionFirstAnswer.toFixed(0)} ms | ${big.sessionRatio.toFixed(2)}× the default's first answer |`,
  `| RSS after the new session | | ${big.sessionRss.toFixed(0)} MiB | +${(big.sessionRss - big.defaultRss).toFixed(0)} MiB |`,
  `| RSS after 201 cancels and 6 lists | | ${big.rssAfterChanges.toFixed(0)} MiB | +${(big.rssAfterChanges - big.defaultRss).toFixed(0)} MiB |`,
  `| \`PUT /__mock/orders\` of the orders (into a default mock) | | ${big.put.toFixed(0)} ms | ${big.putRatio.toFixed(2)}× the default's first answer |`,
  `| RSS after that PUT and a list | | ${big.putRss.toFixed(0)} MiB | +${big.putRssAboveDefault.toFixed(0)} MiB |`,
  `| list (11 sequential) | | ${big.list.toFixed(1)} ms (${(big.listBytes / 1024 / 1024).toFixed(1)} MiB) | |`,
  `| first cancel / cancel (200 sequential, of the first orders) | | ${big.firstCancel.toFixed(0)} ms / ${big.cancel.toFixed(2)} ms | |`,
  `| cancel of the last orders (20 sequential) | | ${big.cancelLast.toFixed(1)} ms | |`,
  `| list after a cancel (of the first orders / of the last ones) | | ${big.listAfterCancel.toFixed(1)} ms / ${big.listAfterLastCancel.toFixed(1)} ms | |`,
  '',
  '## @msw/data: 100,000 records',
  '',
  `@msw/data ${records.version} as published (the store's collection), in a fresh process each (\`node --expose-gc\`), medians of ${records.rounds}: one \`Collection#create\` after the other, ` +
    'as the store creates its records, with a schema that checks nothing; then the parts of a cancel where the record sits last or first (10 each). ' +
    'The vendored copy with lazy-records.patch, removed in issue 20, took 272 ms, 2.72 µs and 187 B a record in the same measurement (bench/RESULTS.md of 2026-11-23).',
  '',
  '| create: time | per record | heap per record | `findFirst` by an id predicate, last record | by `where({ id })` | by reference | `update` of the last record | of the first |',
  '|---|---|---|---|---|---|---|---|',
  `| ${records.ms.toFixed(0)} ms | ${records.microsecondsPerRecord.toFixed(2)} µs | ${records.bytesPerRecord.toFixed(0)} B | ${records.findById.toFixed(2)} ms | ${records.findByWhere.toFixed(2)} ms | ` +
    `${records.findByReference.toFixed(2)} ms | ${records.updateLast.toFixed(2)} ms | ${records.updateFirst.toFixed(2)} ms |`,
  '',
];
// What is written by hand below the marker (figures of other scripts, profiles) is kept.
const resultsFile = new URL('RESULTS.md', import.meta.url);
const handWritten = await readFile(resultsFile, 'utf8').then(
  (text) => (text.includes(handWrittenMarker) ? text.slice(text.indexOf(handWrittenMarker)) : ''),
  () => '',
);
await writeFile(resultsFile, `${lines.join('\n')}${handWritten === '' ? '' : `\n${handWritten}`}`);
console.log(lines.join('\n'));
