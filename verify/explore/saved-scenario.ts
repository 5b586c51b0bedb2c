// The shrunk failure of an exploration as a scenario file of the kit's format.
import { providerState, type OrderInput } from '../../core/provider-state.js';
import type { ContractStep } from '../../core/scenario.js';
import { scenarioYaml } from '../scenario/scenario-yaml.js';

/**
 * A scenario as exploration saves it: the kit's scenario format.
 * @example
 * toYaml(savedScenario(failure)) // '# Saved by petstore-verify explore: ...'
 */
export interface SavedScenario {
  description: string;
  state: { name: string; params: { orders: OrderInput[] } };
  steps: ContractStep[];
}

/** What a saved scenario says of the failure it replays. */
export interface FailureFound {
  run: number;
  seed: number;
  state: OrderInput[];
  /** The steps as scenario steps. */
  saved: ContractStep[];
  /** The steps the shrunk run explored. */
  explored: number;
  /** The step that differed, without its number. */
  failed: string;
}

export function savedScenario({ run, seed, state, saved, explored, failed }: FailureFound): SavedScenario {
  return {
    description: `Found by petstore-verify explore (seed ${seed}, run ${run}), shrunk to ${explored} step${explored === 1 ? '' : 's'}: ${failed} differs from what the model answers.`,
    state: { name: providerState, params: { orders: state } },
    steps: saved,
  };
}

export function toYaml(scenario: SavedScenario): string {
  return `# Saved by petstore-verify explore: replay it with petstore-verify --scenarios DIR, or load it in petstore-mock --scenarios DIR.\n${scenarioYaml(scenario)}`;
}
