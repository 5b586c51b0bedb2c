// Exploration: the kit's own mock passes it; providers whose bugs the fixed scenarios and the pact
// both miss are caught, each with a shrunk sequence of a few steps, and the scenario it saves
// replays the failure against that provider and passes against the mock; the same seed gives the
// same runs and the same report.
// petstore-verify runs in this process (runVerifyInProcess), but as the built command to show that a
// process replays the same report, for its --help and --version, and petstore-mock loading a saved scenario.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { loadScenarioFile } from '../../core/scenario-files.js';
import { findingMessage } from '../../core/finding.js';
import { explore } from '../../verify/explore/explore.js';
import { runVerification } from '../../verify/run/verification.js';
import { runToExit, runVerifyInProcess, startCommand, verifyCliPath as verifyCli } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { startServer } from '../support/support.js';

// An exploration that shrinks its failure and replays it: ~12 s alone, 90 s (its old limit, which failed
// it) at load 25 beside the other files. The limit only bounds a hung test.
const slowExploration = 180_000;
const mockCli = fileURLToPath(new URL('../../dist/bin/petstore-mock.js', import.meta.url));
let directory: string;
let mock: Awaited<ReturnType<typeof startServer>>;
const mockTarget = () => ({
  baseUrl: `${mock.origin}/v1`,
  apiKey: 'petstore-dev-key',
  stateUrl: `${mock.origin}/__mock/provider-state`,
  timeout: 10_000,
});
const providerTarget = (origin: string) => ({
  baseUrl: `${origin}/v1`,
  apiKey: hostileKey,
  stateUrl: `${origin}/__state`,
  timeout: 10_000,
});

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-explore-'));
  mock = await startServer();
});
afterAll(async () => {
  await mock.close();
  await rm(directory, { recursive: true, force: true });
});

describe("exploring the kit's own mock", () => {
  it('finds no difference over 200 runs', async () => {
    const result = await explore({ ...mockTarget(), runs: 200 });
    expect(result.failure).toBeUndefined();
    expect(result.verdict).toBe('passed');
    expect(result.cases).toHaveLength(200);
    expect(result.checks).toBeGreaterThan(600);
    expect(result.violations).toBe(0);
    // The generated states reach what the fixed scenarios never do: stores of more than 20 orders, and empty ones.
    const sizes = result.cases.map((run) => Number(/^(\d+) order/.exec(run.description ?? '')?.[1]));
    expect(Math.max(...sizes)).toBeGreaterThan(20);
    expect(sizes).toContain(0);
  }, 120_000);
});

// The providers below are independent: their suites run at once (each waits on its own sockets and on
// Pact's verifier), the two tests of one provider one after the other, since they share its store.
describe.concurrent.each<[string, Switches]>([
  ['a list that silently pages after 8 orders', { pageAfter: 8 }],
  ['a cancel that hits the wrong order once the store holds more than 6', { wrongOrderAbove: 6 }],
  ['a state that leaks after 3 cancels: the 4th answers 204 and changes nothing', { leakAfterCancels: 3 }],
])('a provider with %s', (_, switches) => {
  let provider: Awaited<ReturnType<typeof startHostileProvider>>;
  let saved: string;
  beforeAll(async () => {
    provider = await startHostileProvider(switches);
    saved = await mkdtemp(join(directory, 'saved-'));
  });
  afterAll(() => provider.close());

  it.sequential('passes the pact and the fixed scenarios: they cannot reach the bug', async () => {
    const report = await runVerification({
      ...providerTarget(provider.origin),
      suites: ['pact', 'scenarios'],
      scenarios: (await import('../../core/scenario-files.js').then((module) => module.loadScenarios())).filter(
        (scenario) => !scenario.steps.some((step) => step.fault !== undefined),
      ),
      version: 'test',
    });
    // The fixed scenarios pass; only v2's walk, whose store of 23 orders is more than 8, sees v1's list page.
    const failed = report.suites.flatMap((suite) =>
      suite.cases.filter((result) => result.verdict !== 'passed').map((result) => result.name),
    );
    expect(failed).toEqual(switches.pageAfter === undefined ? [] : ["v1's list and v2's of one store"]);
  }, 120_000);

  it.sequential(
    'is caught by exploration, shrunk to a few steps, and saved as a scenario that replays it',
    async () => {
      const result = await explore({ ...providerTarget(provider.origin), runs: 100, save: saved, prism: false });
      expect(result.verdict).toBe('failed');
      expect(result.failure).toBeDefined();
      const steps = result.failure!.steps;
      expect(steps.length).toBeGreaterThanOrEqual(1);
      expect(steps.length).toBeLessThanOrEqual(4);
      expect(steps.map((step) => step.name)).toEqual(
        steps.map((_, index) => expect.stringMatching(new RegExp(`^${index + 1}\\. `))),
      );
      expect(steps.at(-1)!.violations.length).toBeGreaterThan(0);
      expect(steps.slice(0, -1).every((step) => step.violations.length === 0)).toBe(true);

      const [file] = await readdir(saved);
      expect(result.failure!.scenarioFile).toBe(join(saved, file!));
      const scenario = await loadScenarioFile(join(saved, file!));
      expect(scenario.state?.params.orders).toHaveLength(result.failure!.state.length);
      const againstProvider = await runVerification({
        ...providerTarget(provider.origin),
        suites: ['scenarios'],
        scenarios: [scenario],
        version: 'test',
        prism: false,
      });
      expect(againstProvider.exitCode).toBe(1);
      const againstMock = await runVerification({
        ...mockTarget(),
        suites: ['scenarios'],
        scenarios: [scenario],
        version: 'test',
        prism: false,
        strict: true,
      });
      expect(againstMock.exitCode).toBe(0);
    },
    slowExploration,
  );
});

