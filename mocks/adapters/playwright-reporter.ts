import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { mergeCoverage, type ResponseCoverage } from '../journal/journal.js';
import { conflictError, writePactFile } from '../pact/pact-file.js';
import { inFileOrder, mergePactDocuments } from '../pact/pact-merge.js';
import { leftOutIn } from '../pact/pact-metadata.js';

/** The name of the attachment in which each test's fixture leaves its mock's coverage. */
export const coverageAttachment = 'petstore-contract-kit coverage';

/** The name of the attachment in which each test's fixture leaves its consumer pact (the `pact` option). */
export const pactAttachment = 'petstore-contract-kit pact';

/** How the coverage reporter judges a run. */
export interface OrderCoverageOptions {
  /**
   * Fail the run when a documented response was never produced. Default: false. An operation the document
   * marks beta or experimental (v2's list) is counted apart and never fails the run.
   */
  failOnMissing?: boolean;
  /** Responses the app need not produce: `'readPet'` or `'listOrders 401'`. Default: none. */
  ignore?: readonly string[];
  /** Where the run's consumer pacts go, one file per consumer and provider, merged as `mock.pact()` merges. Default: `pacts`. */
  pactDir?: string;
  write?: (line: string) => void;
}

type PactDocument = Record<string, JsonValue>;

// The kit's metadata names the tests whose calls were left out, beside the calls each pact left out.
function withTestsLeftOut(pact: PactDocument, tests: readonly string[]): PactDocument {
  if (tests.length === 0) return pact;
  const metadata = (pact.metadata ?? {}) as PactDocument;
  const kit = (metadata['petstore-contract-kit'] ?? {}) as PactDocument;
  const named = tests.map((test) => `test "${test}": did not pass`);
  const leftOut = kit.leftOut === undefined || kit.leftOut === 'none' ? named : [String(kit.leftOut), ...named];
  return { ...pact, metadata: { ...metadata, 'petstore-contract-kit': { ...kit, leftOut: leftOut.join('; ') } } };
}

const partiesOf = (pact: PactDocument) => ({
  consumer: String((pact.consumer as PactDocument).name),
  provider: String((pact.provider as PactDocument).name),
});

// An operation the document marks beta or experimental (x-stability) is counted apart: an app on v1 is
// not failed for v2's list it never calls (issue 56). Naming it in `ignore` leaves it out of the line too.
function missingOf(coverage: ResponseCoverage, ignore: readonly string[]): string[] {
  return coverage.operations
    .filter((operation) => !ignore.includes(operation.operation) && operation.stability === null)
    .flatMap((operation) =>
      operation.responses
        .filter((response) => response.seen === 0)
        .map((response) => `${operation.operation} ${response.status}`),
    )
    .filter((name) => !ignore.includes(name));
}

/**
 * A Playwright reporter that merges every test's coverage and names the documented responses the run
 * never produced, and writes the run's consumer pact (when the fixture's `pact` option names a
 * consumer): one file per consumer and provider, every test's interactions in it, in both modes and
 * across all workers.
 * @example
 * // playwright.config.ts
 * reporter: [['list'], ['petstore-contract-kit/playwright', { failOnMissing: true, pactDir: 'pacts' }]],
 * use: { pact: { consumer: 'web-app' } },
 */
export class OrderCoverageReporter implements Reporter {
  readonly #options: OrderCoverageOptions;
  readonly #coverages: ResponseCoverage[] = [];
  // The run's pacts so far, one per consumer and provider; each test's is merged in as it ends.
  readonly #pacts = new Map<string, { document: PactDocument; tests: number }>();
  readonly #pactProblems: string[] = [];
  // The tests that did not pass but left a pact: named in the pact's metadata, as every call left out is.
  readonly #testsNotInPact: string[] = [];
  #tests = 0;

  constructor(options: OrderCoverageOptions = {}) {
    this.#options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const attachment = result.attachments.find((candidate) => candidate.name === coverageAttachment);
    if (attachment?.body === undefined || result.status === 'skipped') return;
    this.#coverages.push(JSON.parse(attachment.body.toString('utf8')) as ResponseCoverage);
    this.#tests++;
    const pact = result.attachments.find((candidate) => candidate.name === pactAttachment);
    if (pact?.body === undefined) return;
    // As Pact's own DSL: a test that failed writes nothing into the contract.
    if (result.status === 'passed') this.#addPact(parseJson(pact.body.toString('utf8')) as PactDocument, test);
    else this.#testsNotInPact.push(test.titlePath().filter(Boolean).join(' › '));
  }

