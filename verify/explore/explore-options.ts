// How to explore a provider, apart from the runs (explore.ts): the target that every command runs
// against holds these options, and explore.ts imports the commands.
import type { CaseResult, CheckedExchange } from '../base/results.js';
import type { TargetOptions } from '../provider/run.js';

/**
 * How to explore a provider.
 * @example
 * const options: ExploreOptions = { baseUrl: 'http://127.0.0.1:4010/v1', apiKey: developmentApiKey,
 *   stateUrl: 'http://127.0.0.1:4010/__mock/provider-state', runs: 25 };
 */
export interface ExploreOptions extends TargetOptions {
  /** Where Pact's state changes go: every run sets a generated state. */
  stateUrl: string;
  /** How many generated runs (a state and a sequence of commands each). Default: 100. */
  runs?: number;
  /** The seed of the generation: a run replays exactly with the same seed. Default: `defaultExplorationSeed`. */
  seed?: number;
  /** The most commands in one run. Default: 12. */
  maxSteps?: number;
  /** Write the shrunk failure, if any, as a scenario file in this folder. */
  save?: string;
  /** Called after every run, and once with the shrunk failure. */
  onRun?: (result: CaseResult) => void;
  /**
   * Whether the violations of the last of these steps are all known (a baseline's,
   * `KnownFailures.knowsLastStep`; every one, in a run that writes a baseline): the run then ends
   * there, set apart as passed with its known failures, and the exploration goes on with the other
   * runs, where a new difference still fails it. Without it, any difference stops the exploration and
   * is shrunk.
   */
  setAside?: (steps: readonly CheckedExchange[]) => boolean;
  /** The stability markers whose operations the run leaves out (`--leave-out-beta`): v2's list is then not walked. */
  leaveOut?: readonly string[];
}
