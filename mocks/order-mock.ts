import { http, type RequestHandler } from 'msw';
import { developmentApiKey } from '../core/authorization.js';
import type { FaultInput } from '../core/fault-format.js';
import { createAuthenticator } from './auth.js';
import type { ControlAccess } from './control-access.js';
import { defaultSeed } from './default-seed.js';
import { MockError } from './errors.js';
import { toFaultInputs } from './faults.js';
import { bundledScenarios } from './generated/scenarios.js';
import {
  checkedSettings,
  defaultMockSettings,
  MockSession,
  scenarioFaults,
  type LoadableScenario,
  type MockControls,
} from './mock-session.js';
import type { ConflictBody } from './operations.js';
import { OrderSeed } from './order-seed.js';
import { createPipeline, type HandleRequest, type Pipeline } from './pipeline.js';
import { networkError, replyToResponse } from './reply.js';
import { defaultJournalSize } from './journal.js';
import { SessionRegistry, type SessionOptions, type SessionSummary } from './sessions.js';

/**
 * The deprecation date the mock announces for `GET /pets/{petId}` unless told otherwise (not shown in the specification).
 * @example
 * createOrderMock({ petDeprecation: defaultPetDeprecation, petSunset: '2028-01-01T00:00:00Z' })
 */
export const defaultPetDeprecation = new Date('2026-01-01T00:00:00Z');
/**
 * The sunset date the mock announces for `GET /pets/{petId}` unless told otherwise (not shown in the specification).
 * @example
 * defaultPetSunset.toUTCString() // 'Wed, 30 Jun 2027 23:59:59 GMT'
 */
export const defaultPetSunset = new Date('2027-06-30T23:59:59Z');

/** How to build an order mock. Every option has a default, so `createOrderMock()` is a working mock. */
export interface OrderMockOptions {
  /**
   * The one base URL to answer, ending with `/v1` (for example `https://staging.example.com/v1`).
   * By default the handlers answer `/v1` on any origin, so production and staging addresses both work.
   */
  baseUrl?: string;
  /** The accepted bearer keys. Default: the development key `petstore-dev-key`. */
  apiKeys?: readonly string[];
  /**
   * The orders to start with and to return to on reset, each with an optional `status`: checked
   * once, then shared by every session and reset (an `OrderSeed` is taken as already checked). Default: `defaultSeed`.
   */
  seed?: readonly unknown[] | OrderSeed;
  /**
   * The scenarios `loadScenario` and `POST /__mock/scenarios/{name}` know. Default: every scenario the
   * kit ships (`bundledScenarios`, the same as its `scenarios/*.yaml`). Given, these instead: add yours
   * to the kit's with `[...bundledScenarios, ...await loadScenarios({ directory: 'scenarios' })]`.
   */
  scenarios?: readonly LoadableScenario[];
  /**
   * The scenario to start from and to return to on `reset()`, in every session: its provider state's
   * orders (instead of `seed`) and its steps' faults (before `faults`).
   * @throws MockError `unknown_scenario` listing the known names; TypeError with a `seed` as well, when the scenario has orders of its own.
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
   * How a fault's delay waits, for tests that decide when a delayed call goes on instead of waiting
   * for it. Default: a timer of the delay.
   * @example
   * const waiting: (() => void)[] = [];
   * createOrderMock({ sleep: () => new Promise((resolve) => waiting.push(resolve)) });
   */
  sleep?: (milliseconds: number) => Promise<void>;
  /**
   * The most orders all sessions hold together: a `PUT /__mock/orders`, provider state or scenario that
   * would pass it is refused with 409 `order_limit_reached`, and nothing changes. Sessions still on
   * the seed count its orders. Default: 500,000 (about 600 MiB once their records exist).
   */
  maxOrders?: number;
  /**
   * What the 409 of a cancel of a shipped order carries in every session until it is changed (`PUT
   * /__mock/settings`, `changeSettings`): an Error record (`'error'`) or no body (`'none'`); the
   * specification shows no body for it, so a client must handle both. Default: `'error'`.
   */
  conflictBody?: ConflictBody;
  /** Whether to answer the control plane under `/__mock`. Default: true. */
  control?: boolean;
  /**
   * Who may use the control plane: the standalone server guards it against other sites and hostile
   * host names (see `createControlAccess`). In process, the control plane is reached only by the code
   * that runs the mock, and this is undefined: every caller may.
   */
  controlAccess?: ControlAccess;
  /** The deprecation date of `GET /pets/{petId}` (RFC 9745). Default: 2026-01-01T00:00:00Z. */
  petDeprecation?: Date | string;
  /** The sunset date of `GET /pets/{petId}` (RFC 8594); not before the deprecation date. Default: 2027-06-30T23:59:59Z. */
  petSunset?: Date | string;
  /**
   * Your own MSW handlers, asked before the kit's, through the same pipeline: the same sessions,
   * journal and logging (and, on the standalone server, CORS). A function is called once with the
   * mock, so that the handlers can use its store (`await mock.collection()`).
   * @example
   * createOrderMock({ handlers: [http.get('*\/v1/store/inventory', () => HttpResponse.json({ dogs: 3 }))] })
   */
  handlers?: readonly RequestHandler[] | ((mock: OrderMock) => readonly RequestHandler[]);
  /** Called with one line a request the mock answers (method, path, status, milliseconds; never a header). Default: silent. */
  log?: (line: string) => void;
  /**
   * Called once a session with a line about a client's mistake the mock noticed: a cancel of an id
   * that a float64 makes of an order's id beyond 2^53 (the 404's message and the journal say it each
   * time). petstore-mock prints it to stderr. Default: silent.
   */
  warn?: (line: string) => void;
}

