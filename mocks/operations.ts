import { parseInt64 } from '../spec/int64.js';
import type { OperationName } from '../spec/routes.js';
import { MockError } from './errors.js';
import type { OrderStore } from './order-store.js';
import { jsonReply, type Reply, type RequestHead } from './reply.js';

/** What the operations of the order interface need: the store, the bearer check and the pet's deprecation dates. */
export interface OrderInterface {
  store: OrderStore;
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
    throw new MockError(
      'order_not_found',
      `Order ${JSON.stringify(orderId)} not found: an order id is an integer from -9223372036854775808 to 9223372036854775807.`,
    );
  }
  await context.store.cancel(id);
  return { status: 204, headers: {}, body: null };
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
