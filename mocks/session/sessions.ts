import type { RequestHead } from '../base/reply.js';
import { MockError, MockOptionError } from '../base/errors.js';

/**
 * The request header that names a session: such requests see and change only that session's store and faults.
 * @example
 * fetch(`${origin}/v1/store/orders`, { headers: { authorization: 'Bearer petstore-dev-key', [sessionHeader]: 'ci-job-17' } })
 */
export const sessionHeader = 'X-Mock-Session';

/**
 * How many named sessions a mock holds at once by default.
 * @example
 * createOrderMock({ sessions: { limit: defaultSessionLimit * 2 } })
 */
export const defaultSessionLimit = 100;
/**
 * How many milliseconds a named session may go unused before it is dropped, by default.
 * @example
 * createOrderMock({ sessions: { idleTimeout: defaultSessionIdleTimeout / 2 } })
 */
export const defaultSessionIdleTimeout = 30 * 60 * 1000;

export interface SessionOptions {
  /** The most named sessions at once; 0 refuses the header. Default: 100. */
  limit?: number;
  /** Milliseconds a named session may go unused before it is dropped. Default: 30 minutes. */
  idleTimeout?: number;
  now?: () => number;
}

/** A named session as `GET /__mock/sessions` lists it. */
export interface SessionSummary {
  name: string;
  idle: number;
}

// A name that URL parsing leaves as it is, so that every session can be ended over HTTP.
const sessionName = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export const sessionNameRule = "a session name is 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'";

/**
 * The default session and the named ones, created on first use and dropped when idle. At the limit a
 * new name is refused rather than dropping a session in use.
 */
export class SessionRegistry<State> {
  readonly default: State;
  readonly limit: number;
  readonly idleTimeout: number;
  readonly #create: () => State;
  readonly #now: () => number;
  // A used session moves to the end, so that the first is the least recently used.
  readonly #named = new Map<string, { state: State; lastUsed: number }>();
  #freshState: State | undefined;

  constructor(create: () => State, options: SessionOptions = {}) {
    this.#create = create;
    this.#now = options.now ?? Date.now;
    this.limit = options.limit ?? defaultSessionLimit;
    this.idleTimeout = options.idleTimeout ?? defaultSessionIdleTimeout;
    if (!Number.isInteger(this.limit) || this.limit < 0)
      throw new MockOptionError('invalid_option', `the session limit must be a whole number >= 0, not ${this.limit}`);
    if (!(this.idleTimeout > 0))
      throw new MockOptionError('invalid_option', `the session idle timeout must be > 0 ms, not ${this.idleTimeout}`);
    this.default = create();
  }

  forRequest(request: RequestHead): State {
    const name = request.headers.get(sessionHeader);
    return name === null ? this.default : this.resolve(name);
  }

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
   * The session a request names, for a read, or a fresh state that is no session's. A read never starts
   * a session, so that a page watching a session ended elsewhere does not start it again, and so needs
   * no place among them: at the limit too, it sees the seed.
   */
  peek(request: RequestHead): State {
    const name = request.headers.get(sessionHeader);
    if (name === null) return this.default;
    const existing = this.#inUse(name, this.#now());
    if (existing !== undefined) return existing.state;
    this.#freshState ??= this.#create();
    return this.#freshState;
  }

  #inUse(name: string, now: number): { state: State; lastUsed: number } | undefined {
    if (!sessionName.test(name))
      throw new MockError('invalid_session', `Invalid ${sessionHeader} header: ${sessionNameRule}.`);
    const existing = this.#named.get(name);
    return existing !== undefined && now - existing.lastUsed < this.idleTimeout ? existing : undefined;
  }

  // Idle sessions are dropped first.
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

  /** Whether any session, the default one first, is one the test holds for; asked at every answer, so it makes no iterator when no other session exists. */
  some(test: (state: State) => boolean): boolean {
    if (test(this.default)) return true;
    if (this.#named.size === 0) return false;
    for (const { state } of this.#named.values()) if (test(state)) return true;
    return false;
  }

  /** The default session first, then the named ones. */
  *states(): IterableIterator<State> {
    yield this.default;
    for (const { state } of this.#named.values()) yield state;
  }

  drop(name: string): boolean {
    return this.#named.delete(name);
  }

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
