import { http, type RequestHandler } from 'msw';
import { createAuthenticator, developmentApiKey } from './auth.js';
import {
  addFaults,
  changeProviderState,
  clearFaults,
  endSession,
  loadScenario,
  readFaults,
  readOrders,
  readSessions,
  replaceOrders,
  resetOrders,
} from './control.js';
import { defaultSeed } from './default-seed.js';
import { MockError, errorToReply, errorToResponse, noOperation } from './errors.js';
import { networkError, toFaultInputs, type ActiveFault, type FaultInput, type FaultOperation, type NetworkError } from './faults.js';
import { MockSession, type LoadableScenario } from './mock-session.js';
import { cancelOrder, listOrders, readPet, type OrderInterface } from './operations.js';
import type { OrderStore, StoredOrder } from './order-store.js';
import { replyToResponse, type Reply, type RequestHead } from './reply.js';
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
  /** The orders to start with and to return to on reset, each with an optional `status`. Default: `defaultSeed`. */
  seed?: readonly unknown[];
  /** The scenarios `POST /__mock/scenarios/{name}` can load (in Node, `loadScenarios()` reads the kit's; `bundledScenarios` holds them everywhere). Default: none. */
  scenarios?: readonly LoadableScenario[];
  /** The faults to start with and to return to on reset (see `FaultInput`). Default: none. */
  faults?: readonly FaultInput[];
  /** How many sessions named by `X-Mock-Session` may exist, and how long one may go unused. Default: 100, 30 minutes. */
  sessions?: SessionOptions;
  /** Whether to answer the control plane under `/__mock`. Default: true. */
  control?: boolean;
  /** The deprecation date of `GET /pets/{petId}` (RFC 9745). Default: 2026-01-01T00:00:00Z. */
  petDeprecation?: Date | string;
  /** The sunset date of `GET /pets/{petId}` (RFC 8594); not before the deprecation date. Default: 2027-06-30T23:59:59Z. */
  petSunset?: Date | string;
}

/** The controls of one session's store and faults: the same calls as the control plane under `/__mock`. */
export interface MockControls {
  /** The store behind the session. */
  store: OrderStore;
  /** Every order with its status (what `GET /__mock/orders` answers). */
  orders(): StoredOrder[];
  /** Replaces every order, as `PUT /__mock/orders` does; rejects with a `MockError` and changes nothing on bad input. */
  replaceOrders(orders: readonly unknown[]): Promise<void>;
  /** Returns the store to its seed and the faults to the initial ones, as `POST /__mock/reset` does. */
  reset(): Promise<void>;
  /**
   * Loads one of `options.scenarios`, as `POST /__mock/scenarios/{name}` does: its orders replace the
   * store and its steps' faults replace the faults in force. Rejects with a `MockError`
   * (`unknown_scenario`) for a name it was not given.
   * @example
   * const mock = createOrderMock({ scenarios: bundledScenarios });
   * await mock.loadScenario('cancel-shipped-order'); // DELETE /v1/store/orders/3 now answers 409
   */
  loadScenario(name: string): Promise<void>;
  /**
   * Adds faults, as `POST /__mock/faults` does, and returns them with their ids.
   * @throws MockError `invalid_fault`; nothing is added.
   * @example
   * mock.addFaults({ operation: 'listOrders', status: 503, times: 1 }); // the next list answers 503
   * mock.addFaults({ operation: 'cancelOrder', delay: { min: 100, max: 400 }, seed: 7 });
   * mock.addFaults({ operation: 'cancelOrder', network: true, after: 2, times: 1 }); // the third cancel fails to connect
   */
  addFaults(faults: FaultInput | readonly FaultInput[]): ActiveFault[];
  /** Removes every fault, as `DELETE /__mock/faults` does. */
  clearFaults(): void;
  /** The faults in force, as `GET /__mock/faults` lists them. */
  faults(): ActiveFault[];
}

