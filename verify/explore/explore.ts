// Exploration: generated provider states and command sequences, sent to a provider and to the kit's mock as
// model, every answer compared; a difference is shrunk and can be saved as a scenario (`explore`).
import { majorBase } from '../../core/major-base.js';
import { routeOf } from '../../core/routes.js';
import { stringifyJson } from '../../core/stringify-json.js';
import type { OrderInput } from '../../core/provider-state.js';
import { ProviderHistory } from '../../core/compare.js';
import { FileError } from '../../core/file-error.js';
import { saveScenarioFile } from '../scenario/save-scenario-file.js';
import { InterfaceModel } from '../../mocks/pipeline/interface-model.js';
import { TargetUnreachable } from '../http/observe.js';
import { loadPrismOracle } from '../base/prism.js';
import type { PrismOracle } from '../../core/second-oracle.js';
import {
  caseVerdict,
  findingsOnlyExchange,
  tallySuite,
  type CaseResult,
  type CheckedExchange,
  type SuiteResult,
} from '../base/results.js';
import { changeProviderState, RunStopped, stoppedExchange } from '../provider/run.js';
import type { ExploreOptions } from './explore-options.js';
import { arbitraries, loadFastCheck } from './arbitraries.js';
import { KnownMismatch, Mismatch, type ExplorationTarget } from './exploration.js';
import { unnumbered } from './judged-call.js';
import { ExplorationLog } from './exploration-log.js';
import { savedScenario, toYaml, type SavedScenario } from './saved-scenario.js';
import type { FastCheck } from './arbitraries.js';
import type { ExplorationCommand } from './commands.js';
import type { ExploredFailure } from './exploration-log.js';

// Their own modules, so that what explore.ts imports need not import it back; named here too, as before.
export type { ExploreOptions, SavedScenario };

/** The seed an exploration uses unless told otherwise: the same sequences in every CI run. */
export const defaultExplorationSeed = 20261123;

/** What decides which runs an exploration makes: with the same, the same runs (run N is the same whatever `runs`). */
export interface ExplorationSettings {
  seed: number;
  runs: number;
  maxSteps: number;
}

/**
 * The seed, runs and steps an exploration with these options makes, the defaults filled in.
 * @example
 * explorationSettings({ runs: 25 }) // { seed: 20261123, runs: 25, maxSteps: 12 }
 */
export function explorationSettings(
  options: Pick<ExploreOptions, 'seed' | 'runs' | 'maxSteps'> = {},
): ExplorationSettings {
  return { seed: options.seed ?? defaultExplorationSeed, runs: options.runs ?? 100, maxSteps: options.maxSteps ?? 12 };
}

/** The outcome of an exploration: the suite's results, and the shrunk failure when there is one. */
export interface ExplorationResult extends SuiteResult {
  seed: number;
  /** The shrunk failure: its state, its numbered steps, and where its scenario file was saved. */
  failure?: {
    run: number;
    state: OrderInput[];
    steps: CheckedExchange[];
    scenarioFile?: string;
    scenario: SavedScenario;
  };
}

/**
 * One run of the property: sets the generated state on the target and in the model, runs the commands
 * against both, and tears the state down. A difference (or a state that cannot be set) is logged and
 * thrown for fast-check to shrink; a target that stopped answering aborts the exploration.
 */
async function exploreRun(
  run: { options: ExploreOptions; prism: PrismOracle | undefined; log: ExplorationLog; fc: FastCheck },
  state: OrderInput[],
  commands: Iterable<ExplorationCommand>,
): Promise<void> {
  const { options, prism, log, fc } = run;
  if (log.aborted !== undefined) return;
  const target: ExplorationTarget = { options, prism, history: new ProviderHistory(), steps: [], saved: [] };
  try {
    await changeProviderState(options, state, 'setup');
    const mock = await InterfaceModel.seeded(state);
    await fc.asyncModelRun(async () => ({ model: { mock, orders: await mock.orders() }, real: target }), commands);
    log.passed(state, target.steps);
  } catch (error) {
    if (error instanceof KnownMismatch) {
      log.passed(state, target.steps);
      return;
    }
    if (error instanceof TargetUnreachable || error instanceof RunStopped) {
      log.aborted = error;
      return;
    }
    if (!(error instanceof Mismatch)) {
      // The state could not be set, or something else went wrong: a failure like any other, with its reason.
      target.steps.push(
        findingsOnlyExchange(`${target.steps.length + 1}. ${(error as Error).message}`, [
          {
            code: 'exploration',
            path: '',
            expected: 'the run to set its state and replay',
            actual: (error as Error).message,
          },
        ]),
      );
    }
    log.failed({ state, steps: target.steps, saved: target.saved });
    throw error;
  } finally {
    await changeProviderState(options, [], 'teardown').catch(() => undefined);
  }
}

/** What a difference left undone: the runs after it, which `--runs` asked for and exploration never made. */
function runsNotMade(failedRun: number, runs: number): string {
  if (failedRun >= runs) return '';
  const range = failedRun + 1 === runs ? `run ${runs} was` : `runs ${failedRun + 1} to ${runs} were`;
  return `; ${range} not made: exploration stops at its first difference`;
}

