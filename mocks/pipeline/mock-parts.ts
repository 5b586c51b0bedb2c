import type { InteractionJudge } from '../pact/interaction-judge.js';
import { pactControlsOf, pactSettingsOf, type MswUse, type PactControls } from './pact-controls.js';

export type { PactControls } from './pact-controls.js';
import type { RequestHandler } from 'msw';
import { developmentApiKey } from '../../core/authorization.js';
import type { FaultInput } from '../../core/fault-format.js';
import { createAuthenticator } from '../base/auth.js';
import type { ControlAccess } from '../control/control-access.js';
import { defaultSeed } from '../store/default-seed.js';
import { MockError, MockOptionError, MockUsageError } from '../base/errors.js';
import { toFaultInputs } from '../session/faults.js';
import { bundledScenarios } from '../generated/scenarios.js';
import {
  checkedSettings,
  defaultMockSettings,
  MockSession,
  scenarioFaults,
  type LoadableScenario,
  type MockControls,
} from '../session/mock-session.js';
import type { ConflictBody } from '../session/operations.js';
import { OrderSeed } from '../store/order-seed.js';
import { createPipeline, type HandleRequest, type Pipeline } from './pipeline.js';
import { defaultJournalSize } from '../journal/journal.js';
import { createObserver, type MswEvents } from './observer.js';
import { SessionRegistry, type SessionOptions, type SessionSummary } from '../session/sessions.js';

/**
 * The default deprecation date of `GET /pets/{petId}`.
 * @example
 * createOrderMock({ petDeprecation: defaultPetDeprecation, petSunset: '2028-01-01T00:00:00Z' })
 */
export const defaultPetDeprecation = new Date('2026-01-01T00:00:00Z');
/**
 * The default sunset date of `GET /pets/{petId}`.
 * @example
 * defaultPetSunset.toUTCString() // 'Wed, 30 Jun 2027 23:59:59 GMT'
 */
export const defaultPetSunset = new Date('2027-06-30T23:59:59Z');

/** How to build an order mock. Every option has a default, so `createOrderMock()` is a working mock. */
export interface OrderMockOptions {
  /** The one base URL to answer, ending with `/v1`. Default: `/v1` on any origin. */
  baseUrl?: string;
  /** The accepted bearer keys. Default: the development key `petstore-dev-key`. */
  apiKeys?: readonly string[];
  /** The orders every session starts with and returns to on reset, checked once. Default: `defaultSeed`. */
  seed?: readonly unknown[] | OrderSeed;
  /** The scenarios the mock can load, instead of the kit's own. Default: `bundledScenarios`. */
  scenarios?: readonly LoadableScenario[];
  /**
   * The scenario every session starts from and returns to on reset: its orders and its faults.
   * @example
   * const mock = createOrderMock({ scenario: 'cancel-shipped-order' });
   * // DELETE /v1/store/orders/3 answers 409; after mock.reset(), again
   */
  scenario?: string | null;
  /** The faults to start with and to return to on reset (see `FaultInput`). Default: none. */
  faults?: readonly FaultInput[];
  /** How many sessions named by `X-Mock-Session` may exist, and how long one may go unused. Default: 100, 30 minutes. */
  sessions?: SessionOptions;
  /** How many calls each session's journal keeps, oldest dropped first; 0 keeps none. Default: 1,000. */
  journalSize?: number;
  /**
   * How a fault's delay waits, so that a test can decide when a delayed call goes on. Default: a timer.
   * @example
   * const waiting: (() => void)[] = [];
   * createOrderMock({ sleep: () => new Promise((resolve) => waiting.push(resolve)) });
   */
  sleep?: (milliseconds: number) => Promise<void>;
  /** The most orders all sessions hold together; more is refused with 409 `order_limit_reached`. Default: 500,000. */
  maxOrders?: number;
  /**
   * The most bytes of JSON text a session's consumer pact may have (`mock.pact()`, `pactDocument()`,
   * `GET /__mock/pact`); past it, the pact is refused with `pact_too_large`. Default: 64 MiB (`pactSizeLimit`).
   */
  maxPactBytes?: number;
  /** Whether the 409 of a cancel of a shipped order has an Error record (`'error'`) or no body (`'none'`). Default: `'error'`. */
  conflictBody?: ConflictBody;
  /** Whether to answer the control plane under `/__mock`. Default: true. */
  control?: boolean;
  /** Who may use the control plane; the standalone server sets it. Default: every caller. */
  controlAccess?: ControlAccess;
  /** The deprecation date of `GET /pets/{petId}` (RFC 9745). Default: 2026-01-01T00:00:00Z. */
  petDeprecation?: Date | string;
  /** The sunset date of `GET /pets/{petId}` (RFC 8594); not before the deprecation date. Default: 2027-06-30T23:59:59Z. */
  petSunset?: Date | string;
  /**
   * Your own MSW handlers, asked before the kit's, with the same sessions and journal. A function gets the mock.
   * @example
   * createOrderMock({ handlers: [http.get('*\/v1/store/inventory', () => HttpResponse.json({ dogs: 3 }))] })
   */
  handlers?: readonly RequestHandler[] | ((mock: OrderMock) => readonly RequestHandler[]);
  /** Called with one line a request the mock answers (method, path, status, milliseconds; never a header). Default: silent. */
  log?: (line: string) => void;
  /**
   * Called once a session when a client seems to have lost an id's last digits (a float64), and when a
   * pact leaves calls out (`mock.pact()`, `GET /__mock/pact`), in its metadata's words. Default: silent,
   * but for a pact's left-out calls, said with `console.warn`.
   */
  warn?: (line: string) => void;
}