/** A stateful mock of the order interface: its MSW handlers, and the controls of its default session and of named ones. */
export interface OrderMock extends MockControls {
  /** The MSW request handlers: give them to `setupServer`, `setupWorker` or the kit's HTTP server. */
  handlers: RequestHandler[];
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
   * Answers one call of the interface without MSW, exactly as the handlers would: the session of the
   * request's header, its faults, the bearer check, the operation. For transports that need speed
   * (the standalone server's fast path); anything else goes through `handlers`.
   * @example
   * await mock.answer('cancelOrder', '3', new Request(url, { headers })) // { status: 409, headers: {...}, body: '{"code":...}' }
   */
  answer(operation: InterfaceOperation, parameter: string, request: RequestHead): Promise<Reply | NetworkError>;
}

/** An operation of the interface, by the name faults use. */
export type InterfaceOperation = Exclude<FaultOperation, '*'>;

// `session` resolves the request's session on first call (the sessions routes never create one).
type Operation = (request: Request, parameter: string, session: () => MockSession) => Promise<Response> | Response;

function toDate(value: Date | string, name: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`${name} is not a date: ${JSON.stringify(String(value))}.`);
  return date;
}

function routeHandler(
  pattern: string,
  sessions: SessionRegistry<MockSession>,
  operations: Partial<Record<string, Operation>>,
  authenticate?: (request: Request) => MockError | undefined,
): RequestHandler {
  const methods = Object.keys(operations);
  if (operations.GET) methods.push('HEAD');
  const allow = [...methods, 'OPTIONS'].join(', ');
  return http.all(pattern, async ({ request, params }) => {
    try {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
      const operation = operations[request.method === 'HEAD' ? 'GET' : request.method];
      if (operation === undefined) {
        const failure = authenticate?.(request);
        if (failure) throw failure;
        const { pathname } = new URL(request.url);
        throw new MockError('method_not_allowed', `Method ${request.method} is not allowed on ${pathname}: use ${methods.join(' or ')}.`, {
          headers: { allow },
        });
      }
      // The one named path parameter (`:orderId`, `:petId`); the `*` of the any-origin prefix is params[0].
      const parameter = Object.entries(params).find(([name]) => !/^[0-9]+$/.test(name))?.[1];
      const response = await operation(request, typeof parameter === 'string' ? parameter : '', () => sessions.forRequest(request));
      if (request.method !== 'HEAD' || response.type === 'error') return response;
      return new Response(null, { status: response.status, headers: response.headers });
    } catch (error) {
      return errorToResponse(error);
    }
  });
}

