import { Collection, Query } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toInt64 } from '../core/int64.js';
import { orderRecordSchema, type OrderInput, type OrderStatus } from '../core/provider-state.js';
import { schemaValidator } from '../core/schema-validator.js';
import { MockError } from './errors.js';
import { listBody, nextTurn, OrderSeed, storedOrder, storedOrdersBody, type StoredOrder } from './order-seed.js';
import { StoreChanges } from './store-changes.js';

export { OrderSeed, toStoredOrders, type StoredOrder } from './order-seed.js';

/** The Standard Schema of the store's records: an order as `replaceOrders` takes it in, as `orders()` gives it out. */
export type OrderSchema = StandardSchemaV1<OrderInput, StoredOrder>;

/**
 * A store's orders as an `@msw/data` collection (`await mock.collection()`): records as `orders()`
 * returns them (`id` and `petId` as `bigint`, a `status`), created from what `replaceOrders` takes.
 */
export type OrderCollection = Collection<OrderSchema>;

/** One record of an `OrderCollection`: a `StoredOrder` (with `@msw/data`'s hidden keys). */
export type OrderRecord = ReturnType<OrderCollection['all']>[number];

const validateOrder = schemaValidator('order-input', orderRecordSchema(false));

function checkedOrder(value: unknown): StandardSchemaV1.Result<StoredOrder> {
  const violations = validateOrder(value);
  if (violations.length > 0)
    return { issues: violations.map(({ path, message }) => ({ message, path: path.split('/').slice(1) })) };
  const order = value as OrderInput;
  return { value: storedOrder(order, order.status ?? 'pending') };
}

/**
 * The Standard Schema `@msw/data` validates the store's records with: the spec's Order (from
 * `spec/openapi.yaml`, through Ajv) plus a required `id` and an optional `status` (`pending` when
 * absent), no other field, int64 fields exact (a `number` beyond 2^53 is refused: it is not exact).
 * The record it gives is a `StoredOrder`: int64 fields as `bigint`, a status.
 * @example
 * const orders = new Collection({ schema: storedOrderSchema });
 * await orders.create({ id: 9007199254740993n, petId: 7 }); // { id: 9007199254740993n, petId: 7n, status: 'pending' }
 */
export const storedOrderSchema: OrderSchema = {
  '~standard': { version: 1, vendor: 'petstore-contract-kit', validate: checkedOrder },
};

/**
 * A collection for one store, and the call that hands it out: until then its schema takes every
 * record as it is, for the store creates only the records of a seed `OrderSeed.from` has checked
 * whole; from then on it checks every record as `storedOrderSchema` does. No one else holds the
 * collection before, so no other record can pass unchecked.
 */
function seedingCollection(): { collection: OrderCollection; seeded(): void } {
  let checking = false;
  const schema: OrderSchema = {
    '~standard': {
      version: 1,
      vendor: 'petstore-contract-kit',
      validate: (value) => (checking ? checkedOrder(value) : { value: value as StoredOrder }),
    },
  };
  const collection = new Collection({ schema });
  return {
    collection,
    seeded: () => {
      checking = true;
    },
  };
}

/** The query of the order with this id: a predicate (a `where({ id })` object is about five times slower to scan with). */
const byId = (id: bigint) => new Query<OrderRecord>((order) => order.id === id);

/** The order with this id in a collection: a scan (2–5 ms at 100,000 orders). */
function findOrder(collection: OrderCollection, id: bigint): OrderRecord | undefined {
  return collection.findFirst(byId(id));
}

/**
 * The list body of a collection's records, built once per change. `records` are the records it was
 * built from (a copy of `collection.all()`): `@msw/data` announces a change to its hooks before it
 * makes it (a create is pushed, an update put in place, after its listeners have run), so a body
 * built in between would miss it; a body whose records are no longer those of the collection, one
 * for one, is never served (comparing 100,000 references takes about 1 ms).
 */
interface ListBody {
  records: readonly OrderRecord[];
  parts: readonly Uint8Array[];
}

/** A store's orders once created in `@msw/data`: the collection, and its list body while it is current. */
interface Records {
  collection: OrderCollection;
  list: ListBody | undefined;
}

