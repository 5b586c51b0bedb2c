import { KitError, type CoreErrorCode } from './errors.js';

/**
 * A scenario file that cannot be used: the message names the file and the field, the code says which
 * kind of problem it is (`invalid_scenario`, `unknown_scenario`, `scenario_with_faults`).
 * @example
 * try { await loadScenarios({ directory: 'scenarios' }); } catch (error) { if (error instanceof ScenarioError) console.error(error.code, error.message); }
 */
export class ScenarioError extends KitError<Extract<CoreErrorCode, `${string}scenario${string}`>> {
  override name = 'ScenarioError';
}
