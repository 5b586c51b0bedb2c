import type { StandardSchemaV1 } from '@standard-schema/spec';
import { orderRecordSchema } from '../spec/provider-state.js';
import { schemaValidator } from '../spec/schema-validator.js';
import { Collection } from '@msw/data';
import { MockError } from './errors.js';
import { OrderSeed, type StoredOrder } from './order-seed.js';

export { OrderSeed, toStoredOrders, type StoredOrder } from './order-seed.js';

const validateStoredOrder = schemaValidator('stored-order', orderRecordSchema(true));

// True only while the store creates the records of a seed it has checked whole (OrderSeed.from):
// the schema lets those through without checking them a second time. Collection#create calls the
// schema synchronously, before its first await, so no other create can see it set.
let creatingCheckedOrders = false;

/**
 * The Standard Schema `@msw/data` validates stored orders with: the spec's Order (from
 * `spec/openapi.yaml`, through Ajv) plus a required `id` and `status`, and int64 ids checked exactly.
 * Records the store creates from a seed are checked once, whole, by `OrderSeed.from`, not again here.
 * @example
 * const orders = new Collection({ schema: storedOrderSchema });
 * await orders.create({ id: 1n, status: 'pending' });
 */
export const storedOrderSchema: StandardSchemaV1<StoredOrder, StoredOrder> = {
  '~standard': {
    version: 1,
    vendor: 'petstore-contract-kit',
    validate(value) {
      if (creatingCheckedOrders) return { value: value as StoredOrder };
      const violations = validateStoredOrder(value);
      if (violations.length === 0) return { value: value as StoredOrder };
      return { issues: violations.map(({ path, message }) => ({ message, path: path.split('/').slice(1) })) };
    },
  },
};

type OrderCollection = Collection<typeof storedOrderSchema>;
type OrderRecord = ReturnType<OrderCollection['all']>[number];

/**
 * The records of a collection by id: the ids sorted in a typed array, and where each record sits;
 * a lookup is a binary search (17 steps at 100,000 orders). 12 bytes an order, where a
 * `Map<bigint, record>` took about 50 and hashed a bigint at every lookup.
 */
class RecordIndex {
  readonly #ids: BigInt64Array;
  readonly #positions: Int32Array;

  constructor(records: readonly OrderRecord[]) {
    const ids = new BigInt64Array(records.length);
    let ascending = true;
    for (let position = 0; position < records.length; position++) {
      ids[position] = records[position]!.id;
      if (position > 0 && ids[position]! < ids[position - 1]!) ascending = false;
    }
    // Seeds usually list their orders by id: then the records are their own index.
    const positions = Int32Array.from({ length: records.length }, (_, position) => position);
    if (!ascending) positions.sort((left, right) => (ids[left]! < ids[right]! ? -1 : 1));
    this.#positions = positions;
    this.#ids = ascending ? ids : BigInt64Array.from(positions, (position) => ids[position]!);
  }

