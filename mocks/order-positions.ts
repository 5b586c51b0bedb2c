import { Query } from '@msw/data';
import type { OrderCollection, OrderRecord } from './order-store.js';

// A predicate: a `where({ id })` object is slower to scan with.
const byId = (id: bigint) => new Query<OrderRecord>((order) => order.id === id);

function positionsOf(records: readonly OrderRecord[]): Map<bigint, number> {
  const positions = new Map<bigint, number>();
  for (let index = 0; index < records.length; index++) positions.set(records[index]!.id, index);
  return positions;
}

/**
 * Where each order sits in its collection, by id: a hint beside the collection, never a second truth.
 * Every answer is checked against the collection's own records (the record at the position has the
 * id, and the hint holds as many ids as the collection holds records); a hint that fails the check is
 * made again from the records, and the store's hooks drop it when records are removed or change ids.
 * So a lookup, a 404 and a 409 cost the same in a store of any size, where a search scans from the
 * first record.
 * @example
 * const positions = new OrderPositions(collection);
 * positions.find(250_000n) // the record, without scanning the 249,999 before it
 */
export class OrderPositions {
  readonly #collection: OrderCollection;
  #positions: Map<bigint, number> | undefined;
  // Ids a record is taking (an update of its id): the hint may not hold them yet, since update hooks
  // run before the record is replaced, with the collection's size unchanged. They are searched for.
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
    this.#positions = positionsOf(records);
    const again = this.#lookUp(records, id);
    // Records that share an id (a collection changed around the store) are found the way @msw/data finds them.
    return again === 'stale' ? this.#collection.findFirst(byId(id)) : again;
  }

  /** A record about to be added at the end of the collection (its create hook). */
  adding(id: bigint): void {
    this.#positions?.set(id, this.#collection.count());
  }

  /** A record about to take another id (its update hook). */
  changingId(next: bigint): void {
    this.#incoming.add(next);
  }

  /** A record about to be removed (its delete hook): the hint is made again at its next use. */
  forget(): void {
    this.#positions = undefined;
  }

  // Once the record holds its new id, the hint is made again with it.
  #search(id: bigint): OrderRecord | undefined {
    const found = this.#collection.findFirst(byId(id));
    if (found !== undefined) {
      this.#incoming.delete(id);
      this.#positions = undefined;
    }
    return found;
  }

  #lookUp(records: readonly OrderRecord[], id: bigint): OrderRecord | undefined | 'stale' {
    const positions = this.#positions;
    if (positions === undefined || positions.size !== records.length) return 'stale';
    const index = positions.get(id);
    if (index === undefined) return undefined;
    const record = records[index];
    return record?.id === id ? record : 'stale';
  }
}
