// What the recorder's judging costs as a recording grows (issue: judging grew with the square of the
// steps). In process, against the built dist/: a recorder fed every exchange at once, as `petstore-verify
// har` feeds it, then closed (every step on disk); cancels of different orders with an accepted key,
// each a 204, the state inferred from them (no list, no --from-scenario), and the same with a first
// list of all the orders (each cancel then gives a listed order its status). Time until close resolves,
// peak heap+external (sampled each 20 ms and at the end) and the file's size. One process per size.
// With `--one N listed|inferred at-close`, one size with `writeAtClose` (the HAR command's way: one write).
// `--one N contradicted [at-close]`: the first list, then a second one holding an order 0 no answer showed
// (the one finding), then the cancels: every step after it is judged against what the deployment showed
// beside the contract's model (verify/recorder/shown-model.ts).
// `npm run build` first. Usage: node --expose-gc bench/recorder-steps.mjs [sizes, default 1000,5000,20000]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScenarioRecorder } from '../dist/verify/recorder/scenario-recorder.js';

const exchange = (method, path, status, text, at) => ({
  method,
  operationPath: path,
  authorization: 'Bearer petstore-dev-key',
  status,
  observed: { status, headers: new Headers(text ? { 'content-type': 'application/json' } : {}), text },
  findings: [],
  startedAt: at,
  endedAt: at + 0.5,
});

function exchanges(count, listed, contradicted = false) {
  const all = [];
  if (listed) {
    const body = Array.from({ length: count }, (_, index) => ({ id: index + 1, petId: 7, quantity: 1 }));
    all.push(exchange('GET', '/store/orders', 200, JSON.stringify(body), 0));
    if (contradicted)
      all.push(exchange('GET', '/store/orders', 200, JSON.stringify([...body, { id: 0, petId: 7, quantity: 1 }]), 0.5));
  }
  for (let id = 1; id <= count; id++) all.push(exchange('DELETE', `/store/orders/${id}`, 204, '', id));
  return all;
}

async function measure(count, listed, writeAtClose, contradicted = false) {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-bench-recorder-'));
  const calls = exchanges(count, listed, contradicted);
  globalThis.gc?.();
  const usage = () => {
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    return heapUsed + external - arrayBuffers;
  };
  const base = usage();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, usage())), 20);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const recorder = await ScenarioRecorder.open({
    directory,
    upstream: 'https://staging.example.com/v1',
    name: 'bench',
    source: 'petstore-verify har',
    writeAtClose,
  });
  for (const call of calls) recorder.record(call);
  await recorder.close();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, usage());
  const { size } = await stat(join(directory, 'bench.yaml'));
  const steps = recorder.current().steps;
  const { disagreements } = recorder.written();
  await rm(directory, { recursive: true, force: true });
  return { count, listed, steps, disagreements, ms, cpuMs, peakMiB: (peak - base) / 2 ** 20, fileMiB: size / 2 ** 20 };
}

if (process.argv[2] === '--one') {
  const mode = process.argv[4];
  const result = await measure(
    Number(process.argv[3]),
    mode === 'listed' || mode === 'contradicted',
    process.argv[5] === 'at-close',
    mode === 'contradicted',
  );
  console.log(JSON.stringify(result));
} else {
  const sizes = (process.argv[2] ?? '1000,5000,20000').split(',').map(Number);
  const script = fileURLToPath(import.meta.url);
  console.log('| steps | state | time | peak heap | file |');
  console.log('|---|---|---|---|---|');
  for (const listed of [false, true])
    for (const count of sizes) {
      const child = spawnSync(
        process.execPath,
        ['--expose-gc', script, '--one', String(count), listed ? 'listed' : 'inferred'],
        { encoding: 'utf8' },
      );
      if (child.status !== 0) throw new Error(child.stderr);
      const r = JSON.parse(child.stdout);
      console.log(
        `| ${r.steps} | ${listed ? 'first list of all' : 'inferred from cancels'} | ${(r.ms / 1000).toFixed(2)} s | ${r.peakMiB.toFixed(0)} MiB | ${r.fileMiB.toFixed(1)} MiB |`,
      );
    }
}
