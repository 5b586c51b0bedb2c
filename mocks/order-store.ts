import { Collection } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toInt64 } from '../spec/int64.js';
import { stringifyJson } from '../spec/json.js';
import { duplicateOrderId, orderInputViolations, orderRecordSchema, type JsonInteger, type OrderInput, type OrderStatus } from '../spec/provider-state.js';
import { orderFields, orderInt64Fields, type Order } from '../spec/records.js';
import { schemaValidator, violationSummary } from '../spec/schema-validator.js';
import { MockError } from './errors.js';

/** An order as the store holds it: the Order fields of the specification, int64 fields as `bigint`, and its status. */
export type StoredOrder = Omit<Order, 'id' | 'petId' | 'quantity'> & {
  id: bigint;
  petId?: bigint;
  quantity?: JsonInteger;
  status: OrderStatus;
};

const validateStoredOrder = schemaValidator('stored-order', orderRecordSchema(true));

/**
 * Checks a list of orders the way every writer of the store does (control plane, seed files,
 * provider states, in-process callers) and turns it into stored orders. The store is not touched.
 * Violation paths are JSON Pointers, prefixed with `at` (where the orders sit in a larger body).
 * @throws MockError `invalid_orders` (with every violation) or `duplicate_order_id`.
 * @example
 * toStoredOrders([{ id: 1 }]) // [{ id: 1n, status: 'pending' }]
 * toStoredOrders([{ id: 'x' }], '/params/orders') // throws: Invalid orders: /params/orders/0/id must be integer.
 */
export function toStoredOrders(input: unknown, at = ''): StoredOrder[] {
  const violations = orderInputViolations(input, at);
  if (violations.length > 0) throw new MockError('invalid_orders', `Invalid orders: ${violationSummary(violations)}.`, { violations });
  const orders = input as OrderInput[];
  const duplicate = duplicateOrderId(orders, at);
  if (duplicate !== undefined) {
    throw new MockError('duplicate_order_id', `Invalid orders: id ${duplicate.id} appears more than once.`, { violations: [duplicate.violation] });
  }
  return orders.map((order) => {
    const stored: Record<string, unknown> = {};
    for (const field of orderFields) if (order[field] !== undefined) stored[field] = order[field];
    for (const field of orderInt64Fields) if (order[field] !== undefined) stored[field] = toInt64(order[field]);
    stored.status = order.status ?? 'pending';
    return stored as StoredOrder;
  });
}

/**
 * The Standard Schema `@msw/data` validates every stored order with: the spec's Order (from
 * `spec/openapi.yaml`, through Ajv) plus a required `id` and `status`, and int64 ids checked exactly.
 * @example
 * const orders = new Collection({ schema: storedOrderSchema });
 * await orders.create({ id: 1n, status: 'pending' });
 */
export const storedOrderSchema: StandardSchemaV1<StoredOrder, StoredOrder> = {
  '~standard': {
    version: 1,
    vendor: 'petstore-contract-kit',
    validate(value) {
      const record = value as Record<string, unknown>;
      const violations = validateStoredOrder(record);
      if (violations.length === 0) return { value: value as StoredOrder };
      return { issues: violations.map(({ path, message }) => ({ message, path: path.split('/').slice(1) })) };
    },
  },
};

type OrderCollection = Collection<typeof storedOrderSchema>;
type OrderRecord = ReturnType<OrderCollection['all']>[number];

// The public form of an order: the documented fields only, never the status.
function toPublicOrder(order: StoredOrder): Order {
  const result: Record<string, unknown> = {};
  for (const field of orderFields) if (order[field] !== undefined) result[field] = order[field];
  return result as Order;
}

/**
 * The mock's orders: an `@msw/data` collection validated by the spec's Order schema, with an index
 * by id so that a lookup or a cancellation costs the same whatever the store's size.
 *
 * Cancellation is one synchronous check-and-set, so it is atomic: of any number of concurrent
 * cancels of one pending order, exactly one succeeds. A replacement is checked whole first and then
 * swapped in at once, so a bad input never leaves the store half changed.
 * @example
 * const store = new OrderStore([{ id: 1 }, { id: 2, status: 'shipped' }]);
 * await store.settled();
 * store.cancel(1n); // 'cancelled'
 * store.cancel(2n); // throws MockError order_already_shipped
 */
export class OrderStore {
  #initial: StoredOrder[];
  #collection: OrderCollection = new Collection({ schema: storedOrderSchema });
  #index = new Map<bigint, OrderRecord>();
  #pending: Promise<void> = Promise.resolve();
  #listBody: string | undefined;

  /**
   * @param seed the orders the store starts with, and returns to on `reset()`.
   * @throws MockError when the seed is not a valid list of orders.
   */
  constructor(seed: readonly unknown[]) {
    this.#initial = toStoredOrders(seed);
    this.#enqueue(this.#initial);
  }

  /** Resolves once every replacement asked for so far is in place. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /**
   * Replaces every order (checked whole first: on an error nothing changes).
   * @param at where the orders sit in the request body, as a JSON Pointer, for the error paths.
   * @throws MockError `invalid_orders` or `duplicate_order_id`.
   */
  async replace(orders: unknown, at = ''): Promise<void> {
    const stored = toStoredOrders(orders, at);
    await this.#enqueue(stored);
  }

  /** Returns the store to the seed it was created with. */
  async reset(): Promise<void> {
    await this.#enqueue(this.#initial);
  }

  /** Every order, with its status, in the order they were stored. */
  all(): StoredOrder[] {
    return this.#collection.all().map((record) => ({ ...record }));
  }

  /** The order with this id, whatever its status. */
  find(id: bigint): StoredOrder | undefined {
    const record = this.#index.get(id);
    return record === undefined ? undefined : { ...record };
  }

  /** The JSON body of `listOrders`: every order that is not cancelled, documented fields only. Cached until the next change. */
  listBody(): string {
    this.#listBody ??= stringifyJson(
      this.#collection
        .all()
        .filter((record) => record.status !== 'cancelled')
        .map(toPublicOrder),
    );
    return this.#listBody;
  }

  /**
   * Cancels a pending order.
   * @throws MockError `order_not_found` (unknown or already cancelled) or `order_already_shipped`.
   */
  cancel(id: bigint): 'cancelled' {
    const record = this.#index.get(id);
    if (record === undefined || record.status === 'cancelled') {
      throw new MockError('order_not_found', `Order ${id} not found.`);
    }
    if (record.status === 'shipped') {
      throw new MockError('order_already_shipped', `Order ${id} has already shipped and cannot be cancelled.`);
    }
    // In place, with no await between the check and the write: this is what makes it atomic.
    // (Collection#update would scan the collection twice and re-validate through an async draft.)
    record.status = 'cancelled';
    this.#listBody = undefined;
    return 'cancelled';
  }

  #enqueue(orders: readonly StoredOrder[]): Promise<void> {
    const run = async () => {
      const collection: OrderCollection = new Collection({ schema: storedOrderSchema });
      const index = new Map<bigint, OrderRecord>();
      for (const order of orders) index.set(order.id, await collection.create({ ...order }));
      this.#collection = collection;
      this.#index = index;
      this.#listBody = undefined;
    };
    this.#pending = this.#pending.then(run, run);
    return this.#pending;
  }
}
