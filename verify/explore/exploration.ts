// The model and the target, as fast-check's model-based testing sees them: what every command runs against.
import type { StoredOrder } from '../../mocks/store/order-store.js';
import type { ContractStep } from '../../core/scenario.js';
import type { ProviderHistory } from '../../core/compare.js';
import type { InterfaceModel } from '../../mocks/pipeline/interface-model.js';
import type { PrismOracle } from '../../core/second-oracle.js';
import type { CheckedExchange } from '../base/results.js';
import type { ExploreOptions } from './explore-options.js';
import { KitError } from '../../core/errors.js';

/** 2^53: beyond it, a JavaScript number no longer holds every integer. */
export const two53 = 2n ** 53n;

/** The model side: the kit's mock, and its orders after the last command (what preconditions read). */
export interface ExplorationModel {
  mock: InterfaceModel;
  orders: StoredOrder[];
}

/** The target side: where to send, what to remember, and the log of the run. */
export interface ExplorationTarget {
  options: ExploreOptions;
  prism: PrismOracle | undefined;
  history: ProviderHistory;
  steps: CheckedExchange[];
  saved: ContractStep[];
}

/** Thrown by a command whose answer differs from the model's: fast-check then shrinks the run. */
export class Mismatch extends KitError<'model_mismatch'> {
  override name = 'Mismatch';

  constructor(message: string) {
    super('model_mismatch', message);
  }
}

/**
 * Thrown where a run differs only as a baseline knows, or anywhere in a run that writes a baseline
 * (`ExploreOptions.setAside`): the run ends there, set apart, and the property holds, so fast-check
 * goes on with the other runs.
 */
export class KnownMismatch extends KitError<'model_mismatch'> {
  override name = 'KnownMismatch';

  constructor(message: string) {
    super('model_mismatch', message);
  }
}

/**
 * Ends the run at its last step, which has a violation: a known one (`setAside`) sets the run apart,
 * a new one fails it for fast-check to shrink.
 */
export function stopAtDifference(target: ExplorationTarget, name: string): never {
  if (target.options.setAside?.(target.steps) === true) throw new KnownMismatch(name);
  throw new Mismatch(name);
}

/** `1st`, `2nd`, `3rd`, `4th`… for a zero-based index. */
export const ordinal = (index: number) => `${index + 1}${['st', 'nd', 'rd'][index] ?? 'th'}`;
