import { http, type RequestHandler } from 'msw';
import { developmentApiKey } from '../spec/authorization.js';
import type { FaultInput } from '../spec/fault-format.js';
import { matchRoute, routes, type OperationName } from '../spec/routes.js';
import { createAuthenticator } from './auth.js';
import {
  addFaults,
  changeProviderState,
  clearFaults,
  clearRequests,
  endSession,
  loadScenario,
  readCoverage,
  readFaults,
  readOrders,
  readRequests,
  readSessions,
  removeFault,
  replaceOrders,
  resetOrders,
} from './control.js';
import { defaultSeed } from './default-seed.js';
import { MockError, errorToReply, errorToResponse, noOperation } from './errors.js';
import { networkError, toFaultInputs, type NetworkError } from './faults.js';
import { MockSession, type LoadableScenario, type MockControls } from './mock-session.js';
import { operations } from './operations.js';
import { OrderSeed } from './order-seed.js';
import { replyToResponse, type Reply, type RequestHead } from './reply.js';
import { defaultJournalSize } from './journal.js';
import { SessionRegistry, sessionHeader, type SessionOptions, type SessionSummary } from './sessions.js';

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
  /** The scenarios `POST /__mock/scenarios/{name}` can load (in Node, `loadScenarios()` reads the kit's; `bundledScenarios` holds them everywhere). Default: none. */
  scenarios?: readonly LoadableScenario[];
  /** The faults to start with and to return to on reset (see `FaultInput`). Default: none. */
  faults?: readonly FaultInput[];
  /** How many sessions named by `X-Mock-Session` may exist, and how long one may go unused. Default: 100, 30 minutes. */
  sessions?: SessionOptions;
  /** How many calls each session's journal keeps, oldest dropped first; 0 keeps none. Default: 1,000. */
  journalSize?: number;
  /** Whether to answer the control plane under `/__mock`. Default: true. */
  control?: boolean;
  /** The deprecation date of `GET /pets/{petId}` (RFC 9745). Default: 2026-01-01T00:00:00Z. */
  petDeprecation?: Date | string;
  /** The sunset date of `GET /pets/{petId}` (RFC 8594); not before the deprecation date. Default: 2027-06-30T23:59:59Z. */
  petSunset?: Date | string;
}

/**
 * A stateful mock of the order interface: its MSW handlers, and the controls of its default session
 * (the mock itself) and of named ones.
 */
export interface OrderMock extends MockControls {
  /** The MSW request handlers: give them to `setupServer`, `setupWorker` or the kit's HTTP server. */
  readonly handlers: RequestHandler[];
  /**
   * The controls of the session that requests with `X-Mock-Session: name` see, created from the seed on first use.
   * @throws MockError `invalid_session` or `session_limit_reached`.
   * @example
   * await mock.session('test-file-a').loadScenario('cancel-shipped-order');
   */
  session(name: string): MockControls;
  /** The named sessions in use, as `GET /__mock/sessions` lists them. */
  sessions(): SessionSummary[];
}

/**
 * Answers one call of the interface without MSW, exactly as the handlers would: the session of the
 * request's header, its faults, the bearer check, the operation. Internal to the kit: the standalone
 * server's fast path uses it; everything else goes through `handlers`.
 */
export interface InterfaceAnswerer {
  answer(operation: OperationName, parameter: string, request: RequestHead): Promise<Reply | NetworkError>;
  /** Records a call under the base URL in the journal of its session, with the status the client got; `operation` when the caller has matched the route already. */
  record(
    request: RequestHead,
    method: string,
    pathname: string,
    status: number | 'network',
    operation?: OperationName | null,
  ): void;
  /** Creates the default session's records now rather than at its first change (see `OrderStore#materialize`); resolves with how many. */
  materialize(): Promise<number>;
}

const answerers = new WeakMap<OrderMock, InterfaceAnswerer>();

/**
 * The answerer behind a mock made by `createOrderMock`: internal between the handlers and the
 * standalone server (not exported by the package).
 * @example
 * const reply = await answererOf(mock).answer('cancelOrder', '3', request);
 */
export function answererOf(mock: OrderMock): InterfaceAnswerer {
  const answerer = answerers.get(mock);
  if (answerer === undefined) throw new TypeError('not a mock made by createOrderMock');
  return answerer;
}

// `session` resolves the request's session on first call (the sessions routes never create one).
type Operation = (request: Request, parameter: string, session: () => MockSession) => Promise<Response> | Response;

function toDate(value: Date | string, name: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`${name} is not a date: ${JSON.stringify(String(value))}.`);
  return date;
}

/** Records what a handler under the base URL answered (the control plane records nothing). */
type Journal = (request: Request, response: Response) => void;

function journaled(journal: Journal | undefined, request: Request, response: Response): Response {
  journal?.(request, response);
  return response;
}

