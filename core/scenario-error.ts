import { KitError, type CoreErrorCode } from './errors.js';

/**
 * A scenario that cannot be used: the message names the file and the field, the code the kind of problem.
 * @example
 * try { await loadScenarios({ directory: 'scenarios' }); } catch (error) { if (error instanceof ScenarioError) console.error(error.code, error.message); }
 */
export class ScenarioError extends KitError<Extract<CoreErrorCode, `${string}scenario${string}`>> {
  override name = 'ScenarioError';
}
