/**
 * `petstore-contract-kit/msw`: the stateful order mock as MSW handlers (msw 2.15 or 3), for
 * `setupServer` (Node tests), `setupWorker` (the browser) and msw 3's networks (`defineNetwork`,
 * `virtual:msw` of the `msw/vite` plugin).
 * @example
 * import { setupServer } from 'msw/node';
 * import { createOrderMock } from 'petstore-contract-kit/msw';
 *
 * const mock = createOrderMock();
 * const server = setupServer(...mock.handlers);
 */
export {
  createOrderMock,
  defaultPetDeprecation,
  defaultPetSunset,
  type MockedResponseEvent,
  type MswEvents,
  type OrderMock,
  type PactControls,
  type OrderMockOptions,
} from './order-mock.js';
export {
  scenarioFaults,
  type LoadableScenario,
  type MockControls,
  type ScenarioLoaded,
  type ScenarioSummary,
  type MockSettings,
  defaultMockSettings,
} from '../session/mock-session.js';
export type { ConflictBody } from '../session/operations.js';
export { defaultSeed } from '../store/default-seed.js';
export { bundledScenarios } from '../generated/scenarios.js';
export {
  MockError,
  PactContradictsSpec,
  errorStatuses,
  type ErrorCode,
  type PactFinding,
} from '../base/errors.js';
export type { ConsumerPact, LeftOutCall } from '../pact/consumer-pact.js';
export { defaultPactProvider, type PactOptions, type PactSelection } from '../pact/pact-file.js';
export {
  OrderSeed,
  OrderStore,
  storedOrderSchema,
  type OrderCollection,
  type OrderRecord,
  type OrderSchema,
  type StoredOrder,
} from '../store/order-store.js';
export type { ActiveFault } from '../session/faults.js';
export {
  sessionHeader,
  defaultSessionLimit,
  defaultSessionIdleTimeout,
  type SessionOptions,
  type SessionSummary,
} from '../session/sessions.js';
export { developmentApiKey } from '../../core/authorization.js';
export {
  faultOperations,
  faultDelayLimit,
  type FaultEffect,
  type FaultInput,
  type FaultOperation,
} from '../../core/fault-format.js';
export { orderStatuses, providerState, type OrderInput, type OrderStatus } from '../../core/provider-state.js';
export type { Violation } from '../../core/schema-validator.js';
export {
  defaultPersistKey,
  persistOrders,
  type OrderStorage,
  type PersistedOrders,
  type PersistOptions,
} from './persisted-orders.js';
export type { MockRequest } from '../base/mock-request.js';
export type { Answer, HandleRequest } from '../pipeline/pipeline.js';
export type { NetworkError } from '../base/reply.js';
export type { Reply } from '../base/reply.js';
