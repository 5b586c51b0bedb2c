// An operation the document does not have yet, for tests of what the kit makes of one whose answer tells a
// cancelled order from one the store does not hold: `POST /store/orders/{orderId}/ship`, 200 with the
// order now shipped (a shipped one again too), 409 for a cancelled one, 404 for an unknown one.
import { parseInt64 } from '../../core/int64.js';
import type { OperationDefinition } from '../../core/operation-definitions.js';
import { documentedOrder, heldEvidence, orderNotFound } from '../../core/operations/one-order.js';
import type { Route } from '../../core/routes.js';

/**
 * The ship's definition, as the recipe of docs/architecture.md would have it written.
 * @example
 * shipOrderDefinition.statusWhenCancelled // 409
 */
export const shipOrderDefinition: OperationDefinition = {
  async mock({ store }, orderId) {
    const id = parseInt64(orderId);
    const found = id === undefined ? 'absent' : await store.change(id, { from: ['pending'], to: 'shipped' });
    if (found === 'absent') return await orderNotFound(store, orderId);
    if (found === 'cancelled')
      return { kind: 'json', status: 409, body: { code: 'order_cancelled', message: 'Cancelled.', status: 409 } };
    return { kind: 'json', status: 200, body: documentedOrder(store.find(id!)!) };
  },
  evidence: heldEvidence({ 200: 'pending', 404: 'absent', 409: 'cancelled' }),
  statusWhenHeld: (as) => (as === 'absent' ? 404 : 200),
  statusWhenCancelled: 409,
  targets: { pending: 1, cancelled: 1, unknown: 1 },
};

/**
 * The generated route table with the ship's route after the cancel's: written into a bundle as source,
 * so it names nothing outside itself.
 * @example
 * await withRoutes(withShipRoute, { createOrderMock: 'mocks/adapters/order-mock.ts' }, { definitions: { shipOrder: 'test/support/ship-order-definition.ts#shipOrderDefinition' } });
 */
export function withShipRoute(routes: readonly Route[]): readonly unknown[] {
  const cancel = routes.find((route) => route.operation === 'cancelOrder')!;
  const error = cancel.responses.find((response) => response.status === 404)!.schema;
  const ship = {
    ...cancel,
    operation: 'shipOrder',
    method: 'POST',
    path: '/store/orders/{orderId}/ship',
    responses: [
      { status: 200, schema: { $ref: '#/components/schemas/Order' }, headers: [] },
      ...cancel.responses.filter((response) => response.status === 401 || response.status === 404),
      { status: 409, schema: error, headers: [] },
    ],
  };
  return [...routes, ship];
}
