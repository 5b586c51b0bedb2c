import { operationDefinitions } from '../../core/operation-definitions.js';
import type { ConflictBody, MockOutcome, StoreOfOperations } from '../../core/operation-definitions.js';
import { parameterMessage, readParameters } from '../../core/request-parameters.js';
import { routeOf, type OperationName } from '../../core/routes.js';
import { refusal, type MockError } from '../base/errors.js';
import type { OrderStore } from '../store/order-store.js';
import { jsonReply, type Reply, type RequestHead } from '../base/reply.js';

export type { ConflictBody } from '../../core/operation-definitions.js';

/** What the mock answers an operation with: the session's store, its settings, the key check. */
export interface OrderInterface {
  store: OrderStore;
  conflictBody: ConflictBody;
  authenticate: (request: RequestHead) => MockError | undefined;
  petDeprecation: Date;
  petSunset: Date;
}

// The store as the operations' behaviours see it: a cancel's refusal as what the store found.
function storeOfOperations(store: OrderStore): StoreOfOperations {
  return {
    listBody: () => store.listBody(),
    eachOrderById: (from, visit) => store.eachOrderById(from, visit),
    find: (id) => store.find(id),
    ordersWithSameFloat64: (sent) => store.ordersWithSameFloat64(sent),
    change: (id, move) => store.change(id, move),
    cancel: (id) => store.cancelOutcome(id),
  };
}

/** A behaviour's outcome as the mock's reply; a refusal is thrown, as every refusal of the pipeline is. */
function replyOf(outcome: MockOutcome): Reply {
  switch (outcome.kind) {
    case 'json':
      return jsonReply(outcome.body, outcome.status, outcome.headers);
    case 'encoded-json':
      return { status: outcome.status, headers: { 'content-type': 'application/json' }, body: outcome.parts };
    case 'empty':
      return { status: outcome.status, headers: {}, body: null };
    case 'refused':
      throw refusal(
        outcome.code,
        outcome.message,
        outcome.probablyMeant === undefined ? {} : { probablyMeant: outcome.probablyMeant },
      );
  }
}

/**
 * One call of an operation as the mock answers it: the request's head, its path parameter decoded ('' for
 * none), and its query string as sent (still percent-encoded, without its `?`) at the first ask (only an
 * operation with query parameters asks).
 * @example
 * const call: OperationCall = { request, parameter: '3', query: () => '' };
 */
export interface OperationCall {
  request: RequestHead;
  parameter: string;
  query: () => string;
}

/**
 * Answers a call of an operation as its definition's behaviour does (core/operations/), once the key
 * is checked (every operation requires one) and its query and header parameters are read: one that
 * breaks its schema is the 400 `invalid_parameter` (core/request-parameters.ts). Not async where the
 * behaviour is not.
 * @example
 * const reply = await operate('cancelOrder', context, { request, parameter: '3', query: () => '' });
 * // { status: 204, headers: {}, body: null }
 */
export function operate(
  operation: OperationName,
  context: OrderInterface,
  call: OperationCall,
): Reply | Promise<Reply> {
  const failure = context.authenticate(call.request);
  if (failure !== undefined) throw failure;
  const read = readParameters(routeOf(operation), { query: call.query, headers: call.request.headers });
  if (!read.ok) throw refusal('invalid_parameter', parameterMessage(read.violations));
  const { store, conflictBody, petDeprecation, petSunset } = context;
  const outcome = operationDefinitions[operation].mock(
    { store: storeOfOperations(store), conflictBody, petDeprecation, petSunset, parameters: read.values },
    call.parameter,
  );
  return outcome instanceof Promise ? outcome.then(replyOf) : replyOf(outcome);
}
