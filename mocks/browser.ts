import type { RequestHandler, UnhandledRequestStrategy } from 'msw';
import { setupWorker, type SetupWorker } from 'msw/browser';
import { createOrderMock, type OrderMock, type OrderMockOptions } from './order-mock.js';
import { defaultPersistKey, persistOrders, type PersistOptions } from './persisted-orders.js';

/** How to start the mock in the browser: the mock's options, plus the worker's own. */
export interface BrowserMockOptions extends Omit<OrderMockOptions, 'log'> {
  /**
   * The scenario to start from and to return to on reset (its orders and its steps' faults), for
   * example the page's `?scenario=` parameter; null or `''` for none. An unknown name rejects, listing the known ones.
   */
  scenario?: string | null;
  /** Where the app serves MSW's worker script. Default: `/mockServiceWorker.js`. */
  workerUrl?: string;
  /**
   * A worker that is already started (msw-storybook-addon's, or your app's own): the kit's handlers
   * are added to it with `worker.use()` instead of starting a second worker, which MSW refuses. They
   * go in front of the handlers the worker has: add overrides after. `stop()` turns them off and
   * leaves the worker's handlers as they are. Default: a worker of the mock's own.
   */
  worker?: SetupWorker;
  /**
   * What MSW does with a request no handler answers (the kit's handlers answer only `/v1` and
   * `/__mock`), as `worker.start()` takes it: `'error'` or `'warn'` to be told of an unmocked call,
   * or a function. Default: `'bypass'`, so the app's own files and other APIs load untouched.
   */
  onUnhandledRequest?: UnhandledRequestStrategy;
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
  /** Stops intercepting requests: a worker of the mock's own stops; on a worker it was given, the kit's handlers match nothing more. */
  stop(): void;
}

/**
 * The kit's handlers for a worker it was given, each with a switch: off, they match nothing, and the
 * worker's own list (its initial handlers, what its owner reset) stays as its owner made it.
 */
function switchable(handlers: readonly RequestHandler[]): { handlers: RequestHandler[]; off(): void } {
  let on = true;
  const gated = handlers.map(
    (handler) =>
      Object.create(handler, {
        predicate: {
          value(this: RequestHandler, args: Parameters<RequestHandler['predicate']>[0]) {
            return on ? handler.predicate.call(this, args) : false;
          },
        },
      }) as RequestHandler,
  );
  return { handlers: gated, off: () => (on = false) };
}

/**
 * Starts the stateful order mock in the browser, with MSW's `setupWorker`: the same handlers, store
 * and scenarios as in Node (every scenario the kit ships is bundled). Requests the mock does not
 * answer (your app's own files, other APIs) pass through untouched. Calls that a handler you add with
 * `mock.worker.use()` answers are journaled too.
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
  const {
    scenario,
    workerUrl = '/mockServiceWorker.js',
    log = false,
    persist = false,
    worker,
    onUnhandledRequest = 'bypass',
    ...mockOptions
  } = options;
  const mock = createOrderMock({ ...mockOptions, scenario: scenario === '' ? null : scenario });
  let stopWorker: () => void;
  let running: SetupWorker;
  if (worker === undefined) {
    running = setupWorker(...mock.handlers);
    await running.start({ serviceWorker: { url: workerUrl }, onUnhandledRequest, quiet: !log });
    stopWorker = () => running.stop();
  } else {
    running = worker;
    const joined = switchable(mock.handlers);
    running.use(...joined.handlers);
    stopWorker = joined.off;
  }
  const disconnect = mock.observe(running);
  let stopSaving = () => {};
  if (persist !== false) {
    const persistOptions = persist === true ? {} : persist;
    const key = `${persistOptions.key ?? defaultPersistKey}${scenario ? `/${scenario}` : ''}`;
    ({ stop: stopSaving } = await persistOrders(mock, { ...persistOptions, key }));
  }
  return Object.assign(mock, {
    worker: running,
    stop: () => {
      stopSaving();
      disconnect();
      stopWorker();
    },
  });
}

export * from './msw.js';
