import { JsonBoundsScanner, type JsonBoundBreach, type JsonBounds } from '../../core/json-bounds-scanner.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { providerState, stateChangeViolations, type StateChange } from '../../core/provider-state.js';
import { operationNames, type OperationName } from '../../core/routes.js';
import { violationSummary } from '../../core/schema-validator.js';
import { findingMessage } from '../../core/finding.js';
import { consumerPactText, leftOutText, pactTooLargeMessage } from '../pact/consumer-pact.js';
import type { InteractionJudge } from '../pact/interaction-judge.js';
import { defaultPactProvider, pactParticipantName } from '../pact/pact-file.js';
import { MockError } from '../base/errors.js';
import type { RequestFilter } from '../journal/request-filter.js';
import type { MockSession } from '../session/mock-session.js';
import { jsonReply, type Reply } from '../base/reply.js';
import type { MockRequest } from '../base/mock-request.js';
import type { SessionRegistry } from '../session/sessions.js';
import { matchSegments, pathSegments, templateSegments } from '../../core/routes.js';
import { controlPage } from './control-page.js';

/** What a control-plane body may hold, checked as it arrives: no body it takes is deep, and every number fits an int64. */
export const controlBodyBounds: JsonBounds = { maxDepth: 32, maxDigits: 19 };

export const controlPrefix = '/__mock';

/** The path below `/__mock`, or undefined for a path outside it. */
export function controlPathOf(pathname: string): string | undefined {
  return pathname === controlPrefix || pathname.startsWith(`${controlPrefix}/`)
    ? pathname.slice(controlPrefix.length)
    : undefined;
}

/** The bounds of a JSON body sent to this path; undefined for a path whose route reads no body. */
export function controlBodyBoundsAt(pathname: string): JsonBounds | undefined {
  const path = controlPathOf(pathname);
  return path === undefined ? undefined : matchControlRoute(pathSegments(path))?.route.bodyBounds;
}

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

// JSON whatever the Content-Type says: `curl -d` labels JSON as a form, and fetch with a string as text/plain.
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

// Weak comparison (RFC 9110 section 13.1.2).
function matchesTag(ifNoneMatch: string | null, tag: string): boolean {
  if (ifNoneMatch === null) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}

/** `GET /__mock/orders`, with an `ETag`, so that the control page can poll for nothing while nothing changes. */
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

/** `PUT /__mock/orders`. */
export async function replaceOrders(session: MockSession, request: MockRequest): Promise<Reply> {
  await session.replaceOrders(await readJsonBody(request));
  return noContent();
}

/** `POST /__mock/reset`. */
export async function resetOrders(session: MockSession): Promise<Reply> {
  await session.reset();
  return noContent();
}

/** `POST /__mock/provider-state`: Pact's state change; a teardown returns the store to its seed. */
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

/** `POST /__mock/scenarios/{name}`. */
export async function loadScenario(session: MockSession, name: string): Promise<Reply> {
  return jsonReply(await session.loadScenario(name));
}

/** `GET /__mock/faults`. */
export function readFaults(session: MockSession): Reply {
  return jsonReply(session.faults());
}

/** `POST /__mock/faults`: one fault or an array. */
export async function addFaults(session: MockSession, request: MockRequest): Promise<Reply> {
  return jsonReply(session.addFaults(await readJsonBody(request)), 201);
}

/** `DELETE /__mock/faults`. */
export function clearFaults(session: MockSession): Reply {
  session.clearFaults();
  return noContent();
}

/** `GET /__mock/sessions`. */
export function readSessions(sessions: SessionRegistry<MockSession>): Reply {
  return jsonReply(sessions.list());
}

/** `DELETE /__mock/sessions/{name}`. */
export function endSession(sessions: SessionRegistry<MockSession>, name: string): Reply {
  if (!sessions.drop(name)) throw new MockError('unknown_session', `No session ${JSON.stringify(name)} is in use.`);
  return noContent();
}

