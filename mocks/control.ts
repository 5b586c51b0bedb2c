import { JsonBoundsScanner, parseJson, type JsonBoundBreach, type JsonBounds, type JsonValue } from '../core/json.js';
import { providerState, stateChangeViolations, type StateChange } from '../core/provider-state.js';
import { operationNames, type OperationName } from '../core/routes.js';
import { violationSummary } from '../core/schema-validator.js';
import { MockError } from './errors.js';
import type { RequestFilter } from './journal.js';
import type { MockSession } from './mock-session.js';
import { jsonReply, type Reply } from './reply.js';
import type { MockRequest } from './mock-request.js';
import type { SessionRegistry } from './sessions.js';
import { matchSegments, pathSegments, templateSegments } from '../core/routes.js';
import { controlPage } from './control-page.js';

/**
 * What a control-plane body may hold: every body it takes is a few levels deep (a provider state's
 * orders, four), and every number fits an int64 (19 digits). Checked as the body comes, before it is
 * parsed: past these, it is refused at once.
 */
export const controlBodyBounds: JsonBounds = { maxDepth: 32, maxDigits: 19 };

/** Where the control plane is served, beside the interface. */
export const controlPrefix = '/__mock';

/**
 * The path below the control plane's prefix, or undefined for a path outside it.
 * @example
 * controlPathOf('/__mock/orders') // '/orders'
 * controlPathOf('/v1/store/orders') // undefined
 */
export function controlPathOf(pathname: string): string | undefined {
  return pathname === controlPrefix || pathname.startsWith(`${controlPrefix}/`)
    ? pathname.slice(controlPrefix.length)
    : undefined;
}

/**
 * What a JSON body sent to this path may hold, for a control route that reads one (checked as the body
 * comes); undefined for any other path.
 * @example
 * controlBodyBoundsAt('/__mock/orders') // controlBodyBounds
 * controlBodyBoundsAt('/__mock/requests') // undefined
 */
export function controlBodyBoundsAt(pathname: string): JsonBounds | undefined {
  const path = controlPathOf(pathname);
  return path === undefined ? undefined : matchControlRoute(pathSegments(path))?.route.bodyBounds;
}

/**
 * The Error a control-plane body past its bounds is refused with.
 * @example
 * boundsError({ bound: 'depth', limit: 32 }).code // 'invalid_json'
 */
export function boundsError(breach: JsonBoundBreach, headers: Record<string, string> = {}): MockError {
  return breach.bound === 'digits'
    ? new MockError(
        'number_out_of_range',
        `Invalid JSON body: a number of more than ${breach.limit} digits is out of range (an int64 has at most 19 digits).`,
        { headers },
      )
    : new MockError(
        'invalid_json',
        `Invalid JSON body: arrays and objects are nested more than ${breach.limit} levels deep (the control plane reads at most ${breach.limit}).`,
        { headers },
      );
}

const noContent = (): Reply => ({ status: 204, headers: {}, body: null });

// The body is read as JSON whatever its Content-Type says: `curl -d` labels JSON as a form, a browser's
// fetch with a string body as text/plain. The JSON parse is the check.
async function readJsonBody(request: MockRequest): Promise<JsonValue> {
  const text = await request.text();
  const breach = new JsonBoundsScanner(controlBodyBounds).feed(text);
  if (breach !== undefined) throw boundsError(breach);
  try {
    return parseJson(text);
  } catch (error) {
    throw new MockError('invalid_json', `Invalid JSON body: ${(error as Error).message}`);
  }
}

/** Whether an `If-None-Match` field names this entity tag (weak comparison, RFC 9110 section 13.1.2). */
function matchesTag(ifNoneMatch: string | null, tag: string): boolean {
  if (ifNoneMatch === null) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}

/**
 * `GET /__mock/orders`: every order, with its status (written in slices: a big store holds no one up).
 * Tagged (`ETag`): with `If-None-Match` of the current tag it answers 304 without a body, so a page
 * that watches the store asks every second for nothing while nothing changes.
 */
export async function readOrders(session: MockSession, request: MockRequest): Promise<Reply> {
  const tag = session.store.changeTag;
  const headers = { etag: tag, 'cache-control': 'no-cache' };
  if (matchesTag(request.headers.get('if-none-match'), tag)) return { status: 304, headers, body: null };
  return {
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
    body: await session.store.storedBody(),
  };
}

/** `PUT /__mock/orders`: replaces the store with a JSON array of orders (each with an optional `status`); 204. */
export async function replaceOrders(session: MockSession, request: MockRequest): Promise<Reply> {
  await session.replaceOrders(await readJsonBody(request));
  return noContent();
}

/** `POST /__mock/reset`: back to the seed and the faults the mock started with; 204. */
export async function resetOrders(session: MockSession): Promise<Reply> {
  await session.reset();
  return noContent();
}

/**
 * `POST /__mock/provider-state`: Pact's state-change request. `setup` (the default) of
 * `the store holds orders` replaces the store with `params.orders`; `teardown` returns it to its seed.
 * Answers 200 with `{ state, action, orders }` (the number of orders now stored).
 * @example
 * // body: {"state": "the store holds orders", "params": {"orders": [{"id": 1, "status": "shipped"}]}}
 */
