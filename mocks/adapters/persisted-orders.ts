import { parseJson } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import type { MockControls } from '../session/mock-session.js';
import { MockOptionError } from '../base/errors.js';

/** Where persisted orders are kept: `localStorage` in the browser, or anything with the same three calls. */
export interface OrderStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface PersistOptions {
  /** Default: the page's `localStorage`. */
  storage?: OrderStorage;
  /** Default: `petstore-contract-kit/orders`. */
  key?: string;
}

/** Whether saved orders replaced the store at start, and how to stop saving. */
export interface PersistedOrders {
  restored: boolean;
  stop(): void;
}

/**
 * The default key orders are kept under.
 * @example
 * localStorage.removeItem(defaultPersistKey) // forget the saved orders: the next load starts from the seed
 */
export const defaultPersistKey = 'petstore-contract-kit/orders';

function restore(controls: MockControls, storage: OrderStorage, key: string): Promise<boolean> {
  const saved = storage.getItem(key);
  if (saved === null) return Promise.resolve(false);
  let orders: unknown;
  try {
    orders = parseJson(saved);
  } catch {
    orders = undefined;
  }
  if (!Array.isArray(orders)) {
    storage.removeItem(key);
    return Promise.resolve(false);
  }
  // Saved orders that are no longer valid are forgotten, not served.
  return controls.replaceOrders(orders).then(
    () => true,
    () => {
      storage.removeItem(key);
      return false;
    },
  );
}

/**
 * Keeps a session's orders across page reloads, with exact int64 ids, which `@msw/data`'s own
 * `persist()` cannot write (`JSON.stringify` throws on a `bigint`).
 * @example
 * const mock = createOrderMock();
 * await persistOrders(mock, { storage: localStorage }); // { restored: true, stop }
 */
export async function persistOrders(controls: MockControls, options: PersistOptions = {}): Promise<PersistedOrders> {
  const storage = options.storage ?? (globalThis as { localStorage?: OrderStorage }).localStorage;
  if (storage === undefined)
    throw new MockOptionError('invalid_option', 'persistOrders needs a storage: there is no localStorage here.');
  const key = options.key ?? defaultPersistKey;
  const restored = await restore(controls, storage, key);
  const stop = controls.store.onChange(() => storage.setItem(key, stringifyJson(controls.store.all())));
  return { restored, stop };
}
