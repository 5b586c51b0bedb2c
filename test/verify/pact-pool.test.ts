// Pact's verifier processes are kept and reused (verify/pact/pact-verifier-pool.ts): what a fresh process
// would give must still hold, and a process that crashed or was stopped is never used again.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { verifyPact, type PactVerifyOptions } from '../../verify/pact/pact.js';
import { closeIdleVerifiers, pactVerifierProcesses } from '../../verify/pact/pact-verifier-pool.js';
import type { SuiteResult } from '../../verify/base/results.js';
import { runPactChild } from '../../verify/pact/run-pact-child.js';
import { json, startBrokenProvider } from '../support/broken-provider.js';
import { projectRoot, runToExit } from '../support/cli-support.js';
import { listenLocally, startServer, type LocalServer } from '../support/support.js';

const slow = { timeout: 120_000 };

/** A suite's result without its timings: what must be the same from any process. */
function withoutTimings(suite: SuiteResult): unknown {
  return JSON.parse(JSON.stringify(suite, (key, value) => (key === 'durationMs' ? undefined : value)));
}

/** Whether a process has ended (a zombie not yet reaped by its new parent has ended too). */
function ended(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The verifier's options against a provider that takes every request and never answers. */
const hangingOptions = (origin: string) => ({
  provider: 'petstore-order-interface',
  providerBaseUrl: origin,
  providerStatesSetupUrl: `${origin}/state`,
  logLevel: 'error',
  timeout: 60_000,
  pactUrls: [shippedPactFile],
});

describe("Pact's verifier processes are reused, with the results of a fresh one", slow, () => {
  let mock: Awaited<ReturnType<typeof startServer>>;
  let options: PactVerifyOptions;
  /** The results of a verification in a process of its own, and that process, kept idle after it. */
  let fresh: SuiteResult;
  let pid: number | undefined;
  beforeAll(async () => {
    mock = await startServer();
    options = {
      baseUrl: `${mock.origin}/v1`,
      apiKey: 'petstore-dev-key',
      stateUrl: `${mock.origin}/__mock/provider-state`,
    };
    closeIdleVerifiers();
    fresh = await verifyPact(options);
    [pid] = pactVerifierProcesses().idle;
  });
  afterAll(async () => {
    closeIdleVerifiers();
    await mock.close();
  });

  it('gives the same results again from the same process', async () => {
    expect(fresh.verdict).toBe('passed');
    const again = await verifyPact(options);
    expect(pactVerifierProcesses().idle).toEqual([pid]);
    expect(withoutTimings(again)).toEqual(withoutTimings(fresh));
  });

  it("gives a fresh process's results after a failing, filtered verification in the same process", async () => {
    const broken = await startBrokenProvider(async (request, response) =>
      request.method === 'GET' ? json([{ id: '1' }], 200) : response,
    );
    try {
      const failing = await verifyPact({
        ...options,
        baseUrl: `${broken.origin}/v1`,
        stateUrl: `${broken.origin}/__mock/provider-state`,
        onlyScenarios: ['list-orders'],
      });
      expect(failing.verdict).toBe('failed');
      expect(failing.cases.length).toBeLessThan(fresh.cases.length);
    } finally {
      await broken.close();
    }
    expect(pactVerifierProcesses().idle).toEqual([pid]);
    const after = await verifyPact(options);
    expect(pactVerifierProcesses().idle).toEqual([pid]);
    expect(withoutTimings(after)).toEqual(withoutTimings(fresh));
  });

  it('takes another process for a verification that starts while one runs', async () => {
    // A mock of its own for each: the two verifications' provider states must not meet.
    const other = await startServer();
    try {
      const both = await Promise.all([
        verifyPact(options),
        verifyPact({ ...options, baseUrl: `${other.origin}/v1`, stateUrl: `${other.origin}/__mock/provider-state` }),
      ]);
      expect(both.map((suite) => suite.verdict)).toEqual(['passed', 'passed']);
      const { idle } = pactVerifierProcesses();
      expect(new Set(idle).size).toBe(2);
      expect(idle).toContain(pid);
    } finally {
      await other.close();
    }
  });
});

describe('a verifier process that crashed or was stopped is never used again', slow, () => {
  let silent: LocalServer;
  let requests = 0;
  beforeAll(async () => {
    silent = await listenLocally(() => {
      requests += 1;
    });
  });
  afterAll(async () => {
    closeIdleVerifiers();
    await silent.close();
  });

  /** Starts a verification against the silent provider, and waits until it is waiting on it. */
  async function hungVerification() {
    const before = requests;
    const run = runPactChild({
      options: hangingOptions(silent.origin),
      deadline: undefined,
      descriptionFilter: undefined,
      loopbackOnly: true,
    });
    await until(() => requests > before);
    const [pid] = pactVerifierProcesses().busy;
    return { run, pid: pid as number };
  }

  it('stops a hung verifier with the reason in one line, and kills its process', async () => {
    const { run, pid } = await hungVerification();
    run.stop('the test stopped it');
    expect(await run.outcome).toEqual({ crash: "Pact's verifier was stopped: the test stopped it" });
    expect(ended(pid)).toBe(true);
    expect(pactVerifierProcesses().idle).not.toContain(pid);
  });

  it("stops a verifier at its deadline with the run's wording", async () => {
    const run = runPactChild({
      options: hangingOptions(silent.origin),
      deadline: Date.now(),
      descriptionFilter: undefined,
      loopbackOnly: true,
    });
    expect(await run.outcome).toEqual({ crash: "Pact's verifier was stopped: the run passed its deadline" });
    expect(pactVerifierProcesses()).toEqual({ idle: [], busy: [] });
  });

  it('reports a verifier process that died as ending without a verdict, and does not reuse it', async () => {
    const { run, pid } = await hungVerification();
    process.kill(pid, 'SIGTERM');
    expect(await run.outcome).toEqual({ crash: "Pact's verifier ended without a verdict (exit SIGTERM)" });
    expect(pactVerifierProcesses()).toEqual({ idle: [], busy: [] });
  });

  it('reports a verifier that could not run in one line, and does not reuse its process', async () => {
    const run = runPactChild({
      options: { provider: 'petstore-order-interface' },
      deadline: undefined,
      descriptionFilter: undefined,
      loopbackOnly: true,
    });
    expect(await run.outcome).toEqual({
      crash: expect.stringMatching(/^Pact's verifier could not run: [^\n]+$/),
      notRun: true,
    });
    expect(pactVerifierProcesses()).toEqual({ idle: [], busy: [] });
  });
});

describe('an idle verifier process neither keeps its parent alive nor outlives it', slow, () => {
  let mock: Awaited<ReturnType<typeof startServer>>;
  let folder: string;
  beforeAll(async () => {
    mock = await startServer();
    folder = await mkdtemp(join(tmpdir(), 'petstore-pact-pool-'));
  });
  afterAll(async () => {
    await mock.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** A program that verifies the pact with the built package, prints the idle verifiers, then `then`. */
  async function verifyingProgram(then: string): Promise<string> {
    const file = join(folder, `verify-${Math.random().toString(36).slice(2)}.mjs`);
    const dist = (path: string) => JSON.stringify(join(projectRoot, 'dist', path));
    await writeFile(
      file,
      [
        `import { verifyPact } from ${dist('verify/pact/pact.js')};`,
        `import { pactVerifierProcesses } from ${dist('verify/pact/pact-verifier-pool.js')};`,
        `const suite = await verifyPact(${JSON.stringify({
          baseUrl: `${mock.origin}/v1`,
          apiKey: 'petstore-dev-key',
          stateUrl: `${mock.origin}/__mock/provider-state`,
        })});`,
        `console.log(JSON.stringify({ verdict: suite.verdict, idle: pactVerifierProcesses().idle }));`,
        then,
      ].join('\n'),
    );
    return file;
  }

  it('lets a program that verified end by itself while its verifier waits, and the verifier ends with it', async () => {
    // Printed as the program ends: a verifier still idle then did not hold it (nor did the idle
    // timer end it first); the same verifier ends once its parent is gone (its IPC channel closes).
    const atExit = `process.on('exit', () => console.log(JSON.stringify(pactVerifierProcesses().idle)));`;
    const exit = await runToExit(process.execPath, [await verifyingProgram(atExit)], { timeout: 110_000 });
    expect(exit.signal).toBe(null);
    expect(exit.code).toBe(0);
    const [verified, idleAtExit] = exit.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(verified.verdict).toBe('passed');
    expect(verified.idle).toHaveLength(1);
    expect(idleAtExit).toEqual(verified.idle);
    await until(() => (verified.idle as number[]).every(ended));
  });
});