describe.concurrent.each<[string, Switches]>([
  ['accepts any Bearer token that starts with the key', { keyPrefixMatch: true }],
  ['puts a cancelled order back into the list when a second cancel is refused', { relistOnSecondCancel: true }],
  ['keeps quantities in 32 bits', { int32Quantity: true }],
  ['serves the list at a trailing slash without asking for a key', { openTrailingSlash: true }],
])('exploration generates what catches a provider that %s', (_, switches) => {
  it('and shrinks the failure to a few steps', async () => {
    const provider = await startHostileProvider(switches);
    try {
      const result = await explore({ ...providerTarget(provider.origin), runs: 100, prism: false });
      expect(result.verdict).toBe('failed');
      expect(result.failure!.steps.length).toBeLessThanOrEqual(4);
    } finally {
      await provider.close();
    }
  });
});

describe('a race: cancels that are not atomic', () => {
  it(
    'is caught by a burst of cancels, and saved as a step with parallel: N that replays the race',
    async () => {
      const provider = await startHostileProvider({ nonAtomicCancel: true });
      const saved = await mkdtemp(join(directory, 'race-'));
      try {
        const result = await explore({ ...providerTarget(provider.origin), runs: 100, save: saved, prism: false });
        expect(findingMessage(result.failure!.steps.at(-1)!.violations[0]!)).toMatch(
          /^expected exactly one of \d cancels at once to be 204 and the others 404 or 409, as the model answers one after another, got 204, 204/,
        );
        const scenario = await loadScenarioFile(result.failure!.scenarioFile!);
        const race = scenario.steps.find((step) => 'parallel' in step && step.parallel !== undefined);
        expect(race).toMatchObject({ request: { method: 'DELETE' }, expect: { status: 204, others: [404, 409] } });
        const againstProvider = await runVerification({
          ...providerTarget(provider.origin),
          suites: ['scenarios'],
          scenarios: [scenario],
          version: 'test',
          prism: false,
        });
        expect(againstProvider.exitCode).toBe(1);
        const againstMock = await runVerification({
          ...mockTarget(),
          suites: ['scenarios'],
          scenarios: [scenario],
          version: 'test',
          prism: false,
        });
        expect(againstMock.exitCode).toBe(0);
      } finally {
        await provider.close();
      }
    },
    slowExploration,
  );
});

