// What the operations on one order share: the id read from the path, the float64 rounding hint, and
// evidence and statuses read from one table of how each status shows the order held.
import { parseInt64 } from '../int64.js';
import { orderFields, type StoredOrder } from '../records.js';
import type { AnswerToRead, HeldAs, MockOutcome, ShownAs, StoreEvidence, StoreOfOperations } from './definition.js';

const nothing: StoreEvidence = { kind: 'nothing' };

function decoded(parameter: string): string {
  try {
    return decodeURIComponent(parameter);
  } catch {
    return parameter;
  }
}

/**
 * The evidence of an answer on one order, from how each status shows the order held.
 * @example
 * heldEvidence({ 204: 'pending' })({ status: 204, body: undefined, parameter: '3' }) // { kind: 'held', id: 3n, as: 'pending' }
 */
export function heldEvidence(shows: Readonly<Record<number, ShownAs>>): (answer: AnswerToRead) => StoreEvidence {
  return ({ status, parameter }) => {
    const as = shows[status];
    const id = parameter === undefined ? undefined : parseInt64(decoded(parameter));
    return as === undefined || id === undefined ? nothing : { kind: 'held', id, as };
  };
}

/**
 * The status that shows the order held so, from the same table; undefined for a holding no status shows.
 * @example
 * statusWhenHeldBy({ 409: 'shipped' })('shipped') // 409
 */
export function statusWhenHeldBy(shows: Readonly<Record<number, ShownAs>>): (as: HeldAs) => number | undefined {
  return (as) => {
    const found = Object.entries(shows).find(([, shown]) => shown === as);
    return found === undefined ? undefined : Number(found[0]);
  };
}

/**
 * The 404 for an order id the store does not hold (or beyond int64), naming the order the client
 * probably meant when it sent a float64 rounding of a stored id: still 404, as the contract says.
 * @example
 * await orderNotFound(store, '9007199254740992') // { kind: 'refused', code: 'order_not_found', ... }
 */
export async function orderNotFound(
  store: StoreOfOperations,
  orderId: string,
): Promise<MockOutcome & { kind: 'refused' }> {
  const id = parseInt64(orderId);
  // Beyond int64, but perhaps a float64 rounding of the largest ids (9223372036854775807 prints as 9223372036854776000).
  const sent = id ?? (/^-?[0-9]{1,20}$/.test(orderId) ? BigInt(orderId) : undefined);
  const rounded = sent === undefined ? undefined : await roundingHint(store, sent);
  if (rounded !== undefined) return rounded;
  return {
    kind: 'refused',
    code: 'order_not_found',
    message:
      id === undefined
        ? `Order ${JSON.stringify(orderId)} not found: an order id is an integer from -9223372036854775808 to 9223372036854775807.`
        : `Order ${id} not found.`,
  };
}

async function roundingHint(
  store: StoreOfOperations,
  sent: bigint,
): Promise<(MockOutcome & { kind: 'refused' }) | undefined> {
  const sameFloat64Orders = await store.ordersWithSameFloat64(sent);
  if (sameFloat64Orders.length === 0) return undefined;
  const named = sameFloat64Orders
    .map((twin) => `order ${twin.id}${twin.status === 'cancelled' ? ' (cancelled)' : ''}`)
    .join(' and ');
  return {
    kind: 'refused',
    code: 'order_not_found',
    message: `Order ${sent} not found. The store holds ${named}, which a float64 cannot tell from ${sent}: your client probably parsed the id with JSON.parse and lost its last digits (ids are int64). Parse ids exactly: see docs/frontend.md, "Exact ids in typed clients".`,
    probablyMeant: sameFloat64Orders[0]!.id,
  };
}

/**
 * An order as the document shows it: its Order fields (ids exact), without the status the store keeps.
 * @example
 * documentedOrder({ id: 3n, petId: 7n, status: 'shipped' }) // { id: 3n, petId: 7n }
 */
export function documentedOrder(order: StoredOrder): Record<string, unknown> {
  return Object.fromEntries(
    orderFields.filter((field) => order[field] !== undefined).map((field) => [field, order[field]]),
  );
}
