import { toInt64 } from '../../core/int64.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { isErrorRecord } from '../../core/records.js';
import { MockError, MockOptionError, MockUsageError, errorStatuses, type ErrorCode } from '../base/errors.js';
import type { FaultInput } from '../../core/fault-format.js';
import type { ActiveFault } from '../session/faults.js';
import type { JournalEntry, ResponseCoverage } from '../journal/journal.js';
import type { RequestFilter } from '../journal/request-filter.js';
import type { MockSettings, ScenarioLoaded, ScenarioSummary } from '../session/mock-session.js';
import type { StoredOrder } from '../store/order-seed.js';
import { sessionHeader, type SessionSummary } from '../session/sessions.js';
import { checkedParties, writePactFile, type PactOptions, type PactSelection } from '../pact/pact-file.js';
import { leftOutIn } from '../pact/pact-metadata.js';
import { controlAnswers, type ControlAnswer } from './control-answers.js';
import { checkedFilter } from '../journal/request-filter.js';

/**
 * The longest one call of the control client waits, from sending its request to the last byte of the
 * answer, unless its `timeout` option says otherwise: 30 s.
 * @example
 * createControlClient({ baseUrl, timeout: defaultControlTimeout / 3 }) // 10 s a call
 */
export const defaultControlTimeout = 30_000;

/**
 * The timers the control client's timeout runs on: the global ones, or a test's own clock.
 * @example
 * const clock: ControlClock = { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) };
 */