function routeHandler(
  pattern: string,
  sessions: SessionRegistry<MockSession>,
  operationsByMethod: Partial<Record<string, Operation>>,
  authenticate?: (request: Request) => MockError | undefined,
  journal?: Journal,
): RequestHandler {
  const methods = Object.keys(operationsByMethod);
  if (operationsByMethod.GET) methods.push('HEAD');
  const allow = [...methods, 'OPTIONS'].join(', ');
  return http.all(pattern, async ({ request, params }) =>
    journaled(journal, request, await answerRoute(request, params)),
  );
  async function answerRoute(
    request: Request,
    params: Record<string, string | readonly string[] | undefined>,
  ): Promise<Response> {
    try {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
      const operation = operationsByMethod[request.method === 'HEAD' ? 'GET' : request.method];
      if (operation === undefined) {
        const failure = authenticate?.(request);
        if (failure) throw failure;
        const { pathname } = new URL(request.url);
        throw new MockError(
          'method_not_allowed',
          `Method ${request.method} is not allowed on ${pathname}: use ${methods.join(' or ')}.`,
          {
            headers: { allow },
          },
        );
      }
      // The one named path parameter (`:orderId`, `:petId`); the `*` of the any-origin prefix is params[0].
      const parameter = Object.entries(params).find(([name]) => !/^[0-9]+$/.test(name))?.[1];
      const response = await operation(request, typeof parameter === 'string' ? parameter : '', () =>
        sessions.forRequest(request),
      );
      if (request.method !== 'HEAD' || response.type === 'error') return response;
      // HEAD answers what GET would, without the content: the same Content-Length (RFC 9110 §9.3.2, §8.6).
      const headers = new Headers(response.headers);
      headers.set('content-length', String((await response.arrayBuffer()).byteLength));
      return new Response(null, { status: response.status, headers });
    } catch (error) {
      return errorToResponse(error);
    }
  }
}

