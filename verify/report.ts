import type { PreflightFailure } from './preflight.js';
import { stringifyJson } from '../spec/json.js';
import { matchRoute, routes, type OperationName } from '../spec/routes.js';
import { findingMessage, type Finding } from './finding.js';
import type { RuleCode } from './rules.js';
import type { KnownFailure } from './baseline.js';
import { escapeMarkup } from './escape-markup.js';
import type { Disagreement } from './prism.js';
import type { CaseResult, CheckedExchange, SuiteName, SuiteResult } from './results.js';

/** One documented response of the route table, and how often this run exercised it. */
export interface CoverageEntry {
  operation: OperationName;
  method: string;
  path: string;
  status: number;
  /** How many judged responses of the target had this operation and status. */
  exercised: number;
}

/** Which documented responses a run exercised: every operation × documented status of the route table. */
export interface Coverage {
  responses: CoverageEntry[];
  covered: number;
  total: number;
}

/**
 * One finding of a run, as every report renders it: the rule, whether it fails the run (`error`) or
 * is advisory (`warning`), the suite, the operation of the call, the scenario (or the pact
 * interaction, or the exploration run) and its step, where in the response, what was expected and
 * what came. `message` is the one-line text the console prints (made from the rest).
 */
export interface ReportedFinding {
  code: RuleCode;
  severity: 'error' | 'warning';
  suite: SuiteName;
  /** The operation of the call (`listOrders`, `cancelOrder`, `readPet`), or null for none (a run that stopped). */
  operation: OperationName | null;
  /** The scenario, the pact interaction or the exploration run. */
  scenario: string;
  /** The step of the scenario, the exchange of the interaction, the numbered command of the run. */
  step: string;
  method: string;
  /** The path of the call, below the base URL. */
  target: string;
  path: string;
  expected: string;
  actual: string;
  message: string;
  /** Set on a violation the baseline knows of (`--baseline`): it fails nothing. */
  known?: true;
}

/**
 * Every violation and warning of the suites, in the order they were judged.
 * @example
 * reportedFindings(report.suites).filter((finding) => finding.severity === 'error' && !finding.known).length === report.violations // true
 */
export function reportedFindings(suites: readonly SuiteResult[]): ReportedFinding[] {
  return suites.flatMap((suite) =>
    suite.cases.flatMap((result) =>
      result.exchanges.flatMap((exchange) => {
        const operation = matchRoute(exchange.method, exchange.path)?.route.operation ?? null;
        const reported = (finding: Finding, severity: ReportedFinding['severity'], known = false): ReportedFinding => ({
          code: finding.code,
          severity,
          suite: suite.suite,
          operation,
          scenario: result.name,
          step: exchange.name,
          method: exchange.method,
          target: exchange.path,
          path: finding.path,
          expected: finding.expected,
          actual: finding.actual,
          message: findingText(finding),
          ...(known && { known: true as const }),
        });
        return [
          ...exchange.violations.map((finding) => reported(finding, 'error')),
          ...(exchange.known ?? []).map((finding) => reported(finding, 'error', true)),
          ...exchange.warnings.map((finding) => reported(finding, 'warning')),
        ];
      }),
    ),
  );
}

/** The whole run: every suite that ran, the coverage, and the verdict the exit code says. */
export interface RunReport {
  tool: 'petstore-verify';
  version: string;
  baseUrl: string;
  strict: boolean;
  prism: boolean;
  startedAt: string;
  suites: SuiteResult[];
  checks: number;
  /** The checks with at least one violation: JUnit's failures. */
  failedChecks: number;
  /** The violations that fail the run: with a baseline, those it does not know. */
  violations: number;
  /** The violations the baseline knows of (`--baseline`): reported, failing nothing. */
  knownViolations: number;
  /** With `--baseline`: how many distinct known failures it holds, and those this run did not see (fixed), each once. */
  baseline?: { known: number; fixed: KnownFailure[] };
  warnings: number;
  disagreements: number;
  knownPrismLimits: number;
  /** Every violation and warning, as data: what every report renders. */
  findings: ReportedFinding[];
  coverage: Coverage;
  /** Whether an unexercised documented response fails the run (`--require-coverage`). */
  requireCoverage: boolean;
  verdict: 'passed' | 'failed' | 'not-run';
  /** 0 passed, 1 failed, 2 nothing (or not everything) could be checked. */
  exitCode: 0 | 1 | 2;
  /** Why the run is not green, one line each. */
  reasons: string[];
  /** The setup mistake the preflight found, when it found one: then no suite ran (exit 2). */
  setupError?: PreflightFailure;
  /** Set when the target stopped answering at all during the run (the first reason says the same). */
  unreachable?: string;
  durationMs: number;
}

