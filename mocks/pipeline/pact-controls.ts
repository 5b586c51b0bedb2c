// The consumer pact's controls of a session, as the order mock gives them (mock.pact(), pactDocument(),
// clearPact()), and the settings every session's pacts share.
import { consumerPact, writeConsumerPact, type ConsumerPact } from '../pact/consumer-pact.js';
import { pactSizeLimit } from '../pact/pact-text.js';
import type { InteractionJudge } from '../pact/interaction-judge.js';
import type { PactOptions, PactSelection } from '../pact/pact-file.js';
import { MockOptionError } from '../base/errors.js';
import type { MockSession } from '../session/mock-session.js';

/** A session's consumer pact: the calls its app made, as Pact V4, judged before it is given. */
export interface PactControls {
  /**
   * Writes the pact of every call your app made on this session since it started (resets and the
   * journal's limit do not lose any), as Pact V4, merged into `dir/CONSUMER-PROVIDER.json` (`dir` is
   * `pacts` unless given) as Pact merges: what the file holds stays, the same interaction is written
   * once, by any number of test files, workers and processes. Each interaction has the provider state
   * it depended on and is checked against the specification and the model first. Calls a fault
   * answered are left out and named. Throws `PactContradictsSpec`, writing nothing, when an
   * interaction is one the contract does not allow, and `MockUsageError` (`pact_conflict`,
   * `pact_limit_reached`, `pact_too_large`) when it answers a request two ways, calls did not fit, or
   * its text would pass `maxPactBytes`. The calls it leaves out are also said through `warn`. Node.js only.
   * @example
   * afterAll(async () => {
   *   await mock.pact({ consumer: 'web-app' }); // 'pacts/web-app-petstore-order-interface.json'
   *   await mock.session('checkout-tab').pact({ consumer: 'checkout' }); // a named session's calls
   * });
   */
  pact(options: PactOptions): Promise<string>;
  /**
   * The pact `pact()` would write, as data, with what the judge found and the calls left out;
   * nothing is written and nothing it finds is thrown (in a browser too); only a pact whose text
   * would pass `maxPactBytes` throws `MockUsageError` (`pact_too_large`).
   * @example
   * const { document, findings } = await mock.pactDocument({ consumer: 'web-app' });
   */
  pactDocument(parties: PactSelection): Promise<ConsumerPact>;
  /**
   * Forgets the calls the pact is written from. `reset()` keeps them, so that a pact written after
   * all tests holds every test's calls; call this only to start a pact over.
   * @example
   * mock.clearPact(); // the next mock.pact() holds only the calls made after this
   */
  clearPact(): void;
  /**
   * Marks that a test began, and that the one before it passed; returns the function that says this
   * test did not pass: the distinct calls first made since it began leave the pact (a call a passing
   * test made too stays; one made again by a later passing test comes back), and the pact's metadata
   * names it in `leftOut` as `test "NAME": did not pass`, as the Playwright reporter does. Its
   * function throws `MockUsageError` (`tests_overlap`) once another test began. Give it vitest's
   * `onTestFailed`, which runs after `afterEach`, before the next test's `beforeEach`.
   * @example
   * beforeEach(({ task, onTestFailed }) => {
   *   mock.reset();
   *   onTestFailed(mock.testStarted(task.fullName)); // a failed test's calls are not the contract
   * });
   */
  testStarted(name: string): () => void;
}

function checkedMaxPactBytes(maxPactBytes = pactSizeLimit): number {
  if (!Number.isSafeInteger(maxPactBytes) || maxPactBytes < 1)
    throw new MockOptionError('invalid_option', `maxPactBytes must be a whole number >= 1, not ${maxPactBytes}`);
  return maxPactBytes;
}

/**
 * Whether the mock's MSW handlers were handed out, whether an MSW server or worker was observed, how
 * many observations are connected now, and whether all of them were once disconnected.
 */
export interface MswUse {
  handlersGiven: boolean;
  observed: boolean;
  connected: number;
  disconnected: boolean;
}

/** What a pact says it could not see: MSW in use, and nothing observed, hides `server.use` answers. */
const unseenWithoutObserve =
  "mock.observe(server) was never called: answers of handlers in front of the kit's (server.use, worker.use) could not be seen, and are not in this pact";
const unseenAfterUnobserve =
  "mock.observe(server)'s disconnect was called: answers of handlers in front of the kit's (server.use, worker.use) while nothing was observed could not be seen, and are not in this pact";

/** Why some answers may be missing from a pact, if they may be. */
function unseenOf(msw: MswUse): string | undefined {
  if (!msw.handlersGiven) return undefined;
  if (!msw.observed) return unseenWithoutObserve;
  return msw.disconnected ? unseenAfterUnobserve : undefined;
}

/** How a mock's pacts are made: the judge, the size limit, and where a pact's left-out calls are said. */
export interface PactSettings {
  judge: InteractionJudge;
  maxBytes: number;
  /** Where `pact()` says the calls it leaves out. */
  warn: (line: string) => void;
}

/**
 * A mock's pact settings from its options: `maxPactBytes` checked (`invalid_option`), and `warn`, else
 * `console.warn`, for the calls a pact leaves out.
 * @example
 * pactSettingsOf({ maxPactBytes: 1024 }, judgeInteraction).maxBytes // 1024
 */
export function pactSettingsOf(
  options: { maxPactBytes?: number; warn?: (line: string) => void },
  judge: InteractionJudge,
): PactSettings {
  return {
    judge,
    maxBytes: checkedMaxPactBytes(options.maxPactBytes),
    // A pact that leaves calls out says so where its writer looks, not only in its file.
    warn: options.warn ?? ((line) => console.warn(`petstore-contract-kit: ${line}`)),
  };
}

/**
 * The pact controls of one session (`pact()`, `pactDocument()`, `clearPact()`), its pacts' paths
 * written below `basePath`.
 * @example
 * const controls = pactControlsOf(session, msw, '/v1', pactSettingsOf({}, judgeInteraction));
 */
export function pactControlsOf(
  session: MockSession,
  msw: MswUse,
  basePath: string,
  settings: PactSettings,
): PactControls {
  const { judge, maxBytes, warn } = settings;
  const context = () => {
    const unseen = unseenOf(msw);
    return { basePath, judge, maxBytes, ...(unseen !== undefined && { unseen }) };
  };
  return {
    pact: (options) => writeConsumerPact(session.pactCalls(), options, { ...context(), warn }),
    pactDocument: (parties) => consumerPact(session.pactCalls(), parties, context()),
    clearPact: () => session.clearPact(),
    testStarted: (name) => session.testStarted(name),
  };
}