// MSW decodes path parameters with decodeURIComponent, which throws on a path such as /v1/store/orders/%ZZ.
// This handler comes first: for a path of the mock's own that cannot be decoded it answers a 404 Error
// record (after the bearer check, under the API); for anything else it falls through.
function undecodablePathHandler(inNamespace: (url: string) => boolean, authenticate: (request: Request) => MockError | undefined): RequestHandler {
  return http.all(/%/, ({ request }) => {
    const url = request.url.split(/[?#]/)[0]!;
    if (!inNamespace(url)) return undefined;
    try {
      decodeURIComponent(url);
      return undefined;
    } catch {
      const { pathname } = new URL(request.url);
      const failure = pathname.startsWith('/__mock/') ? undefined : authenticate(request);
      if (failure) return failure.toResponse();
      return noOperation(request.method, pathname, 'the path is not valid percent-encoded UTF-8').toResponse();
    }
  });
}

function notFoundHandler(pattern: string, authenticate?: (request: Request) => MockError | undefined): RequestHandler {
  return http.all(pattern, ({ request }) => {
    const failure = authenticate?.(request);
    if (failure) return failure.toResponse();
    const { pathname } = new URL(request.url);
    return noOperation(request.method, pathname).toResponse();
  });
}

/**
 * Creates a stateful mock of the order interface: pending orders cancel with 204, shipped ones
 * refuse with 409, unknown ones give 404, and every call needs a bearer key or gets 401.
 * The handlers are plain MSW handlers; the same array serves `setupServer`, `setupWorker` and the
 * kit's standalone HTTP server.
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
  const seed = options.seed ?? defaultSeed;
  const initialFaults = toFaultInputs(options.faults ?? []);
  const sessions = new SessionRegistry(() => new MockSession(seed, initialFaults), options.sessions);
  const authenticate = createAuthenticator(options.apiKeys ?? [developmentApiKey]);
  const petDeprecation = toDate(options.petDeprecation ?? defaultPetDeprecation, 'petDeprecation');
  const petSunset = toDate(options.petSunset ?? defaultPetSunset, 'petSunset');
  if (petSunset < petDeprecation) throw new TypeError('the pet sunset date must not be earlier than its deprecation date');
  const scenarios = options.scenarios ?? [];
  const operations = { listOrders, cancelOrder, readPet };
  // An operation of the interface: the session's faults first (they stand for the network and the servers in front of
  // the provider, so they come before the bearer check), then the operation on the session's store.
  const answer = async (name: InterfaceOperation, parameter: string, request: RequestHead): Promise<Reply | NetworkError> => {
    try {
      const session = sessions.forRequest(request);
      if (!session.faults.empty) {
        const injected = await session.faults.apply(name);
        if (injected !== undefined) return injected;
      }
      return await operations[name]({ store: session.store, authenticate, petDeprecation, petSunset }, request, parameter);
    } catch (error) {
      return errorToReply(error);
    }
  };
  const operation =
    (name: InterfaceOperation): Operation =>
    async (request, parameter) => {
      const reply = await answer(name, parameter, request);
      return reply === networkError ? Response.error() : replyToResponse(reply);
    };

  const base = options.baseUrl === undefined ? '*/v1' : options.baseUrl.replace(/\/+$/, '');
  const controlBase = options.baseUrl === undefined ? '*/__mock' : `${new URL(base).origin}/__mock`;

  const control = options.control ?? true;
  const inNamespace = (url: string) => {
    const { origin, pathname } = new URL(url);
    if (control && (options.baseUrl === undefined || origin === new URL(base).origin) && pathname.startsWith('/__mock/')) return true;
    return options.baseUrl === undefined ? pathname.startsWith('/v1/') : url.startsWith(`${base}/`);
  };
  const handlers: RequestHandler[] = [
    undecodablePathHandler(inNamespace, authenticate),
    routeHandler(`${base}/store/orders`, sessions, { GET: operation('listOrders') }, authenticate),
    routeHandler(`${base}/store/orders/:orderId`, sessions, { DELETE: operation('cancelOrder') }, authenticate),
    routeHandler(`${base}/pets/:petId`, sessions, { GET: operation('readPet') }, authenticate),
    notFoundHandler(`${base}/*`, authenticate),
  ];
  if (control) {
    handlers.push(
      routeHandler(`${controlBase}/orders`, sessions, { GET: (_, __, session) => readOrders(session()), PUT: (request, _, session) => replaceOrders(session(), request) }),
      routeHandler(`${controlBase}/reset`, sessions, { POST: (_, __, session) => resetOrders(session()) }),
      routeHandler(`${controlBase}/provider-state`, sessions, { POST: (request, _, session) => changeProviderState(session(), request) }),
      routeHandler(`${controlBase}/scenarios/:name`, sessions, { POST: (_, name, session) => loadScenario(session(), scenarios, name) }),
      routeHandler(`${controlBase}/faults`, sessions, {
        GET: (_, __, session) => readFaults(session()),
        POST: (request, _, session) => addFaults(session(), request),
        DELETE: (_, __, session) => clearFaults(session()),
      }),
      routeHandler(`${controlBase}/sessions`, sessions, { GET: () => readSessions(sessions) }),
      routeHandler(`${controlBase}/sessions/:name`, sessions, { DELETE: (_, name) => endSession(sessions, name) }),
      notFoundHandler(`${controlBase}/*`),
    );
  }

  const controls = (session: MockSession): MockControls => ({
    store: session.store,
    orders: () => session.orders(),
    replaceOrders: (orders) => session.replaceOrders(orders),
    reset: () => session.reset(),
    loadScenario: async (name) => {
      await session.loadScenario(scenarios, name);
    },
    addFaults: (faults) => session.addFaults(faults),
    clearFaults: () => session.faults.clear(),
    faults: () => session.faults.list(),
  });

  return {
    handlers,
    ...controls(sessions.default),
    session: (name) => controls(sessions.resolve(name)),
    sessions: () => sessions.list(),
    answer,
  };
}
