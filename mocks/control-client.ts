import { toInt64 } from '../core/int64.js';
import { parseJson, type JsonValue } from '../core/parse-json.js';
import { stringifyJson } from '../core/stringify-json.js';
import { isErrorRecord } from '../core/records.js';
import { MockError, MockOptionError, MockUsageError, errorStatuses, type ErrorCode } from './errors.js';
import type { FaultInput } from '../core/fault-format.js';
import type { ActiveFault } from './faults.js';
import type { JournalEntry, RequestFilter, ResponseCoverage } from './journal.js';
import type { MockSettings, ScenarioLoaded, ScenarioSummary } from './mock-session.js';
import type { StoredOrder } from './order-seed.js';
import { sessionHeader, type SessionSummary } from './sessions.js';
import { checkedParties, writePactFile, type PactOptions, type PactSelection } from './pact-file.js';

export interface ControlClientOptions {
  /** The server's origin, or its API's base URL. */
  baseUrl: string;
  /** The session to control; none controls the default session. */
  session?: string;
  controlKey?: string;
  fetch?: typeof fetch;
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
   * Writes this session's consumer pact, as the server made and judged it (`GET /__mock/pact`), to
   * `dir/CONSUMER-PROVIDER.json` as `mock.pact()` does; resolves with the file's path. Refused with
   * `MockError` `pact_contradicts_spec` and its violations, writing nothing, when the contract does not
   * allow an interaction. Node.js only.
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
  fetchPact(parties: PactSelection): Promise<PactDocument>;
  sessions(): Promise<SessionSummary[]>;
  /** Ends a named session, this client's by default. */
  endSession(name?: string): Promise<void>;
  /** A client of the same server for another session (null: the default one). */
  forSession(name: string | null): ControlClient;
}

/** A Pact V4 document as `GET /__mock/pact` answers it. */
export type PactDocument = { interactions: JsonValue[] } & { [key: string]: JsonValue };

function isPactDocument(value: unknown): value is PactDocument {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const pact = value as Record<string, unknown>;
  return Array.isArray(pact.interactions) && typeof pact.consumer === 'object' && typeof pact.provider === 'object';
}

const knownCode = (code: string): code is ErrorCode => Object.hasOwn(errorStatuses, code);

// The error the in-process mock would throw, when the body is the mock's Error record.
async function refusal(response: Response, what: string): Promise<Error> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : parseJson(text);
  } catch {
    body = undefined;
  }
  if (isErrorRecord(body) && knownCode(body.code)) {
    const violations = (body as { violations?: unknown }).violations;
    return new MockError(body.code, body.message, Array.isArray(violations) ? { violations } : {});
  }
  return new MockUsageError(
    'not_the_mock',
    `${what} answered ${response.status} without an Error record of petstore-mock: is the mock running there?`,
  );
}

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

// `json` for an answer with a body, `done` for a 204; each refuses what is not the mock's answer.
function controlTransport(options: ControlClientOptions, sessionHeaders: Record<string, string>) {
  const origin = new URL(options.baseUrl).origin;
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const url = `${origin}/__mock${path}`;
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, {
        method,
        headers: {
          ...sessionHeaders,
          ...(options.controlKey !== undefined && { authorization: `Bearer ${options.controlKey}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: stringifyJson(body as never) }),
      });
    } catch (error) {
      throw new MockUsageError(
        'mock_unreachable',
        `Could not reach petstore-mock at ${origin}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    if (!response.ok) throw await refusal(response, `${method} ${url}`);
    return response;
  };
  // A success that is not the mock's (a dev server's page, a proxy's) must not pass for one.
  const notTheMock = (method: string, path: string, response: Response) =>
    new MockUsageError(
      'not_the_mock',
      `${method} ${origin}/__mock${path} answered ${response.status} ${response.headers.get('content-type') ?? 'without a content type'}, not as petstore-mock answers: is the mock running there?`,
    );
  const json = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await send(method, path, body);
    const text = await response.text();
    if (!/^application\/json\b/i.test(response.headers.get('content-type') ?? ''))
      throw notTheMock(method, path, response);
    try {
      return parseJson(text);
    } catch {
      throw notTheMock(method, path, response);
    }
  };
  const done = async (method: string, path: string, body?: unknown): Promise<void> => {
    const response = await send(method, path, body);
    await response.body?.cancel();
    if (response.status !== 204) throw notTheMock(method, path, response);
  };
  return { json, done };
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
    orders: async () => ((await json('GET', '/orders')) as unknown[]).map(toStoredOrder),
    replaceOrders: (orders) => done('PUT', '/orders', orders),
    reset: () => done('POST', '/reset'),
    loadScenario: async (name) =>
      (await json('POST', `/scenarios/${encodeURIComponent(name)}`)) as unknown as ScenarioLoaded,
    scenarios: async () => (await json('GET', '/scenarios')) as unknown as ScenarioSummary[],
    settings: async () => (await json('GET', '/settings')) as unknown as MockSettings,
    changeSettings: async (settings) => (await json('PUT', '/settings', settings)) as unknown as MockSettings,
    addFaults: async (faults) => (await json('POST', '/faults', faults)) as unknown as ActiveFault[],
    clearFaults: () => done('DELETE', '/faults'),
    removeFault: (id) => done('DELETE', `/faults/${encodeURIComponent(String(id))}`),
    faults: async () => (await json('GET', '/faults')) as unknown as ActiveFault[],
    requests: async (filter = {}) => {
      const entries = (await json('GET', `/requests${journalQuery(filter)}`)) as unknown as JournalEntry[];
      const path = filter.path;
      return path instanceof RegExp ? entries.filter((entry) => path.test(entry.path)) : entries;
    },
    clearRequests: () => done('DELETE', '/requests'),
    clearPact: () => done('DELETE', '/pact'),
    coverage: async () => (await json('GET', '/coverage')) as unknown as ResponseCoverage,
    fetchPact: async (parties) => {
      const { consumer, provider } = checkedParties(parties);
      const filter = parties.filter ?? {};
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
    },
    pact: async (pactOptions) => writePactFile(await client.fetchPact(pactOptions), pactOptions),
    sessions: async () => (await json('GET', '/sessions')) as unknown as SessionSummary[],
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
