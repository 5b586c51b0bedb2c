/** A store's changes: its entity tag, its own writes under way, and the listeners, called once a turn. */
export class StoreChanges {
  readonly #tagPrefix: string;
  #version = 0;
  #ownWrites = 0;
  #othersChanged = false;
  #ownWriteChanged = false;
  readonly #listeners = new Set<() => void>();
  #notifyScheduled = false;

  constructor(tagPrefix: string) {
    this.#tagPrefix = tagPrefix;
  }

  get tag(): string {
    return `W/"${this.#tagPrefix}.${this.#version}"`;
  }

  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // @msw/data calls its hooks before it makes a change, so the version moves again once the change is
  // in place: when the store's own write finishes, or on the next turn for anyone else's.
  changed(through: 'collection' | 'store'): void {
    this.#version++;
    if (through === 'collection') {
      if (this.#ownWrites === 0) this.#othersChanged = true;
      else this.#ownWriteChanged = true;
    }
    if (this.#notifyScheduled || (this.#listeners.size === 0 && !this.#othersChanged)) return;
    this.#notifyScheduled = true;
    setTimeout(() => {
      this.#notifyScheduled = false;
      if (this.#othersChanged) this.#version++;
      this.#othersChanged = false;
      for (const listener of this.#listeners) listener();
    }, 0);
  }

  async ownWrite<T>(write: () => Promise<T>): Promise<T> {
    this.#ownWrites++;
    try {
      return await write();
    } finally {
      this.#ownWrites--;
      if (this.#ownWriteChanged) this.#version++;
      this.#ownWriteChanged = false;
    }
  }
}
