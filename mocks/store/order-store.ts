import { Collection, Query } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toInt64 } from '../../core/int64.js';
import { orderRecordSchema, type OrderInput, type OrderStatus } from '../../core/provider-state.js';
import { schemaValidator } from '../../core/schema-validator.js';
import { MockError } from '../base/errors.js';
import { listBody } from './list-body.js';
import { nextTurn, OrderSeed, storedOrder, storedOrdersBody, type StoredOrder } from './order-seed.js';
import { StoreChanges } from './store-changes.js';
import { OrderPositions } from './order-positions.js';
import { OrderIdIndex } from './order-id-index.js';
import type { OrderCollection, OrderRecord, OrderSchema } from './order-collection.js';
import { flattenRecordKeys } from './flat-record-keys.js';
import { updatesByRecordWithoutSearch } from './update-by-record.js';

export { OrderSeed, toStoredOrders, type StoredOrder } from './order-seed.js';

export type { OrderCollection, OrderRecord, OrderSchema } from './order-collection.js';

const validateOrder = schemaValidator('order-input', orderRecordSchema(false));

function checkedOrder(value: unknown): StandardSchemaV1.Result<StoredOrder> {
  const violations = validateOrder(value);
  if (violations.length > 0)
    return { issues: violations.map(({ path, message }) => ({ message, path: path.split('/').slice(1) })) };
  const order = value as OrderInput;
  return { value: storedOrder(order, order.status ?? 'pending') };
}

/**
 * The schema of the store's records: the spec's Order with a required `id` and a `status`, int64 fields exact.
 * @example
 * const orders = new Collection({ schema: storedOrderSchema });
 * await orders.create({ id: 9007199254740993n, petId: 7 }); // { id: 9007199254740993n, petId: 7n, status: 'pending' }
 */
export const storedOrderSchema: OrderSchema = {
  '~standard': { version: 1, vendor: 'petstore-contract-kit', validate: checkedOrder },
};

// Until `seeded()` the schema takes every record as it is: they come from a seed already checked whole,
// and no one else holds the collection yet.
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

// A predicate: a `where({ id })` object is slower to scan with.
const byId = (id: bigint) => new Query<OrderRecord>((order) => order.id === id);

// The list body, with the records it was built from. `@msw/data` calls its hooks before it makes a
// change, so a body built in between would miss it: a body whose records are not the collection's is not served.
interface ListBody {
  records: readonly OrderRecord[];
  parts: readonly Uint8Array[];
}

interface Records {
  collection: OrderCollection;
  positions: OrderPositions;
  ids: OrderIdIndex;
  list: ListBody | undefined;
}

function sameRecords(records: readonly OrderRecord[], current: readonly OrderRecord[]): boolean {
  if (records.length !== current.length) return false;
  for (let index = 0; index < records.length; index++) if (records[index] !== current[index]) return false;
  return true;
}

// Records are created in slices, a turn of the event loop between them, so that no request waits long.
const recordsPerSlice = 500;

const notFound = (id: bigint) => new MockError('order_not_found', `Order ${id} not found.`);
const duplicate = (id: bigint) =>
  new MockError('duplicate_order_id', `Invalid order: id ${id} is already in the store.`, {
    violations: [{ path: '/id', message: `duplicates the id of an order in the store (${id})` }],
  });

const shipped = (id: bigint) =>
  new MockError('order_already_shipped', `Order ${id} has already shipped and cannot be cancelled.`);

// A refusal thrown out of the draft (see cancelDraft) as the outcome it stands for.
function draftRefusal(error: unknown): 'absent' | 'shipped' {
  if (error instanceof MockError && error.code === 'order_not_found') return 'absent';
  if (error instanceof MockError && error.code === 'order_already_shipped') return 'shipped';
  throw error;
}

// Throwing out of the draft makes the update write nothing.
function cancelDraft(id: bigint): (draft: StoredOrder) => void {
  return (draft) => {
    if (draft.status === 'cancelled') throw notFound(id);
    if (draft.status === 'shipped') throw shipped(id);
    draft.status = 'cancelled';
  };
}