  #addPact(pact: PactDocument, test: TestCase): void {
    const { consumer, provider } = partiesOf(pact);
    const key = `${consumer}-${provider}`;
    const sofar = this.#pacts.get(key);
    if (sofar === undefined) {
      this.#pacts.set(key, { document: pact, tests: 1 });
      return;
    }
    const merged = mergePactDocuments(sofar.document, pact, `the pact of the tests before "${test.title}"`);
    if (merged.conflicts.length > 0)
      this.#pactProblems.push(`${test.title}: ${conflictError(merged.conflicts).message}`);
    else this.#pacts.set(key, { document: merged.document, tests: sofar.tests + 1 });
  }

  // One file per consumer and provider; a problem is reported and fails the run, never drops a test's calls.
  async #writePacts(write: (line: string) => void): Promise<boolean> {
    for (const problem of this.#pactProblems) write(`Consumer pact not written: ${problem}`);
    if (this.#pactProblems.length > 0) return false;
    let written = true;
    for (const { document, tests } of this.#pacts.values()) {
      try {
        const file = await writePactFile(withTestsLeftOut(document, this.#testsNotInPact), {
          ...partiesOf(document),
          dir: this.#options.pactDir ?? 'pacts',
        });
        const count = (document.interactions as JsonValue[]).length;
        const notPassed = this.#testsNotInPact.length;
        const failed = notPassed === 0 ? '' : ` (${notPassed} that did not pass left out)`;
        // The calls the tests' pacts left out, in the words of the file's metadata.
        const calls = leftOutIn(inFileOrder(document));
        const leftOut = calls === undefined ? '' : `; left out: ${calls}`;
        write(
          `Consumer pact: ${file}, ${count} interactions from ${tests} test${tests === 1 ? '' : 's'}${failed}${leftOut}.`,
        );
      } catch (error) {
        write(`Consumer pact not written: ${(error as Error).message}`);
        written = false;
      }
    }
    return written;
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const write = this.#options.write ?? ((line: string) => console.log(line));
    const pactsWritten = await this.#writePacts(write);
    const missing = this.#coverageMissing(write);
    if (result.status !== 'passed') return undefined;
    // Playwright's own summary says the tests passed: say why the run fails all the same.
    const reasons: string[] = [];
    if (!pactsWritten) reasons.push('the consumer pact was not written');
    if (this.#options.failOnMissing && missing !== undefined) reasons.push(`failOnMissing is on and ${missing}`);
    if (reasons.length === 0) return undefined;
    write(`Order interface: the run fails although every test passed: ${reasons.join('; ')}.`);
    return { status: 'failed' };
  }

  /** Writes the coverage line; says what is missing, if anything (for failOnMissing), else undefined. */
  #coverageMissing(write: (line: string) => void): string | undefined {
    if (this.#tests === 0) {
      write('Order interface coverage: no test used the order mock.');
      return 'no test used the order mock';
    }
    const merged = mergeCoverage(this.#coverages);
    const ignore = this.#options.ignore ?? [];
    const missing = missingOf(merged, ignore);
    const tests = `${this.#tests} test${this.#tests === 1 ? '' : 's'}`;
    const marked = merged.operations
      .filter((operation) => operation.stability !== null && !ignore.includes(operation.operation))
      .map((operation) => {
        const seen = operation.responses.filter((response) => response.seen > 0).length;
        return `${operation.operation} (${operation.stability}) ${seen} of ${operation.responses.length}`;
      });
    const apart = marked.length === 0 ? '' : ` Counted apart, never failing the run: ${marked.join(', ')}.`;
    const ignored = ignore.length === 0 ? '' : ` (${ignore.join(', ')} ignored)`;
    write(
      missing.length === 0
        ? `Order interface coverage: every documented response was produced${ignored}, over ${tests}; ${merged.covered} of ${merged.total} in all.${apart}`
        : `Order interface coverage: ${merged.covered} of ${merged.total} documented responses produced over ${tests}; never produced: ${missing.join(', ')}${ignored}.${apart}`,
    );
    if (missing.length === 0) return undefined;
    return `${missing.length} documented response${missing.length === 1 ? ' was' : 's were'} never produced`;
  }
}
