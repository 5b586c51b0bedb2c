import { parseInt64 } from '../int64.js';
import type { HeldAs, OperationDefinition } from './definition.js';
import { heldEvidence, orderNotFound, statusWhenHeldBy } from './one-order.js';

/** How each status of a cancel shows the order was held: the one fact behind a cancel's evidence. */
const cancelShows: Readonly<Record<number, HeldAs>> = { 204: 'pending', 409: 'shipped', 404: 'absent' };

/**
 * `DELETE /store/orders/{orderId}`: 204, 409 for a shipped order, 404 for an unknown or cancelled one
 * (a cancelled order is refused as one the store does not hold, spec gap 4).
 * @example
 * cancelOrderDefinition.statusWhenHeld?.('shipped') // 409
 */
export const cancelOrderDefinition: OperationDefinition = {
  async mock({ store, conflictBody }, orderId) {
    const id = parseInt64(orderId);
    if (id === undefined) return await orderNotFound(store, orderId);
    const found = await store.cancel(id);
    if (found === 'absent') return await orderNotFound(store, orderId);
    if (found === 'cancelled') return { kind: 'empty', status: 204 };
    if (conflictBody === 'none') return { kind: 'empty', status: 409 };
    return {
      kind: 'refused',
      code: 'order_already_shipped',
      message: `Order ${id} has already shipped and cannot be cancelled.`,
    };
  },
  evidence: heldEvidence(cancelShows),
  statusWhenHeld: statusWhenHeldBy(cancelShows),
  // The state table has no row for a cancelled order (spec gap 22).
  cancels: { againAccepts: [404, 409] },
  // Mostly pending orders: a cancel that succeeds is what changes the store.
  targets: { pending: 3, shipped: 1, cancelled: 1, unknown: 1, neighbour: 1 },
};