/**
 * The mock's orders, in an `@msw/data` collection validated by the spec's Order schema. It answers from
 * its seed until its first change, and its writes run one after the other, so concurrent cancels of one
 * order have exactly one winner.
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
  readonly #changes: StoreChanges;
  // Whether a cancel hands update the record itself rather than an id predicate.
  #updateByRecord: boolean | undefined;

  /**
   * `options.tag` keeps this store's entity tags apart from other stores'. `options.updateByRecord`:
   * whether a cancel updates the record by itself (`update(record)`) or by an id predicate; by default,
   * by itself where the installed `@msw/data` does so without a search (`updatesByRecordWithoutSearch`).
   */
  constructor(seed: OrderSeed | readonly unknown[], options: { tag?: string; updateByRecord?: boolean } = {}) {
    this.#initial = OrderSeed.from(seed);
    this.#seed = this.#initial;
    this.#changes = new StoreChanges(options.tag ?? Math.random().toString(36).slice(2, 10));
    this.#updateByRecord = options.updateByRecord;
  }

  /** Replaces every order, checked whole first; `at` is their JSON Pointer in the request body, for errors. */
  async replace(orders: unknown, at = ''): Promise<void> {
    this.#startFrom(OrderSeed.from(orders, at));
  }

  async reset(): Promise<void> {
    this.#startFrom(this.#initial);
  }

  get size(): number {
    return this.#records?.collection.count() ?? this.#seed.size;
  }

  /** Copies of every order, in the order they were stored. */
  all(): StoredOrder[] {
    return this.#records === undefined
      ? this.#seed.orders()
      : this.#records.collection.all().map((order) => ({ ...order }));
  }

  /**
   * Calls `visit` with the orders whose id is greater than `after` (all when undefined) and whose status
   * is `status` (any when undefined), in ascending order of id, until it returns false: a page of v2's
   * list reads the orders it shows and the ones its filter skips, found by a binary search from the
   * cursor's id in an index kept beside the store (a seed's orders read back alone, a record not copied).
   * `visit` must not change an order.
   * @example
   * const page: StoredOrder[] = [];
   * store.eachOrderById({ after: 9007199254740993n, status: 'pending' }, (order) => page.push({ ...order }) < 20);
   */
  eachOrderById(
    from: { after?: bigint | undefined; status?: OrderStatus | undefined },
    visit: (order: Readonly<StoredOrder>) => boolean,
  ): void {
    if (this.#records === undefined) this.#seed.eachById(from, visit);
    else this.#records.ids.eachById(from, visit);
  }

  /** The body of `GET /__mock/orders`, from the orders as they were when it was asked for. */
  storedBody(): Promise<Uint8Array[]> {
    const records = this.#records;
    if (records === undefined) {
      const seed = this.#seed;
      return storedOrdersBody(seed.size, (start, end) => seed.orders(start, end));
    }
    const current = [...records.collection.all()];
    return storedOrdersBody(current.length, (start, end) => current.slice(start, end));
  }

  /** A copy of the order with this id, whatever its status. */
  find(id: bigint): StoredOrder | undefined {
    if (this.#records === undefined) return this.#seed.find(id);
    const order = this.#records.positions.find(id);
    return order === undefined ? undefined : { ...order };
  }

  /**
   * The orders whose id a client that parsed it as a float64 would send as `sent`; none when `sent` is stored itself.
   * @example
   * await new OrderStore([{ id: 9007199254740993n }]).ordersWithSameFloat64(9007199254740992n) // [{ id: 9007199254740993n, status: 'pending' }]
   */
  async ordersWithSameFloat64(sent: bigint): Promise<{ id: bigint; status: OrderStatus }[]> {
    const rounded = Number(sent);
    if (Math.abs(rounded) < 2 ** 53 || Math.abs(rounded) > 2 ** 63) return [];
    const sendsAs = (id: bigint) => {
      const asFloat64 = Number(id);
      return asFloat64 === rounded && (BigInt(asFloat64) === sent || BigInt(String(asFloat64)) === sent);
    };
    const { collection } = await this.#materialized();
    const sameFloat64Orders: { id: bigint; status: OrderStatus }[] = [];
    for (const order of collection.all()) {
      if (order.id === sent) return [];
      if (sendsAs(order.id)) sameFloat64Orders.push({ id: order.id, status: order.status });
    }
    return sameFloat64Orders;
  }

  /** The body of `listOrders` as UTF-8 parts, built once per change. */
  listBody(): readonly Uint8Array[] {
    const records = this.#records;
    if (records === undefined) return this.#seed.listBody();
    const current = records.collection.all();
    if (records.list === undefined || !sameRecords(records.list.records, current))
      records.list = { records: [...current], parts: [listBody(current)] };
    return records.list.parts;
  }

  /** Cancels a pending order, after every earlier write of the store has settled. */
  async cancel(id: bigint): Promise<'cancelled'> {
    const outcome = await this.cancelOutcome(id);
    if (outcome === 'absent') throw notFound(id);
    if (outcome === 'shipped') throw shipped(id);
    return outcome;
  }

  /**
   * What `cancel` does, with its refusal as a value rather than an error: the mock answers an unknown
   * or shipped order every few calls, and builds its 404 or 409 from the value.
   * @example
   * await new OrderStore([{ id: 2, status: 'shipped' }]).cancelOutcome(2n) // 'shipped'
   */
  cancelOutcome(id: bigint): Promise<'cancelled' | 'absent' | 'shipped'> {
    return this.#write(async () => {
      let records: Records;
      // A replacement while the records were being created makes them stale: create the new ones.
      do records = await this.#materialized();
      while (records !== this.#records);
      // Refused from the position hint, before update would scan; the writes run one at a time, so
      // what the hint found still holds when update's draft checks the status again.
      const order = records.positions.find(id);
      if (order === undefined || order.status === 'cancelled') return 'absent';
      if (order.status === 'shipped') return 'shipped';
      this.#updateByRecord ??= await updatesByRecordWithoutSearch();
      const cancelled = await records.collection
        .update(this.#updateByRecord ? order : byId(id), { data: cancelDraft(id) })
        .catch(draftRefusal);
      if (typeof cancelled === 'string') return cancelled;
      return cancelled === undefined ? 'absent' : 'cancelled';
    });
  }

  /**
   * Moves an order whose status is one of `from` to `to`, after every earlier write of the store has
   * settled: the status it found (the order unchanged unless it is one of `from`), or `absent`. What an
   * operation other than the cancel writes with (`StoreOfOperations.change`).
   * @example
   * await store.change(1n, { from: ['pending'], to: 'shipped' }); // 'pending', and order 1 is shipped
   */
  change(id: bigint, { from, to }: { from: readonly OrderStatus[]; to: OrderStatus }): Promise<OrderStatus | 'absent'> {
    return this.#write(async () => {
      let records: Records;
      do records = await this.#materialized();
      while (records !== this.#records);
      // As for a cancel: the writes run one at a time, so what the hint found still holds in the draft.
      const order = records.positions.find(id);
      if (order === undefined) return 'absent';
      if (!from.includes(order.status)) return order.status;
      this.#updateByRecord ??= await updatesByRecordWithoutSearch();
      const changed = await records.collection.update(this.#updateByRecord ? order : byId(id), {
        data: (draft) => {
          draft.status = to;
        },
      });
      return changed === undefined ? 'absent' : order.status;
    });
  }

  /**
   * The store's `@msw/data` collection; the next list and cancel see what you change. Ask again after a replace or reset.
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

  /** Creates the store's records now, rather than at its first change. */
  async materialize(): Promise<void> {
    await this.#materialized();
  }

  /**
   * Calls `listener` once a turn after the orders change, however they changed. Returns the unsubscribe.
   * @example
   * const stop = store.onChange(() => localStorage.setItem('orders', stringifyJson(store.all())));
   */
  onChange(listener: () => void): () => void {
    return this.#changes.listen(listener);
  }

  /**
   * An entity tag of the orders as they are now, different from every other store's.
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
      for (const order of seed.orders(start, Math.min(start + recordsPerSlice, seed.size)))
        created.push(collection.create(order));
      for (const record of await Promise.all(created)) flattenRecordKeys(record);
    }
    seeded();
    // The seed's bytes are the list of exactly these records, until the first change.
    const records: Records = {
      collection,
      positions: new OrderPositions(collection),
      // The records are the seed's, in its order: the seed's order by id is theirs.
      ids: new OrderIdIndex(collection, collection.count() === seed.size ? seed.idOrder() : undefined),
      list: { records: [...collection.all()], parts: seed.listBody() },
    };
    this.#watch(records);
    if (generation === this.#generation && this.#records === undefined) this.#records = records;
    return records;
  }

  // Set once the seed's records exist, so that creating them fires no hook. Two duplicate creates in flight are not caught.
  #watch(records: Records): void {
    const { collection, positions, ids } = records;
    const changed = () => {
      records.list = undefined;
      this.#changes.changed('collection');
    };
    collection.hooks.on('create', (event) => {
      changed();
      const { id } = event.data.record;
      if (positions.find(id) !== undefined) throw duplicate(id);
      flattenRecordKeys(event.data.record);
    });
    collection.hooks.on('update', (event) => {
      changed();
      if (event.data.path.length !== 1 || event.data.path[0] !== 'id') return;
      const id = toInt64(event.data.nextValue);
      if (id === undefined) return;
      if (positions.find(id) !== undefined) throw duplicate(id);
      positions.changingId(id);
      ids.changingId(id);
    });
    collection.hooks.on('delete', () => {
      changed();
      positions.forget();
      ids.forget();
    });
  }
}
