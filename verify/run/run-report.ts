// The verdict of a run: its suites, its coverage of the documented responses, its reasons and exit code. Every report format renders it.
import type { PreflightFailure } from '../provider/preflight.js';
import {
  basePaths,
  majorRoutes,
  matchRoute,
  routes,
  v2Routes,
  type OperationName,
  type Route,
} from '../../core/routes.js';
import { findingText, type Finding } from '../../core/finding.js';
import type { RuleCode } from '../../core/rules.js';
import type { KnownFailure } from './baseline.js';
import type { SuiteName, SuiteResult } from '../base/results.js';
/** One documented response of the route table, and how often this run exercised it. */
export interface CoverageEntry {
  operation: OperationName;
  method: string;
  /** The base path of the operation's major (`/v1`, `/v2`). */
  base: string;
  path: string;
  status: number;
  /** How many judged responses of the target had this operation and status. */
  exercised: number;
  /** The document's stability marker of the operation (`beta`, `experimental`), or null for a stable one. */
  stability: string | null;
}

/**
 * Which documented responses a run exercised: every operation × documented status of v1's document,
 * and of another major's where the run judged it; `covered` and `total` count `responses`.
 */
export interface Coverage {
  responses: CoverageEntry[];
  covered: number;
  total: number;
  /**
   * The documented responses not counted, each with why: an operation the run left out
   * (`--leave-out-beta`), or one of another major no suite judged (`not verified`). Named, never
   * dropped; under `--require-coverage` a response not verified still fails the run.
   */
  notCounted: (Omit<CoverageEntry, 'exercised'> & { reason: 'left out' | 'not verified' })[];
}

/**
 * A documented response as reports name it: v1's by its operation (`listOrders 200`), another major's by
 * its call with the base path (`GET /v2/store/orders 400`), which says the document it is of.
 * @example
 * responseName({ operation: 'listOrdersV2', method: 'GET', base: '/v2', path: '/store/orders', status: 400 }) // 'GET /v2/store/orders 400'
 */
export function responseName(entry: {
  operation: OperationName;
  method: string;
  base: string;
  path: string;
  status: number;
}): string {
  return entry.base === '/v1'
    ? `${entry.operation} ${entry.status}`
    : `${entry.method} ${entry.base}${entry.path} ${entry.status}`;
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
  /** Set on a violation of a pending pact (from a broker, `--enable-pending`): it fails nothing. */
  pending?: true;
  /** The document's stability marker of the operation (`beta`, `experimental`); absent for a stable one. */
  stability?: string;
}

/** The stability markers `--leave-out-beta` leaves out: what the document says may still change. */
export const unstableMarkers: readonly string[] = ['beta', 'experimental'];

/**
 * The route of a judged exchange, by its method and path: below the base URL (v1's), or, for a path
 * that starts with another major's base path (`/v2/store/orders`), that major's.
 * @example
 * routeOfExchange({ method: 'GET', path: '/v2/store/orders?limit=2' })?.operation // 'listOrdersV2'
 * routeOfExchange({ method: 'DELETE', path: '/store/orders/3' })?.operation // 'cancelOrder'
 */
export function routeOfExchange(exchange: { method: string; path: string }): Route | undefined {
  const v1 = matchRoute(exchange.method, exchange.path)?.route;
  if (v1 !== undefined) return v1;
  for (const base of basePaths)
    if (base !== '/v1' && exchange.path.startsWith(`${base}/`))
      return matchRoute(exchange.method, exchange.path.slice(base.length), base)?.route;
  return undefined;
}

/**
 * Whether a route is one the run leaves out: it carries a stability marker the run was asked to leave out.
 * @example
 * isLeftOut(routeOf('listOrdersV2'), ['beta', 'experimental']) // true
 * isLeftOut(routeOf('listOrders'), ['beta', 'experimental']) // false
 */
export function isLeftOut(route: Route, leaveOut: readonly string[]): boolean {
  return route.stability !== null && leaveOut.includes(route.stability);
}

/**
 * Every violation and warning of the suites, in the order they were judged.
 * @example
 * reportedFindings(report.suites).filter((finding) => finding.severity === 'error' && !finding.known && !finding.pending).length === report.violations // true
 */
export function reportedFindings(suites: readonly SuiteResult[]): ReportedFinding[] {
  return suites.flatMap((suite) =>
    suite.cases.flatMap((result) =>
      result.exchanges.flatMap((exchange) => {
        const route = routeOfExchange(exchange);
        const operation = route?.operation ?? null;
        const reported = (
          finding: Finding,
          severity: ReportedFinding['severity'],
          set?: 'known' | 'pending',
        ): ReportedFinding => ({
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
          ...(set === 'known' && { known: true as const }),
          ...(set === 'pending' && { pending: true as const }),
          ...(route?.stability != null && { stability: route.stability }),
        });
        return [
          ...exchange.violations.map((finding) => reported(finding, 'error')),
          ...(exchange.known ?? []).map((finding) => reported(finding, 'error', 'known')),
          ...(exchange.pending ?? []).map((finding) => reported(finding, 'error', 'pending')),
          ...exchange.warnings.map((finding) => reported(finding, 'warning')),
        ];
      }),
    ),
  );
}

