/**
 * What the package root exports in every runtime: the MSW mock, the bundled scenarios, and the
 * contract's core (the route table, exact JSON and int64). `index.ts` adds what needs Node;
 * `index-browser.ts`, the same names as errors that say what to use in a browser instead.
 * @example
 * import { createOrderMock, bundledScenarios } from 'petstore-contract-kit';
 */
export * from './adapters/msw.js';
export { ScenarioError } from '../core/scenario-error.js';
export { FileError, type FileErrorCode } from '../core/file-error.js';
export { coreErrorCodes, KitError, KitTypeError, type CoreErrorCode } from '../core/errors.js';
export {
  MockOptionError,
  MockUsageError,
  PactContradictsSpec,
  mockUsageErrorCodes,
  type MockUsageErrorCode,
} from './base/errors.js';
export type { Scenario, ScenarioStep, StepExpectation } from '../core/scenario.js';
export { openApiDocument } from '../core/schema-validator.js';
export type { ErrorRecord, ExactOrder as Order, WireOrder } from '../core/records.js';
export { exactFetch } from '../core/exact-fetch.js';
export { matchRoute, operationNames, routeOf, routes, type OperationName, type Route } from '../core/routes.js';
export { parseJson, type JsonValue } from '../core/parse-json.js';
export { stringifyJson } from '../core/stringify-json.js';
export { int64Maximum, int64Minimum, parseInt64 } from '../core/int64.js';
