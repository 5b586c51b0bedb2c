import type { OrderStatus } from '../../core/order-status.js';
import { IdOrder } from './id-order.js';
import type { OrderCollection, OrderRecord } from './order-collection.js';

// A rare status makes a walk skip most of the store, each record read at a random place when the ids
// were not created in order (20 ms for 100,000 records here, against 0.5 ms for one pass in the records'
// own order): past this many skips, the orders that remain are found in one pass and sorted (few: the
// status is rare). A common status never gets there (bench/RESULTS.md, "v2's list in a big store").
const skipsBeforeOnePass = 1024;

/**
 * Which orders come after an id, in ascending order of id: an index of the collection's positions beside
 * the collection (the ids and statuses stay in its records, read at each use), kept through the store's
 * hooks, so that a page of v2's list reads the orders it shows and the ones its filter skips, not the
 * store. `@msw/data` only ever adds a record at the end: records added since the index was made are put
 * in their places at its next use. A delete or an id change (its hooks run before the change is made)
 * makes it again at its next use; a status change moves nothing. Each use checks that the records it
 * walks are there and ascending, and makes the index again where they are not, so a collection changed
 * in a way no hook told gives the orders a search would.
 * @example
 * const index = new OrderIdIndex(collection);
 * index.eachById({ after: 9007199254740993n }, (order) => { page.push(order); return page.length < 21; });
 */
export class OrderIdIndex {
  readonly #collection: OrderCollection;
  // Undefined when it must be made again from the records.
  #order: IdOrder | undefined;
  // How many of the records, from the first, the index holds.
  #indexed = 0;
  // Ids a record is taking (an update's hook): until one is seen in place, each use checks the order whole.
  readonly #incoming = new Set<bigint>();

  /** `initial`: the order of the records the collection holds now (the seed's, when the records are its own, in order). */
  constructor(collection: OrderCollection, initial?: IdOrder) {
    this.#collection = collection;
    this.#order = initial?.copy();
    this.#indexed = initial === undefined ? 0 : collection.count();
  }

  /** A record about to be removed (its delete hook, just before the removal): made again at the next use, also when a use ran between the hook and the removal. */
  forget(): void {
    this.#order = undefined;
    queueMicrotask(() => {
      this.#order = undefined;
    });
  }

  /** A record about to take the id `next` (its update hook: the record is replaced later, once its schema ran). */
  changingId(next: bigint): void {
    this.#incoming.add(next);
    this.forget();
  }

  /**
   * Calls `visit` with the records whose id is greater than `after` (all when undefined) and whose status
   * is `status` (any when undefined), in ascending order of id, until it returns false.
   */
  eachById(
    { after, status }: { after?: bigint | undefined; status?: OrderStatus | undefined },
    visit: (order: OrderRecord) => boolean,
  ): void {
    const records = this.#collection.all();
    const idAt = (position: number) => records[position]!.id;
    let from = after;
    for (let attempt = 0; ; attempt++) {
      const order = this.#current(records, idAt);
      let previous: bigint | undefined;
      let consistent = true;
      let skipped = 0;
      for (let index = order.firstAfter(from, idAt); index < order.length; index++) {
        const record = records[order.positionAt(index)];
        if (record === undefined || (previous !== undefined && record.id < previous)) {
          consistent = false;
          break;
        }
        previous = record.id;
        if (status !== undefined && record.status !== status) {
          if (++skipped > skipsBeforeOnePass) {
            onePass(records, { after: record.id, status }, visit);
            return;
          }
          continue;
        }
        if (!visit(record)) return;
        from = record.id;
      }
      // An index made from the records now is consistent with them: the second walk ends the call.
      if (consistent || attempt > 0) return;
      this.#order = undefined;
    }
  }

  #current(records: readonly OrderRecord[], idAt: (position: number) => bigint): IdOrder {
    if (this.#incoming.size > 0) this.#checkIncoming(records);
    if (this.#order === undefined || records.length < this.#indexed) {
      this.#order = IdOrder.of(records.length, idAt);
      this.#indexed = records.length;
    }
    // Few records are added between two pages; a seed's records all at once come with their order.
    for (; this.#indexed < records.length; this.#indexed++) this.#order.insert(this.#indexed, idAt);
    return this.#order;
  }

  // Until an id change is in place, a record may hold its new id at the position the index has for its
  // old one: made again while the records are not in ascending order, done once every new id is seen.
  #checkIncoming(records: readonly OrderRecord[]): void {
    const order = this.#order;
    if (order === undefined) return;
    const seen = new Set<bigint>();
    for (let index = 0; index < order.length; index++) {
      const record = records[order.positionAt(index)];
      const earlier = index > 0 ? records[order.positionAt(index - 1)] : undefined;
      if (record === undefined || (earlier !== undefined && record.id < earlier.id)) {
        this.#order = undefined;
        return;
      }
      if (this.#incoming.has(record.id)) seen.add(record.id);
    }
    for (const id of seen) this.#incoming.delete(id);
  }
}

// The records of `status` whose id is greater than `after`, found in one pass in their own order, given in ascending order of id.
function onePass(
  records: readonly OrderRecord[],
  { after, status }: { after: bigint; status: OrderStatus },
  visit: (order: OrderRecord) => boolean,
): void {
  const found: OrderRecord[] = [];
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    if (record.status === status && record.id > after) found.push(record);
  }
  found.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  for (const record of found) if (!visit(record)) return;
}
