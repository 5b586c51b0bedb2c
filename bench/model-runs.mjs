// What the interface model costs a run, as explorations and Pact's guard use it: `InterfaceModel.seeded`
// with five orders, then a list, three cancels (pending, shipped, unknown), a list without a key, and
// the store, `runs` times in one process after 50 of warm-up; CPU (user + sys) of the loop. In process,
// against a built dist/ (`npm run build` first). Usage: node bench/model-runs.mjs [runs, default 2000] [dist folder]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const runs = Number(process.argv[2] ?? 2_000);
const dist = resolve(process.argv[3] ?? new URL('../dist', import.meta.url).pathname);
const { InterfaceModel } = await import(pathToFileURL(`${dist}/mocks/pipeline/interface-model.js`).href);

const seed = [
  { id: 1, petId: 7, quantity: 1, status: 'pending' },
  { id: 2, petId: 7, quantity: 2, status: 'pending' },
  { id: 3, petId: 8, quantity: 1, status: 'shipped' },
  { id: 4, petId: 9, quantity: 5, status: 'shipped' },
  { id: 9007199254740993n, petId: 9, quantity: 1, status: 'pending' },
];
const calls = [
  ['GET', '/store/orders', 'valid', 200],
  ['DELETE', '/store/orders/1', 'valid', 204],
  ['DELETE', '/store/orders/3', 'valid', 409],
  ['DELETE', '/store/orders/99', 'valid', 404],
  ['GET', '/store/orders', 'none', 401],
];

async function oneRun() {
  const model = await InterfaceModel.seeded(seed);
  for (const [method, path, key, status] of calls) {
    const answer = await model.call(method, path, key);
    if (answer?.status !== status) throw new Error(`${method} ${path}: ${answer?.status}, not ${status}`);
  }
  await model.orders();
}

for (let run = 0; run < 50; run++) await oneRun();
const start = process.cpuUsage();
for (let run = 0; run < runs; run++) await oneRun();
const used = process.cpuUsage(start);
const ms = (used.user + used.system) / 1000;
console.log(`${runs} model runs: ${ms.toFixed(0)} ms CPU, ${((ms * 1000) / runs).toFixed(0)} µs a run`);
