import type { RequestHead } from './reply.js';
import { MockError } from './errors.js';

/**
 * The request header that names a session: requests carrying it see and change only that session's
 * store and faults, created from the seed on first use.
 * @example
 * fetch(`${origin}/v1/store/orders`, { headers: { authorization: 'Bearer petstore-dev-key', [sessionHeader]: 'ci-job-17' } })
 */
export const sessionHeader = 'X-Mock-Session';

/** How many named sessions a mock holds at once unless told otherwise. */
export const defaultSessionLimit = 100;
/** How long a named session may go unused before it is dropped, unless told otherwise: 30 minutes, in milliseconds. */
export const defaultSessionIdleTimeout = 30 * 60 * 1000;

/** How a mock bounds its named sessions. */
export interface SessionOptions {
  /** The most named sessions held at once (the default session does not count); 0 refuses the header. Default: 100. */
  limit?: number;
  /** Milliseconds a named session may go unused before it is dropped. Default: 30 minutes. */
  idleTimeout?: number;
  /** The clock, in milliseconds (for tests). Default: `Date.now`. */
  now?: () => number;
}

/** A named session as `GET /__mock/sessions` lists it. */
export interface SessionSummary {
  name: string;
  /** Milliseconds since its last request. */
  idle: number;
}

// Letters, digits, '.', '_' and '-', not starting with a dot: a name that URL parsing leaves as it is
// (no '.' or '..' segment, no '/', nothing to percent-encode), so every session can be ended over HTTP.
const sessionName = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** What a session name may be, as the 400 `invalid_session` says it. */
export const sessionNameRule = "a session name is 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'";

/**
 * The sessions of one mock: the default one (requests without the header) and named ones, each
 * created on first use by `create` and dropped after `idleTimeout` without a request. At `limit`,
 * a new name is refused with 503 `session_limit_reached` rather than dropping a session in use.
 * @example
 * const sessions = new SessionRegistry(() => new OrderStore(seed), { limit: 10 });
 * sessions.resolve('ci-job-17') // that session's store, created now
 */
export class SessionRegistry<State> {
  readonly default: State;
  readonly limit: number;
  readonly idleTimeout: number;
  readonly #create: () => State;
  readonly #now: () => number;
  // A Map iterates in insertion order; a session is moved to the end when used, so the first is the least recently used.
  readonly #named = new Map<string, { state: State; lastUsed: number }>();
  #unstarted: State | undefined;

  constructor(create: () => State, options: SessionOptions = {}) {
    this.#create = create;
    this.#now = options.now ?? Date.now;
    this.limit = options.limit ?? defaultSessionLimit;
    this.idleTimeout = options.idleTimeout ?? defaultSessionIdleTimeout;
    if (!Number.isInteger(this.limit) || this.limit < 0)
      throw new TypeError(`the session limit must be a whole number >= 0, not ${this.limit}`);
    if (!(this.idleTimeout > 0))
      throw new TypeError(`the session idle timeout must be > 0 ms, not ${this.idleTimeout}`);
    this.default = create();
  }

  /**
   * The state of the session named by a request's `X-Mock-Session` header, or the default one without it.
   * @throws MockError `invalid_session` for a malformed name, `session_limit_reached` when a new session would exceed the limit.
   */
  forRequest(request: RequestHead): State {
    const name = request.headers.get(sessionHeader);
    return name === null ? this.default : this.resolve(name);
  }

  /**
   * The state of the named session, created on first use.
   * @throws MockError as `forRequest`.
   */
  resolve(name: string): State {
    const now = this.#now();
    const existing = this.#inUse(name, now);
    if (existing !== undefined) {
      this.#named.delete(name);
      existing.lastUsed = now;
      this.#named.set(name, existing);
      return existing.state;
    }
    this.#refuseBeyondLimit(name, now);
    const entry = { state: this.#create(), lastUsed: now };
    this.#named.set(name, entry);
    return entry.state;
  }

  /**
   * The state of the session a request names, for a read: the session as it is if it is in use (its
   * idle time unchanged), else a fresh state that is no session's (one, made on first need: reads
   * never change it, so it stays as a new session would start). A read never starts a session, so a page
   * that watches a session ended elsewhere does not start it again, nor keep it from going idle.
   * @throws MockError `invalid_session` for a malformed name.
   */
  peek(request: RequestHead): State {
    const name = request.headers.get(sessionHeader);
    if (name === null) return this.default;
    const now = this.#now();
    const existing = this.#inUse(name, now);
    if (existing !== undefined) return existing.state;
    this.#refuseBeyondLimit(name, now);
    this.#unstarted ??= this.#create();
    return this.#unstarted;
  }

  // The named session in use (used within the idle timeout), once the name is checked.
  #inUse(name: string, now: number): { state: State; lastUsed: number } | undefined {
    if (!sessionName.test(name))
      throw new MockError('invalid_session', `Invalid ${sessionHeader} header: ${sessionNameRule}.`);
    const existing = this.#named.get(name);
    return existing !== undefined && now - existing.lastUsed < this.idleTimeout ? existing : undefined;
  }

  // A new name at the limit is refused (idle sessions are dropped first), for a read as for a call.
  #refuseBeyondLimit(name: string, now: number): void {
    this.#dropIdle(now);
    if (this.#named.size < this.limit) return;
    const oldest = this.#named.values().next().value;
    const retryAfter =
      oldest === undefined ? 60 : Math.max(1, Math.ceil((oldest.lastUsed + this.idleTimeout - now) / 1000));
    throw new MockError(
      'session_limit_reached',
      `Cannot start session ${JSON.stringify(name)}: ${this.#named.size} sessions are in use and the limit is ${this.limit}. ` +
        'End sessions with DELETE /__mock/sessions/{name}, or start the mock with a larger --max-sessions.',
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }

  /** Every session's state: the default one first, then the named ones (idle ones not yet dropped included). */
  *states(): IterableIterator<State> {
    yield this.default;
    for (const { state } of this.#named.values()) yield state;
  }

  /** Drops a named session; tells whether there was one. */
  drop(name: string): boolean {
    return this.#named.delete(name);
  }

  /** The named sessions in use, least recently used first. */
  list(): SessionSummary[] {
    const now = this.#now();
    this.#dropIdle(now);
    return [...this.#named].map(([name, { lastUsed }]) => ({ name, idle: now - lastUsed }));
  }

  #dropIdle(now: number): void {
    for (const [name, { lastUsed }] of this.#named) {
      if (now - lastUsed < this.idleTimeout) break;
      this.#named.delete(name);
    }
  }
}
