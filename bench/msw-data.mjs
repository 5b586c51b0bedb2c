// @msw/data (the published package, the store's collection) at 100,000 order records: what creating
// them costs in time and memory, and what the store's cancel costs where the record sits last, split
// into its parts. Each measurement in its own process (node --expose-gc), medians. The schema lets
// every record through unchecked, as the store's does for a checked seed: only @msw/data is measured.
// Used by bench/run.mjs; `node bench/msw-data.mjs [rounds]` runs it alone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, orders } from './support.mjs';

const time = async (times, action) => {
  const began = performance.now();
  for (let round = 0; round < times; round++) await action(round);
  return (performance.now() - began) / times;
};

/** One measurement, in this process: creates `count` records one after the other, as the store does, then queries and updates the last ones. */
async function measureHere(count) {
  const { Collection, Query } = await import('@msw/data');
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
  const records = collection.all();
  // The store's cancel at the end of the collection: a search by id, then `update` of that very record.
  const findById = await time(10, (round) =>
    collection.findFirst(new Query((order) => order.id === records[count - 1 - round].id)),
  );
  const findByWhere = await time(10, (round) =>
    collection.findFirst((q) => q.where({ id: records[count - 1 - round].id })),
  );
  const findByReference = await time(10, (round) =>
    collection.findFirst(new Query((order) => order === records[count - 1 - round])),
  );
  const updateLast = await time(10, async (round) => {
    const record = collection.all()[count - 1 - round];
    await collection.update(new Query((order) => order === record), {
      data(draft) {
        draft.status = 'cancelled';
      },
    });
  });
  const updateFirst = await time(10, async (round) => {
    const record = collection.all()[round];
    await collection.update(new Query((order) => order === record), {
      data(draft) {
        draft.status = 'cancelled';
      },
    });
  });
  return { ms, bytes, findById, findByWhere, findByReference, updateLast, updateFirst };
}

/** Medians over `rounds` rounds, each in a fresh process. */
export function measureRecordCreation({ count = 100_000, rounds = 3 } = {}) {
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const output = execFileSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--child', String(count)],
      { encoding: 'utf8' },
    );
    samples.push(JSON.parse(output));
  }
  const { version } = JSON.parse(
    readFileSync(new URL('../node_modules/@msw/data/package.json', import.meta.url), 'utf8'),
  );
  const summary = { version, count, rounds };
  for (const name of Object.keys(samples[0])) summary[name] = median(samples.map((sample) => sample[name]));
  summary.microsecondsPerRecord = (summary.ms * 1000) / count;
  summary.bytesPerRecord = summary.bytes;
  return summary;
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await measureHere(Number(process.argv[3]))));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(measureRecordCreation({ rounds: Number(process.argv[2] ?? 3) }), null, 2));
}
