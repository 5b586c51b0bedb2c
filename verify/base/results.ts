import type { Finding } from '../../core/finding.js';
import type { Disagreement } from '../../core/second-oracle.js';

/** How a suite, a case or a run ended. */
export type Verdict = 'passed' | 'failed' | 'skipped' | 'error';

/** The suites of `petstore-verify`, in the order the default run runs them. */
export const suiteNames = ['pact', 'scenarios', 'explore'] as const;
/**
 * A suite of a report: one of `suiteNames`, or `preflight`, which no one asks for: the preflight's own
 * answer, reported when it breaks the contract.
 */
export type SuiteName = (typeof suiteNames)[number] | 'preflight';

/**
 * One response judged: a scenario step, a Pact interaction, a step of an exploration run. `status` is
 * the HTTP status, or undefined when the target failed to answer (the failure is a violation).
 */
export interface CheckedExchange {
  name: string;
  method: string;
  /** The path below the base URL. */
  path: string;
  status?: number;
  violations: Finding[];
  /** Violations a baseline knows of (`--baseline`): reported, failing nothing. */
  known?: Finding[];
  /** Violations of a pending pact (Pact's pending pacts, from a broker): reported, failing nothing. */
  pending?: Finding[];
  /** Advisory findings: the kit's own decisions where the specification is open (violations under --strict). */
  warnings: Finding[];
  /** Where Prism and Ajv judged this response differently. */
  disagreements: Disagreement[];
  durationMs: number;
}

/**
 * An exchange with no response the harness judged itself: what went wrong outside any one response
 * (a run that stopped, a verifier that crashed, a pact that could not be loaded), or what Pact alone
 * said of an interaction. Its violations, and nothing else.
 */
export function findingsOnlyExchange(
  name: string,
  violations: Finding[],
  call: { method: string; path: string } = { method: '', path: '' },
): CheckedExchange {
  return { name, method: call.method, path: call.path, violations, warnings: [], disagreements: [], durationMs: 0 };
}

/** A scenario, a Pact interaction or an exploration run: its exchanges, or why it did not run. */
export interface CaseResult {
  name: string;
  description?: string;
  verdict: Verdict;
  /** Why the case was skipped or could not run, or what stopped it. */
  reason?: string;
  /** What the specification says against a consumer's pact interaction (`--pact`): the consumer's error. */
  contradictions?: Finding[];
  exchanges: CheckedExchange[];
}

/** One suite's results. */
export interface SuiteResult {
  suite: SuiteName;
  verdict: Verdict;
  /** Why the suite was skipped or could not run. */
  reason?: string;
  cases: CaseResult[];
  /** How many responses were judged. */
  checks: number;
  /** How many of them had a violation (JUnit's failures). */
  failedChecks: number;
  violations: number;
  /** Violations a baseline knows of: reported, failing nothing. */
  knownViolations: number;
  /**
   * The checks whose violations the baseline all knows (JUnit's skipped testcases besides the cases
   * that sent nothing): failing nothing, counted apart from the checks that passed.
   */
  knownFailedChecks: number;
  /** Violations of the broker's pending pacts: reported, failing nothing. */
  pendingViolations: number;
  /** The checks whose violations are all a pending pact's: failing nothing, counted apart from those that passed. */
  pendingFailedChecks: number;
  warnings: number;
  disagreements: number;
  knownPrismLimits: number;
  durationMs: number;
  /** Exploration only: the seed that replays the run. */
  seed?: number;
  /** Pact only: the broker's pending pacts that failed (reported, failing nothing), by the broker's names. */
  pendingPacts?: string[];
  /**
   * Pact only: the pacts the broker listed that were not verified, by the broker's names, each with its
   * URL, the code of why (`broker_unreachable`, `broker_refused`, `broker_invalid_answer`,
   * `broker_foreign_origin`, `invalid_consumer_pact`) and one line naming the broker or the pact. Each is
   * also a case in error: the run cannot pass (exit 2), and none is a check or a violation.
   */
  unverifiedPacts?: { name: string; url: string; code: string; reason: string }[];
  /** Pact only: the verification results published to the broker (`--provider-version`). */
  publishedResults?: { providerVersion: string; providerBranch?: string; buildUrl?: string; pacts: number };
}

/** A case's verdict from its exchanges: failed with any violation, else passed (or the verdict it was given). */
export function caseVerdict(exchanges: readonly CheckedExchange[], given?: Verdict): Verdict {
  if (exchanges.some((exchange) => exchange.violations.length > 0)) return 'failed';
  return given ?? 'passed';
}

/**
 * Totals a suite from its cases: checks, violations, warnings and disagreements, and its verdict
 * (failed with any violation; error when a case could not run and none failed; skipped when nothing ran).
 */
export function tallySuite(
  suite: SuiteName,
  cases: CaseResult[],
  durationMs: number,
  extra: Partial<SuiteResult> = {},
): SuiteResult {
  const exchanges = cases.flatMap((result) => result.exchanges);
  const checks = exchanges.filter(
    (exchange) =>
      exchange.status !== undefined ||
      exchange.violations.length > 0 ||
      (exchange.known ?? []).length > 0 ||
      (exchange.pending ?? []).length > 0,
  ).length;
  const verdict: Verdict = cases.some((result) => result.verdict === 'failed')
    ? 'failed'
    : cases.some((result) => result.verdict === 'error')
      ? 'error'
      : checks === 0
        ? 'skipped'
        : 'passed';
  return {
    suite,
    verdict,
    cases,
    checks,
    failedChecks: exchanges.filter((exchange) => exchange.violations.length > 0).length,
    violations: exchanges.reduce((sum, exchange) => sum + exchange.violations.length, 0),
    knownViolations: exchanges.reduce((sum, exchange) => sum + (exchange.known?.length ?? 0), 0),
    knownFailedChecks: exchanges.filter(
      (exchange) => exchange.violations.length === 0 && (exchange.known ?? []).length > 0,
    ).length,
    pendingViolations: exchanges.reduce((sum, exchange) => sum + (exchange.pending?.length ?? 0), 0),
    pendingFailedChecks: exchanges.filter(
      (exchange) => exchange.violations.length === 0 && (exchange.pending ?? []).length > 0,
    ).length,
    warnings: exchanges.reduce((sum, exchange) => sum + exchange.warnings.length, 0),
    disagreements: exchanges.reduce((sum, exchange) => sum + exchange.disagreements.length, 0),
    knownPrismLimits: exchanges.reduce(
      (sum, exchange) =>
        sum + exchange.disagreements.filter((disagreement) => disagreement.knownPrismLimit !== undefined).length,
      0,
    ),
    durationMs,
    ...extra,
  };
}

/** A suite that did not run, with why. */
export function skippedSuite(suite: SuiteName, reason: string): SuiteResult {
  return { ...tallySuite(suite, [], 0), verdict: 'skipped', reason };
}
