#!/usr/bin/env node
// Each speed trick of the kit against the library call that would replace it (issue 20, part 6), on
// the workload it is for, A and B measured in one run, alternating, as medians and ratios:
// - core/parse-json.ts's parser (JSON.parse, long integers marked, proved against lossless-json) against
//   lossless-json's `parse`: a 100,000-order body and a 100-order list, in this process; and
//   `PUT /__mock/orders` of the 100,000 orders, end to end, on the command built either way;
// - the petstore-mock command's V8 tuning (cli/memory.ts: young generation kept small around big loads
//   and bounded after, full GCs after big loads) against none: RSS after a 100,000-order seed and after
//   200 cancels, and start time;
// - the list serializer of mocks/store/list-body.ts (`listBody`) against `stringifyJson` and one UTF-8
//   encode: the list body of 100,000 orders;
// - core/date-time-format.ts (ajv-formats' date-time without allocating for the common form) against
//   ajv-formats' own: the schema check of a 100,000-order seed in this process, and the command's first
//   answer with that seed, built either way;
// (One more was measured here and removed, bench/RESULTS.md "Speed tricks": Latin-1 text for byte
// bodies up to 64 KiB in mocks/server/server.ts against writing the bytes, on the list of 100 orders under
// autocannon beside the bare node:http server. An earlier date-time format, one regex, was removed too.)
// The "without" builds are made here with esbuild from the sources, each one replacement away from
// them (bundled the same way as scripts/bundle-cli.mjs), into dist/bench-variants/ (removed after).
// `node --expose-gc bench/tricks.mjs [rounds]` (default 5); TRICKS=json,put,list,date-time,v8
// (some of them) runs only those. Needs `npm run build`. Prints a table.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse as losslessParse } from 'lossless-json';
import { key, median, orders, root, startMock } from './support.mjs';
import { cliBundleOptions } from '../scripts/bundle-cli.mjs';

const rounds = Number(process.argv[2] ?? 5);
const variantsDirectory = join(root, 'dist', 'bench-variants');
const only = process.env.TRICKS?.split(',');
const want = (name) => only === undefined || only.includes(name);
const work = await mkdtemp(join(tmpdir(), 'petstore-tricks-'));

/**
 * Bundles `entry` (a path under the root) with some source files changed: `changes` maps a path to
 * [from, to] pairs, each `from` found exactly once. Returns the bundle's path.
 */
async function variant(name, entry, changes) {
  const outfile = join(variantsDirectory, name, 'bundle.js');
  const pending = new Map(Object.entries(changes).map(([path, pairs]) => [join(root, path), pairs]));
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    ...cliBundleOptions,
    sourcemap: false,
    plugins: [
      {
        name: 'changes',
        setup(builder) {
          builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
            const pairs = pending.get(path);
            if (pairs === undefined) return undefined;
            let contents = await readFile(path, 'utf8');
            for (const [from, to] of pairs) {
              if (contents.split(from).length !== 2) throw new Error(`${name}: not found once in ${path}: ${from}`);
              contents = contents.replace(from, to);
            }
            pending.delete(path);
            return { contents, loader: 'ts' };
          });
        },
      },
    ],
  });
  if (pending.size > 0) throw new Error(`${name}: not bundled: ${[...pending.keys()].join(', ')}`);
  return outfile;
}

const time = (action) => {
  const began = performance.now();
  action();
  return performance.now() - began;
};
const timeAsync = async (action) => {
  const began = performance.now();
  await action();
  return performance.now() - began;
};
/** The median of `times` timings of `action`, after one untimed call (and a GC first, when exposed). */
const medianTime = (times, action) => {
  action();
  const timings = [];
  for (let run = 0; run < times; run++) {
    globalThis.gc?.();
    timings.push(time(action));
  }
  return median(timings);
};
const ratioOf = (pairs) => median(pairs.map(([a, b]) => a / b));

const seed100k = orders(100_000, 3);
const seed100kText = JSON.stringify(seed100k);
const seed100kFile = join(work, 'orders-100000.json');
await writeFile(seed100kFile, seed100kText);
const list100Text = JSON.stringify(orders(100).map(({ status, ...order }) => order));
const results = [];