// MSW decodes path parameters with decodeURIComponent, which throws on a path such as /v1/store/orders/%ZZ.
// This handler comes first: for a path of the mock's own that cannot be decoded it answers a 404 Error
// record (after the bearer check, under the API); for anything else it falls through.
function undecodablePathHandler(
  inNamespace: (url: string) => boolean,
  authenticate: (request: Request) => MockError | undefined,
  journal: Journal,
): RequestHandler {
  return http.all(/%/, ({ request }) => {
    const url = request.url.split(/[?#]/)[0]!;
    if (!inNamespace(url)) return undefined;
    try {
      decodeURIComponent(url);
      return undefined;
    } catch {
      const { pathname } = new URL(request.url);
      const control = pathname.startsWith('/__mock/');
      const failure = control ? undefined : authenticate(request);
      const response = (
        failure ?? noOperation(request.method, pathname, 'the path is not valid percent-encoded UTF-8')
      ).toResponse();
      return control ? response : journaled(journal, request, response);
    }
  });
}

function notFoundHandler(
  pattern: string,
  authenticate?: (request: Request) => MockError | undefined,
  journal?: Journal,
): RequestHandler {
  return http.all(pattern, ({ request }) => {
    const failure = authenticate?.(request);
    const { pathname } = new URL(request.url);
    return journaled(journal, request, (failure ?? noOperation(request.method, pathname)).toResponse());
  });
}

/**
 * The route table's path templates as MSW path patterns, each with the operations at that path by method.
 * @example
 * interfacePaths() // [['/store/orders', { GET: 'listOrders' }], ['/store/orders/:orderId', { DELETE: 'cancelOrder' }], ...]
 */
function interfacePaths(): [string, Record<string, OperationName>][] {
  const byPath = new Map<string, Record<string, OperationName>>();
  for (const route of routes) {
    const pattern = route.path.replace(/\{([^}]+)\}/g, ':$1');
    byPath.set(pattern, { ...byPath.get(pattern), [route.method]: route.operation });
  }
  return [...byPath];
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
  const start = {
    seed: OrderSeed.from(options.seed ?? defaultSeed),
    faults: toFaultInputs(options.faults ?? []),
    scenarios: options.scenarios ?? [],
    journalSize: options.journalSize ?? defaultJournalSize,
  };
  const sessions = new SessionRegistry(() => new MockSession(start), options.sessions);
  const authenticate = createAuthenticator(options.apiKeys ?? [developmentApiKey]);
  const petDeprecation = toDate(options.petDeprecation ?? defaultPetDeprecation, 'petDeprecation');
  const petSunset = toDate(options.petSunset ?? defaultPetSunset, 'petSunset');
  if (petSunset < petDeprecation)
    throw new TypeError('the pet sunset date must not be earlier than its deprecation date');
  // An operation of the interface: the session's faults first (they stand for the network and the servers in front of
  // the provider, so they come before the bearer check), then the operation on the session's store.
  const answer: InterfaceAnswerer['answer'] = async (name, parameter, request) => {
    try {
      const session = sessions.forRequest(request);
      const faulted = session.applyFaults(name);
      if (faulted !== undefined) {
        const injected = await faulted;
        if (injected !== undefined) return injected;
      }
      return await operations[name](
        { store: session.store, authenticate, petDeprecation, petSunset },
        request,
        parameter,
      );
    } catch (error) {
      return errorToReply(error);
    }
  };
  const base = options.baseUrl === undefined ? '*/v1' : options.baseUrl.replace(/\/+$/, '');
  const basePath = options.baseUrl === undefined ? '/v1' : new URL(base).pathname;
  // The journal of the call's session (the default one when its header names no session that can be used).
  const record: InterfaceAnswerer['record'] = (request, method, pathname, status, operation) => {
    if (start.journalSize === 0) return;
    const name = request.headers.get(sessionHeader);
    let session = sessions.default;
    if (name !== null) {
      try {
        session = sessions.resolve(name);
      } catch {
        // an invalid name, or one past the session limit: the default session's journal
      }
    }
    const header = request.headers.get('authorization');
    session.recordCall({
      method,
      path: pathname,
      operation:
        operation !== undefined
          ? operation
          : pathname.startsWith(basePath)
            ? (matchRoute(method, pathname.slice(basePath.length))?.route.operation ?? null)
            : null,
      status,
      session: session === sessions.default ? null : name,
      time: Date.now(),
      authorization: header === null ? 'none' : authenticate(request) === undefined ? 'valid' : 'invalid',
    });
  };
  const journal: Journal = (request, response) =>
    record(
      request,
      request.method,
      new URL(request.url).pathname,
      response.type === 'error' ? 'network' : response.status,
    );
  const operation =
    (name: OperationName): Operation =>
    async (request, parameter) => {
      const reply = await answer(name, parameter, request);
      return reply === networkError ? Response.error() : replyToResponse(reply);
    };

  const controlBase = options.baseUrl === undefined ? '*/__mock' : `${new URL(base).origin}/__mock`;

  const control = options.control ?? true;
  const inNamespace = (url: string) => {
    const { origin, pathname } = new URL(url);
    if (
      control &&
      (options.baseUrl === undefined || origin === new URL(base).origin) &&
      pathname.startsWith('/__mock/')
    )
      return true;
    return options.baseUrl === undefined ? pathname.startsWith('/v1/') : url.startsWith(`${base}/`);
  };
  const handlers: RequestHandler[] = [
    undecodablePathHandler(inNamespace, authenticate, journal),
    ...interfacePaths().map(([path, byMethod]) =>
      routeHandler(
        `${base}${path}`,
        sessions,
        Object.fromEntries(Object.entries(byMethod).map(([method, name]) => [method, operation(name)])),
        authenticate,
        journal,
      ),
    ),
    notFoundHandler(`${base}/*`, authenticate, journal),
  ];
  if (control) {
    handlers.push(
      routeHandler(`${controlBase}/orders`, sessions, {
        GET: (_, __, session) => readOrders(session()),
        PUT: (request, _, session) => replaceOrders(session(), request),
      }),
      routeHandler(`${controlBase}/reset`, sessions, { POST: (_, __, session) => resetOrders(session()) }),
      routeHandler(`${controlBase}/provider-state`, sessions, {
        POST: (request, _, session) => changeProviderState(session(), request),
      }),
      routeHandler(`${controlBase}/scenarios/:name`, sessions, {
        POST: (_, name, session) => loadScenario(session(), name),
      }),
      routeHandler(`${controlBase}/faults`, sessions, {
        GET: (_, __, session) => readFaults(session()),
        POST: (request, _, session) => addFaults(session(), request),
        DELETE: (_, __, session) => clearFaults(session()),
      }),
      routeHandler(`${controlBase}/faults/:id`, sessions, { DELETE: (_, id, session) => removeFault(session(), id) }),
      routeHandler(`${controlBase}/requests`, sessions, {
        GET: (request, _, session) => readRequests(session(), request),
        DELETE: (_, __, session) => clearRequests(session()),
      }),
      routeHandler(`${controlBase}/coverage`, sessions, { GET: (_, __, session) => readCoverage(session()) }),
      routeHandler(`${controlBase}/sessions`, sessions, { GET: () => readSessions(sessions) }),
      routeHandler(`${controlBase}/sessions/:name`, sessions, { DELETE: (_, name) => endSession(sessions, name) }),
      notFoundHandler(`${controlBase}/*`),
    );
  }

  // The mock is its default session, with the handlers and the named sessions beside: one layer of controls.
  const mock: OrderMock = Object.assign(sessions.default, {
    handlers,
    session: (name: string): MockControls => sessions.resolve(name),
    sessions: () => sessions.list(),
  });
  const materialize = async () => {
    await sessions.default.store.materialize();
    return sessions.default.store.size;
  };
  answerers.set(mock, { answer, record, materialize });
  return mock;
}