/**
 * The coverage matrix of the exchanges judged: for each operation of the route table, each documented
 * status, and how often a response of the target had it.
 * @example
 * coverageOf(suites).covered // 9 when every documented response was exercised
 */
export function coverageOf(suites: readonly SuiteResult[]): Coverage {
  const counts = new Map<string, number>();
  for (const exchange of suites.flatMap((suite) => suite.cases.flatMap((result) => result.exchanges))) {
    if (exchange.status === undefined) continue;
    const route = matchRoute(exchange.method, exchange.path)?.route;
    if (route === undefined) continue;
    const key = `${route.operation} ${exchange.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const responses = routes.flatMap((route) =>
    route.responses.map((response) => ({
      operation: route.operation,
      method: route.method,
      path: route.path,
      status: response.status,
      exercised: counts.get(`${route.operation} ${response.status}`) ?? 0,
    })),
  );
  return { responses, covered: responses.filter((entry) => entry.exercised > 0).length, total: responses.length };
}

/** Why a run fails: each suite's violations, and the unexercised documented responses under `requireCoverage`. */
function failureReasons(suites: readonly SuiteResult[], coverage: Coverage, requireCoverage: boolean): string[] {
  const reasons: string[] = [];
  for (const suite of suites) {
    if (suite.violations > 0) reasons.push(`${suite.suite}: ${plural(suite.violations, 'violation')}`);
  }
  const unexercised = coverage.responses.filter((entry) => entry.exercised === 0);
  if (requireCoverage && unexercised.length > 0) {
    reasons.push(
      `coverage: ${unexercised.length} documented response${unexercised.length === 1 ? '' : 's'} not exercised (${unexercised.map((entry) => `${entry.operation} ${entry.status}`).join(', ')})`,
    );
  }
  return reasons;
}

/** Why a run that did not fail is not green either: no check ran (and why), or a case could not run. */
function notRunReasons(suites: readonly SuiteResult[], checks: number, explained: boolean): string[] {
  const reasons: string[] = [];
  if (checks === 0 && !explained) {
    const skipped = [
      ...new Set(
        suites.flatMap((suite) =>
          suite.reason !== undefined
            ? [suite.reason]
            : suite.cases.flatMap((result) => (result.reason === undefined ? [] : [result.reason])),
        ),
      ),
    ];
    const why =
      skipped.length > 0 && skipped.every((reason) => reason.includes('--state-url'))
        ? 'everything asked for sets a provider state, and no --state-url was given'
        : skipped.join('; ');
    reasons.push(`no check ran${why === '' ? '' : `: ${why}`}`);
  }
  const setupErrors = suites.flatMap((suite) =>
    suite.cases
      .filter((result) => result.verdict === 'error')
      .map((result) => `${suite.suite} › ${result.name}: ${result.reason}`),
  );
  reasons.push(...setupErrors);
  return reasons;
}

/**
 * The run's report from its suites: totals, coverage, and one verdict that the exit code, the summary
 * and every report file share. A violation fails the run (1); so does an unexercised documented
 * response under `requireCoverage`. A run that checked nothing, or could not set a provider state, is
 * not green (2), with the reason.
 * @example
 * const report = runReport({ baseUrl, suites, version: '0.1.0', strict: false, prism: true, requireCoverage: false, startedAt, durationMs });
 * process.exitCode = report.exitCode;
 */
export function runReport(input: {
  baseUrl: string;
  suites: SuiteResult[];
  version: string;
  strict: boolean;
  prism: boolean;
  requireCoverage: boolean;
  startedAt: Date;
  durationMs: number;
  /** The setup mistake the preflight found: no suite ran, the run is not green (2). */
  setupError?: PreflightFailure;
  /** Why the target could not be reached any more during the run: the first reason. */
  unreachable?: string;
  /** With a baseline: how many known failures it holds, and those the run did not see. */
  baseline?: { known: number; fixed: KnownFailure[] };
}): RunReport {
  const { suites } = input;
  const sum = (pick: (suite: SuiteResult) => number) => suites.reduce((total, suite) => total + pick(suite), 0);
  const coverage = coverageOf(suites);
  const checks = sum((suite) => suite.checks);
  const violations = sum((suite) => suite.violations);
  const reasons = failureReasons(suites, coverage, input.requireCoverage);
  const failed = reasons.length > 0;
  // A target that stopped answering says why nothing (more) was checked.
  if (!failed) reasons.push(...notRunReasons(suites, checks, input.unreachable !== undefined));
  if (input.unreachable !== undefined) reasons.unshift(input.unreachable);
  if (input.setupError !== undefined) reasons.splice(0, reasons.length, input.setupError.message);
  const exitCode = input.setupError !== undefined ? 2 : failed ? 1 : reasons.length > 0 ? 2 : 0;
  return {
    tool: 'petstore-verify',
    version: input.version,
    baseUrl: input.baseUrl,
    strict: input.strict,
    prism: input.prism,
    startedAt: input.startedAt.toISOString(),
    suites,
    checks,
    failedChecks: sum((suite) => suite.failedChecks),
    violations,
    knownViolations: sum((suite) => suite.knownViolations),
    ...(input.baseline !== undefined && { baseline: input.baseline }),
    warnings: sum((suite) => suite.warnings),
    disagreements: sum((suite) => suite.disagreements),
    knownPrismLimits: sum((suite) => suite.knownPrismLimits),
    findings: reportedFindings(suites),
    coverage,
    requireCoverage: input.requireCoverage,
    verdict: exitCode === 0 ? 'passed' : exitCode === 1 ? 'failed' : 'not-run',
    exitCode,
    reasons,
    ...(input.setupError !== undefined && { setupError: input.setupError }),
    ...(input.unreachable !== undefined && { unreachable: input.unreachable }),
    durationMs: input.durationMs,
  };
}

/**
 * A finding's message with where it is: `expected integer, got "1" (at /0/id)`.
 * @example
 * findingText({ code: 'body-json', path: '', expected: 'a JSON body', actual: '"oops"' }) // 'expected a JSON body, got "oops"'
 */
export function findingText(finding: Finding): string {
  return `${findingMessage(finding)}${finding.path === '' ? '' : ` (at ${finding.path})`}`;
}

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
  const mark = exchange.violations.length > 0 ? '✗' : '✓';
  const subject = suite === 'scenarios' ? caseName : `${suite} › ${caseName}`;
  const call =
    exchange.method === ''
      ? ''
      : ` (${exchange.method} ${exchange.path} → ${exchange.status ?? 'no answer'}, ${exchange.durationMs.toFixed(0)} ms)`;
  return [
    `${mark} ${subject}${exchange.name === caseName ? '' : ` › ${exchange.name}`}${call}`,
    ...exchange.violations.map((finding) => `    ${findingLine(caseName, exchange.name, finding, suite)}`),
    ...(exchange.known ?? []).map(
      (finding) => `    known failure (baseline): ${findingLine(caseName, exchange.name, finding, suite)}`,
    ),
    ...exchange.warnings.map(
      (finding) =>
        `    warning (advisory; --strict makes it a violation): ${findingLine(caseName, exchange.name, finding, suite)}`,
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
 * @example
 * runLines({ name: 'run 3', description: '4 orders, 7 steps', verdict: 'passed', exchanges }) // ['✓ explore › run 3 (4 orders, 7 steps)']
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

// `12 checks`, or `12 checks (3 failed)`: the failed ones are JUnit's failures, the violations in them counted apart.
function checkCount(counts: { checks: number; failedChecks: number }): string {
  return `${plural(counts.checks, 'check')}${counts.failedChecks > 0 ? ` (${counts.failedChecks} failed)` : ''}`;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** The summary line of one suite. */
export function suiteLine(suite: SuiteResult, baseUrl: string): string {
  if (suite.verdict === 'skipped' && suite.reason !== undefined) return `${suite.suite}: skipped (${suite.reason})`;
  const count = (verdict: string) => suite.cases.filter((result) => result.verdict === verdict).length;
  const noun = { preflight: 'lists', pact: 'interactions', scenarios: 'scenarios', explore: 'runs' }[suite.suite];
  const extra = [
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

// What the baseline said: the known failures seen again, and those fixed.
function baselineLine(report: RunReport, baseline: { known: number; fixed: KnownFailure[] }): string {
  const fixed = baseline.fixed.map(
    (failure) => `${failure.suite} › ${failure.scenario} › ${failure.step} ${failure.code}`,
  );
  return (
    `baseline: ${plural(report.knownViolations, 'violation')} ${report.knownViolations === 1 ? 'is a known failure' : 'are known failures'} (the baseline holds ${baseline.known})` +
    (fixed.length === 0
      ? ''
      : `; ${plural(fixed.length, 'known failure')} ${fixed.length === 1 ? 'is' : 'are'} fixed: remove ${fixed.length === 1 ? 'it' : 'them'} from the baseline (${fixed.join('; ')})`)
  );
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
  const judgedByPrism = report.suites.some((suite) => suite.suite !== 'pact' && suite.checks > 0);
  if (judgedByPrism) {
    lines.push(report.prism ? secondOracleLine(report, options) : 'second oracle, Prism: off (--no-prism)');
  }
  const missing = report.coverage.responses
    .filter((entry) => entry.exercised === 0)
    .map((entry) => `${entry.operation} ${entry.status}`);
  // A run the preflight stopped checked nothing: its coverage says nothing either.
  if (report.setupError === undefined)
    lines.push(
      `coverage: ${report.coverage.covered} of ${report.coverage.total} documented responses exercised${missing.length > 0 ? ` (not: ${missing.join(', ')})` : ''}`,
    );
  if (report.baseline !== undefined) lines.push(baselineLine(report, report.baseline));
  lines.push(
    `verdict: ${report.verdict} (exit ${report.exitCode}; ${checkCount(report)}, ${plural(report.violations, 'violation')}${report.baseline === undefined ? '' : ` (${report.knownViolations} known)`}, ${seconds(report.durationMs)})${report.reasons.length > 0 && report.exitCode !== 0 ? `: ${report.reasons.join('; ')}` : ''}`,
  );
  return lines;
}

/**
 * The report as JUnit XML: a testsuite per suite and case (`pact › interaction`, `scenarios › scenario`,
 * `explore › run 3`), a testcase per exchange, a failure per violated exchange; skipped cases are
 * skipped testcases, cases that could not run are errors.
 */
export function toJunit(report: RunReport): string {
  const suites = report.suites.flatMap((suite) => junitCases(suite).map((result) => junitSuite(suite, result)));
  const total = (pick: (suite: JunitSuite) => number) => suites.reduce((sum, suite) => sum + pick(suite), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-verify" tests="${total((suite) => suite.tests)}" failures="${total((suite) => suite.failures)}" errors="${total((suite) => suite.errors)}" skipped="${total((suite) => suite.skipped)}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites.map((suite) => suite.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

/** A suite's cases, or one case standing for a suite that ran none (skipped, or could not run). */
function junitCases(suite: SuiteResult): CaseResult[] {
  if (suite.cases.length > 0) return suite.cases;
  return [
    {
      name: suite.suite,
      verdict: suite.verdict,
      ...(suite.reason !== undefined && { reason: suite.reason }),
      exchanges: [],
    },
  ];
}

/** One case as a JUnit testsuite, with its counts. */
interface JunitSuite {
  xml: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function junitSuite(suite: SuiteResult, result: CaseResult): JunitSuite {
  const name = `${suite.suite} › ${result.name}`;
  const testcases =
    result.exchanges.length === 0
      ? [
          `    <testcase classname="${escapeMarkup(name)}" name="${escapeMarkup(result.name)}">` +
            (result.verdict === 'error'
              ? `<error message="${escapeMarkup(result.reason ?? 'could not run')}"/>`
              : `<skipped message="${escapeMarkup(result.reason ?? 'not run')}"/>`) +
            '</testcase>',
        ]
      : result.exchanges.map((exchange) => junitTestcase(name, result.name, exchange));
  const failures = result.exchanges.filter((exchange) => exchange.violations.length > 0).length;
  const errors = result.exchanges.length === 0 && result.verdict === 'error' ? 1 : 0;
  const skipped =
    result.exchanges.length === 0 ? (result.verdict !== 'error' ? 1 : 0) : result.exchanges.filter(knownOnly).length;
  const xml = [
    `  <testsuite name="${escapeMarkup(name)}" tests="${testcases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...testcases,
    '  </testsuite>',
  ].join('\n');
  return { xml, tests: testcases.length, failures, errors, skipped };
}

