// Issue 57, item 1: a baseline is a fixed point. The run that writes it explores as the run that reads
// it (past every difference, to --runs, none shrunk), so write-then-read on an unchanged provider at
// the same seed passes, and a finding the baseline lacks still fails, named alone.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerifyInProcess } from '../support/cli-support.js';
import { startHostileProvider, type Switches } from '../support/hostile-provider.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-fixed-point-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

// The provider: its only defect is a 401 without WWW-Authenticate.
const noChallenge: Switches = { noChallenge: true };

/** petstore-verify explore against a hostile provider with these switches: 10 runs of at most 4 commands. */
async function exploreAgainst(switches: Switches, options: { seed: number; runs?: number; args: string[] }) {
  const provider = await startHostileProvider(switches);
  const { seed, runs = 10, args } = options;
  try {
    return await runVerifyInProcess([
      'explore',
      '--no-prism',
      ...['--runs', String(runs), '--max-steps', '4', '--seed', String(seed)],
      ...provider.args,
      ...args,
    ]);
  } finally {
    await provider.close();
  }
}

interface BaselineFile {
  explored?: { seed: number; runs: number; maxSteps: number };
  known: { suite: string; code: string; operation: string | null; path?: string }[];
}

const readJson = async <T>(file: string) => JSON.parse(await readFile(file, 'utf8')) as T;

// The findings of a --json report that fail the run: not known to the baseline.
async function newFindings(file: string) {
  const report = await readJson<{ findings: { code: string; operation: string; path: string; known?: boolean }[] }>(
    file,
  );
  return report.findings.filter((finding) => finding.known !== true);
}

const seed = 20261123;

describe('a baseline written by exploring', () => {
  let baselineFile: string;
  let written: Awaited<ReturnType<typeof exploreAgainst>>;
  beforeAll(async () => {
    baselineFile = join(directory, 'baseline.json');
    written = await exploreAgainst(noChallenge, { seed, args: ['--write-baseline', baselineFile] });
  }, 60_000);

  it('is written by a run that goes on past every difference to --runs, shrinking none', () => {
    for (let run = 1; run <= 10; run++)
      expect(written.stdout).toMatch(new RegExp(`\\n[✓✗-] (skipped )?explore › run ${run}\\b`));
    expect(written.stdout).not.toContain('shrunk');
    expect(written.stdout).toMatch(/\nverdict: failed \(exit 1; .*\): explore: \d+ violations\n$/);
    expect(written.code).toBe(1);
  });

  it('holds each rule, operation and place once, and the exploration it was written from', async () => {
    const baseline = await readJson<BaselineFile>(baselineFile);
    expect(baseline.explored).toEqual({ seed, runs: 10, maxSteps: 4 });
    // The first run's failure (a cancel) is there, and so is the list's, which a run stopped at the
    // first failure never met (the issue's `explore: 1 violation` on listOrders).
    expect(baseline.known.map(({ suite, code, operation, path }) => [suite, code, operation, path])).toEqual([
      ['explore', 'auth-challenge', 'cancelOrder', 'www-authenticate'],
      ['explore', 'auth-challenge', 'listOrders', 'www-authenticate'],
      ['explore', 'auth-challenge', 'readPet', 'www-authenticate'],
    ]);
  });

  it('is read back green by the same run on the unchanged provider, every known failure met again', async () => {
    const exit = await exploreAgainst(noChallenge, { seed, args: ['--baseline', baselineFile] });
    expect(exit.stdout).toMatch(/\nbaseline: [1-9]\d* violations are known failures \(the baseline holds 3\)\n/);
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
    expect(exit.code).toBe(0);
  });

  it('is the same bytes when written again at the same seed', async () => {
    const again = join(directory, 'again.json');
    await exploreAgainst(noChallenge, { seed, args: ['--write-baseline', again] });
    expect(await readFile(again, 'utf8')).toBe(await readFile(baselineFile, 'utf8'));
  });

  it('fails a new defect on the same provider, naming only the new finding', async () => {
    const json = join(directory, 'new-defect.json');
    const exit = await exploreAgainst(
      { ...noChallenge, wrongField: 'petId' },
      { seed, args: ['--baseline', baselineFile, '--json', json] },
    );
    const fresh = await newFindings(json);
    expect(fresh.length).toBeGreaterThan(0);
    for (const finding of fresh)
      expect([finding.code, finding.operation, finding.path.replace(/\d+/, '*')]).toEqual([
        'order-field',
        'listOrders',
        '/*/petId',
      ]);
    expect(exit.stdout).toMatch(/\nverdict: failed \(exit 1; .*\): explore: \d+ violations?\n$/);
    expect(exit.code).toBe(1);
  });

  it('passes at another seed that meets only failures it holds', async () => {
    const exit = await exploreAgainst(noChallenge, { seed: 2, args: ['--baseline', baselineFile] });
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
    expect(exit.code).toBe(0);
  });

  it('passes with fewer runs at its seed: run N is the same whatever --runs', async () => {
    const exit = await exploreAgainst(noChallenge, { seed, runs: 4, args: ['--baseline', baselineFile] });
    expect(exit.stdout).toMatch(
      /\nbaseline: [1-9]\d* violations? (is a known failure|are known failures) \(the baseline holds 3\)\n/,
    );
    expect(exit.code).toBe(0);
  });
});