/** `DELETE /__mock/faults/{id}`. */
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

// A filter given twice is refused rather than half applied.
function checkFilterNames(query: URLSearchParams, others: readonly string[]): void {
  for (const name of new Set(query.keys())) {
    if (!others.includes(name) && !(journalFilters as readonly string[]).includes(name))
      throw invalidFilter(
        name,
        `Unknown filter ${JSON.stringify(name)}: filter by ${[...journalFilters, ...others].join(', ')}.`,
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

/** The journal's filter a query gives (`operation=null` for calls that are no operation), beside its other parameters. */
function filterOf(query: URLSearchParams, others: readonly string[] = []): RequestFilter {
  checkFilterNames(query, others);
  const filter: RequestFilter = {};
  const operation = query.get('operation');
  if (operation !== null) filter.operation = operationFilter(operation);
  const status = query.get('status');
  if (status !== null) filter.status = statusFilter(status);
  const method = query.get('method');
  if (method !== null) filter.method = method;
  const path = query.get('path');
  if (path !== null) filter.path = path;
  return filter;
}

/** `GET /__mock/requests`, filtered by the query. */
export function readRequests(session: MockSession, url: URL): Reply {
  return jsonReply(session.requests(filterOf(url.searchParams)));
}

/** `DELETE /__mock/requests`. */
export function clearRequests(session: MockSession): Reply {
  session.clearRequests();
  return noContent();
}

/** `GET /__mock/coverage`. */
export function readCoverage(session: MockSession): Reply {
  return jsonReply(session.coverage());
}

/**
 * `GET /__mock/pact?consumer=NAME[&provider=NAME]`: the session's consumer pact (what `mock.pact()`
 * writes), sent as the UTF-8 parts it was written in; 422 with the judge's findings when the contract
 * does not allow it, 409 `pact_too_large` past its limit; what it leaves out is also said through `warn`.
 */
export async function readPact(
  session: MockSession,
  url: URL,
  { basePath, pact, warn }: Pick<ControlCall, 'basePath' | 'pact' | 'warn'>,
): Promise<Reply> {
  const query = url.searchParams;
  const filter = filterOf(query, ['consumer', 'provider']);
  const consumer = query.get('consumer');
  const provider = query.get('provider') ?? defaultPactProvider;
  for (const [role, name] of [
    ['consumer', consumer],
    ['provider', provider],
  ] as const)
    if (name === null || !pactParticipantName.test(name))
      throw new MockError(
        'invalid_request',
        `GET /__mock/pact needs ?${role}=NAME, a name of letters, digits, '.', '_' and '-'${name === null ? '' : `, not ${JSON.stringify(name)}`}.`,
      );
  const pactCalls = session.pactCalls();
  if (pactCalls.overflow > 0)
    throw new MockError(
      'pact_limit_reached',
      `The pact of ${consumer} was not made: ${pactCalls.overflow} distinct calls came past what a session's pact holds, and a pact without them would not be the app's whole contract. Start it over with DELETE /__mock/pact.`,
    );
  const selection = { consumer: consumer!, provider, filter };
  const built = await consumerPactText(pactCalls, selection, { basePath, judge: pact.judge, maxBytes: pact.maxBytes });
  if ('tooLarge' in built) throw new MockError('pact_too_large', pactTooLargeMessage(consumer!, built.tooLarge));
  const { findings, conflicts, leftOut } = built.pact;
  if (findings.length > 0)
    throw new MockError(
      'pact_contradicts_spec',
      `The pact of ${consumer} was not made: the contract does not allow ${findings.length === 1 ? 'one interaction' : `${findings.length} interactions`}.`,
      {
        violations: findings.map((finding) => ({
          path: `${finding.interaction} ${finding.path}`.trim(),
          message: findingMessage(finding),
        })),
      },
    );
  if (conflicts.length > 0)
    throw new MockError(
      'pact_conflict',
      `The pact of ${consumer} was not made: the same request under the same provider state was answered in two ways.`,
      {
        violations: conflicts.map((conflict) => ({
          path: conflict.added,
          message: `answers the request of "${conflict.kept}" differently`,
        })),
      },
    );
  if (leftOut.length > 0) warn?.(`the pact of ${consumer} leaves out ${leftOutText(leftOut)}`);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: built.parts };
}

/** `DELETE /__mock/pact`: forgets the calls the session's pact is written from (a reset keeps them). */
export function clearPact(session: MockSession): Reply {
  session.clearPact();
  return noContent();
}

// The test that began last on each session (`POST /__mock/pact/tests`), and the function that says it failed.
const runningTests = new WeakMap<MockSession, { name: string; failed: () => void }>();

async function testNameOf(request: MockRequest, route: string): Promise<string> {
  const body = await readJsonBody(request);
  const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? body.name : undefined;
  if (typeof name !== 'string' || name === '' || Object.keys(body as object).length !== 1)
    throw new MockError(
      'invalid_request',
      `${route} needs a JSON body {"name": "TEST"}, the test's name a non-empty string.`,
    );
  return name;
}

/** `POST /__mock/pact/tests` `{ "name" }`: a test began on the session, and the one before it passed. */
export async function testStarted(session: MockSession, request: MockRequest): Promise<Reply> {
  const name = await testNameOf(request, 'POST /__mock/pact/tests');
  runningTests.set(session, { name, failed: session.testStarted(name) });
  return noContent();
}

/**
 * `POST /__mock/pact/failed-tests` `{ "name" }`: the test that began last did not pass; the calls it
 * made first leave the session's pact, which names it. 409 `tests_overlap` for any other test.
 */
export async function testFailed(session: MockSession, request: MockRequest): Promise<Reply> {
  const name = await testNameOf(request, 'POST /__mock/pact/failed-tests');
  const running = runningTests.get(session);
  if (running?.name !== name)
    throw new MockError(
      'tests_overlap',
      `Test ${JSON.stringify(name)} is not the test that began last on this session (${running === undefined ? 'none is running' : `${JSON.stringify(running.name)} is`}): its calls cannot be told apart, and stay in the pact.`,
    );
  // Kept until the next test begins: saying it again is answered alike, and changes nothing.
  running.failed();
  return noContent();
}

/** What a control route is called with. */
export interface ControlCall {
  request: MockRequest;
  url: URL;
  /** The path of the mock's base URL (`/v1`): a pact's paths are written below it. */
  basePath: string;
  /** The judge of a pact's interactions, and the most bytes of JSON text a pact may have (`GET /__mock/pact`). */
  pact: { judge: InteractionJudge; maxBytes: number };
  /** Where the mock says what a pact leaves out (the server's console). */
  warn?: ((line: string) => void) | undefined;
  parameter: string;
  sessions: SessionRegistry<MockSession>;
  /** Resolved on first call, so that the sessions routes never create one. */
  session: () => MockSession;
}

export interface ControlRoute {
  path: string;
  segments: readonly string[];
  methods: Partial<Record<string, (call: ControlCall) => Reply | Promise<Reply>>>;
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

/** The control route a path below the prefix fits, with its parameter's text. */
export function matchControlRoute(segments: readonly string[]): { route: ControlRoute; parameter: string } | undefined {
  for (const route of controlRoutes) {
    const parameter = matchSegments(route.segments, segments);
    if (parameter !== undefined) return { route, parameter };
  }
  return undefined;
}

/** The control plane's routes below `/__mock`, in the order they are matched. */
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
  controlRoute('/pact', {
    GET: (call) => readPact(call.session(), call.url, call),
    DELETE: ({ session }) => clearPact(session()),
  }),
  controlRoute('/pact/tests', { POST: ({ session, request }) => testStarted(session(), request) }, { readsBody: true }),
  controlRoute(
    '/pact/failed-tests',
    { POST: ({ session, request }) => testFailed(session(), request) },
    { readsBody: true },
  ),
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
