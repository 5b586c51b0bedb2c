// Exploration walks v2's list (verify/explore/walk-v2-list.ts): a generated status filter and limit over
// a generated store, each walk judged against the model's store. Each v2 defect of the independent
// provider is caught and named by its rule; the honest provider and its honest variations pass. A
// shrunk failure's walk is saved as steps, one a page, that follow the provider's cursor: the saved
// scenario replays red on the broken provider and green on an honest one (spec gap 62).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../core/scenario-files.js';
import { explore } from '../../verify/explore/explore.js';
import { verify } from '../../verify/provider/run.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';

async function exploreHostile(switches: Switches, save?: string) {
  const provider = await startHostileProvider(switches);
  try {
    return await explore({
      baseUrl: `${provider.origin}/v1`,
      apiKey: hostileKey,
      stateUrl: `${provider.origin}/__state`,
      runs: 30,
      // Short runs: a walk needs no history, and a short run shrinks fast.
      maxSteps: 4,
      prism: false,
      ...(save !== undefined && { save }),
    });
  } finally {
    await provider.close();
  }
}

async function replayOnHostile(switches: Switches, file: string) {
  const provider = await startHostileProvider(switches);
  try {
    return await verify({
      baseUrl: `${provider.origin}/v1`,
      apiKey: hostileKey,
      stateUrl: `${provider.origin}/__state`,
      scenarios: [await loadScenarioFile(file)],
      prism: false,
    });
  } finally {
    await provider.close();
  }
}

describe.concurrent.each<[string, Switches, string]>([
  ['whose filter ignores status', { v2FilterIgnoresStatus: true }, 'filter-ignored'],
  ['whose limit is off by one', { v2LimitOffByOne: true }, 'page-over-limit'],
  ['whose cursor repeats an order', { v2CursorRepeats: true }, 'page-repeats-order'],
  ['whose cursor skips an order', { v2CursorSkips: true }, 'page-skips-order'],
  // Shrunk to two ids past 2^53 that round to one: the second comes back as the first, given again.
  ['whose v2 rounds ids past 2^53', { v2RoundsIds: true }, 'page-repeats-order'],
])('exploration catches a provider %s', (_, switches, code) => {
  it(`with a walk of v2's list that breaks ${code}`, async () => {
    const result = await exploreHostile(switches);
    expect(result.verdict).toBe('failed');
    const last = result.failure!.steps.at(-1)!;
    expect(last.name).toMatch(/^\d+\. walk v2's list: /);
    expect(last.violations.map((finding) => finding.code)).toContain(code);
  });
});

describe.concurrent.each<[string, Switches]>([
  ['an honest provider', {}],
  ['cursors of another format', { v2OffsetCursor: true }],
  ['an empty last page after a full one', { v2EmptyLastPage: true }],
])("exploration's walks of v2's list pass %s", (_, switches) => {
  it('over 30 runs', async () => {
    const result = await exploreHostile(switches);
    expect(result.failure?.steps.map((step) => step.violations)).toBeUndefined();
    expect(result.verdict).toBe('passed');
  });
});

describe("exploration's shrunk failure with a walk of v2's list, saved", () => {
  it('is saved as steps with base and query, one a page, and replays red on the provider and green on honest ones', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'petstore-explore-v2-'));
    try {
      const result = await exploreHostile({ v2CursorSkips: true }, folder);
      const file = result.failure!.scenarioFile!;
      const walked = result.failure!.scenario.steps.filter((step) => step.request.base === '/v2');
      expect(walked.length).toBeGreaterThan(0);
      expect(walked.map((step) => [step.request.path, step.request.cursor ?? 'first', step.expect])).toEqual(
        walked.map((_, index) => [
          '/store/orders',
          walked[index]!.name.endsWith(', page 1') ? 'first' : 'follow',
          { status: 200, body: { schema: 'OrderPage' } },
        ]),
      );
      const red = await replayOnHostile({ v2CursorSkips: true }, file);
      expect(red.cases[0]!.exchanges.flatMap((exchange) => exchange.violations.map((finding) => finding.code))).toEqual(
        ['page-skips-order'],
      );
      for (const honest of [{}, { v2OffsetCursor: true }, { v2EmptyLastPage: true }] as Switches[]) {
        const green = await replayOnHostile(honest, file);
        expect(green.cases[0]!.exchanges.flatMap((exchange) => exchange.violations)).toEqual([]);
        expect(green.cases[0]!.verdict).toBe('passed');
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
