// What a consumer's pact is written from: every distinct call a session answered since it started (or
// since the pact was last cleared), kept beside the journal so that `reset()`, a scenario load and the
// journal's limit do not lose them. Calls are pushed as they come, with no work on the request's path,
// and made distinct in batches.
import { bodySize, keptBodiesLimit, type KeptAnswer, type RecordedCall } from '../journal/journal.js';
import { MockUsageError } from '../base/errors.js';

/**
 * How many distinct calls a session's pact holds, and how many bytes of their bodies (as the journal
 * counts them, a body shared by calls once for each): past either, `mock.pact()` refuses rather than drop some.
 */
export const pactCallLimit = 10_000;

// Calls are made distinct once this many are waiting.
const batchSize = 1024;

// FNV-1a of a call's key: enough to count calls past the limit once each.
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

interface WaitingCall {
  call: RecordedCall;
  answer: KeptAnswer | undefined;
}

// Whether a call is the one recorded just before it: the same request, key and answer, its body the same object.
function sameCall(previous: WaitingCall, call: RecordedCall, answer: KeptAnswer | undefined): boolean {
  const before = previous.call;
  const last = previous.answer;
  if (
    before.method !== call.method ||
    before.path !== call.path ||
    before.query !== call.query ||
    before.status !== call.status ||
    before.authorization !== call.authorization ||
    before.heldAs !== call.heldAs
  )
    return false;
  if (last === undefined || answer === undefined) return last === answer;
  return (
    last.body === answer.body &&
    last.bodyRead === undefined &&
    answer.bodyRead === undefined &&
    last.by === answer.by &&
    last.contentType === answer.contentType &&
    last.wwwAuthenticate === answer.wwwAuthenticate &&
    last.deprecation === answer.deprecation &&
    last.sunset === answer.sunset &&
    last.bodyDropped === answer.bodyDropped
  );
}

/** The calls a pact is written from, and how many distinct calls did not fit. */
export interface PactCalls {
  calls: RecordedCall[];
  /** Distinct calls seen past `pactCallLimit` or `keptBodiesLimit`, not kept: a pact without them would not be the app's whole contract. */
  overflow: number;
  /** The first of them (`namedOverflowLimit` at most), each as `METHOD PATH STATUS`. */
  notKept: string[];
  /** The tests that did not pass (`testStarted`'s callback), by name: the calls they first made are not in `calls`. */
  testsNotPassed?: string[];
  /** The test each call was first made in (`testStarted`), for a conflict to name both tests. */
  madeIn?: ReadonlyMap<RecordedCall, string>;
}

/** The test whose calls the ledger tells apart: its name and the distinct calls it made first. */
interface RunningTest {
  name: string;
  firstMade: Set<string>;
  /** Said not to have passed already: saying it again changes nothing. */
  failed?: boolean;
}

/** How many of the calls that did not fit a pact names; the others are counted. */
export const namedOverflowLimit = 20;

/**
 * Every distinct call of a session, for its consumer pact: identical calls (same request, key, answer
 * and body) once, in the order they were first made.
 * @example
 * const ledger = new PactLedger();
 * ledger.record(call);
 * ledger.calls().calls.length // 1
 */
export class PactLedger {
  readonly #limit: number;
  // A call and the answer it had when recorded: the journal may later drop the body it shares.
  #waiting: WaitingCall[] = [];
  #previous: WaitingCall | undefined;
  readonly #distinct = new Map<string, RecordedCall>();
  #overflow = 0;
  #notKept: string[] = [];
  // A hash of each call counted past the limit, not its key: a key holds the body.
  readonly #overflowed = new Set<number>();
  #keptBytes = 0;
  // Bodies the kit shares between answers (a list's parts) are told apart by identity, not by content.
  readonly #bodyIds = new WeakMap<object, number>();
  #nextBodyId = 0;
  // A test's first-made calls are only told apart while it is the last begun: once the next begins it passed.
  #test: RunningTest | undefined;
  #testsNotPassed: string[] = [];
  readonly #madeIn = new Map<RecordedCall, string>();

  constructor(limit: number = pactCallLimit) {
    this.#limit = limit;
  }