// 1. The JSON parser, in this process.
if (want('json')) {
  const { parseJson } = await import('../dist/core/parse-json.js');
  const integerText = /^-?[0-9]+$/;
  const parseNumber = (text) => {
    const value = Number(text);
    return integerText.test(text) && !Number.isSafeInteger(value) ? BigInt(text) : value;
  };
  const library = (text) => losslessParse(text, null, { parseNumber });
  const big = [];
  const small = [];
  for (let round = 0; round < rounds; round++) {
    big.push([medianTime(3, () => parseJson(seed100kText)), medianTime(3, () => library(seed100kText))]);
    const own = medianTime(5, () => {
      for (let run = 0; run < 1000; run++) parseJson(list100Text);
    });
    const theirs = medianTime(5, () => {
      for (let run = 0; run < 1000; run++) library(list100Text);
    });
    small.push([own, theirs]);
  }
  results.push({
    trick: 'core/parse-json.ts parser vs lossless-json `parse`',
    workload: 'parse a 100,000-order body (9 MB)',
    own: `${median(big.map(([a]) => a)).toFixed(0)} ms`,
    library: `${median(big.map(([, b]) => b)).toFixed(0)} ms`,
    ratio: ratioOf(big.map(([a, b]) => [b, a])),
  });
  results.push({
    trick: '',
    workload: 'parse a 100-order list (8 KB)',
    own: `${median(small.map(([a]) => a)).toFixed(0)} µs`,
    library: `${median(small.map(([, b]) => b)).toFixed(0)} µs`,
    ratio: ratioOf(small.map(([a, b]) => [b, a])),
  });
}

// 2. The list serializer, in this process.
if (want('list')) {
  const { toStoredOrders } = await import('../dist/mocks/order-seed.js');
  const { listBody } = await import('../dist/mocks/list-body.js');
  const { stringifyJson } = await import('../dist/core/stringify-json.js');
  const { orderFields } = await import('../dist/core/records.js');
  const stored = toStoredOrders(seed100k);
  const utf8 = new TextEncoder();
  const library = (records) =>
    utf8.encode(
      stringifyJson(
        records
          .filter((order) => order.status !== 'cancelled')
          .map((order) => {
            const fields = {};
            for (const field of orderFields) if (order[field] !== undefined) fields[field] = order[field];
            return fields;
          }),
      ),
    );
  if (Buffer.compare(Buffer.from(listBody(stored)), Buffer.from(library(stored))) !== 0)
    throw new Error('the two list bodies differ');
  const pairs = [];
  for (let round = 0; round < rounds; round++)
    pairs.push([medianTime(3, () => listBody(stored)), medianTime(3, () => library(stored))]);
  results.push({
    trick: 'mocks/store/list-body.ts `listBody` vs `stringifyJson` + encode',
    workload: 'the list body of 100,000 orders (8.7 MB)',
    own: `${median(pairs.map(([a]) => a)).toFixed(0)} ms`,
    library: `${median(pairs.map(([, b]) => b)).toFixed(0)} ms`,
    ratio: ratioOf(pairs.map(([a, b]) => [b, a])),
  });
}

// 3. The date-time format, in this process: the schema check of a 100,000-order seed, each with its own Ajv.
const withoutDateTimeFormat = { 'core/schema-validator.ts': [["  ajv.addFormat('date-time', dateTimeFormat);\n", '']] };
if (want('date-time')) {
  const checkEntry = join('core', 'provider-state.ts');
  const own = await import(await variant('date-time-own', checkEntry, {}));
  const library = await import(await variant('date-time-library', checkEntry, withoutDateTimeFormat));
  if (own.orderInputViolations(seed100k).length + library.orderInputViolations(seed100k).length !== 0)
    throw new Error('the seed does not conform');
  const pairs = [];
  for (let round = 0; round < rounds; round++)
    pairs.push([
      medianTime(3, () => own.orderInputViolations(seed100k)),
      medianTime(3, () => library.orderInputViolations(seed100k)),
    ]);
  results.push({
    trick: 'core/date-time-format.ts vs ajv-formats’ `date-time`',
    workload: 'the schema check of a 100,000-order seed (`orderInputViolations`)',
    own: `${median(pairs.map(([a]) => a)).toFixed(0)} ms`,
    library: `${median(pairs.map(([, b]) => b)).toFixed(0)} ms`,
    ratio: ratioOf(pairs.map(([a, b]) => [b, a])),
  });
}

// The command, built as it is and without each trick.
const cliEntry = join('cli', 'petstore-mock.ts');
const cli = {
  asIs: await variant('as-is', cliEntry, {}),
  losslessJson: await variant('lossless-json', cliEntry, {
    'core/parse-json.ts': [
      [
        'export function parseJson(text: string): JsonValue {\n',
        'export function parseJson(text: string): JsonValue {\n  return parseLosslessly(text);\n',
      ],
    ],
  }),
  collectionsOnly: await variant('no-young-generation-flag', cliEntry, {
    'cli/memory.ts': [['    setFlags: setFlagsFromString,\n', '    setFlags: () => {},\n']],
  }),
  libraryDateTime: await variant('library-date-time', cliEntry, withoutDateTimeFormat),
  noTuning: await variant('no-v8-tuning', cliEntry, {
    'cli/memory.ts': [
      [
        'export function tuneMemory(v8: V8Access = processV8()): MemoryTuning {\n',
        'export function tuneMemory(v8: V8Access = processV8()): MemoryTuning {\n  return { collectGarbage() {}, holdYoungGeneration() {}, answering() {} };\n',
      ],
    ],
  }),
};

