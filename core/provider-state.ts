import { toInt64 } from './int64.js';
import { stringifyJson } from './stringify-json.js';
import type { Order } from './records.js';
import { schemaReference, schemaValidator, type Violation } from './schema-validator.js';

/**
 * The one provider state of the kit: the store holds exactly the orders in `params.orders`. Pact's
 * state-change request, `POST {"state": providerState, "params": {"orders": [...]}, "action": "setup" | "teardown"}`,
 * sets it: on the kit's mock at `/__mock/provider-state`, on a provider at its own state URL.
 * @example
 * new PactV4(...).addInteraction().given(providerState, { orders: [{ id: 3, status: 'shipped' }] })
 */
export const providerState = 'the store holds orders';

/**
 * The lifecycle states of an order. The status is the provider state's own: the public interface never sends it.
 * @example
 * stateChange([{ id: 1, status: orderStatuses[1] }]) // a shipped order
 */
export const orderStatuses = ['pending', 'shipped', 'cancelled'] as const;
/** A lifecycle state of an order. */
export type OrderStatus = (typeof orderStatuses)[number];

/** An integer of a JSON value: `bigint` where it lies beyond the safe range of `number`. */
export type JsonInteger = number | bigint;

/**
 * An order as a provider state holds it (and as the mock's store takes it): the Order fields of the
 * specification, an `id` (required: the store finds orders by it), and an optional `status`
 * (`pending` when absent).
 * @example
 * const order: OrderInput = { id: 9007199254740993n, petId: 7, quantity: 1, status: 'shipped' };
 */
export type OrderInput = Omit<Order, 'id' | 'petId' | 'quantity'> & {
  id: JsonInteger;
  petId?: JsonInteger;
  quantity?: JsonInteger;
  status?: OrderStatus;
};

/**
 * The JSON Schema of an order of a provider state: the spec's Order (by reference) with a required
 * `id`, a `status`, and no other field.
 * @example
 * schemaValidator('stored-order', orderRecordSchema(true))
 */
export function orderRecordSchema(statusRequired: boolean): object {
  return {
    type: 'object',
    allOf: [{ $ref: schemaReference('Order') }],
    required: statusRequired ? ['id', 'status'] : ['id'],
    properties: { status: { enum: [...orderStatuses] } },
    unevaluatedProperties: false,
  };
}

const validateOrderInputs = schemaValidator('order-inputs', { type: 'array', items: orderRecordSchema(false) });

/**
 * Checks the orders of a provider state: a list of Orders, each with an `id`, an optional known
 * `status` and no unknown field, int64 fields exact. Paths are JSON Pointers prefixed with `at`.
 * @example
 * orderInputViolations([{ id: 1, status: 'lost' }], '/params/orders')
 * // [{ path: '/params/orders/0/status', message: 'must be one of "pending", "shipped", "cancelled"' }]
 */
export function orderInputViolations(input: unknown, at = ''): Violation[] {
  return validateOrderInputs(input).map(({ path, message }) => ({ path: at + path, message }));
}

/**
 * The first order of a valid list whose id an earlier order already has: its id, and the violation
 * (a JSON Pointer to its `id`, prefixed with `at`); undefined when every id is unique.
 * @example
 * duplicateOrderId([{ id: 1 }, { id: 1 }]) // { id: 1n, violation: { path: '/1/id', message: 'duplicates the id of an earlier order (1)' } }
 */
export function duplicateOrderId(
  orders: readonly OrderInput[],
  at = '',
): { id: bigint; violation: Violation } | undefined {
  const seen = new Set<bigint>();
  for (const [index, order] of orders.entries()) {
    const id = toInt64(order.id)!;
    if (seen.has(id))
      return { id, violation: { path: `${at}/${index}/id`, message: `duplicates the id of an earlier order (${id})` } };
    seen.add(id);
  }
  return undefined;
}

/** Pact's state-change request, as the kit sends and takes it. */
export interface StateChange {
  state: string;
  params?: { orders?: unknown; [name: string]: unknown };
  action?: 'setup' | 'teardown';
}

const validateStateChange = schemaValidator('provider-state-change', {
  type: 'object',
  required: ['state'],
  properties: {
    state: { type: 'string' },
    action: { enum: ['setup', 'teardown'] },
    params: { type: 'object' },
  },
});

/**
 * Checks the shape of a state-change request `{ state, params?, action? }` (not which state it names).
 * @example
 * stateChangeViolations({ action: 'later' }) // [{ path: '/state', message: 'is required' }, { path: '/action', ... }]
 */
export function stateChangeViolations(body: unknown): Violation[] {
  return validateStateChange(body);
}

/**
 * The body of a state-change request for the kit's provider state, as JSON text (ids exact).
 * @example
 * stateChangeBody([{ id: 3, status: 'shipped' }]) // '{"state":"the store holds orders","params":{"orders":[{"id":3,"status":"shipped"}]},"action":"setup"}'
 * stateChangeBody([], 'teardown')
 */
export function stateChangeBody(orders: readonly unknown[], action: 'setup' | 'teardown' = 'setup'): string {
  return stringifyJson({ state: providerState, params: { orders }, action });
}