  /** Where the record with this id sits among the records, or -1. */
  position(id: bigint): number {
    let low = 0;
    let high = this.#ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const candidate = this.#ids[middle]!;
      if (candidate === id) return this.#positions[middle]!;
      if (candidate < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** A store's orders once created in `@msw/data`: the collection, its records in the seed's order, and an index by id. */
interface Records {
  collection: OrderCollection;
  list: readonly OrderRecord[];
  index: RecordIndex;
}

// Records are created in slices, with a turn of the event loop between them, so that a store of
// 100,000 orders being created never holds a request up for more than a few milliseconds.
const recordsPerSlice = 500;
const nextTurn = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/**
 * The mock's orders: an `@msw/data` collection validated by the spec's Order schema, with an index
 * by id, so that a cancellation takes well under a millisecond whatever the store's size.
 *
 * A store starts from a checked seed (`OrderSeed`), which stores and resets share, and answers from
 * it until its first change: only then, or when `materialize()` asks, are its records created in the
 * collection (100,000 orders take about half a second; reads go on meanwhile, changes wait). So a
 * seed is checked once, a named session that only reads costs nothing, and a mock of 100,000 orders
 * answers its first request without waiting for 100,000 records.
 *
 * Cancellation is one synchronous check-and-set once the records exist, so it is atomic: of any
 * number of concurrent cancels of one pending order, exactly one succeeds. A replacement is checked
 * whole first and then swapped in at once, so a bad input never leaves the store half changed.
 * @example
 * const store = new OrderStore([{ id: 1 }, { id: 2, status: 'shipped' }]);
 * await store.cancel(1n); // 'cancelled'
 * await store.cancel(2n); // throws MockError order_already_shipped
 */
export class OrderStore {
  readonly #initial: OrderSeed;
  #seed: OrderSeed;
  // Bumped by every replacement: records created for an earlier one are never put in place.
  #generation = 0;
  #records: Records | undefined;
  #creating: { generation: number; records: Promise<Records> } | undefined;
  // The orders cancelled since the seed, as indexes among those the seed lists: the list body is the
  // seed's bytes without them (see OrderSeed#listBody), so a cancel never writes the list again.
  #cancelledSinceSeed: number[] = [];
  #listBody: Uint8Array[] | undefined;

  /**
   * @param seed the orders the store starts with, and returns to on `reset()`: a checked `OrderSeed`, or orders to check.
   * @throws MockError when the seed is not a valid list of orders.
   */
  constructor(seed: OrderSeed | readonly unknown[]) {
    this.#initial = OrderSeed.from(seed);
    this.#seed = this.#initial;
  }

  /**
   * Replaces every order (checked whole first: on an error nothing changes).
   * @param at where the orders sit in the request body, as a JSON Pointer, for the error paths.
   * @throws MockError `invalid_orders` or `duplicate_order_id`.
   */
  async replace(orders: unknown, at = ''): Promise<void> {
    this.#startFrom(OrderSeed.from(orders, at));
  }

  /** Returns the store to the seed it was created with. */
  async reset(): Promise<void> {
    this.#startFrom(this.#initial);
  }

  /** How many orders the store holds, whatever their status. */
  get size(): number {
    return this.#records?.collection.count() ?? this.#seed.size;
  }

  /** Every order, with its status, in the order they were stored (copies: the caller's to keep). */
  all(): StoredOrder[] {
    return this.#records === undefined ? this.#seed.orders() : this.#records.collection.all().map((order) => ({ ...order }));
  }

  /** The order with this id, whatever its status (before the store's first change, read back from its seed: a scan). */
  find(id: bigint): StoredOrder | undefined {
    if (this.#records === undefined) return this.#seed.orders().find((order) => order.id === id);
    const position = this.#records.index.position(id);
    return position === -1 ? undefined : { ...this.#records.list[position]! };
  }

  /**
   * The JSON body of `listOrders`, as UTF-8 parts to send in order: every order that is not cancelled,
   * documented fields only. Views of the seed's bytes, without the orders cancelled since: nothing is
   * written again after a cancel.
   */
  listBody(): Uint8Array[] {
    this.#listBody ??= this.#seed.listBody([...this.#cancelledSinceSeed].sort((left, right) => left - right));
    return this.#listBody;
  }

  /**
   * Cancels a pending order (creating the store's records first, if it has not changed before).
   * @throws MockError `order_not_found` (unknown or already cancelled) or `order_already_shipped`.
   */
  async cancel(id: bigint): Promise<'cancelled'> {
    let records: Records;
    // A replacement while the records were being created makes them stale: create the new ones.
    do records = await this.#materialized();
    while (records !== this.#records);
    const position = records.index.position(id);
    const record = records.list[position];
    if (record === undefined || record.status === 'cancelled') {
      throw new MockError('order_not_found', `Order ${id} not found.`);
    }
    if (record.status === 'shipped') {
      throw new MockError('order_already_shipped', `Order ${id} has already shipped and cannot be cancelled.`);
    }
    // In place, with no await between the check and the write: this is what makes it atomic.
    // (Collection#update would scan the collection twice and re-validate through an async draft.)
    record.status = 'cancelled';
    this.#cancelledSinceSeed.push(this.#seed.listedIndex(position));
    this.#listBody = undefined;
    return 'cancelled';
  }

  /**
   * Creates the store's records in its `@msw/data` collection now, rather than at its first change.
   * The standalone server asks this of its default session once it listens.
   */
  async materialize(): Promise<void> {
    await this.#materialized();
  }

  #startFrom(seed: OrderSeed): void {
    this.#seed = seed;
    this.#generation++;
    this.#records = undefined;
    this.#creating = undefined;
    this.#cancelledSinceSeed = [];
    this.#listBody = undefined;
  }

  #materialized(): Promise<Records> {
    if (this.#records !== undefined) return Promise.resolve(this.#records);
    if (this.#creating?.generation !== this.#generation) this.#creating = { generation: this.#generation, records: this.#createRecords(this.#seed, this.#generation) };
    return this.#creating.records;
  }

  async #createRecords(seed: OrderSeed, generation: number): Promise<Records> {
    const collection: OrderCollection = new Collection({ schema: storedOrderSchema });
    for (let start = 0; start < seed.size && generation === this.#generation; start += recordsPerSlice) {
      if (start > 0) await nextTurn();
      const orders = seed.orders(start, Math.min(start + recordsPerSlice, seed.size));
      const created: Promise<OrderRecord>[] = [];
      creatingCheckedOrders = true;
      try {
        for (const order of orders) created.push(collection.create(order));
      } finally {
        creatingCheckedOrders = false;
      }
      // Each create resolves after one turn of the microtask queue: the records keep the seed's order.
      await Promise.all(created);
    }
    const list = collection.all();
    const records = { collection, list, index: new RecordIndex(list) };
    if (generation === this.#generation && this.#records === undefined) this.#records = records;
    return records;
  }
}
