// @msw/data as the limit of a big store: the time and the memory of creating 100,000 order records
// in a Collection, with @msw/data as published (node_modules/@msw/data, a dev dependency) and with
// the kit's vendored copy (vendor/msw-data: the same version with lazy-records.patch applied). Each
// measurement in its own process (node --expose-gc), alternating, medians. The schema lets every
// record through unchecked, as the store's does for a checked seed: only @msw/data is measured.
// Used by bench/run.mjs; `node bench/msw-data.mjs [rounds]` runs it alone.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, orders } from './support.mjs';

const modules = { published: '@msw/data', patched: '../vendor/msw-data/index.js' };

/** One measurement, in this process: creates `count` records one after the other, as the store does. */
async function measureHere(which, count) {
  const { Collection } = await import(modules[which]);
  const schema = { '~standard': { version: 1, vendor: 'bench', validate: (value) => ({ value }) } };
  const values = orders(count, 3).map((order) => ({ ...order, id: BigInt(order.id), petId: BigInt(order.petId) }));
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const collection = new Collection({ schema });
  const started = performance.now();
  for (const value of values) await collection.create(value);
  const ms = performance.now() - started;
  globalThis.gc();
  const bytes = (process.memoryUsage().heapUsed - before) / count;
  if (collection.count() !== count) throw new Error('records missing');
  return { ms, bytes };
}

/** Medians over `rounds` rounds of each variant, each in a fresh process. */
export function measureRecordCreation({ count = 100_000, rounds = 3 } = {}) {
  const samples = { published: [], patched: [] };
  for (let round = 0; round < rounds; round++) {
    for (const which of Object.keys(modules)) {
      const output = execFileSync(
        process.execPath,
        ['--expose-gc', fileURLToPath(import.meta.url), '--child', which, String(count)],
        { encoding: 'utf8' },
      );
      samples[which].push(JSON.parse(output));
    }
  }
  const summary = { count, rounds };
  for (const [which, list] of Object.entries(samples)) {
    summary[which] = {
      ms: median(list.map((sample) => sample.ms)),
      bytesPerRecord: median(list.map((sample) => sample.bytes)),
    };
    summary[which].microsecondsPerRecord = (summary[which].ms * 1000) / count;
  }
  return summary;
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await measureHere(process.argv[3], Number(process.argv[4]))));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(measureRecordCreation({ rounds: Number(process.argv[2] ?? 3) }), null, 2));
}
