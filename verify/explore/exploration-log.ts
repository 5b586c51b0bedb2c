// What the runs of one exploration gave, as fast-check reports them.
import type { OrderInput } from '../../core/provider-state.js';
import type { ContractStep } from '../../core/scenario.js';
import { caseVerdict, type CaseResult, type CheckedExchange } from '../base/results.js';

/** Why a run of no command is skipped: fast-check's command lists may be empty. */
export const emptyRunReason = 'no command was generated: the run sent nothing';

/** The last failure fast-check saw: after shrinking, the smallest. */
export interface ExploredFailure {
  state: OrderInput[];
  steps: CheckedExchange[];
  saved: ContractStep[];
}

/** What the runs of one exploration gave: the passed runs, the first failing run's number, the last failure, an abort. */
export class ExplorationLog {
  readonly runs: CaseResult[] = [];
  failedRun = 0;
  lastFailure: ExploredFailure | undefined;
  aborted: Error | undefined;
  #firstFailureSeen = false;
  readonly #onRun: ((result: CaseResult) => void) | undefined;

  constructor(onRun: ((result: CaseResult) => void) | undefined) {
    this.#onRun = onRun;
  }

  /**
   * A run that passed: reported until the first failure (after it, fast-check's runs are shrinking). A
   * run whose generated sequence was empty sent nothing and checked nothing: it is skipped, not passed.
   * A run set apart at a known difference (`ExploreOptions.setAside`) keeps its violations here, and is
   * failed until the baseline marks them known.
   */
  passed(state: OrderInput[], steps: CheckedExchange[]): void {
    if (this.#firstFailureSeen) return;
    const result: CaseResult = {
      name: `run ${this.runs.length + 1}`,
      description: `${state.length} order${state.length === 1 ? '' : 's'}, ${steps.length} step${steps.length === 1 ? '' : 's'}`,
      ...(steps.length === 0 ? { verdict: 'skipped', reason: emptyRunReason } : { verdict: caseVerdict(steps) }),
      exchanges: steps,
    };
    this.runs.push(result);
    this.#onRun?.(result);
  }

  failed(failure: ExploredFailure): void {
    if (!this.#firstFailureSeen) {
      this.#firstFailureSeen = true;
      this.failedRun = this.runs.length + 1;
    }
    this.lastFailure = failure;
  }
}
