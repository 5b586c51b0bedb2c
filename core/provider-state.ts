import { toInt64 } from './int64.js';
import { stringifyJson } from './stringify-json.js';
import type { JsonInteger, Order } from './records.js';
import { orderStatuses, type OrderStatus } from './order-status.js';
import { schemaReference, schemaValidator, type Violation } from './schema-validator.js';

// Declared below the provider state (order-status.ts, records.ts), which imports them; named here too, as before.
export { orderStatuses, type JsonInteger, type OrderStatus };

/**
 * The kit's one provider state: the store holds exactly the orders in `params.orders`.
 * @example
 * new PactV4(...).addInteraction().given(providerState, { orders: [{ id: 3, status: 'shipped' }] })
 */
export const providerState = 'the store holds orders';

/**
 * An order as a provider state holds it: an Order with a required `id` and a `status` (`pending` when absent).
 * @example
 * const order: OrderInput = { id: 9007199254740993n, petId: 7, quantity: 1, status: 'shipped' };
 */
export type OrderInput = Omit<Order, 'id' | 'petId' | 'quantity'> & {
  id: JsonInteger;
  petId?: JsonInteger;
  quantity?: JsonInteger;
  status?: OrderStatus;
};

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

export function orderInputViolations(input: unknown, at = ''): Violation[] {
  return validateOrderInputs(input).map(({ path, message }) => ({ path: at + path, message }));
}

/** The first order whose id an earlier order already has, if any. */
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

export function stateChangeViolations(body: unknown): Violation[] {
  return validateStateChange(body);
}

export function stateChangeBody(orders: readonly unknown[], action: 'setup' | 'teardown' = 'setup'): string {
  return stringifyJson({ state: providerState, params: { orders }, action });
}
