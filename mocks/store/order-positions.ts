import { Query } from '@msw/data';
import type { OrderCollection, OrderRecord } from './order-collection.js';

// A predicate: a `where({ id })` object is slower to scan with.
const byId = (id: bigint) => new Query<OrderRecord>((order) => order.id === id);

/**
 * Where each order sits in its collection, by id: a hint beside the collection, never a second truth.
 * `@msw/data` only ever adds a record at the end, so records added since the hint was made are
 * indexed from where it stopped; a delete or an id change (told by the store's hooks) makes it
 * again from the records. A record found is checked against the collection (the record at that
 * position has the id) and the hint made again if it is not. So a lookup, a 404 and a 409 cost the
 * same in a store of any size, where a search scans from the first record.
 * @example
 * const positions = new OrderPositions(collection);
 * positions.find(250_000n) // the record, without scanning the 249,999 before it
 */
export class OrderPositions {
  readonly #collection: OrderCollection;
  #positions = new Map<bigint, number>();
  // How many of the records, from the first, the hint holds; -1 when it must be made again.
  #indexed = -1;
  // Ids a record is taking (an update of its id): update hooks run before the record is replaced,
  // so the hint may not hold them yet. They are searched for.
  readonly #incoming = new Set<bigint>();

  constructor(collection: OrderCollection) {
    this.#collection = collection;
  }

  /** The record with this id, or undefined when the collection holds none. */
  find(id: bigint): OrderRecord | undefined {
    if (this.#incoming.has(id)) return this.#search(id);
    const records = this.#collection.all();
    const found = this.#lookUp(records, id);
    if (found !== 'stale') return found;
    this.#indexed = -1;
    const again = this.#lookUp(records, id);
    // Records that share an id (a collection changed around the store) are found the way @msw/data finds them.
    return again === 'stale' ? this.#collection.findFirst(byId(id)) : again;
  }

  /** A record about to take another id (its update hook). */
  changingId(next: bigint): void {
    this.#incoming.add(next);
    this.#indexed = -1;
  }

  /**
   * A record about to be removed (its delete hook, which runs just before the removal): the hint is
   * made again at its next use, also when a lookup ran between the hook and the removal.
   */
  forget(): void {
    this.#indexed = -1;
    queueMicrotask(() => {
      this.#indexed = -1;
    });
  }

  #lookUp(records: readonly OrderRecord[], id: bigint): OrderRecord | undefined | 'stale' {
    if (this.#indexed === -1 || records.length < this.#indexed) {
      this.#positions = new Map();
      this.#indexed = 0;
    }
    for (; this.#indexed < records.length; this.#indexed++)
      this.#positions.set(records[this.#indexed]!.id, this.#indexed);
    const index = this.#positions.get(id);
    if (index === undefined) return undefined;
    return records[index]?.id === id ? records[index] : 'stale';
  }

  // Once the record holds its new id, the hint is made again with it.
  #search(id: bigint): OrderRecord | undefined {
    const found = this.#collection.findFirst(byId(id));
    if (found !== undefined) {
      this.#incoming.delete(id);
      this.#indexed = -1;
    }
    return found;
  }
}