// An exchange that failed only by failures the baseline knows: JUnit's skipped, not its failures.
const knownOnly = (exchange: CheckedExchange) => exchange.violations.length === 0 && (exchange.known ?? []).length > 0;

/**
 * An exchange as a JUnit testcase: a failure with its violations, skipped when it failed only by
 * known failures (`--baseline`), its warnings and disagreements as output.
 */
function junitTestcase(classname: string, caseName: string, exchange: CheckedExchange): string {
  const known = exchange.known ?? [];
  const skipped = knownOnly(exchange)
    ? `<skipped message="${escapeMarkup(`known failure (baseline): ${findingLine(caseName, exchange.name, known[0]!)}`)}"/>`
    : '';
  const failure = exchange.violations.length
    ? `<failure message="${escapeMarkup(findingLine(caseName, exchange.name, exchange.violations[0]!))}" type="${escapeMarkup([...new Set(exchange.violations.map((finding) => finding.code))].join(' '))}">${escapeMarkup(exchange.violations.map((finding) => findingLine(caseName, exchange.name, finding)).join('\n'))}</failure>`
    : '';
  const notes = [
    ...known.map((finding) => `known failure (baseline): ${findingText(finding)}`),
    ...exchange.warnings.map((finding) => `warning: ${findingText(finding)}`),
    ...exchange.disagreements.map(disagreementLine),
  ];
  return `    <testcase classname="${escapeMarkup(classname)}" name="${escapeMarkup(exchange.name)}" time="${(exchange.durationMs / 1000).toFixed(3)}">${failure}${skipped}${notes.length > 0 ? `<system-out>${escapeMarkup(notes.join('\n'))}</system-out>` : ''}</testcase>`;
}

