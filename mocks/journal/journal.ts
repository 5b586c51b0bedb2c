import { majorRoutes, routeOf, type OperationName } from '../../core/routes.js';
import { MockOptionError } from '../base/errors.js';
import type { RequestFilter } from './request-filter.js';
import type { Reply } from '../base/reply.js';
import type { OrderStatus } from '../../core/provider-state.js';

/** How many calls a session's journal keeps by default. */
export const defaultJournalSize = 1000;

/** Whether a call carried an accepted key, another one, or none; never the key itself. */
export type AuthorizationSeen = 'none' | 'valid' | 'invalid';

/**
 * One call of the interface as the mock saw it: a path under the base URL, never the control plane.
 * @example
 * { method: 'DELETE', path: '/v1/store/orders/3', operation: 'cancelOrder', status: 409, session: null,
 *   time: '2026-11-23T10:00:00.000Z', authorization: 'valid' }
 */
export interface JournalEntry {
  method: string;
  path: string;
  /** The query string as sent, without its `?` (`status=pending&limit=5`); absent when there is none. */
  query?: string;
  operation: OperationName | null;
  /**
   * The document's stability marker of the operation (`x-stability`: `beta`, `experimental`); absent for
   * a stable one, or a call of no operation.
   */
  stability?: string;
  /** `network` for a dropped connection. */
  status: number | 'network';
  session: string | null;
  time: string;
  authorization: AuthorizationSeen;
  /** On a 404 for an id a float64 made of a stored one: the id the client probably meant. */
  probablyMeant?: string;
}

/** Who gave a call its answer: the kit's operation, a handler of yours in front of it, or a fault. */
export type AnsweredBy = 'kit' | 'handler' | 'fault';

/**
 * The answer a call got, as the journal keeps it for a consumer pact (`mock.pact()`): the headers that
 * a pact states, and the body when it is at most `keptBodyLimit` bytes (else null and `bodyDropped`).
 */
export interface KeptAnswer {
  by: AnsweredBy;
  contentType: string | null;
  wwwAuthenticate: string | null;
  /** The deprecated pet read's `Deprecation` and `Sunset` (RFC 9745, 8594), kept where sent: a pact states them. */
  deprecation?: string;
  sunset?: string;
  body: string | readonly Uint8Array[] | null;
  bodyDropped?: true;
  /** Set while the body of a handler's answer is still being read; a pact waits for it. */
  bodyRead?: Promise<void>;
}

/** The largest body a journal keeps for a pact; a bigger one is left out of the pact, and said so. */
export const keptBodyLimit = 1024 * 1024;

/** The most body a journal keeps in all (a list body shared by calls counts once for each): beyond it, calls are journaled without. */
export const keptBodiesLimit = 32 * 1024 * 1024;

/**
 * A body's size in characters or bytes: what the journal's limits count.
 * @example
 * bodySize('{}') // 2
 */
export function bodySize(body: string | readonly Uint8Array[] | null): number {
  if (body === null) return 0;
  if (typeof body === 'string') return body.length;
  let size = 0;
  for (const part of body) size += part.byteLength;
  return size;
}

/** The answer of a call as the journal keeps it: the body by reference, never copied, unless too big. */
export function keptAnswer(reply: Reply, by: AnsweredBy): KeptAnswer {
  const kept = bodySize(reply.body) <= keptBodyLimit;
  const answer: KeptAnswer = { by, contentType: null, wwwAuthenticate: null, body: kept ? reply.body : null };
  // One pass over the reply's fields for the few a pact states.
  for (const field in reply.headers) {
    const value = reply.headers[field];
    if (value === undefined) continue;
    const name = field.toLowerCase();
    if (name === 'content-type') answer.contentType = value;
    else if (name === 'www-authenticate') answer.wwwAuthenticate = value;
    else if (name === 'deprecation') answer.deprecation = value;
    else if (name === 'sunset') answer.sunset = value;
  }
  if (!kept) answer.bodyDropped = true;
  return answer;
}

/** A call as recorded: its time in milliseconds, made ISO 8601 when listed; and its answer, kept for a pact. */
export type RecordedCall = Omit<JournalEntry, 'time'> & {
  time: number;
  answer?: KeptAnswer;
  /**
   * For a cancel a handler in front of the kit's answered: how the mock's own store held the order at
   * that moment (`absent` when it held none), so that a pact can refuse an answer that contradicts it.
   */
  heldAs?: OrderStatus | 'absent';
};