  record(call: RecordedCall): void {
    const answer = call.answer;
    // The same call again (a list polled, a test repeated) is told by its fields and its body's
    // identity, with no string built and nothing kept.
    if (this.#previous !== undefined && sameCall(this.#previous, call, answer)) return;
    const waiting = { call, answer };
    this.#previous = waiting;
    this.#waiting.push(waiting);
    if (this.#waiting.length >= batchSize) this.#settle();
  }

  /**
   * Marks that a test began (and that the one before it passed); the function it returns says this
   * test did not pass: the distinct calls first made since it began leave the ledger (a later call the
   * same comes back), and the test is named. Throws `MockUsageError` (`tests_overlap`) when that
   * function is called once another test began.
   */
  testStarted(name: string): () => void {
    this.#settle();
    const test: RunningTest = { name, firstMade: new Set() };
    this.#test = test;
    return () => this.#notPassed(test);
  }

  /** Every distinct call, oldest first, and how many did not fit. */
  calls(): PactCalls {
    this.#settle();
    return {
      calls: [...this.#distinct.values()],
      overflow: this.#overflow,
      notKept: [...this.#notKept],
      ...(this.#testsNotPassed.length > 0 && { testsNotPassed: [...this.#testsNotPassed] }),
      ...(this.#madeIn.size > 0 && { madeIn: new Map(this.#madeIn) }),
    };
  }

  clear(): void {
    // A test running goes on: a call it makes after this is first made by it.
    this.#test?.firstMade.clear();
    this.#testsNotPassed = [];
    this.#madeIn.clear();
    this.#waiting = [];
    this.#previous = undefined;
    this.#distinct.clear();
    this.#overflow = 0;
    this.#notKept = [];
    this.#overflowed.clear();
    this.#keptBytes = 0;
  }

  #settle(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { call, answer } of waiting) {
      const kept: RecordedCall = answer === call.answer ? call : { ...call, answer };
      const identity = this.#identityOf(kept);
      if (this.#distinct.has(identity)) continue;
      const size = bodySize(kept.answer?.body ?? null);
      if (this.#distinct.size >= this.#limit || this.#keptBytes + size > keptBodiesLimit) {
        // Counted once each (while the count is below the limit itself): the same call again is one already counted.
        const hash = hashOf(identity);
        if (this.#overflowed.has(hash)) continue;
        if (this.#overflowed.size < this.#limit) this.#overflowed.add(hash);
        this.#overflow++;
        if (this.#notKept.length < namedOverflowLimit) this.#notKept.push(`${kept.method} ${kept.path} ${kept.status}`);
      } else {
        this.#keptBytes += size;
        this.#distinct.set(identity, kept);
        if (this.#test !== undefined) {
          this.#test.firstMade.add(identity);
          this.#madeIn.set(kept, this.#test.name);
        }
      }
    }
  }

  #notPassed(test: RunningTest): void {
    if (test.failed === true) return;
    if (this.#test !== test)
      throw new MockUsageError(
        'tests_overlap',
        `test "${test.name}" did not pass, but another test began on this mock since it began: its calls cannot be told from that test's, and stay in the pact (run the tests that share a mock one at a time)`,
      );
    this.#settle();
    for (const identity of test.firstMade) {
      const call = this.#distinct.get(identity);
      if (call === undefined) continue;
      this.#keptBytes -= bodySize(call.answer?.body ?? null);
      this.#distinct.delete(identity);
      this.#madeIn.delete(call);
    }
    this.#test = undefined;
    test.failed = true;
    // The same call made again is one the ledger must see, not the one it just forgot.
    this.#previous = undefined;
    this.#testsNotPassed.push(test.name);
  }

  #identityOf(call: RecordedCall): string {
    const { answer } = call;
    // The query too: a call with one is another call (a pact leaves it out, named), never the same one.
    const parts = [
      call.method,
      call.path,
      call.query ?? '',
      String(call.status),
      call.authorization,
      call.heldAs ?? '',
    ];
    if (answer === undefined) return parts.join('\n');
    // A handler's body still being read is its own until read: nothing to compare it with yet.
    const body = answer.bodyRead !== undefined ? `answer:${this.#idOf(answer)}` : this.#bodyKey(answer.body);
    parts.push(answer.by, answer.contentType ?? '', answer.wwwAuthenticate ?? '');
    parts.push(answer.deprecation ?? '', answer.sunset ?? '', String(answer.bodyDropped === true), body);
    return parts.join('\n');
  }

  #bodyKey(body: KeptAnswer['body']): string {
    if (body === null) return '';
    if (typeof body === 'string') return `text:${body}`;
    return `parts:${this.#idOf(body)}`;
  }

  #idOf(value: object): number {
    let id = this.#bodyIds.get(value);
    if (id === undefined) this.#bodyIds.set(value, (id = this.#nextBodyId++));
    return id;
  }
}