/** How many orders all of a mock's sessions may hold together, unless told otherwise. */
export const defaultMaxOrders = 500_000;

function checkedMaxOrders(maxOrders = defaultMaxOrders): number {
  if (!Number.isSafeInteger(maxOrders) || maxOrders < 0)
    throw new TypeError(`maxOrders must be a whole number >= 0, not ${maxOrders}`);
  return maxOrders;
}

/**
 * A stateful mock of the order interface: its MSW handlers, and the controls of its default session
 * (the mock itself) and of named ones.
 */
export interface OrderMock extends MockControls {
  /** The MSW request handlers: give them to `setupServer`, `setupWorker` or the kit's HTTP server. */
  readonly handlers: RequestHandler[];
  /**
   * The mock's one pipeline, without any transport: a request in, its answer out (`undefined` for a
   * request outside `/v1` and `/__mock`). The handlers and the standalone server are adapters over it.
   * @example
   * const answer = await mock.handle(new Request('http://localhost/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } }));
   * answer?.status // 200
   */
  readonly handle: HandleRequest;
  /**
   * The controls of the session that requests with `X-Mock-Session: name` see, created from the seed on first use.
   * @throws MockError `invalid_session` or `session_limit_reached`.
   * @example
   * await mock.session('test-file-a').loadScenario('cancel-shipped-order');
   */
  session(name: string): MockControls;
  /** The named sessions in use, as `GET /__mock/sessions` lists them. */
  sessions(): SessionSummary[];
  /**
   * Journals and counts in coverage the calls of the interface that a handler of yours answers in
   * front of the kit's (`server.use(...)`, `worker.use(...)`), by MSW's life-cycle events. Returns a
   * function that disconnects. `startBrowserMock` connects its own worker.
   * @example
   * const server = setupServer(...mock.handlers);
   * mock.observe(server);
   * server.use(http.get('*\/v1/store/orders', () => HttpResponse.json([])));
   * // after a list: mock.requests() → [{ operation: 'listOrders', status: 200, ... }]
   */
  observe(source: MswEvents): () => void;
  /**
   * Whether a fault that drops connections (`network: true`) is in force in any session. The
   * standalone server then closes each connection after its answer: a client sends an idempotent
   * request again when a connection it reused drops (RFC 9110 section 9.2.2), which would heal the fault.
   */
  dropsConnectionsInAnySession(): boolean;
}

/** What MSW reports of a mocked response: the request, its id, and the response. */
export interface MockedResponseEvent {
  readonly request: Request;
  readonly requestId: string;
  readonly response: Response;
}

/** What MSW lets one observe a request's life by: `setupServer()`, `setupWorker()`, or any with the same `events`. */
export interface MswEvents {
  readonly events: {
    on(event: 'response:mocked', listener: (event: MockedResponseEvent) => void): unknown;
    removeListener(event: 'response:mocked', listener: (event: MockedResponseEvent) => void): unknown;
  };
}

/**
 * The requests the kit's handlers answered (every mock's: two mocks may share one worker), by MSW's
 * request id, noted while some mock observes MSW's events: every other answer MSW reports for the API
 * came from a handler in front of the kit's. An id is forgotten once MSW has reported its answer to
 * every listener. A dropped connection is never noted (MSW reports no answer for it); a request MSW
 * never reports (aborted) is forgotten past a bound.
 */
const kitAnswers = {
  ids: new Set<string>(),
  observers: 0,
  note(requestId: string): void {
    if (this.observers === 0) return;
    this.ids.add(requestId);
    if (this.ids.size > 10_000) this.ids.delete(this.ids.values().next().value as string);
  },
  /** Whether the kit answered the request; the id is forgotten after the listeners of this report. */
  answered(requestId: string): boolean {
    if (!this.ids.has(requestId)) return false;
    queueMicrotask(() => this.ids.delete(requestId));
    return true;
  },
};

/**
 * The kit's MSW handler: the MSW adapter over the mock's one pipeline. It matches only the mock's
 * namespaces, so that MSW's `onUnhandledRequest` still sees every other request; a dropped
 * connection is `Response.error()`.
 */