// A global or sticky RegExp remembers where it last matched: each call is tested from the start.
function matches(pattern: RegExp, path: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(path);
}

/**
 * Whether a journaled call is one the filter picks: every field given matches.
 * @example
 * isPicked(call, { operation: 'cancelOrder', status: 409 }) // true for a refused cancel
 */
export function isPicked(call: RecordedCall, filter: RequestFilter = {}): boolean {
  return (
    (filter.operation === undefined || call.operation === filter.operation) &&
    (filter.status === undefined || call.status === filter.status) &&
    (filter.method === undefined || call.method === filter.method.toUpperCase()) &&
    (filter.path === undefined ||
      (typeof filter.path === 'string' ? call.path === filter.path : matches(filter.path, call.path)))
  );
}

/** How often each documented response of each operation of both majors was answered. */
export interface ResponseCoverage {
  operations: {
    operation: OperationName;
    method: string;
    /** The operation's major's base path in the document (`/v1`, `/v2`); `path` is below it. */
    base: string;
    path: string;
    /** The document's stability marker (`x-stability`: `beta`, `experimental`), or null for a stable operation. */
    stability: string | null;
    responses: { status: number; seen: number }[];
  }[];
  covered: number;
  total: number;
}

/**
 * The last `size` calls a session answered, and how often each documented response was given since the last clear.
 * @example
 * const journal = new RequestJournal(100);
 * journal.record(entry);
 * journal.list({ operation: 'cancelOrder' })
 */
export class RequestJournal {
  readonly size: number;
  #entries: RecordedCall[] = [];
  #start = 0;
  #keptBytes = 0;
  // Nested by operation then status, so that no string is built per call.
  readonly #seen = new Map<OperationName, Map<number, number>>();

  constructor(size: number = defaultJournalSize) {
    if (!Number.isInteger(size) || size < 0)
      throw new MockOptionError('invalid_option', `the journal size must be a whole number >= 0, not ${size}`);
    this.size = size;
  }

  record(entry: RecordedCall): void {
    if (this.size === 0) return;
    this.#keepWithinLimit(entry);
    if (entry.operation !== null && typeof entry.status === 'number') {
      let statuses = this.#seen.get(entry.operation);
      if (statuses === undefined) this.#seen.set(entry.operation, (statuses = new Map()));
      statuses.set(entry.status, (statuses.get(entry.status) ?? 0) + 1);
    }
    if (this.#entries.length < this.size) this.#entries.push(entry);
    else {
      this.#keptBytes -= bodySize(this.#entries[this.#start]!.answer?.body ?? null);
      this.#entries[this.#start] = entry;
      this.#start = (this.#start + 1) % this.size;
    }
  }

  // Bodies are kept by reference; past the limit a call is journaled without its body, and a pact says so.
  #keepWithinLimit(entry: RecordedCall): void {
    const size = bodySize(entry.answer?.body ?? null);
    if (this.#keptBytes + size <= keptBodiesLimit) this.#keptBytes += size;
    else if (entry.answer !== undefined) entry.answer = { ...entry.answer, body: null, bodyDropped: true };
  }

  list(filter: RequestFilter = {}): JournalEntry[] {
    const ordered = [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
    return ordered
      .filter((entry) => isPicked(entry, filter))
      .map(({ answer: _answer, ...entry }) => {
        // Read off the route table when listed, so that recording a call costs nothing more.
        const stability = entry.operation === null ? null : routeOf(entry.operation).stability;
        return {
          ...entry,
          ...(stability !== null && { stability }),
          time: new Date(entry.time).toISOString(),
        };
      });
  }

  /** Every call kept, oldest first, with its answer: what a consumer pact is written from. */
  calls(): readonly RecordedCall[] {
    return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
  }

  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#keptBytes = 0;
    this.#seen.clear();
  }

  coverage(): ResponseCoverage {
    const operations = majorRoutes.map((route) => ({
      operation: route.operation,
      method: route.method,
      base: route.base,
      path: route.path,
      stability: route.stability,
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
 * Adds up coverages of several tests, sessions or workers.
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