function sameRecords(records: readonly OrderRecord[], current: readonly OrderRecord[]): boolean {
  if (records.length !== current.length) return false;
  for (let index = 0; index < records.length; index++) if (records[index] !== current[index]) return false;
  return true;
}

// Records are created in slices, with a turn of the event loop between them, so that a store of
// 100,000 orders being created never holds a request up for more than a few milliseconds.
const recordsPerSlice = 500;

const notFound = (id: bigint) => new MockError('order_not_found', `Order ${id} not found.`);
const duplicate = (id: bigint) =>
  new MockError('duplicate_order_id', `Invalid order: id ${id} is already in the store.`, {
    violations: [{ path: '/id', message: `duplicates the id of an order in the store (${id})` }],
  });

/**
 * The draft of a cancel, for `Collection#update`: a pending order becomes cancelled; a cancelled
 * one is not found, a shipped one refused (thrown out of the draft, so the update writes nothing).
 */
function cancelDraft(id: bigint): (draft: StoredOrder) => void {
  return (draft) => {
    if (draft.status === 'cancelled') throw notFound(id);
    if (draft.status === 'shipped')
      throw new MockError('order_already_shipped', `Order ${id} has already shipped and cannot be cancelled.`);
    draft.status = 'cancelled';
  };
}

/**
 * The mock's orders: an `@msw/data` collection validated by the spec's Order schema. It is the one
 * truth: every read and write of an order's state after the store's first change goes through the
 * collection's API (`findFirst`, `update`, `all`, `count`), and a write made by someone else through
 * it (`await store.collection()`) is listed next and decides the next cancel.
 *
 * A store starts from a checked seed (`OrderSeed`), which stores and resets share, and answers from
 * it until its first change: only then, or when `materialize()` or `collection()` asks, are its
 * records created in a new collection (100,000 orders take about a second; reads go on meanwhile,
 * changes wait). So a seed is checked once, a named session that only reads costs nothing, and a
 * mock of 100,000 orders answers its first request without waiting for 100,000 records.
 *
 * Beside the collection, one cache: the list body, built once per change (the seed's bytes until
 * the first), which the collection's hooks drop. Writes of the store (cancels) are serialised, one
 * after the other, so a cancel's check and write are atomic: of any number of concurrent cancels of
 * one pending order, exactly one succeeds. A replacement is checked whole first and then swapped
 * in at once, with a new collection, so a bad input never leaves the store half changed.
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
  // The store's writes, one after the other: each starts once the one before has settled.
  #writes: Promise<unknown> = Promise.resolve();
  // Which store this is, for its entity tags (two stores, sessions, never share a tag), and its changes.
  readonly #changes: StoreChanges;

  /**
   * @param seed the orders the store starts with, and returns to on `reset()`: a checked `OrderSeed`, or orders to check.
   * @param options.tag what tells this store's entity tags from other stores' (a mock numbers its sessions' stores). Default: a random one.
   * @throws MockError when the seed is not a valid list of orders.
   */
  constructor(seed: OrderSeed | readonly unknown[], options: { tag?: string } = {}) {
    this.#initial = OrderSeed.from(seed);
    this.#seed = this.#initial;
    this.#changes = new StoreChanges(options.tag ?? Math.random().toString(36).slice(2, 10));
  }

  /**
   * Replaces every order (checked whole first: on an error nothing changes). The store's collection
   * is a new one from then on: `collection()` gives it.
   * @param at where the orders sit in the request body, as a JSON Pointer, for the error paths.
   * @throws MockError `invalid_orders` or `duplicate_order_id`.
   */
  async replace(orders: unknown, at = ''): Promise<void> {
    this.#startFrom(OrderSeed.from(orders, at));
  }

  /** Returns the store to the seed it was created with, in a new collection (`collection()` gives it). */
  async reset(): Promise<void> {
    this.#startFrom(this.#initial);
  }

  /** How many orders the store holds, whatever their status. */
  get size(): number {
    return this.#records?.collection.count() ?? this.#seed.size;
  }

  /** Every order, with its status, in the order they were stored (copies: the caller's to keep). */
  all(): StoredOrder[] {
    return this.#records === undefined
      ? this.#seed.orders()
      : this.#records.collection.all().map((order) => ({ ...order }));
  }

  /**
   * The body of `GET /__mock/orders`: every order with its status, written a slice at a time with turns
   * of the event loop between (`storedOrdersBody`), from the orders as they were when it was asked for.
   */
  storedBody(): Promise<Uint8Array[]> {
    const records = this.#records;
    if (records === undefined) {
      const seed = this.#seed;
      return storedOrdersBody(seed.size, (start, end) => seed.orders(start, end));
    }
    // The records as they are now (references: an update puts a new record in place, and leaves these).
    const current = [...records.collection.all()];
    return storedOrdersBody(current.length, (start, end) => current.slice(start, end));
  }

  /** The order with this id, whatever its status (a copy); a scan of the collection, or of the seed before the store's first change. */
  find(id: bigint): StoredOrder | undefined {
    if (this.#records === undefined) return this.#seed.orders().find((order) => order.id === id);
    const order = findOrder(this.#records.collection, id);
    return order === undefined ? undefined : { ...order };
  }

  /**
   * The stored orders beyond 2^53 whose id a client that parsed it as a float64 (`JSON.parse`) would
   * send as `sent`: the float64's exact value, or the digits JavaScript prints for it
   * (9223372036854775807 prints as 9223372036854776000). None when the store holds `sent` itself (a
   * cancelled order): then nothing was lost. One scan, made only for an id that was not found; it
   * creates the store's records first, so that a big seed is not parsed again at each such 404.
   * @example
   * await new OrderStore([{ id: 9007199254740993n }]).ordersWithSameFloat64(9007199254740992n) // [{ id: 9007199254740993n, status: 'pending' }]
   */
  async ordersWithSameFloat64(sent: bigint): Promise<{ id: bigint; status: OrderStatus }[]> {
    const rounded = Number(sent);
    if (Math.abs(rounded) < 2 ** 53 || Math.abs(rounded) > 2 ** 63) return [];
    const printed = (id: bigint) => {
      const double = Number(id);
      return double === rounded && (BigInt(double) === sent || BigInt(String(double)) === sent);
    };
    const { collection } = await this.#materialized();
    const twins: { id: bigint; status: OrderStatus }[] = [];
    for (const order of collection.all()) {
      if (order.id === sent) return [];
      if (printed(order.id)) twins.push({ id: order.id, status: order.status });
    }
    return twins;
  }

  /**
   * The JSON body of `listOrders`, as UTF-8 parts to send in order: every order that is not cancelled,
   * documented fields only. The seed's bytes until the store's first change; then written from the
   * collection's records once per change, and the same parts until the next.
   */
  listBody(): readonly Uint8Array[] {
    const records = this.#records;
    if (records === undefined) return this.#seed.listBody();
    const current = records.collection.all();
    if (records.list === undefined || !sameRecords(records.list.records, current))
      records.list = { records: [...current], parts: [listBody(current)] };
    return records.list.parts;
  }

  /**
   * Cancels a pending order (creating the store's records first, if it has not changed before):
   * `Collection#update` of its record, after every earlier write of the store has settled.
   * @throws MockError `order_not_found` (unknown or already cancelled) or `order_already_shipped`.
   */
  cancel(id: bigint): Promise<'cancelled'> {
    return this.#write(async () => {
      let records: Records;
      // A replacement while the records were being created makes them stale: create the new ones.
      do records = await this.#materialized();
      while (records !== this.#records);
      // One search by id, in update itself (the record's status is decided inside its draft; a refusal
      // throws out of the draft, so nothing is written): a search of our own first would scan again.
      const cancelled = await records.collection.update(byId(id), { data: cancelDraft(id) });
      if (cancelled === undefined) throw notFound(id);
      return 'cancelled' as const;
    });
  }

  /**
   * The store's `@msw/data` collection, its records created first if they are not yet: read and
   * write it as any collection; the next list and the next cancel see what you changed. A
   * `replace()` or `reset()` gives the store a new collection: ask for it again after one.
   * @example
   * const orders = await store.collection();
   * await orders.update((q) => q.where({ id: 3n }), { data(order) { order.status = 'shipped'; } });
   * await orders.create({ id: 9007199254740993n, petId: 7n, status: 'pending' });
   */
  async collection(): Promise<OrderCollection> {
    let records: Records;
    do records = await this.#materialized();
    while (records !== this.#records);
    return records.collection;
  }

  /**
   * Creates the store's records in its `@msw/data` collection now, rather than at its first change.
   * The standalone server asks this of its default session once it listens.
   */
  async materialize(): Promise<void> {
    await this.#materialized();
  }

  /**
   * Calls `listener` after the store's orders change: a replacement, a reset, and every write through
   * its collection (a cancel, or yours). Called on a later turn, once the change is in place
   * (`@msw/data` tells its hooks of a change before it makes it), once for all the changes made
   * before that turn. Returns the unsubscribe.
   * @example
   * const stop = store.onChange(() => localStorage.setItem('orders', stringifyJson(store.all())));
   */
  onChange(listener: () => void): () => void {
    return this.#changes.listen(listener);
  }

  /**
   * An entity tag of the store's orders as they are now (`GET /__mock/orders` answers it as its
   * `ETag`): it changes with every change of the orders, a replacement, a reset or any write through
   * the collection, and differs from every other store's.
   * @example
   * const before = store.changeTag;
   * await store.cancel(1n);
   * store.changeTag === before // false
   */
  get changeTag(): string {
    return this.#changes.tag;
  }

  #write<T>(write: () => Promise<T>): Promise<T> {
    const written = this.#writes.then(() => this.#changes.ownWrite(write));
    this.#writes = written.catch(() => {});
    return written;
  }

  #startFrom(seed: OrderSeed): void {
    this.#seed = seed;
    this.#generation++;
    this.#records = undefined;
    this.#creating = undefined;
    this.#changes.changed('store');
  }

  #materialized(): Promise<Records> {
    if (this.#records !== undefined) return Promise.resolve(this.#records);
    if (this.#creating?.generation !== this.#generation)
      this.#creating = { generation: this.#generation, records: this.#createRecords(this.#seed, this.#generation) };
    return this.#creating.records;
  }

  async #createRecords(seed: OrderSeed, generation: number): Promise<Records> {
    const { collection, seeded } = seedingCollection();
    for (let start = 0; start < seed.size && generation === this.#generation; start += recordsPerSlice) {
      if (start > 0) await nextTurn();
      const created: Promise<OrderRecord>[] = [];
      // Each create resolves after the same turns of the microtask queue: the records keep the seed's order.
      for (const order of seed.orders(start, Math.min(start + recordsPerSlice, seed.size)))
        created.push(collection.create(order));
      await Promise.all(created);
    }
    seeded();
    // The seed's bytes are the list of exactly these records, until the first change.
    const records: Records = { collection, list: { records: [...collection.all()], parts: seed.listBody() } };
    this.#watch(records);
    if (generation === this.#generation && this.#records === undefined) this.#records = records;
    return records;
  }

  /**
   * The collection's hooks, set once its seed records exist (so creating them pays for no event):
   * every change drops the list body; a create, or an update of an id, that would give two orders
   * one id is refused with `duplicate_order_id` (two such creates in flight at once are not caught).
   */
  #watch(records: Records): void {
    const { collection } = records;
    const changed = () => {
      records.list = undefined;
      this.#changes.changed('collection');
    };
    collection.hooks.on('create', (event) => {
      changed();
      const { id } = event.data.record;
      if (findOrder(collection, id) !== undefined) throw duplicate(id);
    });
    collection.hooks.on('update', (event) => {
      changed();
      if (event.data.path.length !== 1 || event.data.path[0] !== 'id') return;
      const id = toInt64(event.data.nextValue);
      if (id !== undefined && findOrder(collection, id) !== undefined) throw duplicate(id);
    });
    collection.hooks.on('delete', changed);
  }
}
