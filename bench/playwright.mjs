// What the kit costs a Playwright suite (issue 33): the example e2e suite (examples/playwright) run
// with its workers (2), every test in both modes, three times over; the median time per test of each
// mode from Playwright's own JSON report, side by side in one run. Then the cost of importing
// petstore-contract-kit/playwright against a bare @msw/playwright fixture, each in a fresh Node
// process, 15 rounds alternating, medians. `npm run build` first. Usage: node bench/playwright.mjs
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { median } from './support.mjs';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const folder = await mkdtemp(join(tmpdir(), 'petstore-bench-playwright-'));

// 1. Time per test, by mode.
const report = join(folder, 'report.json');
await run(
  process.execPath,
  [
    'node_modules/@playwright/test/cli.js',
    'test',
    '-c',
    'examples/playwright',
    '--repeat-each',
    '3',
    '--reporter',
    'json',
  ],
  {
    cwd: root,
    env: { ...process.env, CI: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    maxBuffer: 64 * 1024 * 1024,
  },
).catch((error) => {
  if (error.code !== 0) throw error;
});
const durations = { 'in-page': [], server: [] };
const walk = (suite) => {
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests)
      for (const result of test.results)
        if (result.status === 'passed') durations[test.projectName]?.push(result.duration);
  for (const child of suite.suites ?? []) walk(child);
};
for (const suite of JSON.parse(await readFile(report, 'utf8')).suites) walk(suite);

// 2. Import cost: the kit's entry against a fixture written with @msw/playwright alone.
const bare = join(root, 'bench', '.bare-fixture.mjs');
await writeFile(
  bare,
  `import { test as base } from '@playwright/test';
import { defineNetworkFixture } from '@msw/playwright';
export const test = base.extend({ network: [async ({ context }, use) => { const network = defineNetworkFixture({ context, handlers: [] }); await network.enable(); await use(network); await network.disable(); }, { auto: true }] });
`,
);
const timeImport = async (specifier) => {
  const { stdout } = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`,
    ],
    { cwd: root },
  );
  return Number(stdout.trim());
};
// What an in-page worker loads in all by its first test: the entry, @msw/playwright, and the mock
// (the store and validators), against the bare fixture's import.
const inPageWorker = async () => {
  const { stdout } = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const t = performance.now(); await import('petstore-contract-kit/playwright'); await import('@msw/playwright'); const { createOrderMock } = await import('./dist/mocks/order-mock.js'); createOrderMock({ scenario: 'cancel-shipped-order' }); console.log(performance.now() - t);`,
    ],
    { cwd: root },
  );
  return Number(stdout.trim());
};
const imports = { kit: [], bare: [], inPageWorker: [] };
for (let round = 0; round < 15; round++) {
  imports.kit.push(await timeImport('petstore-contract-kit/playwright'));
  imports.bare.push(await timeImport(bare));
  imports.inPageWorker.push(await inPageWorker());
}
await rm(bare, { force: true });
await rm(folder, { recursive: true, force: true });

const ms = (value) => `${value.toFixed(0)} ms`;
console.log(`tests passed: in-page ${durations['in-page'].length}, server ${durations.server.length}`);
console.log(
  `median time per test: in-page ${ms(median(durations['in-page']))}, server ${ms(median(durations.server))}`,
);
console.log(
  `an in-page worker by its first test (entry, @msw/playwright, the mock): ${ms(median(imports.inPageWorker))}`,
);
console.log(
  `import: petstore-contract-kit/playwright ${ms(median(imports.kit))}, a bare @msw/playwright fixture ${ms(median(imports.bare))}, difference ${ms(median(imports.kit) - median(imports.bare))}`,
);
