import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects, run in sequence by `npm test`: the Pact consumer tests write the pact, then the
// suite (provider verification included) reads it.
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

export default defineConfig({
  test: {
    // Most of the suite's time is spent waiting on child processes, browsers and sockets, so more files
    // run at once than there are cores (vitest's default on 2 cores is one at a time); the times are
    // in the closing notes of issues 34 and 35. No test bounds a wait by the clock it could lose here.
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      { test: { ...shared, name: 'consumer', include: ['test/contracts/**/*.test.ts'] } },
      {
        test: {
          ...shared,
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/contracts/**'],
          // A worker imports the kit, msw, Ajv and the compiled document once for all the files it runs,
          // not once a file: every file starts its own servers and mocks and closes them, and none
          // patches a global it leaves behind (the architecture test checks the patterns that would).
          isolate: false,
        },
      },
    ],
  },
});