describe('petstore-verify explore', () => {
  it('prints the seed, a line a run, and exits 0 when nothing differs', async () => {
    const exit = await runVerifyInProcess([
      'explore',
      '--base-url',
      `${mock.origin}/v1`,
      '--api-key',
      'petstore-dev-key',
      '--state-url',
      `${mock.origin}/__mock/provider-state`,
      '--runs',
      '20',
      '--seed',
      '7',
    ]);
    expect(exit.stdout.startsWith('explore: 20 runs, seed 7 (the same seed replays them: --seed 7)\n')).toBe(true);
    // A line a run: passed, or skipped when the run generated no command and sent nothing. How many of
    // seed 7's runs are empty depends on the commands the route table gives exploration, so it is counted.
    const lines = exit.stdout.split('\n');
    const passed = lines.filter((line) => /^✓ explore › run \d+ \(\d+ orders?, [1-9]\d* steps?\)$/.test(line));
    const skipped = lines.filter((line) =>
      /^- skipped explore › run \d+ \(\d+ orders?, 0 steps\): no command was generated: the run sent nothing$/.test(
        line,
      ),
    );
    expect(passed.length + skipped.length).toBe(20);
    expect(exit.stdout).toMatch(
      new RegExp(
        `\\nexplore: ${passed.length} passed, 0 failed, ${skipped.length} skipped \\(runs; \\d+ checks, 0 violations, 0 warnings, [\\d.]+ s, seed 7, `,
      ),
    );
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
  });

  it('prints the shrunk sequence as numbered steps, saves it, and exits 1 when the provider differs', async () => {
    const provider = await startHostileProvider({ refuseNegativeIds: true });
    const saved = join(directory, 'cli-saved');
    try {
      const exit = await runVerifyInProcess([
        'explore',
        ...provider.args,
        '--save',
        saved,
        '--junit',
        join(directory, 'explore.xml'),
      ]);
      // What is found, not one seed's shrunk output: one step, a small state, a negative id refused
      // with 404 where the model cancels it (whichever command the seed's shrinking ends at).
      expect(exit.stdout).toMatch(
        /\n✗ explore › run (\d+), shrunk \(shrunk \d+ times to 1 step; saved as .*explore-20261123-run-\1\.yaml(; runs? \d+ (to 100 were|was) not made: exploration stops at its first difference)?\)\n {4}state: \d orders? in the state: \[.*\]\n/,
      );
      // The runs after the failing one, up to the command's 100, are named as not made.
      const failedRun = Number(/\n✗ explore › run (\d+), shrunk/.exec(exit.stdout)?.[1]);
      expect(failedRun).toBeLessThan(99);
      expect(exit.stdout).toContain(
        `; runs ${failedRun + 1} to 100 were not made: exploration stops at its first difference)`,
      );
      expect(exit.stdout).toMatch(
        /\n {6}explore › run \d+, shrunk › 1\. [^\n]*-\d+[^\n]*: expected [^\n]*204[^\n]*, got (404|[^\n]*404)[^\n]* \(at status\) \[status-unexpected\]\n/,
      );
      expect(exit.stdout).toMatch(/\nverdict: failed \(exit 1; /);
      expect(exit.code).toBe(1);
      expect(await readdir(saved)).toHaveLength(1);
      expect(await readFile(join(directory, 'explore.xml'), 'utf8')).toMatch(
        /<testsuite name="explore › run \d+, shrunk" tests="\d" failures="1"/,
      );
    } finally {
      await provider.close();
    }
  });

  it('gives the same runs and the same report for the same seed', async () => {
    const provider = await startHostileProvider({ refuseNegativeIds: true });
    try {
      // The first run is the command in a process of its own, the second in this process: the same
      // report shows that neither the process nor what ran before in it changes the runs.
      const report = async (name: string, how: 'command' | 'in process') => {
        const file = join(directory, name);
        const args = ['explore', ...provider.args, '--seed', '99', '--runs', '60', '--no-prism', '--json', file];
        if (how === 'command') await runToExit(process.execPath, [verifyCli, ...args]);
        else await runVerifyInProcess(args);
        // What differs between two runs and is not the exploration: times.
        return (await readFile(file, 'utf8')).replace(/"(durationMs|startedAt)":("[^"]*"|[\d.e+-]+)/g, '"$1":0');
      };
      const first = await report('first.json', 'command');
      const second = await report('second.json', 'in process');
      // The runs up to the failure, and its shrunk sequence: shrinking replays exactly too.
      expect((parseJson(first) as { suites: { cases: { name: string }[] }[] }).suites[0]!.cases.at(-1)!.name).toMatch(
        /^run \d+, shrunk$/,
      );
      expect(second).toBe(first);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it.each([
    [['--runs', '0'], 'petstore-verify: --runs must be an integer from 1 to 100000, got "0" (see --help)\n'],
    [['--seed', 'soon'], 'petstore-verify: --seed must be an integer from 0 to 2147483647, got "soon" (see --help)\n'],
    [['--suite', 'scenarios'], 'petstore-verify: petstore-verify explore takes no --suite (see --help)\n'],
    [['--scenario', 'list-orders'], 'petstore-verify: petstore-verify explore takes no --scenario (see --help)\n'],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const exit = await runVerifyInProcess([
      'explore',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      'k',
      '--state-url',
      'http://127.0.0.1:9/s',
      ...args,
    ]);
    expect(exit.stderr).toBe(message);
    expect(exit.code).toBe(2);
  });

  it('needs --state-url, and exits 2 when the target cannot be reached', async () => {
    const withoutState = await runVerifyInProcess(['explore', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k']);
    expect(withoutState.stderr).toBe(
      'petstore-verify: exploration needs --state-url: every run sets a generated provider state (see --help)\n',
    );
    expect(withoutState.code).toBe(2);
    const unreachable = await runVerifyInProcess([
      'explore',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      'k',
      '--state-url',
      'http://127.0.0.1:9/s',
    ]);
    expect(unreachable.stderr).toBe(
      'petstore-verify: the base URL does not answer: GET http://127.0.0.1:9/v1/store/orders: cannot reach http://127.0.0.1:9/v1/store/orders: ECONNREFUSED; check --base-url\n',
    );
    expect(unreachable.code).toBe(2);
  });
});

describe('scenarios saved by exploration, in the other tools', () => {
  it('run with petstore-verify --scenarios DIR, and load in petstore-mock --scenarios DIR', async () => {
    const provider = await startHostileProvider({ refuseNegativeIds: true });
    const saved = join(directory, 'replay');
    try {
      await explore({ ...providerTarget(provider.origin), runs: 50, save: saved, prism: false });
      const [file] = await readdir(saved);
      const name = file!.replace(/\.yaml$/, '');
      const replay = await runVerifyInProcess(['--scenarios', saved, ...provider.args, '--suite', 'scenarios']);
      expect(replay.stdout).toMatch(new RegExp(`(^|\\n)✗ ${name} › 1\\. `));
      expect(replay.code).toBe(1);
      const started = await startCommand(process.execPath, [
        mockCli,
        '--port',
        '0',
        '--scenarios',
        saved,
        '--scenario',
        name,
      ]);
      try {
        const against = await runVerifyInProcess([
          '--scenarios',
          saved,
          '--base-url',
          started.baseUrl,
          '--api-key',
          'petstore-dev-key',
          '--state-url',
          `${started.origin}/__mock/provider-state`,
          '--suite',
          'scenarios',
        ]);
        expect(against.code).toBe(0);
        const loaded = await fetch(`${started.origin}/__mock/scenarios/${name}`, { method: 'POST' });
        expect(loaded.status).toBe(200);
      } finally {
        await started.stop();
      }
    } finally {
      await provider.close();
    }
  }, 120_000);
});

describe('petstore-verify explore --help and --version', () => {
  it('ends its help with what explore exits with (no suite, no "preflight (before any suite)"), and lists --version', async () => {
    const help = await runToExit(process.execPath, [verifyCli, 'explore', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).not.toContain('before any suite');
    expect(help.stdout).toContain('the setup is wrong before the\nfirst run');
    expect(help.stdout).toContain('  --version             print the version\n');
  });

  it('prints the version and exits 0, as petstore-verify --version does', async () => {
    const packageJson = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const [explored, main] = await Promise.all([
      runToExit(process.execPath, [verifyCli, 'explore', '--version']),
      runToExit(process.execPath, [verifyCli, '--version']),
    ]);
    expect(explored).toMatchObject({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    expect(main).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
  });
});