function pipelineHandler(pipeline: Pipeline): RequestHandler {
  return http.all(
    ({ request }) => pipeline.covers(request.url),
    async ({ request, requestId }) => {
      const answer = await pipeline.handle(request);
      if (answer === undefined) return undefined;
      if (answer === networkError) return Response.error();
      kitAnswers.note(requestId);
      return replyToResponse(answer);
    },
  );
}

/** Connects the pipeline's journal to MSW's events of one server or worker (once per source). */
function createObserver(pipeline: Pipeline): (source: MswEvents) => () => void {
  const connected = new Map<MswEvents['events'], () => void>();
  return (source) => {
    const existing = connected.get(source.events);
    if (existing !== undefined) return existing;
    const listener = ({ request, requestId, response }: MockedResponseEvent) => {
      if (!kitAnswers.answered(requestId))
        pipeline.recordAnswered(request, response.type === 'error' ? 'network' : response.status);
    };
    source.events.on('response:mocked', listener);
    kitAnswers.observers++;
    const disconnect = () => {
      if (!connected.delete(source.events)) return;
      source.events.removeListener('response:mocked', listener);
      kitAnswers.observers--;
    };
    connected.set(source.events, disconnect);
    return disconnect;
  };
}

/** Where every session starts and returns on reset: the seed and faults, or the named scenario's. */
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
    throw new TypeError(`seed and scenario cannot be used together: scenario ${scenario.name} has orders of its own`);
  return {
    seed: OrderSeed.from(scenario.state?.params.orders ?? options.seed ?? defaultSeed),
    faults: [...toFaultInputs(scenarioFaults(scenario)), ...faults],
  };
}

function toDate(value: Date | string, name: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`${name} is not a date: ${JSON.stringify(String(value))}.`);
  return date;
}

function checkedDates(options: OrderMockOptions): { petDeprecation: Date; petSunset: Date } {
  const petDeprecation = toDate(options.petDeprecation ?? defaultPetDeprecation, 'petDeprecation');
  const petSunset = toDate(options.petSunset ?? defaultPetSunset, 'petSunset');
  if (petSunset < petDeprecation)
    throw new TypeError('the pet sunset date must not be earlier than its deprecation date');
  return { petDeprecation, petSunset };
}

/** A session's controls as a plain object that asks the session: what the mock offers of its default session. */
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
 * Creates a stateful mock of the order interface: pending orders cancel with 204, shipped ones
 * refuse with 409, unknown ones give 404, and every call needs a bearer key or gets 401.
 * The handlers are plain MSW handlers; the same array serves `setupServer`, `setupWorker` and the
 * kit's standalone HTTP server. The mock is also the controls of its default session.
 * @throws MockError when the seed is invalid; TypeError when a key or a date is.
 * @example
 * import { setupServer } from 'msw/node';
 * import { createOrderMock } from 'petstore-contract-kit/msw';
 *
 * const mock = createOrderMock({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * await fetch('https://api.example.com/v1/store/orders/2', {
 *   method: 'DELETE',
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }); // 409
 */
export function createOrderMock(options: OrderMockOptions = {}): OrderMock {
  // The stores' entity tags: this mock's own random part, then the session's number (a restarted server never reuses a tag).
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
      heldBesides: (session: MockSession) => {
        let held = 0;
        for (const other of sessions.states()) if (other !== session) held += other.store.size;
        return held;
      },
    },
  };
  const sessions: SessionRegistry<MockSession> = new SessionRegistry(() => new MockSession(start), options.sessions);
  // Your handlers may be made from the mock itself (`handlers: (mock) => [...]`): they are read once the mock exists.
  const userHandlers: RequestHandler[] = [];
  const pipeline = createPipeline({
    sessions,
    authenticate: createAuthenticator(options.apiKeys ?? [developmentApiKey]),
    ...checkedDates(options),
    baseUrl: options.baseUrl,
    control: options.control ?? true,
    controlAccess: options.controlAccess,
    journal: start.journalSize > 0,
    now: options.sessions?.now ?? Date.now,
    log: options.log,
    warn: options.warn,
    userHandlers: () => userHandlers,
  });
  // The mock answers for its default session, with the pipeline, the handlers and the named sessions beside.
  const mock: OrderMock = {
    ...controlsOf(sessions.default),
    handle: pipeline.handle,
    handlers: [pipelineHandler(pipeline)],
    session: (name: string): MockControls => sessions.resolve(name),
    sessions: () => sessions.list(),
    observe: createObserver(pipeline),
    dropsConnectionsInAnySession: () => {
      for (const session of sessions.states()) if (session.dropsConnections()) return true;
      return false;
    },
  };
  userHandlers.push(...(typeof options.handlers === 'function' ? options.handlers(mock) : (options.handlers ?? [])));
  // The kit's handler matches only its namespaces: your handlers for other paths answer after it, as MSW would.
  mock.handlers.push(...userHandlers);
  return mock;
}
