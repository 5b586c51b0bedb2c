// The run as the console shows it: a line per exchange and per run, then the summary.
import { findingText, type Finding } from '../../core/finding.js';
import type { KnownFailure } from '../run/baseline.js';
import type { Disagreement } from '../../core/second-oracle.js';
import type { CaseResult, CheckedExchange, SuiteName, SuiteResult } from '../base/results.js';
import { responseName, routeOfExchange, type Coverage, type RunReport } from '../run/run-report.js';
/**
 * One violation as a line: `case › exchange: expected …, got … (at /0/id)`.
 * @example
 * findingLine('list-orders', 'list the orders', { code: 'body-schema', path: '/0/id', expected: 'integer', actual: '"1"' })
 * // 'list-orders › list the orders: expected integer, got "1" (at /0/id)'
 */
export function findingLine(caseName: string, exchangeName: string, finding: Finding, suite?: SuiteName): string {
  const subject = suite === undefined || suite === 'scenarios' ? caseName : `${suite} › ${caseName}`;
  return `${subject}${exchangeName === caseName ? '' : ` › ${exchangeName}`}: ${findingText(finding)}`;
}

/**
 * A violation's or a warning's line under its exchange: `findingLine`'s, ending with the finding's
 * rule id in brackets (its `code`, as JSON, JUnit and the GitHub annotations give it), so a reader
 * can look the rule up (docs/harness.md, "The rules"), grep for it, or name it in a baseline.
 * @example
 * ruledFindingLine('list-orders', 'list the orders', { code: 'body-schema', path: '/0/id', expected: 'integer', actual: '"1"' })
 * // 'list-orders › list the orders: expected integer, got "1" (at /0/id) [body-schema]'
 */
export function ruledFindingLine(caseName: string, exchangeName: string, finding: Finding, suite?: SuiteName): string {
  return `${findingLine(caseName, exchangeName, finding, suite)} [${finding.code}]`;
}

/**
 * A disagreement between the two oracles as a line.
 * @example
 * disagreementLine({ area: 'body', ajv: [], prism: ['Response body property 0.id must be <= 9007199254740991'], knownPrismLimit: 'Prism caps ...' })
 * // 'Ajv and Prism disagree on the body: Ajv finds nothing; Prism: Response body property 0.id must be <= 9007199254740991 (known Prism limit: Prism caps ...)'
 */
export function disagreementLine(disagreement: Disagreement): string {
  const side = (name: string, messages: string[]) =>
    messages.length > 0 ? `${name}: ${messages.join('; ')}` : `${name} finds nothing`;
  const known =
    disagreement.knownPrismLimit !== undefined ? ` (known Prism limit: ${disagreement.knownPrismLimit})` : '';
  return `Ajv and Prism disagree on the ${disagreement.area}: ${side('Ajv', disagreement.ajv)}; ${side('Prism', disagreement.prism)}${known}`;
}

/** How much the console says. */
export interface LineOptions {
  /** Also print the disagreements that are known limits of Prism (int64 beyond 2^53). Default: false. */
  verbose?: boolean;
}

/**
 * The disagreements worth a line: all of them when verbose, else those that are no known Prism limit.
 * @example
 * shownDisagreements(exchange.disagreements, {}) // [] when Prism only capped an int64
 */
export function shownDisagreements(disagreements: readonly Disagreement[], options: LineOptions): Disagreement[] {
  return options.verbose
    ? [...disagreements]
    : disagreements.filter((disagreement) => disagreement.knownPrismLimit === undefined);
}

/**
 * The progress line of an exchange, then one line per violation, per warning and per disagreement
 * (known Prism limits only when verbose). Scenario lines name the scenario; other suites' lines
 * start with the suite.
 * @example
 * exchangeLines('scenarios', 'cancel-shipped-order', exchange)
 * // ['✓ cancel-shipped-order › cancel the shipped order (DELETE /store/orders/3 → 409, 12 ms)']
 */
