/**
 * `petstore-contract-kit`: a stateful mock and contract kit for the pet store order interface.
 * The MSW handlers are also under `petstore-contract-kit/msw`, the HTTP server under
 * `petstore-contract-kit/server`.
 * @example
 * import { createServer } from 'petstore-contract-kit';
 *
 * const server = createServer();
 * console.log(await server.listen(4010)); // http://127.0.0.1:4010
 */
export * from './msw.js';
export { createServer, defaultBodyLimit, type MockServer, type ServerOptions } from './server.js';
export { loadSeedFile } from './seed-file.js';
export { loadScenarioFile, loadScenarios, scenarioDirectory, ScenarioError, type Scenario, type ScenarioStep, type StepExpectation } from './scenarios.js';
export { openApiDocument, type ErrorRecord, type Order } from './spec.js';
export { parseJson, stringifyJson, type JsonValue } from './json.js';
export { int64Maximum, int64Minimum, parseInt64 } from './int64.js';