/** The report as JSON text (ids exact), with the exit code it ends with. */
export function toJson(report: RunReport): string {
  return `${stringifyJson(report)}\n`;
}

/** A finding split for a table: where, what was expected, what came. */
function findingCells(finding: Finding): [string, string, string] {
  return [
    finding.path,
    `${finding.about === undefined ? '' : `${finding.about}: `}${finding.expected}`,
    finding.actual,
  ];
}

const verdictBadge = (verdict: string) =>
  `<span class="verdict ${escapeMarkup(verdict)}">${escapeMarkup(verdict)}</span>`;

/** The coverage matrix as a table: an operation a row, a documented status a column, how often each was exercised. */
function coverageMatrix(coverage: Coverage): string {
  const statuses = [...new Set(coverage.responses.map((entry) => entry.status))].sort((left, right) => left - right);
  const operations = routes.map((route) => route.operation);
  return [
    '<table class="coverage"><thead><tr><th>operation</th>',
    ...statuses.map((status) => `<th>${status}</th>`),
    '</tr></thead><tbody>',
    ...operations.map((operation) => {
      const route = routes.find((candidate) => candidate.operation === operation)!;
      const cells = statuses.map((status) => {
        const entry = coverage.responses.find(
          (candidate) => candidate.operation === operation && candidate.status === status,
        );
        if (entry === undefined) return '<td class="undocumented">–</td>';
        return entry.exercised > 0
          ? `<td class="exercised" title="exercised ${entry.exercised} times">✓ ${entry.exercised}</td>`
          : '<td class="missing" title="documented, not exercised">✗ not exercised</td>';
      });
      return `<tr><th>${escapeMarkup(operation)}<br><code>${escapeMarkup(`${route.method} ${route.path}`)}</code></th>${cells.join('')}</tr>`;
    }),
    '</tbody></table>',
  ].join('');
}