export async function answerStateChange(session: MockSession, request: MockRequest): Promise<Reply> {
  const body = await readJsonBody(request);
  const violations = stateChangeViolations(body);
  if (violations.length > 0)
    throw new MockError('invalid_request', `Invalid provider state change: ${violationSummary(violations)}.`, {
      violations,
    });
  const change = body as unknown as StateChange;
  if (change.state !== providerState) {
    throw new MockError(
      'unknown_provider_state',
      `Unknown provider state ${JSON.stringify(change.state)}: the only state is ${JSON.stringify(providerState)}.`,
    );
  }
  const action = change.action ?? 'setup';
  if (action === 'teardown') {
    await session.store.reset();
  } else {
    if (change.params?.orders === undefined) {
      throw new MockError('invalid_request', 'Invalid provider state change: /params/orders is required for setup.', {
        violations: [{ path: '/params/orders', message: 'is required' }],
      });
    }
    await session.replaceOrders(change.params.orders, '/params/orders');
  }
  return jsonReply({ state: change.state, action, orders: session.store.size });
}

/**
 * `POST /__mock/scenarios/{name}`: loads the scenario (its orders and its steps' faults, see
 * `MockSession#loadScenario`) and answers 200 `{ scenario, seeded, orders, faults }`.
 * @example
 * // POST /__mock/scenarios/cancel-shipped-order → 200 {"scenario":"cancel-shipped-order","seeded":true,"orders":2,"faults":0}
 */
export async function loadScenario(session: MockSession, name: string): Promise<Reply> {
  return jsonReply(await session.loadScenario(name));
}

/** `GET /__mock/faults`: the faults in force, with what each has `seen` and `affected`. */
export function readFaults(session: MockSession): Reply {
  return jsonReply(session.faults());
}

/**
 * `POST /__mock/faults`: adds a fault or a JSON array of faults (see `FaultInput`); 201 with those added, with their ids.
 * @example
 * // body: {"operation": "cancelOrder", "status": 503, "times": 2}
 */
export async function addFaults(session: MockSession, request: MockRequest): Promise<Reply> {
  return jsonReply(session.addFaults(await readJsonBody(request)), 201);
}

/** `DELETE /__mock/faults`: removes every fault of the session; 204. */
export function clearFaults(session: MockSession): Reply {
  session.clearFaults();
  return noContent();
}

/** `GET /__mock/sessions`: the named sessions in use, `{ name, idle }` (milliseconds since their last request). */
export function readSessions(sessions: SessionRegistry<MockSession>): Reply {
  return jsonReply(sessions.list());
}

/**
 * `DELETE /__mock/sessions/{name}`: ends a named session (its store and faults are dropped); 204.
 * @throws MockError `unknown_session` when no session of that name is in use.
 */
export function endSession(sessions: SessionRegistry<MockSession>, name: string): Reply {
  if (!sessions.drop(name)) throw new MockError('unknown_session', `No session ${JSON.stringify(name)} is in use.`);
  return noContent();
}

/**
 * `DELETE /__mock/faults/{id}`: removes one fault of the session, by the id `GET /__mock/faults` lists; 204.
 * @throws MockError `unknown_fault` when no fault in force has that id.
 */
export function removeFault(session: MockSession, id: string): Reply {
  const number = /^[0-9]{1,15}$/.test(id) ? Number(id) : Number.NaN;
  if (Number.isNaN(number))
    throw new MockError('unknown_fault', `No fault ${JSON.stringify(id)} is in force; GET /__mock/faults lists them.`);
  session.removeFault(number);
  return noContent();
}

const journalFilters = ['operation', 'status', 'method', 'path'] as const;

const invalidFilter = (name: string, message: string, violation: string) =>
  new MockError('invalid_request', message, { violations: [{ path: `/${name}`, message: violation }] });

// Every filter is named once: a filter given twice is refused rather than half applied.
function checkFilterNames(query: URLSearchParams): void {
  for (const name of new Set(query.keys())) {
    if (!(journalFilters as readonly string[]).includes(name))
      throw invalidFilter(
        name,
        `Unknown filter ${JSON.stringify(name)}: filter by ${journalFilters.join(', ')}.`,
        'is not a filter',
      );
    const given = query.getAll(name).length;
    if (given > 1)
      throw invalidFilter(
        name,
        `Filter ${JSON.stringify(name)} is given ${given} times: give each filter once.`,
        'is given more than once',
      );
  }
}

function operationFilter(operation: string): OperationName | null {
  if (operation === 'null') return null;
  if ((operationNames as readonly string[]).includes(operation)) return operation as OperationName;
  throw invalidFilter(
    'operation',
    `Unknown operation filter ${JSON.stringify(operation)}: an operation of the interface (${operationNames.join(', ')}), or null for calls that are no operation.`,
    'is not an operation',
  );
}

