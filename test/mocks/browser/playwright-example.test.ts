// The example e2e suite (examples/playwright) run as a team would run theirs: Playwright with 2
// workers, fullyParallel, every test in both of the kit's modes, each repeated twice, and the
// kit's coverage reporter judging the whole run.
import { describe, expect, it } from 'vitest';
import { projectRoot, runToExit } from '../../support/cli-support.js';

// Killed only after the test's own timeout (300 s): runToExit's default, 120 s, cut a whole run short
// on a loaded machine (44 tests in 120 s at load 20) and failed it with no test failing.
const playwright = (args: string[]) =>
  runToExit(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'examples/playwright', ...args], {
    cwd: projectRoot,
    env: { ...process.env, CI: '1', FORCE_COLOR: '0' },
    timeout: 310_000,
  });

describe('the example Playwright suite', () => {
  it('passes every test in both modes, twice each, and produces every documented response it must', async () => {
    const run = await playwright(['--repeat-each', '2']);
    expect(run.stdout + run.stderr).toMatch(/\b46 passed\b/);
    expect(run.stdout).not.toMatch(/\bfailed\b|\bflaky\b/);
    expect(run.stdout).toContain(
      'Order interface coverage: every documented response was produced (readPet ignored), over 42 tests; 6 of 8 in all.',
    );
    expect(run.code).toBe(0);
  }, 300_000);

  it('fails a green run whose tests never produced a documented response, naming it', async () => {
    const run = await playwright(['--grep', 'a shipped order']);
    expect(run.stdout).toMatch(/\b2 passed\b/);
    expect(run.stdout).toContain(
      'Order interface coverage: 2 of 8 documented responses produced over 2 tests; never produced: listOrders 401, cancelOrder 204, cancelOrder 401, cancelOrder 404 (readPet ignored).',
    );
    expect(run.code).toBe(1);
  }, 120_000);
});