/** The default of `maxOrders`. */
export const defaultMaxOrders = 500_000;

const dropsConnections = (session: MockSession) => session.dropsConnections();

function checkedMaxOrders(maxOrders = defaultMaxOrders): number {
  if (!Number.isSafeInteger(maxOrders) || maxOrders < 0)
    throw new MockOptionError('invalid_option', `maxOrders must be a whole number >= 0, not ${maxOrders}`);
  return maxOrders;
}

/** A stateful mock of the order interface: its MSW handlers, and the controls of its sessions. */

export interface OrderMock extends MockControls, PactControls {
  /** The MSW request handlers: give them to `setupServer`, `setupWorker`, an msw 3 network or the kit's HTTP server. */
  readonly handlers: RequestHandler[];
  /**
   * The mock's pipeline without any transport: a request in, its answer out: a `Reply` (`{ status,
   * headers, body }`), `'network-error'` where a fault drops the connection, or `undefined` outside
   * `/v1` and `/__mock`.
   * @example
   * const answer = await mock.handle(new Request('http://localhost/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } }));
   * if (answer === undefined || answer === 'network-error') throw new Error('the mock did not answer');
   * answer.status // 200
   */
  readonly handle: HandleRequest;
  /**
   * The controls of the session that requests with `X-Mock-Session: name` see.
   * @example
   * await mock.session('test-file-a').loadScenario('cancel-shipped-order');
   */
  session(name: string): MockControls & PactControls;
  /** The named sessions in use, as `GET /__mock/sessions` lists them. */
  sessions(): SessionSummary[];
  /**
   * Journals the calls a handler of yours answers in front of the kit's (`server.use`). Returns a disconnect function.
   * @example
   * const server = setupServer(...mock.handlers);
   * mock.observe(server);
   * server.use(http.get('*\/v1/store/orders', () => HttpResponse.json([])));
   * // after a list: mock.requests() → [{ operation: 'listOrders', status: 200, ... }]
   */
  observe(source: MswEvents): () => void;
  /**
   * Whether any session has a fault that drops connections. The server then keeps no connection alive,
   * because a client resends an idempotent request when a reused connection drops (RFC 9110 9.2.2).
   */
  dropsConnectionsInAnySession(): boolean;
}

