import type { RequestHandler, SharedOptions } from 'msw';
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { MswEvents } from '../pipeline/observer.js';
import { createOrderMock, type OrderMock, type OrderMockOptions } from './order-mock.js';
import { defaultPersistKey, persistOrders, type PersistOptions } from './persisted-orders.js';

// An option of MSW's own, read off the installed msw's `SharedOptions` by its name, or never where that
// msw has no such option: the kit's declarations then name nothing that one of msw 2 or 3 lacks.
type MswOption<Key extends string> = Key extends keyof SharedOptions
  ? Exclude<SharedOptions[Key & keyof SharedOptions], undefined>
  : never;

/**
 * What MSW does with a request no handler answers, as the installed msw takes it: msw 2's
 * `UnhandledRequestStrategy` (`'bypass' | 'warn' | 'error' | (request, print) => void`), msw 3's
 * `UnhandledFrameHandle` (the same strings, or `({ frame, defaults }) => void`).
 * @example
 * const strict: UnhandledRequests = 'error';
 * await startBrowserMock({ onUnhandledRequest: strict });
 */
export type UnhandledRequests = MswOption<'onUnhandledRequest'> | MswOption<'onUnhandledFrame'>;

/** The mock's options, plus the worker's own. */
export interface BrowserMockOptions extends Omit<OrderMockOptions, 'log'> {
  /** The scenario to start from and return to on reset, such as the page's `?scenario=`; null or `''` for none. */
  scenario?: string | null;
  /** Where the app serves MSW's worker script. Default: `/mockServiceWorker.js`. */
  workerUrl?: string;
  /** A worker already started, to add the kit's handlers to, since MSW refuses a second one. Default: a worker of its own. */
  worker?: SetupWorker;
  /**
   * As `worker.start()` takes it (msw 3 calls it `onUnhandledFrame`; the kit gives it under both names).
   * Default: `'bypass'`, so that the app's own files and other APIs load untouched.
   */
  onUnhandledRequest?: UnhandledRequests;
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
 * `worker.start()`'s options for msw 2 and 3 alike: msw 3 renamed `onUnhandledRequest` to
 * `onUnhandledFrame` and ignores the old name (it would warn of every file of the app), msw 2 ignores
 * the new one; the kit's types are msw 2's, hence the cast.
 */
function startOptions(options: { workerUrl: string; onUnhandledRequest: UnhandledRequests; quiet: boolean }) {
  const { workerUrl, onUnhandledRequest, quiet } = options;
  const both = { onUnhandledRequest, onUnhandledFrame: onUnhandledRequest };
  return { serviceWorker: { url: workerUrl }, quiet, ...both } as Parameters<SetupWorker['start']>[0];
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
    await running.start(startOptions({ workerUrl, onUnhandledRequest, quiet: !log }));
    stopWorker = () => running.stop();
  } else {
    running = worker;
    const joined = switchable(mock.handlers);
    running.use(...joined.handlers);
    stopWorker = joined.off;
  }
  const disconnect = mock.observe(running);
  const stopSaving = await savedOrders(mock, scenario, persist);
  return Object.assign(mock, {
    worker: running,
    stop: () => {
      stopSaving();
      disconnect();
      stopWorker();
    },
  });
}

// The orders kept in localStorage under a key per scenario, when asked; returns what stops saving.
async function savedOrders(
  mock: OrderMock,
  scenario: string | null | undefined,
  persist: boolean | PersistOptions,
): Promise<() => void> {
  if (persist === false) return () => {};
  const persistOptions = persist === true ? {} : persist;
  const key = `${persistOptions.key ?? defaultPersistKey}${scenario ? `/${scenario}` : ''}`;
  return (await persistOrders(mock, { ...persistOptions, key })).stop;
}

/**
 * What the kit uses of an msw 3 network: the `network` of `virtual:msw` (the `msw/vite` plugin), or
 * one of `defineNetwork()` (`msw/experimental`; msw 2.15 has it too).
 * @example
 * import { network } from 'virtual:msw';
 * const joined: MswNetwork = network; // what startNetworkMock({ network }) takes
 */
export interface MswNetwork extends MswEvents {
  /** MSW's `NetworkReadyState`: 0 while disabled, 1 once enabled. */
  readonly readyState: number;
  use(...handlers: RequestHandler[]): void;
  enable(): void | Promise<void>;
  disable(): void | Promise<void>;
}

/** The mock's options, and the network to join. */
export interface NetworkMockOptions
  extends Omit<BrowserMockOptions, 'workerUrl' | 'worker' | 'onUnhandledRequest' | 'log'> {
  /** The network the kit's handlers join, in front of its own (`network.use()`). */
  network: MswNetwork;
}

export interface NetworkMock extends OrderMock {
  network: MswNetwork;
  /**
   * Disconnects the mock: the kit's handlers match nothing more, and a network the kit enabled is
   * disabled again; one that was already enabled stays as its owner left it.
   */
  stop(): Promise<void>;
}

/** MSW's `NetworkReadyState.DISABLED`: not imported, since msw 2 and 3 keep it in different modules. */
const networkDisabled = 0;

/**
 * Joins the order mock to an msw 3 network: the `network` of `virtual:msw` (the `msw/vite` plugin
 * serves the worker script, so no `msw init` is needed) or one of `defineNetwork()`. The kit's handlers
 * go in front of the network's own; the mock observes the network, so that the answers of handlers
 * you put in front later (`network.use()`) are journaled too; a network not yet enabled is enabled.
 * Configure the network first: `network.configure({ handlers })` replaces every handler, the kit's too.
 * @example
 * import { network } from 'virtual:msw';
 * import { startNetworkMock } from 'petstore-contract-kit/browser';
 *
 * if (import.meta.env.DEV) {
 *   await startNetworkMock({ network, scenario: new URLSearchParams(location.search).get('scenario') });
 * }
 * // fetch('/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } }) now reaches the mock
 */
export async function startNetworkMock(options: NetworkMockOptions): Promise<NetworkMock> {
  const { network, scenario, persist = false, ...mockOptions } = options;
  const mock = createOrderMock({ ...mockOptions, scenario: scenario === '' ? null : scenario });
  const joined = switchable(mock.handlers);
  network.use(...joined.handlers);
  const disconnect = mock.observe(network);
  // Enabled by the kit, disabled by it; a network its owner enabled is theirs to disable.
  const enabledHere = network.readyState === networkDisabled;
  if (enabledHere) await network.enable();
  const stopSaving = await savedOrders(mock, scenario, persist);
  return Object.assign(mock, {
    network,
    stop: async () => {
      stopSaving();
      disconnect();
      joined.off();
      if (enabledHere && network.readyState !== networkDisabled) await network.disable();
    },
  });
}

export * from './msw.js';