// Failures first: what a person opens the page for.
const verdictRank: Record<string, number> = { failed: 0, error: 1, skipped: 2, passed: 3 };

/** A suite as a section: its summary line, then its cases, failures first. */
function suiteSection(suite: SuiteResult, baseUrl: string): string {
  const cases = [...suite.cases]
    .sort((left, right) => (verdictRank[left.verdict] ?? 3) - (verdictRank[right.verdict] ?? 3))
    .map(caseDetails);
  return `<section class="suite"><h2>${verdictBadge(suite.verdict)} ${escapeMarkup(suite.suite)}</h2><p>${escapeMarkup(suiteLine(suite, baseUrl))}</p>${cases.join('')}</section>`;
}

/** A case as a details element (open when it failed): its violations and warnings in a table, its exchanges. */
function caseDetails(result: CaseResult): string {
  const rows = result.exchanges.flatMap((exchange) =>
    [
      ...exchange.violations.map((finding) => ['violation', finding] as const),
      ...(exchange.known ?? []).map((finding) => ['known', finding] as const),
      ...exchange.warnings.map((finding) => ['warning', finding] as const),
    ].map(([kind, finding]) => {
      const [where, expected, actual] = findingCells(finding);
      return `<tr class="${kind}"><td>${escapeMarkup(exchange.name)}</td><td><code>${escapeMarkup(finding.code)}</code></td><td><code>${escapeMarkup(where)}</code></td><td>${escapeMarkup(expected)}</td><td>${escapeMarkup(actual)}</td></tr>`;
    }),
  );
  const exchanges = result.exchanges.map(
    (exchange) =>
      `<li>${exchange.violations.length > 0 ? '✗' : '✓'} ${escapeMarkup(exchange.name)}${exchange.method === '' ? '' : ` <code>${escapeMarkup(`${exchange.method} ${exchange.path} → ${exchange.status ?? 'no answer'}`)}</code>`}</li>`,
  );
  return (
    `<details class="case ${escapeMarkup(result.verdict)}"${result.verdict === 'failed' || result.verdict === 'error' ? ' open' : ''}><summary>${verdictBadge(result.verdict)} ${escapeMarkup(result.name)}` +
    `${result.reason === undefined ? '' : ` <em>${escapeMarkup(result.reason)}</em>`}</summary>` +
    `${result.description === undefined ? '' : `<p>${escapeMarkup(result.description)}</p>`}` +
    (rows.length > 0
      ? `<table class="findings"><thead><tr><th>step</th><th>rule</th><th>where</th><th>expected</th><th>actual</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '') +
    `<ul>${exchanges.join('')}</ul></details>`
  );
}

/**
 * The report as one self-contained HTML page (no external assets): the verdict, each suite with its
 * cases and every violation (where, expected, actual), and the coverage matrix of the documented responses.
 */
export function toHtml(report: RunReport): string {
  const matrix = coverageMatrix(report.coverage);
  const suites = report.suites.map((suite) => suiteSection(suite, report.baseUrl));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>petstore-verify: ${escapeMarkup(report.verdict)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1c1c1c}
h1{margin-bottom:.2rem}code{font:13px ui-monospace,monospace}
.verdict{display:inline-block;padding:.05rem .5rem;border-radius:.3rem;color:#fff;font-weight:600;font-size:.85em}
.verdict.passed{background:#1f7a3a}.verdict.failed{background:#b3261e}.verdict.not-run,.verdict.error{background:#8a5a00}.verdict.skipped{background:#666}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
.coverage td.exercised{background:#e3f4e8}.coverage td.missing{background:#fbe4e2;font-weight:600}.coverage td.undocumented{color:#999}
tr.violation td{background:#fdf0ef}tr.warning td{background:#fff7e0}tr.known td{background:#eef1f6}details.case{margin:.3rem 0}summary{cursor:pointer}
</style></head><body>
<h1>${verdictBadge(report.verdict)} petstore-verify</h1>
<p>${escapeMarkup(report.baseUrl)} · ${escapeMarkup(report.startedAt)} · exit ${report.exitCode} · ${report.checks} checks · ${report.violations} violations · ${report.warnings} warnings · ${(report.durationMs / 1000).toFixed(1)} s</p>
${report.reasons.length > 0 && report.exitCode !== 0 ? `<ul class="reasons">${report.reasons.map((reason) => `<li>${escapeMarkup(reason)}</li>`).join('')}</ul>` : ''}
<h2>Coverage of the documented responses: ${report.coverage.covered} of ${report.coverage.total}</h2>
${matrix}
${suites.join('\n')}
</body></html>
`;
}
