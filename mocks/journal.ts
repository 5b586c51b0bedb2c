import { routes, type OperationName } from '../core/routes.js';

/** How many calls a session's journal keeps unless told otherwise; older ones are dropped first. */
export const defaultJournalSize = 1000;

/** Whether a call carried an accepted key, another one (any scheme), or none at all. Never the key itself. */
export type AuthorizationSeen = 'none' | 'valid' | 'invalid';

/**
 * One call of the interface as the mock saw it: a path under the base URL, never the control plane.
 * @example
 * { method: 'DELETE', path: '/v1/store/orders/3', operation: 'cancelOrder', status: 409, session: null,
 *   time: '2026-11-23T10:00:00.000Z', authorization: 'valid' }
 */
export interface JournalEntry {
  method: string;
  /** The path as the client sent it, without the query. */
  path: string;
  /** The route table's operation, or null for a call that is no operation (an unknown path, another method, HEAD, OPTIONS). */
  operation: OperationName | null;
  /** The status the client got; `network` for a dropped connection (a fault with `network: true`). */
  status: number | 'network';
  /** The session named by `X-Mock-Session`, or null for the default one. */
  session: string | null;
  /** When the call was answered (ISO 8601). */
  time: string;
  authorization: AuthorizationSeen;
  /**
   * Only on a 404 for an id that a float64 makes of an order's id beyond 2^53: that order's exact id,
   * the one the client probably meant (it parsed the id with `JSON.parse` and lost its last digits).
   */
  probablyMeant?: string;
}

/** A call as a session records it: its time in milliseconds since the epoch, made ISO 8601 when listed. */
export type RecordedCall = Omit<JournalEntry, 'time'> & { time: number };

/**
 * Which calls to pick out of a journal: every field given must match. `path` is the exact path, or a
 * regular expression it must match.
 * @example
 * mock.requests({ operation: 'cancelOrder', status: 204 })
 * mock.requests({ method: 'DELETE', path: /^\/v1\/store\/orders\/3$/ })
 */
export interface RequestFilter {
  operation?: OperationName | null;
  status?: number | 'network';
  method?: string;
  path?: string | RegExp;
}

/** Which documented responses were answered: every operation of the route table, each documented status, and how often. */
export interface ResponseCoverage {
  operations: {
    operation: OperationName;
    method: string;
    path: string;
    responses: { status: number; seen: number }[];
  }[];
  /** How many documented responses were answered at least once. */
  covered: number;
  /** How many documented responses there are. */
  total: number;
}

/**
 * The calls one session of the mock answered: the last `size` of them (oldest dropped first), and how
 * often each operation answered each status, counted over the journal's whole life since it was last cleared.
 * @example
 * const journal = new RequestJournal(100);
 * journal.record(entry);
 * journal.list({ operation: 'cancelOrder' })
 */
export class RequestJournal {
  readonly size: number;
  #entries: RecordedCall[] = [];
  #start = 0;
  // operation → status → how often; no string is built per call.
  readonly #seen = new Map<OperationName, Map<number, number>>();

  /** @param size how many calls to keep; 0 keeps none and counts nothing. */
  constructor(size: number = defaultJournalSize) {
    if (!Number.isInteger(size) || size < 0)
      throw new TypeError(`the journal size must be a whole number >= 0, not ${size}`);
    this.size = size;
  }

  /** Records a call; past `size`, the oldest is dropped. */
  record(entry: RecordedCall): void {
    if (this.size === 0) return;
    if (entry.operation !== null && typeof entry.status === 'number') {
      let statuses = this.#seen.get(entry.operation);
      if (statuses === undefined) this.#seen.set(entry.operation, (statuses = new Map()));
      statuses.set(entry.status, (statuses.get(entry.status) ?? 0) + 1);
    }
    if (this.#entries.length < this.size) this.#entries.push(entry);
    else {
      // A ring: the oldest entry is overwritten, so a long-running mock holds at most `size` entries.
      this.#entries[this.#start] = entry;
      this.#start = (this.#start + 1) % this.size;
    }
  }

  /** The calls kept, oldest first, those matching `filter` when one is given. */
  list(filter: RequestFilter = {}): JournalEntry[] {
    const ordered = [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
    return ordered
      .filter(
        (entry) =>
          (filter.operation === undefined || entry.operation === filter.operation) &&
          (filter.status === undefined || entry.status === filter.status) &&
          (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
          (filter.path === undefined ||
            (typeof filter.path === 'string' ? entry.path === filter.path : filter.path.test(entry.path))),
      )
      .map((entry) => ({ ...entry, time: new Date(entry.time).toISOString() }));
  }

  /** Forgets every call, and every count. */
  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#seen.clear();
  }

  /** Every documented response of the route table, with how often it was answered since the last clear. */
  coverage(): ResponseCoverage {
    const operations = routes.map((route) => ({
      operation: route.operation,
      method: route.method,
      path: route.path,
      responses: route.responses.map((response) => ({
        status: response.status,
        seen: this.#seen.get(route.operation)?.get(response.status) ?? 0,
      })),
    }));
    const all = operations.flatMap((operation) => operation.responses);
    return { operations, covered: all.filter((response) => response.seen > 0).length, total: all.length };
  }
}

/**
 * Adds up coverages of the same route table (several tests, sessions or workers): each documented
 * response's `seen` is the sum, and `covered` counts those seen at least once.
 * @example
 * mergeCoverage([firstTest.coverage(), secondTest.coverage()]).covered // 5
 */
export function mergeCoverage(coverages: readonly ResponseCoverage[]): ResponseCoverage {
  const seen = new Map<string, number>();
  for (const coverage of coverages)
    for (const operation of coverage.operations)
      for (const response of operation.responses) {
        const key = `${operation.operation} ${response.status}`;
        seen.set(key, (seen.get(key) ?? 0) + response.seen);
      }
  const merged = new RequestJournal(0).coverage();
  for (const operation of merged.operations)
    for (const response of operation.responses)
      response.seen = seen.get(`${operation.operation} ${response.status}`) ?? 0;
  const all = merged.operations.flatMap((operation) => operation.responses);
  return { ...merged, covered: all.filter((response) => response.seen > 0).length };
}
