// The exploration's speed against the kit's own mock: explored steps a second, beside the raw rate of
// the very same requests (state changes included) sent one after another with the same HTTP client
// and no checks, no model, no Prism. Used by bench/run.mjs; `node bench/explore.mjs` runs it alone.
import { explore } from '../dist/verify/explore/explore.js';
import { observe } from '../dist/verify/http/observe.js';
import { loadPrismOracle } from '../dist/verify/base/prism.js';
import { median, startMock } from './support.mjs';

/**
 * Runs `rounds` explorations of `runs` runs against a fresh mock, each followed by the replay of its
 * recorded requests without checks, and gives the medians. The one-time start-up (loading Prism and
 * the modules, the first runs while the JIT warms) is measured apart, and the steady rate after it.
 */
export async function measureExploration({ runs = 300, rounds = 3 } = {}) {
  const measured = [];
  const startupBegan = performance.now();
  await loadPrismOracle();
  const prismLoadMs = performance.now() - startupBegan;
  for (let round = 0; round < rounds; round++) {
    const mock = await startMock();
    const requests = [];
    const target = {
      baseUrl: `${mock.origin}/v1`,
      apiKey: 'petstore-dev-key',
      stateUrl: `${mock.origin}/__mock/provider-state`,
    };
    await explore({ ...target, runs: 20, seed: 1 });
    const began = performance.now();
    const result = await explore({
      ...target,
      runs,
      seed: 20261123 + round,
      onRequest: (url, init) => requests.push([url, init]),
    });
    const exploreMs = performance.now() - began;
    if (result.violations > 0)
      throw new Error(`the mock failed its own exploration: ${JSON.stringify(result.failure?.steps.at(-1))}`);
    const replayBegan = performance.now();
    for (const [url, init] of requests) await observe(url, init);
    const rawMs = performance.now() - replayBegan;
    measured.push({ steps: result.checks, requests: requests.length, exploreMs, rawMs });
    await mock.stop();
  }
  const exploreMs = median(measured.map((m) => m.exploreMs));
  const rawMs = median(measured.map((m) => m.rawMs));
  const steps = median(measured.map((m) => m.steps));
  const requests = median(measured.map((m) => m.requests));
  return {
    runs,
    rounds,
    steps,
    requests,
    exploreMs,
    rawMs,
    prismLoadMs,
    stepsPerSecond: (steps / exploreMs) * 1000,
    rawRequestsPerSecond: (requests / rawMs) * 1000,
    ratio: rawMs / exploreMs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureExploration());
