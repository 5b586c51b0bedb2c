import { setupWorker, type SetupWorker } from 'msw/browser';
import { bundledScenarios } from './generated/scenarios.js';
import { createOrderMock, type OrderMock, type OrderMockOptions } from './order-mock.js';
import { defaultPersistKey, persistOrders, type PersistOptions } from './persisted-orders.js';

/** How to start the mock in the browser: the mock's options, plus the worker's own. */
export interface BrowserMockOptions extends Omit<OrderMockOptions, 'log'> {
  /**
   * A scenario to load once the worker runs (its orders and its steps' faults), for example the
   * page's `?scenario=` parameter. An unknown name rejects, listing the known ones.
   */
  scenario?: string | null;
  /** Where the app serves MSW's worker script. Default: `/mockServiceWorker.js`. */
  workerUrl?: string;
  /** Whether MSW logs each intercepted request to the console. Default: false. */
  log?: boolean;
  /**
   * Whether the fake's orders survive a page reload: kept in `localStorage` after each change and
   * restored at start (after the start-up scenario's, under a key of that scenario's own, so each
   * scenario keeps its own state). `mock.reset()` goes back to the seed, and that is saved too.
   * Default: false.
   */
  persist?: boolean | PersistOptions;
}

/** The mock running in the page: its controls, and the MSW worker behind it. */
export interface BrowserMock extends OrderMock {
  /** MSW's worker: add handlers with `worker.use()`, or read its events. */
  worker: SetupWorker;
  /** Stops intercepting requests. */
  stop(): void;
}

/**
 * Starts the stateful order mock in the browser, with MSW's `setupWorker`: the same handlers, store
 * and scenarios as in Node (every scenario the kit ships is bundled). Requests the mock does not
 * answer (your app's own files, other APIs) pass through untouched.
 *
 * The app must serve MSW's worker script: run `npx msw init public/ --save` once (for Vite, `public/`
 * is served at `/`), and keep it in version control.
 * @example
 * import { startBrowserMock } from 'petstore-contract-kit/browser';
 *
 * if (import.meta.env.DEV) {
 *   await startBrowserMock({ scenario: new URLSearchParams(location.search).get('scenario') });
 * }
 * // fetch('/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } }) now reaches the mock
 */
export async function startBrowserMock(options: BrowserMockOptions = {}): Promise<BrowserMock> {
  const { scenario, workerUrl = '/mockServiceWorker.js', log = false, persist = false, ...mockOptions } = options;
  const mock = createOrderMock({ scenarios: bundledScenarios, ...mockOptions });
  const worker = setupWorker(...mock.handlers);
  await worker.start({ serviceWorker: { url: workerUrl }, onUnhandledRequest: 'bypass', quiet: !log });
  if (scenario !== undefined && scenario !== null && scenario !== '') {
    try {
      await mock.loadScenario(scenario);
    } catch (error) {
      worker.stop();
      throw error;
    }
  }
  let stopSaving = () => {};
  if (persist !== false) {
    const persistOptions = persist === true ? {} : persist;
    const key = `${persistOptions.key ?? defaultPersistKey}${scenario ? `/${scenario}` : ''}`;
    ({ stop: stopSaving } = await persistOrders(mock, { ...persistOptions, key }));
  }
  return Object.assign(mock, {
    worker,
    stop: () => {
      stopSaving();
      worker.stop();
    },
  });
}

export { bundledScenarios };
export * from './msw.js';
