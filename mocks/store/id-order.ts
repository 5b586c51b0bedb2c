/**
 * Positions of orders sorted by their ids, exactly (ids are `bigint`s, compared as such over the whole
 * int64 range): a binary search finds the first order after a cursor's id. It holds positions only; the
 * ids stay where they are (the seed's, the collection's records), read through `idAt`. Equal ids sit
 * side by side, in position order.
 * @example
 * const ids = [30n, 10n, 20n];
 * const order = IdOrder.of(ids.length, (position) => ids[position]!);
 * order.positionAt(order.firstAfter(10n, (position) => ids[position]!)) // 2: the order with id 20n
 */
export class IdOrder {
  #positions: Int32Array;
  #length: number;

  private constructor(positions: Int32Array, length: number) {
    this.#positions = positions;
    this.#length = length;
  }

  /** The positions 0 to `count` - 1 sorted by id; in one pass when they are in order already, as most seeds are. */
  static of(count: number, idAt: (position: number) => bigint): IdOrder {
    const positions = new Int32Array(count);
    let sorted = true;
    for (let position = 0; position < count; position++) {
      positions[position] = position;
      if (sorted && position > 0 && idAt(position) < idAt(position - 1)) sorted = false;
    }
    if (!sorted)
      positions.sort((left, right) => {
        const leftId = idAt(left);
        const rightId = idAt(right);
        return leftId < rightId ? -1 : leftId > rightId ? 1 : left - right;
      });
    return new IdOrder(positions, count);
  }

  get length(): number {
    return this.#length;
  }

  /** The position of the `index`th order in ascending order of id. */
  positionAt(index: number): number {
    return this.#positions[index]!;
  }

  /** The index of the first order whose id is greater than `after`: 0 when `after` is undefined, `length` when none is. */
  firstAfter(after: bigint | undefined, idAt: (position: number) => bigint): number {
    if (after === undefined) return 0;
    let low = 0;
    let high = this.#length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (idAt(this.#positions[middle]!) <= after) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Puts one more position in its place by id (after any equal id). */
  insert(position: number, idAt: (position: number) => bigint): void {
    if (this.#length === this.#positions.length) {
      const larger = new Int32Array(Math.max(16, Math.ceil(this.#length * 1.5)));
      larger.set(this.#positions);
      this.#positions = larger;
    }
    const index = this.firstAfter(idAt(position), idAt);
    this.#positions.copyWithin(index + 1, index, this.#length);
    this.#positions[index] = position;
    this.#length++;
  }

  /** An order of its own to insert into, this one unchanged. */
  copy(): IdOrder {
    return new IdOrder(this.#positions.slice(0, this.#length), this.#length);
  }
}
