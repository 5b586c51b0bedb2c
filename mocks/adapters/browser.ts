import type { RequestHandler, UnhandledRequestStrategy } from 'msw';
import { setupWorker, type SetupWorker } from 'msw/browser';
import { createOrderMock, type OrderMock, type OrderMockOptions } from './order-mock.js';
import { defaultPersistKey, persistOrders, type PersistOptions } from './persisted-orders.js';

/** The mock's options, plus the worker's own. */
export interface BrowserMockOptions extends Omit<OrderMockOptions, 'log'> {
  /** The scenario to start from and return to on reset, such as the page's `?scenario=`; null or `''` for none. */
  scenario?: string | null;
  /** Where the app serves MSW's worker script. Default: `/mockServiceWorker.js`. */
  workerUrl?: string;
  /** A worker already started, to add the kit's handlers to, since MSW refuses a second one. Default: a worker of its own. */
  worker?: SetupWorker;
  /** As `worker.start()` takes it. Default: `'bypass'`, so that the app's own files and other APIs load untouched. */
  onUnhandledRequest?: UnhandledRequestStrategy;
  log?: boolean;
  /** Whether the orders survive a page reload, in `localStorage`, under a key per scenario. Default: false. */
  persist?: boolean | PersistOptions;
}

export interface BrowserMock extends OrderMock {
  worker: SetupWorker;
  /** Stops the mock's own worker; on a worker it was given, the kit's handlers match nothing more. */
  stop(): void;
}

// Switched off, the handlers match nothing, and the worker's own list stays as its owner made it.
function switchable(handlers: readonly RequestHandler[]): { handlers: RequestHandler[]; off(): void } {
  let on = true;
  const switchedHandlers = handlers.map(
    (handler) =>
      Object.create(handler, {
        predicate: {
          value(this: RequestHandler, args: Parameters<RequestHandler['predicate']>[0]) {
            return on ? handler.predicate.call(this, args) : false;
          },
        },
      }) as RequestHandler,
  );
  return { handlers: switchedHandlers, off: () => (on = false) };
}

/**
 * Starts the order mock in the browser with MSW's `setupWorker`. The app must serve MSW's worker
 * script: run `npx msw init public/ --save` once.
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
