// What a run's Prism oracle costs when a process makes many (the suite's workers run hundreds of
// verifications and explorations in process, each loading its own oracle): `loadPrismOracle()` then
// the checks of a run (a list, a 404, a 401, a 204, a 409), `runs` times, CPU (user + sys) of the loop
// after one warm-up oracle (Prism's modules loaded). In process, against a built dist/ (`npm run build`
// first). Usage: node bench/prism-oracles.mjs [runs, default 40] [dist folder, default ../dist]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './support.mjs';

const runs = Number(process.argv[2] ?? 40);
const dist = resolve(process.argv[3] ?? new URL('../dist', import.meta.url).pathname);
const { loadPrismOracle } = await import(pathToFileURL(`${dist}/verify/index.js`).href);

const json = new Headers({ 'content-type': 'application/json' });
const error = (code, status) => JSON.stringify({ code, message: code, status });
const checks = [
  ['GET', '/store/orders', { status: 200, headers: json, text: '[{"id":1,"petId":7,"quantity":1,"complete":false}]' }],
  ['DELETE', '/store/orders/9', { status: 404, headers: json, text: error('order_not_found', 404) }],
  ['GET', '/store/orders', { status: 401, headers: json, text: error('missing_api_key', 401) }],
  ['DELETE', '/store/orders/1', { status: 204, headers: new Headers(), text: '' }],
  ['DELETE', '/store/orders/2', { status: 409, headers: json, text: error('order_already_shipped', 409) }],
];

async function oneRun() {
  const prism = await loadPrismOracle();
  for (const [method, path, response] of checks) prism.check(method, path, response);
}

await oneRun();
const perRun = [];
const start = process.cpuUsage();
for (let run = 0; run < runs; run++) {
  const before = process.cpuUsage();
  await oneRun();
  const used = process.cpuUsage(before);
  perRun.push((used.user + used.system) / 1000);
}
const total = process.cpuUsage(start);
console.log(
  `${runs} oracles with ${checks.length} checks each: ${((total.user + total.system) / 1000).toFixed(0)} ms CPU, median ${median(perRun).toFixed(2)} ms a run`,
);