function startingPoint(
  options: OrderMockOptions,
  scenarios: readonly LoadableScenario[],
): { seed: OrderSeed; faults: ReturnType<typeof toFaultInputs> } {
  const faults = toFaultInputs(options.faults ?? []);
  if (options.scenario === undefined || options.scenario === null)
    return { seed: OrderSeed.from(options.seed ?? defaultSeed), faults };
  const scenario = scenarios.find((candidate) => candidate.name === options.scenario);
  if (scenario === undefined) {
    const known = scenarios.map((candidate) => candidate.name).join(', ') || 'none';
    throw new MockError('unknown_scenario', `Unknown scenario ${JSON.stringify(options.scenario)}; known: ${known}.`);
  }
  if (scenario.state !== undefined && options.seed !== undefined)
    throw new MockOptionError(
      'invalid_option',
      `seed and scenario cannot be used together: scenario ${scenario.name} has orders of its own`,
    );
  return {
    seed: OrderSeed.from(scenario.state?.params.orders ?? options.seed ?? defaultSeed),
    faults: [...toFaultInputs(scenarioFaults(scenario)), ...faults],
  };
}

function toDate(value: Date | string, name: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new MockOptionError('invalid_option', `${name} is not a date: ${JSON.stringify(String(value))}.`);
  return date;
}

function checkedDates(options: OrderMockOptions): { petDeprecation: Date; petSunset: Date } {
  const petDeprecation = toDate(options.petDeprecation ?? defaultPetDeprecation, 'petDeprecation');
  const petSunset = toDate(options.petSunset ?? defaultPetSunset, 'petSunset');
  if (petSunset < petDeprecation)
    throw new MockOptionError('invalid_option', 'the pet sunset date must not be earlier than its deprecation date');
  return { petDeprecation, petSunset };
}

function controlsOf(session: MockSession): MockControls {
  return {
    store: session.store,
    orders: () => session.orders(),
    collection: () => session.collection(),
    replaceOrders: (orders) => session.replaceOrders(orders),
    reset: () => session.reset(),
    loadScenario: (name) => session.loadScenario(name),
    scenarios: () => session.scenarios(),
    settings: () => session.settings(),
    changeSettings: (settings) => session.changeSettings(settings),
    addFaults: (faults) => session.addFaults(faults),
    clearFaults: () => session.clearFaults(),
    removeFault: (id) => session.removeFault(id),
    faults: () => session.faults(),
    requests: (filter) => session.requests(filter),
    clearRequests: () => session.clearRequests(),
    coverage: () => session.coverage(),
  };
}

/**
 * `mock.observe`: counts the sources connected (one source observed twice is one, as the observer
 * makes it), so that a pact can say when none was.
 */
function observeCounted(observe: (source: MswEvents) => () => void, msw: MswUse): (source: MswEvents) => () => void {
  const connected = new Map<MswEvents['events'], () => void>();
  return (source) => {
    const existing = connected.get(source.events);
    if (existing !== undefined) return existing;
    const disconnect = observe(source);
    msw.observed = true;
    msw.connected++;
    const counted = () => {
      disconnect();
      if (!connected.delete(source.events)) return;
      msw.connected--;
      if (msw.connected === 0) msw.disconnected = true;
    };
    connected.set(source.events, counted);
    return counted;
  };
}

/**
 * An order mock, without loading MSW: its `handlers` are made at the first ask, by the MSW adapter
 * (`createOrderMock` in `order-mock.ts`, which registers itself as it loads). The standalone server
 * imports only this, so it starts without MSW; where the adapter was never loaded, `handlers`
 * throws `MockUsageError` (`no_msw_handlers`).
 * @example
 * const mock = createMockParts({ seed: [{ id: 1 }] }, judgeInteraction); // answers through mock.handle
 */
