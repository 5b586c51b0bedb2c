/**
 * `petstore-contract-kit`: a stateful mock and contract kit for the pet store order interface.
 * The MSW handlers are also under `petstore-contract-kit/msw`, the HTTP server under
 * `petstore-contract-kit/server`. The contract itself (the route table, the lossless JSON, the
 * scenarios) comes from the kit's core, compiled from `spec/openapi.yaml`.
 * @example
 * import { createServer } from 'petstore-contract-kit';
 *
 * const server = createServer();
 * console.log(await server.listen(4010)); // http://127.0.0.1:4010
 */
export * from './msw.js';
export { createServer, defaultBodyLimit, defaultTimeouts, type MockServer, type ServerOptions } from './server.js';
export { loadSeedFile, readSeedFile } from './seed-file.js';
export {
  loadScenarioFile,
  loadScenarios,
  scenarioDirectory,
  ScenarioError,
  type Scenario,
  type ScenarioStep,
  type StepExpectation,
} from './scenarios.js';
export { openApiDocument } from '../spec/schema-validator.js';
export type { ErrorRecord, ExactOrder as Order, WireOrder } from '../spec/records.js';
export { exactFetch } from '../spec/exact-fetch.js';
export { matchRoute, operationNames, routeOf, routes, type OperationName, type Route } from '../spec/routes.js';
export { parseJson, stringifyJson, type JsonValue } from '../spec/json.js';
export { int64Maximum, int64Minimum, parseInt64 } from '../spec/int64.js';
