import { parseInt64 } from '../../core/int64.js';
import type { OperationName } from '../../core/routes.js';
import { MockError } from '../base/errors.js';
import type { OrderStore } from '../store/order-store.js';
import { jsonReply, type Reply, type RequestHead } from '../base/reply.js';

/**
 * Whether the 409 of a cancel of a shipped order has an Error record or no body: the specification shows
 * no body for it, so a client must handle both.
 */
export type ConflictBody = 'error' | 'none';

export interface OrderInterface {
  store: OrderStore;
  conflictBody: ConflictBody;
  authenticate: (request: RequestHead) => MockError | undefined;
  petDeprecation: Date;
  petSunset: Date;
}

function authenticated(context: OrderInterface, request: RequestHead): void {
  const failure = context.authenticate(request);
  if (failure !== undefined) throw failure;
}

/** `GET /store/orders`: every order that is not cancelled, documented fields only. */
export function listOrders(context: OrderInterface, request: RequestHead): Reply {
  authenticated(context, request);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: context.store.listBody() };
}

/** `DELETE /store/orders/{orderId}`: 204, 409 for a shipped order, 404 for an unknown or cancelled one. */
export async function cancelOrder(context: OrderInterface, request: RequestHead, orderId: string): Promise<Reply> {
  authenticated(context, request);
  const id = parseInt64(orderId);
  if (id === undefined) {
    // Beyond int64, but perhaps a float64 rounding of the largest ids (9223372036854775807 prints as 9223372036854776000).
    const rounded = /^-?[0-9]{1,20}$/.test(orderId) ? await roundingHint(context.store, BigInt(orderId)) : undefined;
    if (rounded !== undefined) throw rounded;
    throw new MockError(
      'order_not_found',
      `Order ${JSON.stringify(orderId)} not found: an order id is an integer from -9223372036854775808 to 9223372036854775807.`,
    );
  }
  try {
    await context.store.cancel(id);
  } catch (error) {
    if (error instanceof MockError && error.code === 'order_already_shipped' && context.conflictBody === 'none')
      return { status: 409, headers: {}, body: null };
    if (error instanceof MockError && error.code === 'order_not_found')
      throw (await roundingHint(context.store, id)) ?? error;
    throw error;
  }
  return { status: 204, headers: {}, body: null };
}

// Still 404, as the contract says, but naming the order the client probably meant before `JSON.parse` lost its digits.
async function roundingHint(store: OrderStore, sent: bigint): Promise<MockError | undefined> {
  const sameFloat64Orders = await store.ordersWithSameFloat64(sent);
  if (sameFloat64Orders.length === 0) return undefined;
  const named = sameFloat64Orders
    .map((twin) => `order ${twin.id}${twin.status === 'cancelled' ? ' (cancelled)' : ''}`)
    .join(' and ');
  return new MockError(
    'order_not_found',
    `Order ${sent} not found. The store holds ${named}, which a float64 cannot tell from ${sent}: your client probably parsed the id with JSON.parse and lost its last digits (ids are int64). Parse ids exactly: see docs/frontend.md, "Exact ids in typed clients".`,
    { probablyMeant: sameFloat64Orders[0]!.id },
  );
}

/**
 * `GET /pets/{petId}`, deprecated: a minimal pet `{ id }` for any id, since the specification gives it no
 * type, with `Deprecation` (RFC 9745) and `Sunset` (RFC 8594).
 */
export function readPet(context: OrderInterface, request: RequestHead, petId: string): Reply {
  authenticated(context, request);
  const headers = {
    deprecation: `@${Math.floor(context.petDeprecation.getTime() / 1000)}`,
    sunset: context.petSunset.toUTCString(),
  };
  return jsonReply({ id: parseInt64(petId) ?? petId }, 200, headers);
}

export type OperationImplementation = (
  context: OrderInterface,
  request: RequestHead,
  parameter: string,
) => Reply | Promise<Reply>;

/** Every operation of the route table: a new operation in `spec/openapi.yaml` fails to type-check until it is here. */
export const operations: Record<OperationName, OperationImplementation> = { listOrders, cancelOrder, readPet };