/**
 * An operation of the documents the run did not judge, named so that nothing is dropped silently: v2's
 * list in a run without a state URL (the scenarios suite walks it in a store of its own), or with no
 * scenarios suite.
 * @example
 * const item: NotVerified = { operation: 'listOrdersV2', method: 'GET', base: '/v2', path: '/store/orders', stability: 'beta', reason: 'no suite of this run judged it' };
 */
export interface NotVerified {
  operation: OperationName;
  method: string;
  base: string;
  path: string;
  stability: string | null;
  reason: string;
}

/**
 * The operations of v2's document no suite of this run judged (`judged`, from `judgedOperations`) but
 * those the run leaves out (`leftOutOperations`). The run's verdict is v1's; these are listed in every report, never
 * counted as passed.
 * @example
 * notVerifiedOperations().map((item) => item.operation) // ['listOrdersV2']
 * notVerifiedOperations([], new Set(['listOrdersV2'])) // []
 * notVerifiedOperations(['beta', 'experimental']) // []
 */
export function notVerifiedOperations(
  leaveOut: readonly string[] = [],
  judged: ReadonlySet<OperationName> = new Set(),
): NotVerified[] {
  return v2Routes
    .filter((route) => !isLeftOut(route, leaveOut) && !judged.has(route.operation))
    .map((route) => ({
      ...namedRoute(route),
      reason:
        "no suite of this run judged it (the scenarios suite walks v2's list when a --state-url is given and no --scenario narrows the run), so the verdict is v1's alone",
    }));
}

/**
 * The operations some exchange of the suites judged: an answer came (or a violation was found) on a
 * call of theirs. What a report names as verified is what was judged, never what was meant to be.
 * @example
 * judgedOperations(report.suites).has('listOrdersV2')
 */
export function judgedOperations(suites: readonly SuiteResult[]): Set<OperationName> {
  const judged = new Set<OperationName>();
  for (const suite of suites)
    for (const result of suite.cases)
      for (const exchange of result.exchanges) {
        if (exchange.status === undefined && exchange.violations.length === 0) continue;
        const route = routeOfExchange(exchange);
        if (route !== undefined) judged.add(route.operation);
      }
  return judged;
}

function namedRoute(route: Route): Omit<NotVerified, 'reason'> {
  return {
    operation: route.operation,
    method: route.method,
    base: route.base,
    path: route.path,
    stability: route.stability,
  };
}

/**
 * The operations of both majors a run leaves out because of their stability marker (`--leave-out-beta`),
 * each named with why: never judged, never counted as passed, and said so in every report.
 * @example
 * leftOutOperations(['beta', 'experimental']).map((item) => `${item.operation} ${item.stability}`) // ['listOrdersV2 beta']
 */
