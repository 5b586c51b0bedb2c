import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit, runVerifyInProcess, verifyCliPath as verifyCli } from '../support/cli-support.js';
import { startHostileProvider, type Switches } from '../support/hostile-provider.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-baseline-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

// petstore-verify runs in this process (runVerifyInProcess: the same code from the command line to the
// files it writes), but for one usage error, run as the built command.

/** Runs the scenario suite against a hostile provider with these switches, with more arguments. */
async function verifyAgainst(switches: Switches, args: string[]) {
  const provider = await startHostileProvider(switches);
  try {
    return await runVerifyInProcess([...provider.args, '--suite', 'scenarios', '--no-prism', ...args]);
  } finally {
    await provider.close();
  }
}

const knownDefect: Switches = { wrongField: 'complete' };

describe('a baseline of known failures', () => {
  let baselineFile: string;
  beforeAll(async () => {
    baselineFile = join(directory, 'baseline.json');
    const written = await verifyAgainst(knownDefect, ['--write-baseline', baselineFile]);
    expect(written.code).toBe(1);
  }, 120_000);

  it('is written as the identities of the violations, never their messages', async () => {
    const baseline = JSON.parse(await readFile(baselineFile, 'utf8')) as {
      tool: string;
      baseline: number;
      known: Record<string, unknown>[];
    };
    expect([baseline.tool, baseline.baseline]).toEqual(['petstore-verify', 1]);
    expect(baseline.known).toContainEqual({
      suite: 'scenarios',
      code: 'order-field',
      operation: 'listOrders',
      scenario: 'list-orders',
      step: 'list the orders',
      path: '/*/complete',
    });
    for (const entry of baseline.known)
      expect(Object.keys(entry).sort()).toEqual(['code', 'operation', 'path', 'scenario', 'step', 'suite']);
  });

  it('turns the known violations into known failures: reported, and the run passes', async () => {
    const junit = join(directory, 'known.xml');
    const exit = await verifyAgainst(knownDefect, ['--baseline', baselineFile, '--junit', junit]);
    const xml = await readFile(junit, 'utf8');
    // The two known failures, and nothing else: the default run judges v2's list too.
    expect(xml).toMatch(/<testsuites name="petstore-verify" tests="\d+" failures="0" errors="0" skipped="2"/);
    expect(xml).toContain(
      '<skipped message="known failure (baseline): list-orders › list the orders: expected complete false as the provider state gives it, got true (at /0/complete)"/>',
    );
    expect(exit.stdout).toContain(
      '    known failure (baseline): list-orders › list the orders: expected complete false as the provider state gives it, got true (at /0/complete) [order-field]\n',
    );
    expect(exit.stdout).toMatch(/\nbaseline: 4 violations are known failures \(the baseline holds \d+\)\n/);
    // The console counts what JUnit counts: its 2 skipped testcases are the 2 checks with known failures only.
    expect(exit.stdout).toMatch(
      /\nscenarios: \d+ passed, 0 failed, 2 with known failures only \(scenarios; \d+ checks \(2 known failures\), /,
    );
    expect(exit.stdout).toMatch(
      /\nverdict: passed \(exit 0; \d+ checks \(2 known failures\), 0 violations \(\d+ known\), [\d.]+ s\)\n$/,
    );
    expect(exit.code).toBe(0);
  });

  it('fails on a new violation, and names only the new ones in the verdict', async () => {
    const exit = await verifyAgainst({ ...knownDefect, duplicateIds: true }, ['--baseline', baselineFile]);
    expect(exit.stdout).toContain('known failure (baseline): list-orders › list the orders: expected complete false');
    expect(exit.stdout).toMatch(
      /\n {4}list-orders › list the orders: expected each order id once, got 1 again \(first at \/0\) \(at \/2\/id\) \[id-unique\]\n/,
    );
    const verdict = exit.stdout.trimEnd().split('\n').at(-1)!;
    // The preflight's own list has the duplicate too: judged, and as new as the scenario's.
    expect(verdict).toMatch(/^verdict: failed \(exit 1; .*\): preflight: 1 violation; scenarios: \d+ violations?$/);
    expect(exit.code).toBe(1);
  });

  it('says which known failures are fixed when an honest provider no longer fails them', async () => {
    const exit = await verifyAgainst({}, ['--baseline', baselineFile]);
    expect(exit.stdout).toMatch(
      /\nbaseline: 0 violations are known failures \(the baseline holds (\d+)\); \1 known failures are fixed: remove them from the baseline \(.*scenarios › list-orders › list the orders order-field.*\)\n/,
    );
    expect(exit.code).toBe(0);
  });

  it('names a fixed failure once, and counts it once, when the baseline repeats it', async () => {
    const repeated = join(directory, 'repeated.json');
    const failure = {
      suite: 'scenarios',
      code: 'order-field',
      operation: 'listOrders',
      scenario: 'list-orders',
      step: 'list the orders',
    };
    // As a baseline merged from two runs' files holds it.
    await writeFile(
      repeated,
      JSON.stringify({ tool: 'petstore-verify', baseline: 1, known: [failure, failure, failure] }),
    );
    const exit = await verifyAgainst({}, ['--baseline', repeated, '--scenario', 'list-orders']);
    expect(exit.stdout).toContain(
      '\nbaseline: 0 violations are known failures (the baseline holds 1); 1 known failure is fixed: remove it from the baseline (scenarios › list-orders › list the orders order-field)\n',
    );
    expect(exit.code).toBe(0);
  });

  it('says nothing of the known failures of scenarios the run did not choose', async () => {
    const exit = await verifyAgainst({}, ['--baseline', baselineFile, '--scenario', 'cancel-shipped-order']);
    expect(exit.stdout).toMatch(/\nbaseline: 0 violations are known failures \(the baseline holds \d+\)\n/);
    expect(exit.code).toBe(0);
  });
});

describe('a baseline of an exploration', () => {
  // At most one command a run: some runs of the seed send nothing, and are skipped.
  const exploration = ['explore', '--no-prism', '--runs', '12', '--max-steps', '1', '--seed', '20261123'];
  async function exploreAgainst(switches: Switches, args: string[]) {
    const provider = await startHostileProvider(switches);
    try {
      return await runVerifyInProcess([...exploration, ...provider.args, ...args]);
    } finally {
      await provider.close();
    }
  }

  it('says its known failure is fixed when the runs that sent nothing were skipped', async () => {
    const baselineFile = join(directory, 'explore-baseline.json');
    expect((await exploreAgainst(knownDefect, ['--write-baseline', baselineFile])).code).toBe(1);
    const { known } = JSON.parse(await readFile(baselineFile, 'utf8')) as {
      known: { suite: string; code: string; scenario: string; step: string }[];
    };
    expect(known.map((failure) => [failure.suite, failure.code])).toEqual([['explore', 'order-field']]);
    const exit = await exploreAgainst({}, ['--baseline', baselineFile]);
    expect(exit.stdout).toMatch(/\nexplore: \d+ passed, 0 failed, [1-9]\d* skipped \(runs;/);
    expect(exit.stdout).toContain(
      `\nbaseline: 0 violations are known failures (the baseline holds 1); 1 known failure is fixed: remove it from the baseline (explore › ${known[0]!.step} order-field)\n`,
    );
    expect(exit.code).toBe(0);
  });
});

describe('a baseline suppresses known findings, never the checks: exploration', () => {
  const exploration = ['explore', '--no-prism', '--runs', '12', '--max-steps', '3', '--seed', '20261123'];
  let baselineFile: string;
  const exploreAgainst = async (switches: Switches, args: string[]) => {
    const provider = await startHostileProvider(switches);
    try {
      return await runVerifyInProcess([...exploration, ...provider.args, ...args]);
    } finally {
      await provider.close();
    }
  };
  beforeAll(async () => {
    baselineFile = join(directory, 'explore-known.json');
    const written = await exploreAgainst(knownDefect, ['--write-baseline', baselineFile]);
    // The run that writes the baseline makes every run too, and shrinks none.
    expect(written.stdout).toContain('\n✗ explore › run 1\n');
    expect(written.stdout).not.toContain('shrunk');
    expect(written.code).toBe(1);
  }, 120_000);

  it('makes every run with the known failure set apart, and counts alike in the console, JUnit and JSON', async () => {
    const junit = join(directory, 'explore-known.xml');
    const json = join(directory, 'explore-known-report.json');
    const exit = await exploreAgainst(knownDefect, ['--baseline', baselineFile, '--junit', junit, '--json', json]);
    // A known failure stops no exploration: all 12 runs are made.
    for (let run = 1; run <= 12; run++)
      expect(exit.stdout).toMatch(new RegExp(`\\n[✓\\-] (skipped )?explore › run ${run}\\b`));
    expect(exit.stdout).not.toContain('shrunk');
    const report = JSON.parse(await readFile(json, 'utf8')) as {
      checks: number;
      failedChecks: number;
      knownFailedChecks: number;
      notVerified: unknown[];
      suites: { cases: { verdict: string }[] }[];
    };
    const skippedRuns = report.suites[0]!.cases.filter((result) => result.verdict === 'skipped').length;
    expect(report.knownFailedChecks).toBeGreaterThan(0);
    const xml = await readFile(junit, 'utf8');
    // JUnit's testcases: every check, a testcase for each run that sent nothing, and one for each
    // operation the run did not verify (v2's, when no run walked its list).
    const notVerified = report.notVerified.length;
    expect(xml).toContain(
      `<testsuites name="petstore-verify" tests="${report.checks + skippedRuns + notVerified}" failures="0" errors="0" skipped="${report.knownFailedChecks + skippedRuns + notVerified}"`,
    );
    const suiteLine = exit.stdout.split('\n').find((line) => line.startsWith('explore: ') && line.includes('(runs;'))!;
    expect(suiteLine).toContain(`(runs; ${report.checks} checks (${report.knownFailedChecks} known failure`);
    expect(suiteLine).toMatch(/, [1-9]\d* with known failures only, /);
    expect(exit.code).toBe(0);
  });

  it('still fails on a new exploration failure beside the known one', async () => {
    const exit = await exploreAgainst({ ...knownDefect, duplicateIds: true }, ['--baseline', baselineFile]);
    expect(exit.stdout).toContain('expected each order id once');
    expect(exit.stdout).toMatch(/\nverdict: failed \(exit 1;/);
    expect(exit.code).toBe(1);
  });

  it('passes an honest provider, naming the fixed failure once', async () => {
    const exit = await exploreAgainst({}, ['--baseline', baselineFile]);
    expect(exit.stdout).toMatch(
      /1 known failure is fixed: remove it from the baseline \(explore › [^›]+( › [^›]+)* order-field\)\n/,
    );
    expect(exit.stdout).not.toContain('explore › explore ›');
    expect(exit.code).toBe(0);
  });
});

describe('files a run reads and writes, checked before it starts', () => {
  // The base URL is a closed port: an answer about it would mean the run had started.
  const target = ['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--suite', 'scenarios'];

  it.each([
    ['not JSON', 'not json', /^petstore-verify: the baseline .*bad\.json is not JSON: .* \(see --help\)\n$/],
    [
      'JSON of another shape',
      '{"known": 3}',
      /^petstore-verify: the baseline .*bad\.json is not one petstore-verify --write-baseline writes .* \(see --help\)\n$/,
    ],
    [
      'an entry without its fields',
      '{"tool":"petstore-verify","baseline":1,"known":[{"code":"pact"}]}',
      /^petstore-verify: the baseline .*bad\.json has an invalid entry at \/known\/0: each needs suite, code, operation, scenario and step \(and path, if it has one, a string\) \(see --help\)\n$/,
    ],
  ])('refuses a baseline that is %s with exit 2 and one line', async (_, content, message) => {
    const file = join(directory, 'bad.json');
    await writeFile(file, content);
    const exit = await runVerifyInProcess([...target, '--baseline', file]);
    expect(exit.stderr).toMatch(message);
    expect(exit.code).toBe(2);
  });

  it('refuses a baseline that does not exist with exit 2 and one line', async () => {
    const file = join(directory, 'missing.json');
    // The built command, once: a usage error is one line and exit 2 from the process too.
    const exit = await runToExit(process.execPath, [verifyCli, ...target, '--baseline', file]);
    expect(exit.stderr).toBe(`petstore-verify: cannot read the baseline ${file}: ENOENT (see --help)\n`);
    expect(exit.code).toBe(2);
  });

  it.each(['--junit', '--json', '--html', '--write-baseline'])(
    'refuses %s into a folder that does not exist before the run, with exit 2',
    async (flag) => {
      const file = join(directory, 'no-such-folder', 'out');
      const exit = await runVerifyInProcess([...target, flag, file]);
      expect(exit.stderr).toBe(
        `petstore-verify: ${flag} ${file} cannot be written: its folder does not exist (see --help)\n`,
      );
      expect(exit.stdout).toBe('');
      expect(exit.code).toBe(2);
    },
  );

  it('writes no baseline when the run could not finish (exit 2), and says so', async () => {
    const file = join(directory, 'unfinished.json');
    const exit = await runVerifyInProcess([...target, '--write-baseline', file]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`petstore-verify: --write-baseline ${file} not written: the run did not finish\n`);
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses a report path that is a folder before the run, with exit 2', async () => {
    const exit = await runVerifyInProcess([...target, '--json', directory]);
    expect(exit.stderr).toBe(`petstore-verify: --json ${directory} is a folder, not a file (see --help)\n`);
    expect(exit.code).toBe(2);
  });
});

describe('knownFailureName', () => {
  it('names each part once: a pact step that repeats its interaction, an exploration whose scenario is its suite', async () => {
    const { knownFailureName } = await import('../../verify/report/console.js');
    const failure = { code: 'order-field', operation: 'listOrders' };
    expect(
      knownFailureName({
        ...failure,
        suite: 'pact',
        scenario: 'a list › list the orders',
        step: 'a list › list the orders',
      }),
    ).toBe('pact › a list › list the orders');
    expect(knownFailureName({ ...failure, suite: 'pact', scenario: 'a list', step: 'a list › list the orders' })).toBe(
      'pact › a list › list the orders',
    );
    expect(knownFailureName({ ...failure, suite: 'explore', scenario: 'explore', step: 'list the orders' })).toBe(
      'explore › list the orders',
    );
    expect(knownFailureName({ ...failure, suite: 'scenarios', scenario: 'list-orders', step: 'list the orders' })).toBe(
      'scenarios › list-orders › list the orders',
    );
  });
});
