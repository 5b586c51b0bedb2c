// What the document cannot say about an operation, said once per operation, keyed by the document's
// operation names: a missing definition fails the type check. Each definition is a file of
// core/operations/: the mock's behaviour, what an answer proves about the store it was given in (which
// a consumer's pact states as its provider state and a recording infers its starting state from), and
// how a recorded call of it is titled.
import type { OrderStatus } from './provider-state.js';
import type { OperationName } from './routes.js';
import type { OperationDefinition } from './operations/definition.js';
import { listOrdersDefinition } from './operations/list-orders.js';
import { cancelOrderDefinition } from './operations/cancel-order.js';
import { readPetDefinition } from './operations/read-pet.js';
import { listOrdersV2Definition } from './operations/list-orders-v2.js';

export type {
  AnswerToRead,
  ConflictBody,
  HeldAs,
  HeldOrder,
  MockOutcome,
  OperationContext,
  OperationDefinition,
  OrderTarget,
  RefusalCode,
  ShownAs,
  StoreEvidence,
  StoreOfOperations,
} from './operations/definition.js';

/**
 * Every operation's definition, one per operation name of the route table.
 * @example
 * operationDefinitions.cancelOrder.evidence({ status: 409, body: undefined, parameter: '3' }) // { kind: 'held', id: 3n, as: 'shipped' }
 * operationDefinitions.listOrders.evidence({ status: 200, body: [{ id: 1 }] }) // { kind: 'listed', orders: [{ id: 1 }] }
 */
export const operationDefinitions: Readonly<Record<OperationName, OperationDefinition>> = {
  listOrders: listOrdersDefinition,
  cancelOrder: cancelOrderDefinition,
  readPet: readPetDefinition,
  listOrdersV2: listOrdersV2Definition,
};

/**
 * The status an operation's answer has when the store holds the order it names as `as` (a cancelled
 * order as an absent one, unless the definition tells it apart: `statusWhenCancelled`); undefined for
 * an operation on no one order.
 * @example
 * statusShowing('cancelOrder', 'shipped') // 409
 */
export function statusShowing(operation: OperationName, as: OrderStatus | 'absent'): number | undefined {
  const definition = operationDefinitions[operation];
  if (as !== 'cancelled') return definition.statusWhenHeld?.(as);
  return definition.statusWhenCancelled ?? definition.statusWhenHeld?.('absent');
}

/**
 * What a call of an operation does, in a step's title: its definition's `title`, or else its name's
 * words (`cancelOrder` → `cancel order`) followed by the path's parameter as written.
 * @example
 * titleOf('cancelOrder', '3') // 'cancel order 3'
 * titleOf('listOrders') // 'list the orders'
 */
export function titleOf(operation: OperationName, parameter?: string): string {
  const own = operationDefinitions[operation].title;
  if (own !== undefined) return own(parameter);
  const words = operation.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return parameter === undefined ? words : `${words} ${parameter}`;
}
