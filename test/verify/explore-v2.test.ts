// Exploration walks v2's list (verify/explore/walk-v2-list.ts): a generated status filter and limit over
// a generated store, each walk judged against the model's store. Each v2 defect of the independent
// provider is caught and named by its rule; the honest provider and its honest variations pass.
import { describe, expect, it } from 'vitest';
import { explore } from '../../verify/explore/explore.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';

async function exploreHostile(switches: Switches) {
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