// 4. PUT /__mock/orders of 100,000 orders, end to end.
if (want('put')) {
  const pairs = [];
  for (let round = 0; round < rounds; round++) {
    const timings = [];
    for (const build of [cli.asIs, cli.losslessJson]) {
      const mock = await startMock([], build);
      const put = await timeAsync(async () => {
        const response = await fetch(`${mock.origin}/__mock/orders`, { method: 'PUT', body: seed100kText });
        if (response.status !== 204) throw new Error(`PUT answered ${response.status}`);
      });
      await mock.stop();
      timings.push(put);
    }
    pairs.push(timings);
  }
  results.push({
    trick: '',
    after: 'parse a 100-order list (8 KB)',
    workload: '`PUT /__mock/orders` of 100,000 orders (round trip)',
    own: `${median(pairs.map(([a]) => a)).toFixed(0)} ms`,
    library: `${median(pairs.map(([, b]) => b)).toFixed(0)} ms`,
    ratio: ratioOf(pairs.map(([a, b]) => [b, a])),
  });
}

// 5. The date-time format, end to end: the first answer of the command given a 100,000-order seed file.
if (want('date-time')) {
  const pairs = [];
  for (let round = 0; round < rounds; round++) {
    const timings = [];
    for (const build of [cli.asIs, cli.libraryDateTime]) {
      const mock = await startMock(['--seed', seed100kFile], build);
      timings.push(mock.firstAnswerMs);
      await mock.stop();
    }
    pairs.push(timings);
  }
  results.push({
    trick: '',
    after: 'the schema check of a 100,000-order seed (`orderInputViolations`)',
    workload: 'start to the first answer, 100,000-order seed file',
    own: `${median(pairs.map(([a]) => a)).toFixed(0)} ms`,
    library: `${median(pairs.map(([, b]) => b)).toFixed(0)} ms`,
    ratio: ratioOf(pairs.map(([a, b]) => [b, a])),
  });
}

// 6. V8 tuning: memory with a 100,000-order seed, and start time of the default mock.
if (want('v8')) {
  const samples = { asIs: [], collectionsOnly: [], noTuning: [] };
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(samples)) {
      const plain = await startMock([], cli[name]);
      const startup = plain.firstAnswerMs;
      await plain.stop();
      const big = await startMock(['--seed', seed100kFile], cli[name]);
      // Read at once: the records are then created in the background, and the first cancel waits for them.
      const rssLoaded = await big.rss();
      for (let id = 2, done = 0; done < 200; id += 3, done++) {
        const response = await fetch(`${big.api}/store/orders/${id}`, { method: 'DELETE', headers: key });
        await response.arrayBuffer();
        if (response.status !== 204) throw new Error(`cancel of ${id} answered ${response.status}`);
        if (done % 40 === 0) await (await fetch(`${big.api}/store/orders`, { headers: key })).arrayBuffer();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const rssAfter = await big.rss();
      await big.stop();
      samples[name].push({ startup, rssLoaded, rssAfter });
    }
  }
  const of = (name, field) => median(samples[name].map((sample) => sample[field]));
  const row = (trick, workload, field, unit, against = 'noTuning') =>
    results.push({
      trick,
      workload,
      own: `${of('asIs', field).toFixed(0)} ${unit}`,
      library: `${of(against, field).toFixed(0)} ${unit}`,
      ratio: ratioOf(samples.asIs.map((sample, round) => [samples[against][round][field], sample[field]])),
    });
  row(
    'V8 tuning of petstore-mock (cli/memory.ts) vs none',
    'RSS at the first answer, 100,000-order seed',
    'rssLoaded',
    'MiB',
  );
  row('', 'RSS after 200 cancels and 5 lists, 100,000-order seed', 'rssAfter', 'MiB');
  row('', 'start to first answer, default seed', 'startup', 'ms');
  row(
    '… its young-generation flag vs the collections alone',
    'RSS at the first answer, 100,000-order seed',
    'rssLoaded',
    'MiB',
    'collectionsOnly',
  );
  row('', 'RSS after 200 cancels and 5 lists, 100,000-order seed', 'rssAfter', 'MiB', 'collectionsOnly');
}

// The end-to-end rows beside their in-process ones.
for (let row = results.findIndex((each) => each.after !== undefined); row !== -1; ) {
  const [moved] = results.splice(row, 1);
  results.splice(results.findIndex((each) => each.workload === moved.after) + 1, 0, { ...moved, after: undefined });
  row = results.findIndex((each) => each.after !== undefined);
}

await rm(variantsDirectory, { recursive: true, force: true });
await rm(work, { recursive: true, force: true });

console.log(`Node ${process.version}, ${rounds} rounds, ${new Date().toISOString()}`);
console.log('| trick | workload | with it | without (library) | gain (above 1: the trick is faster or smaller) |');
console.log('|---|---|---|---|---|');
for (const row of results)
  console.log(`| ${row.trick} | ${row.workload} | ${row.own} | ${row.library} | ${row.ratio.toFixed(2)}× |`);