export function createMockParts(options: OrderMockOptions, judge: InteractionJudge): OrderMock {
  // A random part, so that a restarted server never reuses an entity tag.
  const mockTag = Math.random().toString(36).slice(2, 10);
  let stores = 0;
  const scenarios = options.scenarios ?? bundledScenarios;
  const start = {
    storeTag: () => `${mockTag}.s${stores++}`,
    ...startingPoint(options, scenarios),
    scenarios,
    journalSize: options.journalSize ?? defaultJournalSize,
    settings: {
      ...defaultMockSettings,
      ...checkedSettings(options.conflictBody === undefined ? {} : { conflictBody: options.conflictBody }),
    },
    sleep: options.sleep,
    orderBudget: {
      limit: checkedMaxOrders(options.maxOrders),
      ordersInOtherSessions: (session: MockSession) => {
        let count = 0;
        for (const other of sessions.states()) if (other !== session) count += other.store.size;
        return count;
      },
    },
  };
  const sessions: SessionRegistry<MockSession> = new SessionRegistry(() => new MockSession(start), options.sessions);
  const userHandlers: RequestHandler[] = [];
  const pact = pactSettingsOf(options, judge);
  const pipeline = createPipeline({
    sessions,
    authenticate: createAuthenticator(options.apiKeys ?? [developmentApiKey]),
    ...checkedDates(options),
    baseUrl: options.baseUrl,
    control: options.control ?? true,
    controlAccess: options.controlAccess,
    pact,
    journal: start.journalSize > 0,
    now: options.sessions?.now ?? Date.now,
    log: options.log,
    warn: options.warn,
    userHandlers: () => userHandlers,
  });
  const msw: MswUse = { handlersGiven: false, observed: false, connected: 0, disconnected: false };
  const observe = observeCounted(createObserver(pipeline), msw);
  const mock: Omit<OrderMock, 'handlers'> = {
    ...controlsOf(sessions.default),
    handle: pipeline.handle,
    session: (name) => {
      const session = sessions.resolve(name);
      return { ...controlsOf(session), ...pactControlsOf(session, msw, pipeline.basePath, pact) };
    },
    sessions: () => sessions.list(),
    observe,
    dropsConnectionsInAnySession: () => sessions.some(dropsConnections),
    ...pactControlsOf(sessions.default, msw, pipeline.basePath, pact),
  };
  return withUserHandlers(mock, pipeline, { options, userHandlers, msw });
}

// The user's handlers, asked by the pipeline before the kit's operations, and after the kit's handler in `mock.handlers`.
function withUserHandlers(
  mock: Omit<OrderMock, 'handlers'>,
  pipeline: Pipeline,
  { options, userHandlers, msw }: { options: OrderMockOptions; userHandlers: RequestHandler[]; msw: MswUse },
): OrderMock {
  const handlers = lazyHandlers(mock, pipeline, msw);
  const withHandlers = mock as OrderMock;
  userHandlers.push(
    ...(typeof options.handlers === 'function' ? options.handlers(withHandlers) : (options.handlers ?? [])),
  );
  handlers.add(userHandlers);
  return withHandlers;
}

let mswHandler: ((pipeline: Pipeline) => RequestHandler) | undefined;

/**
 * Makes the kit's MSW handler known: the MSW adapter (`order-mock.ts`) calls it as it loads, so that
 * what never loads it (the standalone server) starts without MSW.
 * @example
 * useMswHandler((pipeline) => http.all(({ request }) => pipeline.covers(request.url), ...));
 */
export function useMswHandler(make: (pipeline: Pipeline) => RequestHandler): void {
  mswHandler = make;
}

// `mock.handlers`, made at the first ask: the kit's handler, then the user's. Without the MSW adapter
// loaded, asking says so.
function lazyHandlers(
  mock: Omit<OrderMock, 'handlers'>,
  pipeline: Pipeline,
  msw: MswUse,
): { add(users: RequestHandler[]): void } {
  let handlers: RequestHandler[] | undefined;
  const users: RequestHandler[] = [];
  Object.defineProperty(mock, 'handlers', {
    enumerable: true,
    get() {
      if (mswHandler === undefined)
        throw new MockUsageError(
          'no_msw_handlers',
          'This mock has no MSW handlers: the MSW adapter was not loaded. Import createOrderMock from petstore-contract-kit/msw (or the package root) for setupServer or setupWorker.',
        );
      handlers ??= [mswHandler(pipeline), ...users];
      msw.handlersGiven = true;
      return handlers;
    },
  });
  return {
    add(added) {
      users.push(...added);
      handlers?.push(...added);
    },
  };
}
