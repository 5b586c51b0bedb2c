import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const shared = {
  // The CLI and package tests start real processes (npm, node); the machines are shared and noisy, and
  // two files run at once: a whole default verification (~4 s alone) took over 30 s at load 8.5 on
  // 2 cores. The timeout only bounds a hung test; no honest one comes near it.
  testTimeout: 120_000,
  hookTimeout: 60_000,
  // expect.poll waits for a condition (a page's text, a callback's call): 1 s by default, which a loaded
  // machine can spend before a headless browser paints. The test's own timeout still bounds the wait.
  expect: { poll: { timeout: 20_000 } },
};

// The end-to-end files: each runs what a user runs, as a user runs it, and spends its time in npm,
// Chromium, Playwright, Vite, Storybook or the built commands as processes, not in the kit. They are a
// project of their own (issue 49, item 6) so that `npm run test:fast` runs every other file; `npm test`
// and CI run both. Times before and after: docs/decisions/suite-time.md.
const endToEndFiles = [
  'test/package/package.test.ts', // npm pack, three npm installs, tsc, esbuild, Chromium
  'test/mocks/browser/playwright-example.test.ts', // Playwright with its workers and Chromiums, a Vite build
  'test/mocks/browser/storybook.test.ts', // a Storybook build and Chromium
  'test/mocks/browser/msw3-frontend.test.ts', // a user's project on msw 3 (Node 24, shared): tsc, Playwright, a Storybook build, Chromium
  'test/mocks/browser/browser.test.ts', // Chromium, MSW's service worker
  'test/mocks/control/control-page.test.ts', // Chromium
  'test/cli/cli.test.ts', // petstore-mock as a process, one or more a test (41 tests)
  'test/verify/har-browser.test.ts', // Chromium writes HAR files (recordHar)
  'test/package/add-operation.test.ts', // a copy of the project with an operation added: tsc, esbuild, node
  // The support matrix: fresh projects on Node 20, 22, 24 and 26, npm installs, vitest, tsc, the commands.
  // The four Node 24 files share two projects, made once a run (node24Projects in support-matrix.ts).
  'test/package/matrix-node20.test.ts',
  'test/package/matrix-node22.test.ts',
  'test/package/matrix-node24.test.ts',
  'test/package/matrix-node26.test.ts',
  'test/verify/provider-stack.test.ts', // the Node 24 provider project (shared), petstore-verify as processes on two stacks (~35 s)
  'test/package/msw3.test.ts', // the Node 24 frontend project (shared), vitest, tsc, a Vite build, Chromium
];

// A worker imports the kit, msw, Ajv and the compiled document once for all the files it runs, not
// once a file: every file starts its own servers and mocks and closes them, and none patches a global
// it leaves behind (the architecture test checks the patterns that would).
const notIsolated = { isolate: false };

export default defineConfig({
  test: {
    // Most of the suite's time is spent waiting on child processes, browsers and sockets, so more files
    // run at once than there are cores (vitest's default on 2 cores is one at a time); the times are
    // in the closing notes of issues 34 and 35. No test bounds a wait by the clock it could lose here.
    maxWorkers: Math.max(3, availableParallelism()),
    // Three projects: the Pact consumer tests write the pact, then `fast` and `end-to-end` (provider
    // verification included) read it. `npm test` runs the consumer project, then the other two in one
    // run, so that the long files of each overlap.
    projects: [
      { test: { ...shared, name: 'consumer', include: ['test/contracts/**/*.test.ts'] } },
      {
        test: {
          ...shared,
          ...notIsolated,
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: ['test/contracts/**', ...endToEndFiles],
        },
      },
      {
        test: {
          ...shared,
          ...notIsolated,
          name: 'end-to-end',
          include: endToEndFiles,
          // A folder for the run, in which what several files need (the packed kit, the Node 24
          // projects) is made once, by the first file that asks (test/support/once-per-run.ts).
          globalSetup: ['test/support/run-folder.ts'],
        },
      },
    ],
  },
});