export function exchangeLines(
  suite: SuiteName,
  caseName: string,
  exchange: CheckedExchange,
  options: LineOptions = {},
): string[] {
  const mark = exchange.violations.length > 0 ? '✗' : (exchange.pending ?? []).length > 0 ? '~' : '✓';
  const subject = suite === 'scenarios' ? caseName : `${suite} › ${caseName}`;
  // The document's stability marker beside the call, where it has one: `(GET /v2/store/orders → 200, beta, 3 ms)`.
  const stability = exchange.method === '' ? null : (routeOfExchange(exchange)?.stability ?? null);
  const call =
    exchange.method === ''
      ? ''
      : ` (${exchange.method} ${exchange.path} → ${exchange.status ?? 'no answer'}${stability === null ? '' : `, ${stability}`}, ${exchange.durationMs.toFixed(0)} ms)`;
  return [
    `${mark} ${subject}${exchange.name === caseName ? '' : ` › ${exchange.name}`}${call}`,
    ...exchange.violations.map((finding) => `    ${ruledFindingLine(caseName, exchange.name, finding, suite)}`),
    ...(exchange.known ?? []).map(
      (finding) => `    known failure (baseline): ${ruledFindingLine(caseName, exchange.name, finding, suite)}`,
    ),
    ...(exchange.pending ?? []).map(
      (finding) => `    pending pact (fails nothing): ${ruledFindingLine(caseName, exchange.name, finding, suite)}`,
    ),
    ...exchange.warnings.map(
      (finding) =>
        // A warning that is not advisory (a walk that ended, spec gap 62) stays one under --strict.
        `    warning${finding.advisory === true ? ' (advisory; --strict makes it a violation)' : ''}: ${ruledFindingLine(caseName, exchange.name, finding, suite)}`,
    ),
    ...shownDisagreements(exchange.disagreements, options).map(
      (disagreement) =>
        `    note: ${subject}${exchange.name === caseName ? '' : ` › ${exchange.name}`}: ${disagreementLine(disagreement)}`,
    ),
  ];
}

/**
 * The progress lines of an exploration run: one line for a run that passed or was skipped (it sent
 * nothing), with why; for the shrunk failure, its state, then every numbered step with what differed below it.
 */
export function runLines(result: CaseResult, options: LineOptions = {}): string[] {
  const known = result.exchanges.some((exchange) => (exchange.known ?? []).length > 0);
  if (result.verdict === 'passed' && !known) return [`✓ explore › ${result.name} (${result.description ?? ''})`];
  if (result.verdict === 'skipped')
    return [skippedLine('explore', `${result.name} (${result.description ?? ''})`, result.reason)];
  if (result.exchanges.length === 0) return [];
  return [
    `${result.verdict === 'passed' ? '✓' : '✗'} explore › ${result.name}${result.reason === undefined ? '' : ` (${result.reason})`}`,
    ...(result.description === undefined ? [] : [`    state: ${result.description}`]),
    ...result.exchanges.flatMap((exchange) =>
      exchangeLines('explore', result.name, exchange, options).map((line) => `  ${line}`),
    ),
  ];
}

