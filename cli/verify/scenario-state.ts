// The state --from-scenario names, for the proxy (which sets it) and the HAR command (which judges from it).
import { loadScenarioFile, loadScenarios } from '../../core/scenario-files.js';
import { injectsFaults } from '../../core/scenario.js';
import type { OrderInput } from '../../core/provider-state.js';
import { UsageError } from '../shared.js';

/**
 * The orders of the scenario `wanted` names: a shipped scenario's name, or a scenario file (a path, or a
 * name ending with .yaml).
 * @throws UsageError for a scenario that injects faults or sets no provider state; ScenarioError for one
 * that cannot be found or read.
 * @example
 * await scenarioState('cancel-shipped-order') // { scenario: 'cancel-shipped-order', orders: [{ id: 1, ... }, { id: 3, status: 'shipped', ... }] }
 */
export async function scenarioState(wanted: string): Promise<{ scenario: string; orders: OrderInput[] }> {
  const scenario = /[\\/]|\.ya?ml$/.test(wanted)
    ? await loadScenarioFile(wanted)
    : (await loadScenarios({ names: [wanted] }))[0]!;
  if (injectsFaults(scenario))
    throw new UsageError(`scenario ${scenario.name} injects faults: only the mock can replay it, no deployment`);
  if (scenario.state === undefined)
    throw new UsageError(`scenario ${scenario.name} sets no provider state: name one that does`);
  return { scenario: scenario.name, orders: scenario.state.params.orders as OrderInput[] };
}