describe("the issue's case, the default run (pact, scenarios, 25 exploration runs)", () => {
  it('writes a baseline that the same run reads back green', async () => {
    const provider = await startHostileProvider(noChallenge);
    const file = join(directory, 'default-run.json');
    try {
      const written = await runVerifyInProcess([...provider.args, '--no-prism', '--write-baseline', file]);
      expect(written.stdout).toMatch(
        /\nverdict: failed \(exit 1; .*\): pact: \d+ violations; scenarios: \d+ violations; explore: \d+ violations\n$/,
      );
      const read = await runVerifyInProcess([...provider.args, '--no-prism', '--baseline', file]);
      expect(read.stdout).toMatch(
        /\nverdict: passed \(exit 0; \d+ checks \(\d+ known failures\), 0 violations \(\d+ known\), /,
      );
      expect(read.code).toBe(0);
    } finally {
      await provider.close();
    }
  }, 60_000);
});

describe('a baseline across seeds', () => {
  it('fails a seed that meets a failure the writing seed never met, and calls nothing it did not meet fixed', async () => {
    // Two runs of the default seed meet the list's and the pet's failures, not the cancel's.
    const small = join(directory, 'small.json');
    await exploreAgainst(noChallenge, { seed, runs: 2, args: ['--write-baseline', small] });
    expect((await readJson<BaselineFile>(small)).known.map((failure) => failure.operation)).not.toContain(
      'cancelOrder',
    );
    const json = join(directory, 'other-seed.json');
    const exit = await exploreAgainst(noChallenge, { seed: 1, args: ['--baseline', small, '--json', json] });
    expect((await newFindings(json)).map(({ code, operation }) => [code, operation])).toEqual([
      ['auth-challenge', 'cancelOrder'],
    ]);
    // Another seed not meeting a known failure is no evidence that it is fixed.
    expect(exit.stdout).toMatch(
      /\nbaseline: \d+ violations? (is a known failure|are known failures) \(the baseline holds \d+\)\n/,
    );
    expect(exit.code).toBe(1);
  });
});

describe('a baseline updated (--baseline with --write-baseline)', () => {
  it('holds the known failures and the new ones, and the same run reads it back green', async () => {
    const small = join(directory, 'to-update.json');
    const updated = join(directory, 'updated.json');
    await exploreAgainst(noChallenge, { seed, runs: 2, args: ['--write-baseline', small] });
    const update = await exploreAgainst(noChallenge, {
      seed,
      args: ['--baseline', small, '--write-baseline', updated],
    });
    // The cancel's failure is new to the 2-run baseline: the update fails on it, and goes on past it.
    expect(update.stdout).not.toContain('shrunk');
    expect(update.code).toBe(1);
    expect((await readJson<BaselineFile>(updated)).known.map((failure) => failure.operation)).toEqual([
      'cancelOrder',
      'listOrders',
      'readPet',
    ]);
    const exit = await exploreAgainst(noChallenge, { seed, args: ['--baseline', updated] });
    expect(exit.code).toBe(0);
  });
});

describe('fixed failures of an exploration', () => {
  let baselineFile: string;
  beforeAll(async () => {
    baselineFile = join(directory, 'to-fix.json');
    await exploreAgainst(noChallenge, { seed, args: ['--write-baseline', baselineFile] });
  }, 60_000);

  it('are named by a run of the same seed on a provider that fixed them', async () => {
    const exit = await exploreAgainst({}, { seed, args: ['--baseline', baselineFile] });
    expect(exit.stdout).toMatch(
      /\nbaseline: 0 violations are known failures \(the baseline holds 3\); 3 known failures are fixed: /,
    );
    expect(exit.code).toBe(0);
  });

  it('are not named by a run of another seed: not meeting them there is no evidence', async () => {
    const exit = await exploreAgainst({}, { seed: 2, args: ['--baseline', baselineFile] });
    expect(exit.stdout).toContain('\nbaseline: 0 violations are known failures (the baseline holds 3)\n');
    expect(exit.code).toBe(0);
  });
});

describe('baseline files', () => {
  it('match any place with an entry written before places were (no path)', async () => {
    const placeless = join(directory, 'placeless.json');
    const known = ['listOrders', 'cancelOrder', 'readPet'].map((operation) => ({
      suite: 'explore',
      code: 'auth-challenge',
      operation,
      scenario: 'explore',
      step: 'a sequence',
    }));
    await writeFile(placeless, JSON.stringify({ tool: 'petstore-verify', baseline: 1, known }));
    const exit = await exploreAgainst(noChallenge, { seed, args: ['--baseline', placeless] });
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
    expect(exit.code).toBe(0);
  });

  it('refuses one whose explored is not a seed, runs and steps, with exit 2 and one line', async () => {
    const bad = join(directory, 'bad-explored.json');
    await writeFile(bad, JSON.stringify({ tool: 'petstore-verify', baseline: 1, explored: { seed: 'x' }, known: [] }));
    const exit = await runVerifyInProcess([
      ...['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--suite', 'scenarios', '--baseline', bad],
    ]);
    expect(exit.stderr).toBe(
      `petstore-verify: the baseline ${bad} has an invalid /explored: it needs seed, runs and maxSteps, each a whole number (see --help)\n`,
    );
    expect(exit.code).toBe(2);
  });

  it('name a place without its list positions or answer numbers', async () => {
    const { placeOf } = await import('../../verify/run/baseline.js');
    expect(
      ['/3/complete', 'answer 2 /0/id', 'answer 11 status', 'www-authenticate', ''].map((path) => placeOf(path)),
    ).toEqual(['/*/complete', 'answer * /*/id', 'answer * status', 'www-authenticate', '']);
  });
});

describe('an honest provider', () => {
  it('writes an empty baseline, and passes with it', async () => {
    const empty = join(directory, 'empty.json');
    const writtenExit = await exploreAgainst({}, { seed, args: ['--write-baseline', empty] });
    expect(writtenExit.code).toBe(0);
    expect((await readJson<BaselineFile>(empty)).known).toEqual([]);
    const exit = await exploreAgainst({}, { seed, args: ['--baseline', empty] });
    expect(exit.stdout).toContain('\nbaseline: 0 violations are known failures (the baseline holds 0)\n');
    expect(exit.code).toBe(0);
  });
});

describe('--save with --write-baseline', () => {
  it('is refused before the run, with exit 2 and one line', async () => {
    const exit = await runVerifyInProcess([
      'explore',
      ...['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--state-url', 'http://127.0.0.1:9/state'],
      ...['--save', directory, '--write-baseline', join(directory, 'unwritten.json')],
    ]);
    expect(exit.stderr).toBe(
      'petstore-verify: --save has nothing to save with --write-baseline: a run that writes a baseline explores past every difference and shrinks none (save from a run that reads the baseline) (see --help)\n',
    );
    expect(exit.code).toBe(2);
  });
});
