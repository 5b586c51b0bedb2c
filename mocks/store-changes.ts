// What an order store knows of its own changes: the entity tag that moves with each, and the listeners
// told once a turn. A piece of its own, so that the store itself only keeps orders.

/**
 * The changes of one store: a version for its entity tags, the writes of its own under way (a change
 * they make is in place only once they finish), and the listeners to tell, once for all the changes of
 * a turn.
 * @example
 * const changes = new StoreChanges('a1b2');
 * changes.changed('store');
 * changes.tag // 'W/"a1b2.1"'
 */
export class StoreChanges {
  readonly #tagPrefix: string;
  #version = 0;
  #ownWrites = 0;
  #othersChanged = false;
  #ownWriteChanged = false;
  readonly #listeners = new Set<() => void>();
  #announcing = false;

  /** @param tagPrefix what tells this store's entity tags from every other store's. */
  constructor(tagPrefix: string) {
    this.#tagPrefix = tagPrefix;
  }

  /** The entity tag of the store as it is now. */
  get tag(): string {
    return `W/"${this.#tagPrefix}.${this.#version}"`;
  }

  /** Adds a listener, told once a turn after changes; returns its removal. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // @msw/data tells its hooks of a change before it makes it, so a body read in between is tagged with
  // the new version: it moves again once the change is in place, when the store's own write (a cancel)
  // has finished, or, for a write of someone else's, on the next turn.
  /** Notes a change, made by the store itself (`store`) or through its collection (`collection`). */
  changed(through: 'collection' | 'store'): void {
    this.#version++;
    if (through === 'collection') {
      if (this.#ownWrites === 0) this.#othersChanged = true;
      else this.#ownWriteChanged = true;
    }
    if (this.#announcing || (this.#listeners.size === 0 && !this.#othersChanged)) return;
    this.#announcing = true;
    setTimeout(() => {
      this.#announcing = false;
      if (this.#othersChanged) this.#version++;
      this.#othersChanged = false;
      for (const listener of this.#listeners) listener();
    }, 0);
  }

  /** Runs one of the store's own writes: a change it makes is in place once it has finished. */
  async ownWrite<T>(write: () => Promise<T>): Promise<T> {
    this.#ownWrites++;
    try {
      return await write();
    } finally {
      this.#ownWrites--;
      // A write that changed something: the change is in place now. A refused one changed nothing.
      if (this.#ownWriteChanged) this.#version++;
      this.#ownWriteChanged = false;
    }
  }
}
