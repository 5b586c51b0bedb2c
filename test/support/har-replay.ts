// A scenario that `petstore-verify har --save` (or the proxy's --record) wrote, replayed as a tester
// replays it: on a provider, its state set through the provider's state URL (the kit's mock's, here).
import { startBrokenProvider, type Fault } from './broken-provider.js';
import { runVerifyInProcess } from './cli-support.js';
import { developmentKey, startServer } from './support.js';

/** A saved scenario: the folder it was saved to, and its name. */
export interface SavedScenario {
  saved: string;
  name: string;
}

/**
 * The run of the saved scenario replayed on the provider at `origin` (its API under `/v1`).
 * @example
 * (await replaySaved({ saved, name: 'near-200', origin: mock.origin })).code // 0 on an honest provider
 */
export function replaySaved({ saved, name, origin }: SavedScenario & { origin: string }) {
  return runVerifyInProcess([
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
}

/**
 * The exit code of the saved scenario replayed on the kit's mock broken by `fault`.
 * @example
 * await replayedOnBroken({ saved, name, fault: answers200 }) // 1: the bug replays
 */
export async function replayedOnBroken({
  fault,
  ...scenario
}: SavedScenario & { fault: Fault }): Promise<number | null> {
  const broken = await startBrokenProvider(fault);
  try {
    return (await replaySaved({ ...scenario, origin: broken.origin })).code;
  } finally {
    await broken.close();
  }
}

/**
 * The exit code of the saved scenario replayed on the kit's honest mock.
 * @example
 * await replayedOnMock({ saved, name }) // 0
 */
export async function replayedOnMock(scenario: SavedScenario): Promise<number | null> {
  const honest = await startServer();
  try {
    return (await replaySaved({ ...scenario, origin: honest.origin })).code;
  } finally {
    await honest.close();
  }
}

/**
 * The exit codes of the saved scenario replayed on the provider broken by `fault` (that produced the
 * HAR), then on the kit's honest mock: `[1, 0]` when the file keeps the bug and blames no honest provider.
 * @example
 * expect(await replayedRedAndGreen({ saved, name: 'unread-200', fault: answers200 })).toEqual([1, 0]);
 */
export async function replayedRedAndGreen(
  scenario: SavedScenario & { fault: Fault },
): Promise<[number | null, number | null]> {
  return [await replayedOnBroken(scenario), await replayedOnMock(scenario)];
}