export function leftOutOperations(leaveOut: readonly string[]): NotVerified[] {
  return [...routes, ...v2Routes]
    .filter((route) => isLeftOut(route, leaveOut))
    .map((route) => ({
      ...namedRoute(route),
      reason: `--leave-out-beta leaves out the operations the document marks ${unstableMarkers.join(' or ')}`,
    }));
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
  /** The checks whose violations the baseline all knows: JUnit's skipped testcases among the checks. */
  knownFailedChecks: number;
  /** The violations of the broker's pending pacts: reported, failing nothing. */
  pendingViolations: number;
  /** The checks whose violations are all a pending pact's: JUnit's skipped testcases among the checks. */
  pendingFailedChecks: number;
  /**
   * The violations in operations the document marks beta or experimental: counted in `violations` (they
   * fail the run, spec gap 53) and apart, so that a reader sees which failures are in what may still change.
   */
  betaViolations: number;
  /** The failed checks (of `failedChecks`) of operations the document marks beta or experimental. */
  betaFailedChecks: number;
  /** With `--baseline`: how many distinct known failures it holds, and those this run did not see (fixed), each once. */
  baseline?: { known: number; fixed: KnownFailure[] };
  warnings: number;
  disagreements: number;
  knownPrismLimits: number;
  /** Every violation and warning, as data: what every report renders. */
  findings: ReportedFinding[];
  coverage: Coverage;
  /** The documents' operations no suite judged (v2's), each named with why: never counted as passed. */
  notVerified: NotVerified[];
  /** The operations the run left out by their stability marker (`--leave-out-beta`), each named with why. */
  leftOut: NotVerified[];
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
 * The coverage matrix of the exchanges judged: for each operation counted, each documented status, and
 * how often a response of the target had it. v1's operations are counted; another major's (v2's list)
 * where a suite judged it; an operation the run leaves out (`leaveOut`, the markers of
 * `--leave-out-beta`) is not: those are named in `notCounted`.
 * @example
 * coverageOf(suites).covered // 11 when every documented response of both majors was exercised
 */
export function coverageOf(suites: readonly SuiteResult[], leaveOut: readonly string[] = []): Coverage {
  const judged = judgedOperations(suites);
  const counts = new Map<string, number>();
  for (const exchange of suites.flatMap((suite) => suite.cases.flatMap((result) => result.exchanges))) {
    if (exchange.status === undefined) continue;
    const route = routeOfExchange(exchange);
    if (route === undefined) continue;
    const key = `${route.operation} ${exchange.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const entries = (route: Route) =>
    route.responses.map((response) => ({
      operation: route.operation,
      method: route.method,
      base: route.base,
      path: route.path,
      status: response.status,
      stability: route.stability,
    }));
  const whyNot = (route: Route): Coverage['notCounted'][number]['reason'] | undefined =>
    isLeftOut(route, leaveOut)
      ? 'left out'
      : route.base !== '/v1' && !judged.has(route.operation)
        ? 'not verified'
        : undefined;
  const responses = majorRoutes
    .filter((route) => whyNot(route) === undefined)
    .flatMap((route) =>
      entries(route).map((entry) => ({ ...entry, exercised: counts.get(`${route.operation} ${entry.status}`) ?? 0 })),
    );
  const notCounted = majorRoutes.flatMap((route) => {
    const reason = whyNot(route);
    return reason === undefined ? [] : entries(route).map((entry) => ({ ...entry, reason }));
  });
  return {
    responses,
    covered: responses.filter((entry) => entry.exercised > 0).length,
    total: responses.length,
    notCounted,
  };
}

// The violations, and the checks that have any, of the operations the document marks beta or experimental.
function betaTally(suites: readonly SuiteResult[]): { violations: number; failedChecks: number } {
  let violations = 0;
  let failedChecks = 0;
  for (const exchange of suites.flatMap((suite) => suite.cases.flatMap((result) => result.exchanges))) {
    if (exchange.violations.length === 0 || routeOfExchange(exchange)?.stability == null) continue;
    violations += exchange.violations.length;
    failedChecks++;
  }
  return { violations, failedChecks };
}

/** Why a run fails: each suite's violations, and the unexercised documented responses under `requireCoverage`. */
function failureReasons(suites: readonly SuiteResult[], coverage: Coverage, requireCoverage: boolean): string[] {
  const reasons: string[] = [];
  for (const suite of suites) {
    if (suite.violations > 0)
      reasons.push(`${suite.suite}: ${suite.violations} violation${suite.violations === 1 ? '' : 's'}`);
  }
  // A response of a major no suite judged was not exercised either: only what the run was told to
  // leave out (--leave-out-beta) is not required.
  const unexercised = [
    ...coverage.responses.filter((entry) => entry.exercised === 0),
    ...coverage.notCounted.filter((entry) => entry.reason === 'not verified'),
  ];
  if (requireCoverage && unexercised.length > 0) {
    reasons.push(
      `coverage: ${unexercised.length} documented response${unexercised.length === 1 ? '' : 's'} not exercised (${unexercised.map(responseName).join(', ')})`,
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
            : // A case in error is named with its reason below: said once.
              suite.cases.flatMap((result) =>
                result.reason === undefined || result.verdict === 'error' ? [] : [result.reason],
              ),
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
  /** The stability markers whose operations the run left out (`--leave-out-beta`: `unstableMarkers`). Default: none. */
  leaveOut?: readonly string[];
}): RunReport {
  const { suites } = input;
  const sum = (pick: (suite: SuiteResult) => number) => suites.reduce((total, suite) => total + pick(suite), 0);
  const leaveOut = input.leaveOut ?? [];
  const coverage = coverageOf(suites, leaveOut);
  const checks = sum((suite) => suite.checks);
  const violations = sum((suite) => suite.violations);
  const reasons = failureReasons(suites, coverage, input.requireCoverage);
  const failed = reasons.length > 0;
  // A target that stopped answering says why nothing (more) was checked.
  if (!failed) reasons.push(...notRunReasons(suites, checks, input.unreachable !== undefined));
  if (input.unreachable !== undefined) reasons.unshift(input.unreachable);
  if (input.setupError !== undefined) reasons.splice(0, reasons.length, input.setupError.message);
  const marked = betaTally(suites);
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
    knownFailedChecks: sum((suite) => suite.knownFailedChecks),
    pendingViolations: sum((suite) => suite.pendingViolations),
    pendingFailedChecks: sum((suite) => suite.pendingFailedChecks),
    betaViolations: marked.violations,
    betaFailedChecks: marked.failedChecks,
    ...(input.baseline !== undefined && { baseline: input.baseline }),
    warnings: sum((suite) => suite.warnings),
    disagreements: sum((suite) => suite.disagreements),
    knownPrismLimits: sum((suite) => suite.knownPrismLimits),
    findings: reportedFindings(suites),
    coverage,
    notVerified: notVerifiedOperations(leaveOut, judgedOperations(suites)),
    leftOut: leftOutOperations(leaveOut),
    requireCoverage: input.requireCoverage,
    verdict: exitCode === 0 ? 'passed' : exitCode === 1 ? 'failed' : 'not-run',
    exitCode,
    reasons,
    ...(input.setupError !== undefined && { setupError: input.setupError }),
    ...(input.unreachable !== undefined && { unreachable: input.unreachable }),
    durationMs: input.durationMs,
  };
}