function statusFilter(status: string): number | 'network' {
  if (status === 'network') return status;
  if (/^[1-5][0-9]{2}$/.test(status)) return Number(status);
  throw invalidFilter(
    'status',
    `Invalid status filter ${JSON.stringify(status)}: a status from 100 to 599, or network.`,
    'must be a status or network',
  );
}

/**
 * `GET /__mock/requests`: the calls of the interface the session answered, oldest first; the query
 * filters them (`?operation=cancelOrder&status=204`, `method`, `path`; `operation=null` for calls that are no operation).
 * @throws MockError `invalid_request` for an unknown filter, a filter given twice, an unknown operation, or a status that is neither a number nor `network`.
 */
export function readRequests(session: MockSession, url: URL): Reply {
  const query = url.searchParams;
  checkFilterNames(query);
  const filter: RequestFilter = {};
  const operation = query.get('operation');
  if (operation !== null) filter.operation = operationFilter(operation);
  const status = query.get('status');
  if (status !== null) filter.status = statusFilter(status);
  const method = query.get('method');
  if (method !== null) filter.method = method;
  const path = query.get('path');
  if (path !== null) filter.path = path;
  return jsonReply(session.requests(filter));
}

/** `DELETE /__mock/requests`: forgets the session's calls and coverage counts; 204. */
export function clearRequests(session: MockSession): Reply {
  session.clearRequests();
  return noContent();
}

/** `GET /__mock/coverage`: every documented response of every operation, with how often the session answered it. */
export function readCoverage(session: MockSession): Reply {
  return jsonReply(session.coverage());
}

/** What a control route is called with: the request, its URL, its path parameter (decoded), and the sessions. */
export interface ControlCall {
  request: MockRequest;
  url: URL;
  parameter: string;
  sessions: SessionRegistry<MockSession>;
  /** The request's session, resolved on first call (the sessions routes never create one). */
  session: () => MockSession;
}

/** One path of the control plane below `/__mock`, and what each method does there. */
export interface ControlRoute {
  path: string;
  segments: readonly string[];
  methods: Partial<Record<string, (call: ControlCall) => Reply | Promise<Reply>>>;
  /** For a route that reads a JSON body: what the body may hold, checked as it comes. */
  bodyBounds?: JsonBounds;
}

function controlRoute(
  path: string,
  methods: ControlRoute['methods'],
  options: { readsBody?: boolean } = {},
): ControlRoute {
  return {
    path,
    segments: templateSegments(path),
    methods,
    ...(options.readsBody && { bodyBounds: controlBodyBounds }),
  };
}

/**
 * The control route a path below the prefix fits, with its parameter's text, or undefined.
 * @example
 * matchControlRoute(['faults', '3'])?.parameter // '3'
 */
export function matchControlRoute(segments: readonly string[]): { route: ControlRoute; parameter: string } | undefined {
  for (const route of controlRoutes) {
    const parameter = matchSegments(route.segments, segments);
    if (parameter !== undefined) return { route, parameter };
  }
  return undefined;
}

/**
 * The control plane's routes below `/__mock`, in the order they are matched; the pipeline routes
 * them as it routes the interface's (404, 405 with `Allow`, HEAD, OPTIONS).
 * @example
 * controlRoutes.map((route) => route.path) // ['/orders', '/reset', '/provider-state', ...]
 */
export const controlRoutes: readonly ControlRoute[] = [
  controlRoute(
    '/orders',
    {
      GET: ({ session, request }) => readOrders(session(), request),
      PUT: ({ session, request }) => replaceOrders(session(), request),
    },
    { readsBody: true },
  ),
  controlRoute('/reset', { POST: ({ session }) => resetOrders(session()) }),
  controlRoute(
    '/provider-state',
    { POST: ({ session, request }) => answerStateChange(session(), request) },
    { readsBody: true },
  ),
  controlRoute('/', { GET: () => controlPage() }),
  controlRoute('/scenarios', { GET: ({ sessions }) => jsonReply(sessions.default.scenarios()) }),
  controlRoute('/scenarios/{name}', { POST: ({ session, parameter }) => loadScenario(session(), parameter) }),
  controlRoute(
    '/faults',
    {
      GET: ({ session }) => readFaults(session()),
      POST: ({ session, request }) => addFaults(session(), request),
      DELETE: ({ session }) => clearFaults(session()),
    },
    { readsBody: true },
  ),
  controlRoute('/faults/{id}', { DELETE: ({ session, parameter }) => removeFault(session(), parameter) }),
  controlRoute('/requests', {
    GET: ({ session, url }) => readRequests(session(), url),
    DELETE: ({ session }) => clearRequests(session()),
  }),
  controlRoute('/coverage', { GET: ({ session }) => readCoverage(session()) }),
  controlRoute(
    '/settings',
    {
      GET: ({ session }) => jsonReply(session().settings()),
      PUT: async ({ session, request }) => jsonReply(session().changeSettings(await readJsonBody(request))),
    },
    { readsBody: true },
  ),
  controlRoute('/sessions', { GET: ({ sessions }) => readSessions(sessions) }),
  controlRoute('/sessions/{name}', { DELETE: ({ sessions, parameter }) => endSession(sessions, parameter) }),
];
