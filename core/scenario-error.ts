/**
 * A scenario file that cannot be used: the message names the file and the field.
 * @example
 * try { await loadScenarios({ directory: 'scenarios' }); } catch (error) { if (error instanceof ScenarioError) console.error(error.message); }
 */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}