/** A skipped case as a line, with why: `- skipped explore › run 4 (0 orders, 0 steps): no command was generated: the run sent nothing`. */
function skippedLine(suite: SuiteName, name: string, reason: string | undefined): string {
  return `- skipped ${suite === 'scenarios' ? '' : `${suite} › `}${name}: ${reason ?? 'not run'}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

// `12 checks`, or `12 checks (3 failed, 1 of them in beta operations, 2 known failures)`: the failed ones
// are JUnit's failures, those of beta or experimental operations among them said apart (they fail the
// run: spec gap 53); the known failures its skipped testcases (a baseline knows every violation in them).
function checkCount(counts: {
  checks: number;
  failedChecks: number;
  knownFailedChecks: number;
  pendingFailedChecks: number;
  betaFailedChecks?: number;
}): string {
  const beta = counts.betaFailedChecks ?? 0;
  const parts = [
    ...(counts.failedChecks > 0
      ? [`${counts.failedChecks} failed${beta > 0 ? `, ${beta} of them in beta operations` : ''}`]
      : []),
    ...(counts.knownFailedChecks > 0 ? [plural(counts.knownFailedChecks, 'known failure')] : []),
    ...(counts.pendingFailedChecks > 0 ? [`${counts.pendingFailedChecks} failed in pending pacts`] : []),
  ];
  return `${plural(counts.checks, 'check')}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** The summary line of one suite. */
export function suiteLine(suite: SuiteResult, baseUrl: string): string {
  if (suite.verdict === 'skipped' && suite.reason !== undefined) return `${suite.suite}: skipped (${suite.reason})`;
  const setApart = (result: CaseResult, set: 'known' | 'pending') =>
    result.verdict === 'passed' && result.exchanges.some((exchange) => (exchange[set] ?? []).length > 0);
  // A case that passed only because a baseline knows its violations, or because its pact is pending,
  // is counted as such, not as passed.
  const count = (verdict: string) =>
    suite.cases.filter(
      (result) =>
        result.verdict === verdict &&
        !(verdict === 'passed' && (setApart(result, 'known') || setApart(result, 'pending'))),
    ).length;
  const knownOnly = suite.cases.filter((result) => setApart(result, 'known')).length;
  const pendingOnly = suite.cases.filter((result) => setApart(result, 'pending') && !setApart(result, 'known')).length;
  const noun = { preflight: 'lists', pact: 'interactions', scenarios: 'scenarios', explore: 'runs' }[suite.suite];
  const extra = [
    knownOnly > 0 ? `${knownOnly} with known failures only` : '',
    pendingOnly > 0 ? `${pendingOnly} failed pending (failing nothing)` : '',
    count('skipped') > 0 ? `${count('skipped')} skipped` : '',
    count('error') > 0 ? `${count('error')} errors` : '',
  ].filter((part) => part !== '');
  return (
    `${suite.suite}: ${count('passed')} passed, ${count('failed')} failed${extra.length > 0 ? `, ${extra.join(', ')}` : ''}` +
    ` (${noun}; ${checkCount(suite)}, ${plural(suite.violations, 'violation')}, ${plural(suite.warnings, 'warning')}, ${seconds(suite.durationMs)}` +
    `${suite.seed === undefined ? '' : `, seed ${suite.seed}`}, ${baseUrl})`
  );
}

// What Prism said beside Ajv: every disagreement when verbose, else the ones that are no known Prism limit.
function secondOracleLine(report: RunReport, options: LineOptions): string {
  const known = report.knownPrismLimits;
  if (options.verbose || known === 0)
    return (
      `second oracle, Prism: ${plural(report.disagreements, 'disagreement')} with Ajv` +
      (report.disagreements > 0 ? `, ${known} of them known Prism limits (docs/harness.md)` : '')
    );
  return `second oracle, Prism: ${plural(report.disagreements - known, 'disagreement')} with Ajv, besides ${plural(known, 'known Prism limit')} (--verbose shows them; docs/harness.md)`;
}

/**
 * A known failure's name, each part once: `explore › list the orders`, not `explore › explore › …`
 * (an exploration's scenario is its suite), and `pact › X › step`, not `pact › X › X › step` (a pact
 * step's name starts with its interaction's).
 * @example
 * knownFailureName({ suite: 'pact', code: 'order-field', operation: 'listOrders', scenario: 'X', step: 'X › step' }) // 'pact › X › step'
 */
export function knownFailureName(failure: KnownFailure): string {
  const parts = [failure.suite];
  if (failure.scenario !== failure.suite) parts.push(failure.scenario);
  const prefix = `${failure.scenario} › `;
  const step = failure.step.startsWith(prefix) ? failure.step.slice(prefix.length) : failure.step;
  if (step !== failure.scenario && step !== '') parts.push(step);
  return parts.join(' › ');
}

// What the baseline said: the known failures seen again, and those fixed.
function baselineLine(report: RunReport, baseline: { known: number; fixed: KnownFailure[] }): string {
  const fixed = baseline.fixed.map((failure) => `${knownFailureName(failure)} ${failure.code}`);
  return (
    `baseline: ${plural(report.knownViolations, 'violation')} ${report.knownViolations === 1 ? 'is a known failure' : 'are known failures'} (the baseline holds ${baseline.known})` +
    (fixed.length === 0
      ? ''
      : `; ${plural(fixed.length, 'known failure')} ${fixed.length === 1 ? 'is' : 'are'} fixed: remove ${fixed.length === 1 ? 'it' : 'them'} from the baseline (${fixed.join('; ')})`)
  );
}

/** `pact: the verification results of 2 pacts published to the Pact Broker as version 1.2.3 (branch main, build …)`. */
function publishedLine(published: NonNullable<SuiteResult['publishedResults']>): string {
  const details = [
    ...(published.providerBranch === undefined ? [] : [`branch ${published.providerBranch}`]),
    ...(published.buildUrl === undefined ? [] : [`build ${published.buildUrl}`]),
  ];
  return `pact: the verification results of ${plural(published.pacts, 'pact')} published to the Pact Broker as version ${published.providerVersion}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

/**
 * What the coverage line adds for the documented responses it does not count, grouped by why:
 * `; not counted: GET /v2/store/orders 200, 400, 401 (not verified)`.
 */
function notCountedText(coverage: Coverage): string {
  const groups = new Map<string, string[]>();
  for (const entry of coverage.notCounted) {
    const call = `${entry.method} ${entry.base === '/v1' ? '' : entry.base}${entry.path}`;
    const key = `${call}\u0000${entry.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), String(entry.status)]);
  }
  const named = [...groups].map(([key, statuses]) => {
    const [call, reason] = key.split('\u0000');
    return `${call} ${statuses.join(', ')} (${reason})`;
  });
  return named.length === 0 ? '' : `; not counted: ${named.join('; ')}`;
}

