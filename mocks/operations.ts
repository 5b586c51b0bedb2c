import { parseInt64 } from '../core/int64.js';
import type { OperationName } from '../core/routes.js';
import { MockError } from './errors.js';
import type { OrderStore } from './order-store.js';
import { jsonReply, type Reply, type RequestHead } from './reply.js';

/**
 * What the 409 of a cancel of a shipped order carries: an Error record (`error`, the default) or no
 * body (`none`); the specification shows no body for it, so a client must handle both.
 */
export type ConflictBody = 'error' | 'none';

/** What the operations of the order interface need: the store, the bearer check, the pet's deprecation dates, the 409's shape. */
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

/**
 * `GET /store/orders` (listOrders): 200 with every order that is not cancelled, documented fields only.
 * @example
 * listOrders(context, new Request(url, { headers: { authorization: 'Bearer petstore-dev-key' } }))
 */
export async function listOrders(context: OrderInterface, request: RequestHead): Promise<Reply> {
  authenticated(context, request);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: context.store.listBody() };
}

/**
 * `DELETE /store/orders/{orderId}` (cancelOrder): 204 when the order was pending; 409 when it has
 * shipped; 404 when it is unknown, already cancelled, or `orderId` is not an int64.
 * @example
 * cancelOrder(context, request, '9007199254740993')
 */
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

/**
 * The 404 for an id that is not in the store but is what a float64 makes of one that is (beyond 2^53):
 * the client probably parsed the list with `JSON.parse` and lost the id's last digits. Still 404 (the
 * contract), with a message that names the order it probably meant.
 */
async function roundingHint(store: OrderStore, sent: bigint): Promise<MockError | undefined> {
  const twins = await store.ordersWithSameFloat64(sent);
  if (twins.length === 0) return undefined;
  const named = twins
    .map((twin) => `order ${twin.id}${twin.status === 'cancelled' ? ' (cancelled)' : ''}`)
    .join(' and ');
  return new MockError(
    'order_not_found',
    `Order ${sent} not found. The store holds ${named}, which a float64 cannot tell from ${sent}: your client probably parsed the id with JSON.parse and lost its last digits (ids are int64). Parse ids exactly: see docs/frontend.md, "Exact ids in typed clients".`,
    { probablyMeant: twins[0]!.id },
  );
}

/**
 * `GET /pets/{petId}` (deprecated): 200 with a minimal pet `{ id }` for any `petId` (an int64 is written
 * as a number, anything else as the string it is: the specification shows no type for it), with the
 * `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers. Only 200 and 401 are documented for it.
 * @example
 * readPet(context, request, '7') // 200 {"id":7}, Deprecation: @1767225600, Sunset: Wed, 30 Jun 2027 23:59:59 GMT
 * readPet(context, request, 'rex') // 200 {"id":"rex"}
 */
export async function readPet(context: OrderInterface, request: RequestHead, petId: string): Promise<Reply> {
  authenticated(context, request);
  const headers = {
    deprecation: `@${Math.floor(context.petDeprecation.getTime() / 1000)}`,
    sunset: context.petSunset.toUTCString(),
  };
  return jsonReply({ id: parseInt64(petId) ?? petId }, 200, headers);
}

/** An operation's implementation: the context, the request's head, and its path parameter (`''` for none). */
export type OperationImplementation = (
  context: OrderInterface,
  request: RequestHead,
  parameter: string,
) => Promise<Reply>;

/**
 * The implementation of every operation of the route table, by name. Adding an operation to
 * `spec/openapi.yaml` makes this object fail to type-check until the operation is implemented here.
 * @example
 * await operations.cancelOrder(context, request, '3') // { status: 409, ... } for a shipped order
 */
export const operations: Record<OperationName, OperationImplementation> = { listOrders, cancelOrder, readPet };
