/**
 * `petstore-contract-kit/msw`: the stateful order mock as MSW handlers, for `setupServer`
 * (Node tests) and `setupWorker` (the browser).
 * @example
 * import { setupServer } from 'msw/node';
 * import { createOrderMock } from 'petstore-contract-kit/msw';
 *
 * const mock = createOrderMock();
 * const server = setupServer(...mock.handlers);
 */
export { createOrderMock, defaultPetDeprecation, defaultPetSunset, type MockControls, type OrderMock, type OrderMockOptions } from './handlers.js';
export { defaultSeed } from './default-seed.js';
export { developmentApiKey } from './auth.js';
export { MockError, errorStatuses, type ErrorCode, type Violation } from './errors.js';
export { OrderStore, orderStatuses, type OrderInput, type OrderStatus, type StoredOrder } from './order-store.js';
export { providerState } from './control.js';
export { scenarioFaults, type LoadableScenario } from './mock-session.js';
export { faultOperations, faultDelayLimit, type ActiveFault, type FaultEffect, type FaultInput, type FaultOperation } from './faults.js';
export { sessionHeader, defaultSessionLimit, defaultSessionIdleTimeout, type SessionOptions, type SessionSummary } from './sessions.js';