export interface ControlClock {
  setTimeout(callback: () => void, milliseconds: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ControlClientOptions {
  /** The server's origin, or its API's base URL. */
  baseUrl: string;
  /** The session to control; none controls the default session. */
  session?: string;
  controlKey?: string;
  fetch?: typeof fetch;
  /**
   * Milliseconds one call may take, from sending its request to the last byte of its answer; then it
   * rejects with `mock_unreachable` (no answer yet) or `not_the_mock` (an answer that stalled). Default:
   * 30,000 (`defaultControlTimeout`).
   */
  timeout?: number;
  /** The timers the timeout runs on. Default: the global `setTimeout` and `clearTimeout`. */
  clock?: ControlClock;
  /** Where `pact()` says the calls the pact it wrote leaves out, in its metadata's words. Default: `console.warn`. */
  warn?: (line: string) => void;
}

/** The standalone mock's control plane, with the in-process mock's types and the same `MockError` refusals. */
export interface ControlClient {
  readonly session: string | null;
  /** The headers that put a client's calls in this client's session. */
  readonly sessionHeaders: Readonly<Record<string, string>>;
  orders(): Promise<StoredOrder[]>;
  replaceOrders(orders: readonly unknown[]): Promise<void>;
  reset(): Promise<void>;
  loadScenario(name: string): Promise<ScenarioLoaded>;
  scenarios(): Promise<ScenarioSummary[]>;
  settings(): Promise<MockSettings>;
  changeSettings(settings: Partial<MockSettings>): Promise<MockSettings>;
  addFaults(faults: FaultInput | readonly FaultInput[]): Promise<ActiveFault[]>;
  clearFaults(): Promise<void>;
  removeFault(id: number): Promise<void>;
  faults(): Promise<ActiveFault[]>;
  /** A RegExp path is matched here, not on the server. */
  requests(filter?: RequestFilter): Promise<JournalEntry[]>;
  clearRequests(): Promise<void>;
  coverage(): Promise<ResponseCoverage>;
  /**
   * Forgets the calls this session's pact is written from (`DELETE /__mock/pact`); a reset keeps them.
   * @example
   * await control.clearPact();
   */
  clearPact(): Promise<void>;
  /**
   * Marks that a test began on this session (`POST /__mock/pact/tests`), and that the one before it
   * passed; resolves with the function that says it did not pass (`POST /__mock/pact/failed-tests`):
   * the calls it made first leave the session's pact, which names it, as `mock.testStarted` does.
   * That function rejects with `MockError` `tests_overlap` once another test began.
   * @example
   * beforeEach(async ({ task, onTestFailed }) => {
   *   onTestFailed(await control.testStarted(task.fullName));
   *   await control.reset();
   * });
   */
  testStarted(name: string): Promise<() => Promise<void>>;
  /**
   * Writes this session's consumer pact, as the server made and judged it (`GET /__mock/pact`), to
   * `dir/CONSUMER-PROVIDER.json` as `mock.pact()` does; resolves with the file's path. Refused with
   * `MockError` `pact_contradicts_spec` and its violations (or `pact_too_large`), writing nothing, when
   * the contract does not allow an interaction. The calls it leaves out are also said through `warn`. Node.js only.
   * @example
   * await control.pact({ consumer: 'web-app' }) // 'pacts/web-app-petstore-order-interface.json'
   */
  pact(options: PactOptions): Promise<string>;
  /**
   * This session's consumer pact as the server made and judged it (`GET /__mock/pact`), without
   * writing it: what the Playwright fixture hands to the reporter, to merge one pact for a whole run.
   * @example
   * const pact = await control.fetchPact({ consumer: 'web-app' });
   * pact.interactions.length // 5
   */
  fetchPact(parties: PactSelection): Promise<ConsumerPactDocument>;
  sessions(): Promise<SessionSummary[]>;
  /** Ends a named session, this client's by default. */
  endSession(name?: string): Promise<void>;
  /** A client of the same server for another session (null: the default one). */
  forSession(name: string | null): ControlClient;
}

/** A Pact V4 document as `GET /__mock/pact` answers it. */
export type ConsumerPactDocument = { interactions: JsonValue[] } & { [key: string]: JsonValue };

function isPactDocument(value: unknown): value is ConsumerPactDocument {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const pact = value as Record<string, unknown>;
  return Array.isArray(pact.interactions) && typeof pact.consumer === 'object' && typeof pact.provider === 'object';
}

const knownCode = (code: string): code is ErrorCode => Object.hasOwn(errorStatuses, code);

/** An answer read whole: its status, its content type and its body's text. */
interface Answered {
  status: number;
  contentType: string;
  text: string;
}

// The error the in-process mock would throw, when the body is the mock's Error record.
function refusal(answered: Answered, what: string): Error {
  let body: unknown;
  try {
    body = answered.text === '' ? undefined : parseJson(answered.text);
  } catch {
    body = undefined;
  }
  if (isErrorRecord(body) && knownCode(body.code)) {
    const violations = (body as { violations?: unknown }).violations;
    return new MockError(body.code, body.message, Array.isArray(violations) ? { violations } : {});
  }
  return new MockUsageError(
    'not_the_mock',
    `${what} answered ${answered.status} without an Error record of petstore-mock: is the mock running there?`,
  );
}

const globalClock: ControlClock = {
  setTimeout: (callback, milliseconds) => setTimeout(callback, milliseconds),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

// The largest delay timers take (2^31 - 1 ms): a longer one would fire at once.
const longestTimeout = 2_147_483_647;

/** The options, checked: the origin the client talks to, and its timeout. */
function checkedOptions(options: ControlClientOptions): { origin: string; timeout: number } {
  const timeout = options.timeout ?? defaultControlTimeout;
  if (typeof timeout !== 'number' || !(timeout > 0 && timeout <= longestTimeout))
    throw new MockOptionError(
      'invalid_option',
      `createControlClient: timeout must be a number of milliseconds above 0 and at most ${longestTimeout}, not ${String(timeout)}`,
    );
  let url: URL | undefined;
  try {
    url = new URL(options.baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new MockOptionError(
      'invalid_option',
      `createControlClient: baseUrl must be an http(s) URL such as http://127.0.0.1:4010, not ${JSON.stringify(options.baseUrl)}`,
    );
  return { origin: url.origin, timeout };
}

// The answer's shape was checked: its ids are int64 integers.
function toStoredOrder(value: unknown): StoredOrder {
  const order = { ...(value as Record<string, unknown>) };
  order.id = toInt64(order.id);
  if (order.petId !== undefined) order.petId = toInt64(order.petId);
  return order as unknown as StoredOrder;
}

function journalQuery(filter: RequestFilter): string {
  const query = new URLSearchParams();
  if (filter.operation !== undefined) query.set('operation', String(filter.operation));
  if (filter.status !== undefined) query.set('status', String(filter.status));
  if (filter.method !== undefined) query.set('method', filter.method);
  if (typeof filter.path === 'string') query.set('path', filter.path);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

const unreachable = (origin: string, cause: unknown) =>
  new MockUsageError('mock_unreachable', `Could not reach petstore-mock at ${origin}: ${(cause as Error).message}`, {
    cause,
  });

// The call's time ran out: before any answer, the mock is not there; during one, it is not the mock.
function late(call: { origin: string; timeout: number; what: string }, status: number | undefined): MockUsageError {
  const within = `within ${call.timeout} ms (the control client's timeout option)`;
  return status === undefined
    ? new MockUsageError('mock_unreachable', `petstore-mock at ${call.origin} did not answer ${call.what} ${within}`)
    : new MockUsageError(
        'not_the_mock',
        `${call.what} answered ${status} but did not finish its answer ${within}: is the mock running there?`,
      );
}

/** Sends a request and reads its answer whole, noting its status in `seen` once the head has come. */
async function sendAndRead(
  call: { origin: string; what: string; send: typeof fetch },
  request: { url: string; init: RequestInit },
  seen: { status?: number },
): Promise<Answered> {
  let response: Response;
  try {
    response = await call.send(request.url, request.init);
  } catch (error) {
    throw unreachable(call.origin, error);
  }
  seen.status = response.status;
  const contentType = response.headers.get('content-type') ?? '';
  try {
    return { status: response.status, contentType, text: await response.text() };
  } catch (error) {
    throw new MockUsageError(
      'not_the_mock',
      `${call.what} answered ${response.status} but its answer broke off (${(error as Error).message}): is the mock running there?`,
      { cause: error },
    );
  }
}

// One call: its request sent and its whole answer read, under one deadline that the answer's body cannot
// outrun (a server that sends a byte now and then would otherwise hold the call for ever).
function createExchange(options: ControlClientOptions, sessionHeaders: Record<string, string>) {
  const { origin, timeout } = checkedOptions(options);
  const clock = options.clock ?? globalClock;
  const send = options.fetch ?? fetch;
  const headersOf = (body: unknown) => ({
    ...sessionHeaders,
    ...(options.controlKey !== undefined && { authorization: `Bearer ${options.controlKey}` }),
    ...(body !== undefined && { 'content-type': 'application/json' }),
  });
  return {
    origin,
    exchange(method: string, path: string, body?: unknown): Promise<Answered> {
      const url = `${origin}/__mock${path}`;
      const call = { origin, timeout, send, what: `${method} ${url}` };
      const controller = new AbortController();
      const seen: { status?: number } = {};
      let timer: unknown;
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = clock.setTimeout(() => {
          reject(late(call, seen.status));
          controller.abort();
        }, timeout);
      });
      const init: RequestInit = {
        method,
        headers: headersOf(body),
        signal: controller.signal,
        ...(body !== undefined && { body: stringifyJson(body as never) }),
      };
      return Promise.race([sendAndRead(call, { url, init }, seen), deadline]).finally(() => clock.clearTimeout(timer));
    },
  };
}

// `json` for an answer with a body, `done` for a 204; each refuses what is not the mock's answer.
function controlTransport(options: ControlClientOptions, sessionHeaders: Record<string, string>) {
  const { origin, exchange } = createExchange(options, sessionHeaders);
  const answerTo = async (method: string, path: string, body?: unknown): Promise<Answered> => {
    const answered = await exchange(method, path, body);
    if (answered.status < 200 || answered.status > 299) throw refusal(answered, `${method} ${origin}/__mock${path}`);
    return answered;
  };
  // A success that is not the mock's (a dev server's page, a proxy's) must not pass for one.
  const notTheMock = (method: string, path: string, answered: Answered) =>
    new MockUsageError(
      'not_the_mock',
      `${method} ${origin}/__mock${path} answered ${answered.status} ${answered.contentType || 'without a content type'}, not as petstore-mock answers: is the mock running there?`,
    );
  const unshaped = (method: string, path: string, what: string) =>
    new MockUsageError(
      'not_the_mock',
      `${method} ${origin}/__mock${path} answered JSON that is not ${what}: is petstore-mock running there?`,
    );
  /** The answer's JSON; with `answer`, checked to have that documented shape first. */
  const json = async (method: string, path: string, options: { body?: unknown; answer?: ControlAnswer } = {}) => {
    const answered = await answerTo(method, path, options.body);
    if (!/^application\/json\b/i.test(answered.contentType)) throw notTheMock(method, path, answered);
    let value: unknown;
    try {
      value = parseJson(answered.text);
    } catch {
      throw notTheMock(method, path, answered);
    }
    const expected = options.answer === undefined ? undefined : controlAnswers[options.answer];
    if (expected !== undefined && !expected.shape(value)) throw unshaped(method, path, expected.what);
    return value;
  };
  const done = async (method: string, path: string, body?: unknown): Promise<void> => {
    const answered = await answerTo(method, path, body);
    if (answered.status !== 204) throw notTheMock(method, path, answered);
  };
  return { json, done };
}

/** A session's consumer pact as the server made it (`GET /__mock/pact`), checked to be a pact. */
async function pactDocumentOf(
  json: ReturnType<typeof controlTransport>['json'],
  parties: PactSelection,
): Promise<ConsumerPactDocument> {
  const { consumer, provider, filter } = checkedParties(parties);
  if (filter.path instanceof RegExp)
    throw new MockOptionError(
      'invalid_option',
      "control.pact() filters by a path string: a RegExp path is matched only by the mock's own pact() in process",
    );
  const query = new URLSearchParams(journalQuery(filter));
  query.set('consumer', consumer);
  query.set('provider', provider);
  const document = await json('GET', `/pact?${query}`);
  if (!isPactDocument(document))
    throw new MockUsageError(
      'not_the_mock',
      `GET /__mock/pact answered JSON that is not a pact of ${consumer} with ${provider}: is petstore-mock running there?`,
    );
  return document;
}

/**
 * A browser-safe client of a standalone `petstore-mock`'s control plane. With `session`, every call
 * controls that session.
 * @example
 * import { createControlClient } from 'petstore-contract-kit/control';
 *
 * const control = createControlClient({ baseUrl: 'http://127.0.0.1:4010', session: 'checkout-test' });
 * await control.loadScenario('cancel-shipped-order');
 * await page.setExtraHTTPHeaders(control.sessionHeaders);
 * // … the test …
 * expect(await control.requests({ operation: 'cancelOrder', status: 409 })).toHaveLength(1);
 * await control.endSession();
 */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const session = options.session ?? null;
  const sessionHeaders: Record<string, string> = session === null ? {} : { [sessionHeader]: session };
  const { json, done } = controlTransport(options, sessionHeaders);
  const client: ControlClient = {
    session,
    sessionHeaders,
    orders: async () => ((await json('GET', '/orders', { answer: 'orders' })) as unknown[]).map(toStoredOrder),
    replaceOrders: (orders) => done('PUT', '/orders', orders),
    reset: () => done('POST', '/reset'),
    loadScenario: async (name) =>
      (await json('POST', `/scenarios/${encodeURIComponent(name)}`, { answer: 'loaded' })) as ScenarioLoaded,
    scenarios: async () => (await json('GET', '/scenarios', { answer: 'scenarios' })) as ScenarioSummary[],
    settings: async () => (await json('GET', '/settings', { answer: 'settings' })) as MockSettings,
    changeSettings: async (settings) =>
      (await json('PUT', '/settings', { body: settings, answer: 'settings' })) as MockSettings,
    addFaults: async (faults) => (await json('POST', '/faults', { body: faults, answer: 'faults' })) as ActiveFault[],
    clearFaults: () => done('DELETE', '/faults'),
    removeFault: (id) => done('DELETE', `/faults/${encodeURIComponent(String(id))}`),
    faults: async () => (await json('GET', '/faults', { answer: 'faults' })) as ActiveFault[],
    requests: async (given) => {
      const filter = checkedFilter(given, 'control.requests(filter)');
      const entries = (await json('GET', `/requests${journalQuery(filter)}`, { answer: 'requests' })) as JournalEntry[];
      const path = filter.path;
      return path instanceof RegExp ? entries.filter((entry) => path.test(entry.path)) : entries;
    },
    clearRequests: () => done('DELETE', '/requests'),
    clearPact: () => done('DELETE', '/pact'),
    testStarted: async (name) => {
      await done('POST', '/pact/tests', { name });
      return () => done('POST', '/pact/failed-tests', { name });
    },
    coverage: async () => (await json('GET', '/coverage', { answer: 'coverage' })) as ResponseCoverage,
    fetchPact: (parties) => pactDocumentOf(json, parties),
    pact: async (pactOptions) => {
      const document = await client.fetchPact(pactOptions);
      const file = await writePactFile(document, pactOptions);
      const leftOut = leftOutIn(document);
      if (leftOut !== undefined)
        (options.warn ?? ((line) => console.warn(`petstore-contract-kit: ${line}`)))(
          `the pact ${file} leaves out ${leftOut}`,
        );
      return file;
    },
    sessions: async () => (await json('GET', '/sessions', { answer: 'sessions' })) as SessionSummary[],
    endSession: (name = session ?? undefined) => {
      if (name === undefined)
        return Promise.reject(
          new TypeError('endSession: this client controls the default session, which never ends; name a session.'),
        );
      return done('DELETE', `/sessions/${encodeURIComponent(name)}`);
    },
    forSession: (name) =>
      createControlClient({ ...options, ...(name === null ? { session: undefined } : { session: name }) }),
  };
  return client;
}
