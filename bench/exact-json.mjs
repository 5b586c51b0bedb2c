// The browser entry's exact JSON (petstore-contract-kit/json) on a list of 10,000 orders against
// JSON.parse on the same bytes: in Node and in the suite's headless Chromium (the entry bundled for the
// browser by esbuild), in one process each, alternating, medians of 20 rounds of 5 parses after 5 of
// warm-up; and the entry's size bundled for the browser (minified, then gzip). `npm run build` first.
// Usage: node bench/exact-json.mjs
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { launchChromium } from '../test/support/headless-browser.mjs';
import { orders } from './support.mjs';

const typical = JSON.stringify(orders(10_000, 7));
const lists = {
  'ids 1 to 10,000 (the usual list)': typical,
  'one id beyond 2^53 (the first)': typical.replace('"id":1,', '"id":9007199254740993,'),
  'every id beyond 2^53 (the worst case)': typical.replace(
    /"id":(\d+)/g,
    (_, id) => `"id":${BigInt(id) + 9007199254740000n}`,
  ),
};

// Runs where it is given `exact` (the entry's exports) and the lists: Node, and the page, alike.
function measure(exact, lists) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const listSchema = { type: 'array', items: { $ref: '#/components/schemas/Order' } };
  const results = {};
  for (const [label, text] of Object.entries(lists)) {
    const ways = {
      'JSON.parse': () => JSON.parse(text),
      parseJson: () => exact.parseJson(text),
      'parseJson + int64AsBigint (what exactFetch does)': () => exact.int64AsBigint(exact.parseJson(text), listSchema),
    };
    const times = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
    for (let round = 0; round < 25; round++) {
      for (const [name, way] of Object.entries(ways)) {
        const started = performance.now();
        for (let repeat = 0; repeat < 5; repeat++) way();
        if (round >= 5) times[name].push((performance.now() - started) / 5);
      }
    }
    results[label] = Object.fromEntries(Object.entries(times).map(([name, samples]) => [name, median(samples)]));
  }
  return results;
}

function report(where, results) {
  for (const [label, medians] of Object.entries(results)) {
    console.log(`${where}: 10,000 orders, ${(lists[label].length / 1024).toFixed(0)} KiB, ${label}`);
    const base = medians['JSON.parse'];
    for (const [name, median] of Object.entries(medians))
      console.log(`  ${name}: ${median.toFixed(2)} ms (${(median / base).toFixed(2)}x JSON.parse)`);
  }
}

report('Node', measure(await import('../dist/core/exact.js'), lists));

const bundle = async (format) =>
  (
    await build({
      stdin: { contents: "export * from './dist/core/exact.js';", resolveDir: process.cwd(), loader: 'js' },
      bundle: true,
      minify: true,
      platform: 'browser',
      format,
      globalName: 'exact',
      write: false,
      logLevel: 'silent',
    })
  ).outputFiles[0].contents;

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.addScriptTag({ content: new TextDecoder().decode(await bundle('iife')) });
  const results = await page.evaluate(
    ([source, lists]) => new Function('exact', 'lists', `return (${source})(exact, lists);`)(globalThis.exact, lists),
    [measure.toString(), lists],
  );
  report(`Chromium ${browser.version()}`, results);
} finally {
  await browser.close();
}

const bytes = await bundle('esm');
console.log(
  `browser bundle: ${(bytes.length / 1024).toFixed(1)} KiB minified, ${(gzipSync(bytes).length / 1024).toFixed(1)} KiB gzip`,
);
