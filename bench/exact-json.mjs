// The browser entry's exact JSON (petstore-contract-kit/json) on a list of 10,000 orders against
// JSON.parse on the same bytes, in one process, alternating, medians of 15 rounds; and the entry's
// size bundled for the browser (esbuild, minified, then gzip). `npm run build` first.
// Usage: node bench/exact-json.mjs
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { median, orders } from './support.mjs';

const { parseJson, int64AsBigint } = await import('../dist/spec/exact.js');
const listSchema = { type: 'array', items: { $ref: '#/components/schemas/Order' } };
const typical = JSON.stringify(orders(10_000, 7));
const lists = {
  'ids 1 to 10,000 (the usual list)': typical,
  'one id beyond 2^53 (the first)': typical.replace('"id":1,', '"id":9007199254740993,'),
  'every id beyond 2^53 (the worst case)': typical.replace(
    /"id":(\d+)/g,
    (_, id) => `"id":${BigInt(id) + 9007199254740000n}`,
  ),
};

for (const [label, text] of Object.entries(lists)) {
  const ways = {
    'JSON.parse': () => JSON.parse(text),
    parseJson: () => parseJson(text),
    'parseJson + int64AsBigint (what exactFetch does)': () => int64AsBigint(parseJson(text), listSchema),
  };
  const times = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  for (let round = 0; round < 20; round++) {
    for (const [name, way] of Object.entries(ways)) {
      const started = performance.now();
      way();
      if (round >= 5) times[name].push(performance.now() - started);
    }
  }
  const base = median(times['JSON.parse']);
  console.log(`10,000 orders, ${(text.length / 1024).toFixed(0)} KiB, ${label}`);
  for (const [name, samples] of Object.entries(times))
    console.log(`  ${name}: ${median(samples).toFixed(1)} ms (${(median(samples) / base).toFixed(2)}x JSON.parse)`);
}

const bundled = await build({
  stdin: { contents: "export * from './dist/spec/exact.js';", resolveDir: process.cwd(), loader: 'js' },
  bundle: true,
  minify: true,
  platform: 'browser',
  format: 'esm',
  write: false,
  logLevel: 'silent',
});
const bytes = bundled.outputFiles[0].contents;
console.log(
  `browser bundle: ${(bytes.length / 1024).toFixed(1)} KiB minified, ${(gzipSync(bytes).length / 1024).toFixed(1)} KiB gzip`,
);
