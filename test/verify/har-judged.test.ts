// petstore-verify har judges every entry of the interface on what it shows (issue 58, items 1-3): an
// answer whose body the page never read by its status and headers, a near path by the rule
// near-path-refusals, and an inferred state that never holds an order no answer showed. Each minimal HAR
// is judged with and without --from-scenario, saved, and replayed red on the provider that produced it
// and green on the kit's honest mock.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../core/scenario-files.js';
import type { ContractStep } from '../../core/scenario.js';
import { isCancel, json as jsonResponse, startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { authorized, developmentKey, startServer } from '../support/support.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-judged-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const json = { 'content-type': 'application/json' };
const verifyHar = (args: string[]) => runVerifyInProcess(['har', ...args, '--no-prism']);
/** Writes a Chrome HAR; the entries at `cutOff` get Chromium's `_failureText` of an answer cut off after its status. */
async function har(name: string, exchanges: readonly HarExchangeSpec[], cutOff: readonly number[] = []) {
  const file = await writeHar(join(directory, name), exchanges, { browser: 'chrome' });
  const parsed = JSON.parse(await readFile(file, 'utf8'));
  for (const index of cutOff) parsed.log.entries[index].response._failureText = 'net::ERR_ABORTED';
  await writeFile(file, JSON.stringify(parsed));
  return file;
}

/** Judges `exchanges` (from `state` when given), saves them as `name`, and returns the run and the saved steps. */
async function judgedAndSaved(
  name: string,
  exchanges: readonly HarExchangeSpec[],
  options: { state?: string | undefined; cutOff?: number[] } = {},
) {
  const { state, cutOff } = options;
  const file = await har(`${name}.har`, exchanges, cutOff);
  const saved = join(directory, 'saved');
  const run = await verifyHar([
    file,
    ...(state === undefined ? [] : ['--from-scenario', state]),
    '--save',
    saved,
    '--name',
    name,
  ]);
  const scenario = (await loadScenarios({ directory: saved })).find((loaded) => loaded.name === name)!;
  return { run, saved, scenario, steps: scenario.steps as ContractStep[] };
}

/** The exit codes of the saved scenario replayed on a provider broken by `fault`, then on the kit's honest mock. */
async function replayed(saved: string, name: string, fault: Fault): Promise<[number, number]> {
  const replay = (origin: string) =>
    runVerifyInProcess([
      '--scenarios',
      saved,
      '--scenario',
      name,
      '--base-url',
      `${origin}/v1`,
      '--api-key',
      developmentKey,
      '--state-url',
      `${origin}/__mock/provider-state`,
      '--no-prism',
    ]);
  const broken = await startBrokenProvider(fault);
  let red: number;
  try {
    red = (await replay(broken.origin)).code;
  } finally {
    await broken.close();
  }
  const honest = await startServer();
  try {
    return [red, (await replay(honest.origin)).code];
  } finally {
    await honest.close();
  }
}

const twoOrders = '[{"id":1,"petId":101,"quantity":1},{"id":2,"petId":102,"quantity":1}]';
const listOf = (body: string, at: number): HarExchangeSpec => ({
  url: `${base}/store/orders`,
  status: 200,
  requestHeaders: authorized,
  responseHeaders: json,
  body,
  at,
});

describe('an answer the page never read is judged by its status and headers', () => {
  // Chromium's record of a cancel answered 200 whose body the app ignored: its status, no body.
  const unreadCancel = (status: number): HarExchangeSpec => ({
    method: 'DELETE',
    url: `${base}/store/orders/1`,
    status,
    requestHeaders: authorized,
    responseHeaders: json,
    content: { size: -1, mimeType: 'application/json' },
    at: 100,
  });
  const unreadHar = (status: number): HarExchangeSpec[] => [
    listOf(twoOrders, 0),
    unreadCancel(status),
    listOf('[{"id":2,"petId":102,"quantity":1}]', 200),
  ];
  // The provider that produced it: a cancel answers 200 with the order instead of 204.
  const answers200: Fault = (request, response) =>
    isCancel(request) && response.status === 204 ? jsonResponse({ id: 1 }, 200) : response;

  it.each([
    ['without --from-scenario', undefined],
    ['from scenario cancel-pending-order', 'cancel-pending-order'],
  ])('holds the 200 against the specification and the contract on its own step, %s, and saves it', async (_, state) => {
    const { run, saved, steps } = await judgedAndSaved('unread-200', unreadHar(200), { state, cutOff: [1] });
    const lines = run.stdout.split('\n');
    expect(lines).toContain(
      `✗ #2 DELETE ${base}/store/orders/1 → 200 (judged on its status and headers only: its answer was cut off after its status (aborted: net::ERR_ABORTED): its body is not in the HAR)`,
    );
    expect(lines).toContain(
      "✗ contract: 2. cancel order 1: the contract requires status 204, the HAR's answer was 200 [status-unexpected]",
    );
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(steps.map((step) => [step.name, step.expect.status, step.recorded?.status])).toEqual([
      ['1. list the orders', 200, 200],
      ['2. cancel order 1', 204, 200],
      ['3. list the orders', 200, 200],
    ]);
    expect(await replayed(saved, 'unread-200', answers200)).toEqual([1, 0]);
  });

  it('passes an unread 204 whose answer was cut off after its status', async () => {
    const file = await har('unread-204.har', unreadHar(204), [1]);
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      `· #2 DELETE ${base}/store/orders/1 → 204 (judged on its status and headers only: its answer was cut off after its status (aborted: net::ERR_ABORTED): its body is not in the HAR)`,
    );
    expect(run.code).toBe(0);
  });
});

