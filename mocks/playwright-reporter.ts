import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { mergeCoverage, type ResponseCoverage } from './journal.js';

/** The name of the attachment in which each test's fixture leaves its mock's coverage. */
export const coverageAttachment = 'petstore-contract-kit coverage';

/** How the coverage reporter judges a run. */
export interface OrderCoverageOptions {
  /** Fail the run when a documented response was never produced. Default: false. */
  failOnMissing?: boolean;
  /** Responses the app need not produce: `'readPet'` or `'listOrders 401'`. Default: none. */
  ignore?: readonly string[];
  write?: (line: string) => void;
}

function missingOf(coverage: ResponseCoverage, ignore: readonly string[]): string[] {
  return coverage.operations
    .filter((operation) => !ignore.includes(operation.operation))
    .flatMap((operation) =>
      operation.responses
        .filter((response) => response.seen === 0)
        .map((response) => `${operation.operation} ${response.status}`),
    )
    .filter((name) => !ignore.includes(name));
}

/**
 * A Playwright reporter that merges every test's coverage and names the documented responses the run never produced.
 * @example
 * // playwright.config.ts
 * reporter: [['list'], ['petstore-contract-kit/playwright', { failOnMissing: true }]],
 */
export class OrderCoverageReporter implements Reporter {
  readonly #options: OrderCoverageOptions;
  readonly #coverages: ResponseCoverage[] = [];
  #tests = 0;

  constructor(options: OrderCoverageOptions = {}) {
    this.#options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    const attachment = result.attachments.find((candidate) => candidate.name === coverageAttachment);
    if (attachment?.body === undefined || result.status === 'skipped') return;
    this.#coverages.push(JSON.parse(attachment.body.toString('utf8')) as ResponseCoverage);
    this.#tests++;
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const write = this.#options.write ?? ((line: string) => console.log(line));
    if (this.#tests === 0) {
      write('Order interface coverage: no test used the order mock.');
      return this.#options.failOnMissing && result.status === 'passed' ? { status: 'failed' } : undefined;
    }
    const merged = mergeCoverage(this.#coverages);
    const ignore = this.#options.ignore ?? [];
    const missing = missingOf(merged, ignore);
    const tests = `${this.#tests} test${this.#tests === 1 ? '' : 's'}`;
    const ignored = ignore.length === 0 ? '' : ` (${ignore.join(', ')} ignored)`;
    write(
      missing.length === 0
        ? `Order interface coverage: every documented response was produced${ignored}, over ${tests}; ${merged.covered} of ${merged.total} in all.`
        : `Order interface coverage: ${merged.covered} of ${merged.total} documented responses produced over ${tests}; never produced: ${missing.join(', ')}${ignored}.`,
    );
    return this.#options.failOnMissing && missing.length > 0 && result.status === 'passed'
      ? { status: 'failed' }
      : undefined;
  }
}
