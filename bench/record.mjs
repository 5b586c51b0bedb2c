// What recording costs the validating proxy (issue 22): a tester-like session of 1,201 requests (a list
// of 1,000 orders, a cancel of each, and every tenth a list without a key and a cancel of an unknown
// order) sent by 8 clients at once, straight to the mock, through the proxy, and through the proxy with
// --record; requests a second as the clients see them, and for the recording the time until every step
// is on disk. Prism off in both proxies (the recording's cost alone). Three rounds, alternating, medians.
// `npm run build` first. Usage: node bench/record.mjs
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createValidatingProxy } from '../dist/verify/proxy/proxy.js';
import { ScenarioRecorder } from '../dist/verify/recorder/scenario-recorder.js';
import { key, median, orders, startMock } from './support.mjs';

const folder = await mkdtemp(join(tmpdir(), 'petstore-bench-record-'));
const seedFile = join(folder, 'seed.json');
await writeFile(seedFile, JSON.stringify(orders(1000, 10)));
const mock = await startMock(['--seed', seedFile]);

function session() {
  const calls = [];
  for (let id = 1; id <= 1000; id++) {
    calls.push(['DELETE', `/store/orders/${id}`, key]);
    if (id % 10 === 0) calls.push(['GET', '/store/orders', {}], ['DELETE', `/store/orders/${10_000 + id}`, key]);
  }
  return calls;
}

async function run(api) {
  const started = performance.now();
  await (await fetch(`${api}/store/orders`, { headers: key })).arrayBuffer();
  const queue = session();
  const client = async () => {
    for (let call = queue.shift(); call !== undefined; call = queue.shift()) {
      const [method, path, headers] = call;
      await (await fetch(`${api}${path}`, { method, headers })).arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  return { requests: 1 + session().length, ms: performance.now() - started };
}

async function throughProxy(recording) {
  const directory = join(folder, `recording-${Math.random().toString(36).slice(2)}`);
  const recorder = recording
    ? await ScenarioRecorder.open({ directory, upstream: mock.api, name: 'session' })
    : undefined;
  const proxy = createValidatingProxy({ upstream: mock.api, prism: false, ...(recorder && { recorder }) });
  const origin = await proxy.listen(0, '127.0.0.1');
  const result = await run(`${origin}/v1`);
  await proxy.close(); // waits for every step to be on disk
  const onDisk = performance.now();
  const file = recorder && (await stat(join(directory, 'session.yaml')));
  return {
    ...result,
    allStepsMs: onDisk - (performance.now() - result.ms - (performance.now() - onDisk)),
    file,
    recorder,
  };
}

const figures = { mock: [], proxy: [], record: [], recordOnDisk: [] };
let steps;
let bytes;
for (let round = 0; round < 3; round++) {
  await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' });
  const direct = await run(mock.api);
  figures.mock.push(direct.requests / (direct.ms / 1000));
  await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' });
  const proxied = await throughProxy(false);
  figures.proxy.push(proxied.requests / (proxied.ms / 1000));
  await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' });
  const started = performance.now();
  const recorded = await throughProxy(true);
  figures.record.push(recorded.requests / (recorded.ms / 1000));
  figures.recordOnDisk.push(recorded.requests / ((performance.now() - started) / 1000));
  steps = recorded.recorder.current().steps;
  bytes = recorded.file.size;
}
console.log(`straight to the mock: ${median(figures.mock).toFixed(0)} requests/s`);
console.log(`through the proxy: ${median(figures.proxy).toFixed(0)} requests/s`);
console.log(
  `through the proxy with --record: ${median(figures.record).toFixed(0)} requests/s (${(median(figures.record) / median(figures.proxy)).toFixed(2)}x the proxy without)`,
);
console.log(
  `  every step on disk: ${median(figures.recordOnDisk).toFixed(0)} requests/s from the first request to the last step written; ${steps} steps, ${(bytes / 1024).toFixed(0)} KiB`,
);
await mock.stop();
await rm(folder, { recursive: true, force: true });