/** The closing summary: what was skipped or could not run, a line per suite, the second oracle, coverage, the verdict. */
export function summaryLines(report: RunReport, options: LineOptions = {}): string[] {
  const lines: string[] = [];
  for (const suite of report.suites) {
    for (const result of suite.cases) {
      // An exploration run's line is printed as it ends (runLines); the suite's line counts it.
      if (result.verdict === 'skipped' && result.reason !== undefined && suite.suite !== 'explore')
        lines.push(skippedLine(suite.suite, result.name, result.reason));
      if (result.verdict === 'error')
        lines.push(
          `! error in ${suite.suite === 'scenarios' ? '' : `${suite.suite} › `}${result.name}: ${result.reason}`,
        );
    }
  }
  lines.push(...report.suites.map((suite) => suiteLine(suite, report.baseUrl)));
  // A run the preflight stopped judged nothing at all: its last line says so, alone.
  for (const item of report.setupError === undefined ? report.notVerified : [])
    lines.push(
      `not verified: ${item.operation} (${item.method} ${item.base}${item.path}${item.stability === null ? '' : `, ${item.stability}`}): ${item.reason}`,
    );
  // Left out by --leave-out-beta: named, never silently dropped, never counted as passed.
  for (const item of report.setupError === undefined ? report.leftOut : [])
    lines.push(
      `left out: ${item.operation} (${item.method} ${item.base}${item.path}, ${item.stability}): ${item.reason}`,
    );
  for (const published of report.suites.flatMap((suite) => suite.publishedResults ?? []))
    lines.push(publishedLine(published));
  for (const name of report.suites.flatMap((suite) => suite.pendingPacts ?? []))
    lines.push(`pact: the pending pact "${name}" failed; pending, it fails nothing (the broker's pending pacts)`);
  const judgedByPrism = report.suites.some((suite) => suite.suite !== 'pact' && suite.checks > 0);
  if (judgedByPrism) {
    lines.push(report.prism ? secondOracleLine(report, options) : 'second oracle, Prism: off (--no-prism)');
  }
  const missing = report.coverage.responses
    .filter((entry) => entry.exercised === 0)
    .map((entry) => `${responseName(entry)}${entry.stability === null ? '' : ` (${entry.stability})`}`);
  // A run the preflight stopped checked nothing: its coverage says nothing either.
  if (report.setupError === undefined)
    lines.push(
      `coverage: ${report.coverage.covered} of ${report.coverage.total} documented responses exercised${missing.length > 0 ? ` (not: ${missing.join(', ')})` : ''}${notCountedText(report.coverage)}`,
    );
  if (report.baseline !== undefined) lines.push(baselineLine(report, report.baseline));
  lines.push(
    `verdict: ${report.verdict} (exit ${report.exitCode}; ${checkCount(report)}, ${plural(report.violations, 'violation')}${report.baseline === undefined ? '' : ` (${report.knownViolations} known)`}, ${seconds(report.durationMs)})${report.reasons.length > 0 && report.exitCode !== 0 ? `: ${report.reasons.join('; ')}` : ''}`,
  );
  return lines;
}