/** The shrunk failure as a case and as the result's `failure`, its scenario written to `save` when given. */
async function shrunkFailure(
  failure: ExploredFailure,
  found: { run: number; runs: number; seed: number; numShrinks: number; save: string | undefined },
): Promise<{ shrunk: CaseResult; failure: NonNullable<ExplorationResult['failure']> }> {
  const { run, seed } = found;
  const failing = failure.steps.at(-1)?.name ?? 'a step';
  const scenario = savedScenario({
    run,
    seed,
    state: failure.state,
    saved: failure.saved,
    explored: failure.steps.length,
    failed: unnumbered(failing),
  });
  let scenarioFile: string | undefined;
  let notSaved: string | undefined;
  if (found.save !== undefined) {
    try {
      scenarioFile = await saveScenarioFile({
        folder: found.save,
        name: `explore-${seed}-run-${run}`,
        text: toYaml(scenario),
      });
    } catch (error) {
      // The provider's failure stands whether or not its scenario could be kept: the verdict is not
      // lost to a full disk, and the reason says what was not saved, and why.
      if (!(error instanceof FileError)) throw error;
      notSaved = error.message;
    }
  }
  const shrunk: CaseResult = {
    name: `run ${run}, shrunk`,
    description: `${failure.state.length} order${failure.state.length === 1 ? '' : 's'} in the state: ${stringifyJson(failure.state)}`,
    verdict: caseVerdict(failure.steps, 'failed'),
    // What was not saved comes last: its message is the file error's, with its own semicolons.
    reason: `shrunk ${found.numShrinks} times to ${failure.steps.length} step${failure.steps.length === 1 ? '' : 's'}${scenarioFile === undefined ? '' : `; saved as ${scenarioFile}`}${runsNotMade(run, found.runs)}${notSaved === undefined ? '' : `; not saved: ${notSaved}`}`,
    exchanges: failure.steps,
  };
  return {
    shrunk,
    failure: {
      run,
      state: failure.state,
      steps: failure.steps,
      scenario,
      ...(scenarioFile !== undefined && { scenarioFile }),
    },
  };
}

/**
 * Explores a provider with generated provider states and command sequences (fast-check's model-based
 * testing), the kit's mock as the model: each run sets a generated state through `stateUrl` (and in the
 * model), then runs the commands against both and compares every answer (the spec, Prism, the model,
 * the tolerance table). A difference stops the run; fast-check shrinks it to the smallest state and
 * sequence that still differ, which is reported as numbered steps and, with `save`, written as a
 * scenario file that replays it. The same seed gives the same runs.
 * @throws TargetUnreachable when the target or the state URL does not answer at all.
 * @example
 * const result = await explore({ baseUrl, apiKey, stateUrl, runs: 100, seed: 42 });
 * result.failure?.steps // the shrunk sequence, numbered
 */
export async function explore(options: ExploreOptions): Promise<ExplorationResult> {
  const started = performance.now();
  const { seed, runs, maxSteps } = explorationSettings(options);
  const fc = await loadFastCheck();
  // v2's list is walked unless the run leaves its stability marker out (`--leave-out-beta`), or the base
  // URL has no v2 beside it (it does not end with /v1: then v2 is named not verified).
  const v2Stability = routeOf('listOrdersV2').stability;
  const walksV2 =
    (v2Stability === null || !(options.leaveOut ?? []).includes(v2Stability)) &&
    majorBase(options.baseUrl, '/v2') !== undefined;
  const { stateArbitrary, commandArbitraries } = arbitraries(fc, { walksV2 });
  const prism = options.prism === false ? undefined : await (options.loadPrism ?? loadPrismOracle)();
  const log = new ExplorationLog(options.onRun);
  const property = fc.asyncProperty(
    stateArbitrary,
    fc.commands(commandArbitraries, { maxCommands: maxSteps }),
    (state, commands) => exploreRun({ options, prism, log, fc }, state, commands),
  );
  const left = options.deadline === undefined ? undefined : options.deadline - Date.now();
  const details = await fc.check(property, {
    seed,
    numRuns: runs,
    ...(left !== undefined && { interruptAfterTimeLimit: Math.max(1, left), markInterruptAsFailure: true }),
  });
  const { aborted, lastFailure } = log;
  if (aborted instanceof TargetUnreachable) throw aborted;
  const cases = [...log.runs];
  const result: ExplorationResult = { ...tallySuite('explore', cases, 0), seed };
  if (aborted !== undefined || (details.interrupted && !details.failed)) {
    const reason = aborted?.message ?? 'the run passed its deadline';
    cases.push({ name: 'stopped', verdict: 'failed', reason, exchanges: [stoppedExchange(reason)] });
    options.onRun?.(cases.at(-1)!);
  } else if (details.failed && lastFailure !== undefined) {
    const found = { run: log.failedRun, runs, seed, numShrinks: details.numShrinks, save: options.save };
    const { shrunk, failure } = await shrunkFailure(lastFailure, found);
    cases.push(shrunk);
    options.onRun?.(shrunk);
    result.failure = failure;
  }
  return { ...result, ...tallySuite('explore', cases, performance.now() - started), seed };
}
