import { readFile } from 'node:fs/promises';
import { parseJson } from '../core/parse-json.js';
import { matchRoute } from '../core/routes.js';
import { unnumbered } from './explore/judged-call.js';
import type { Finding } from '../core/finding.js';
import { caseVerdict, tallySuite, type CaseResult, type CheckedExchange, type SuiteResult } from './results.js';
import { KitError } from '../core/errors.js';

/**
 * What names a violation across runs, never its message: the suite, the rule, the operation, and
 * where in the suite (the scenario and its step, the pact interaction, or for exploration the
 * sequence of commands up to the failing one, since a run's number depends on the seed).
 */
export interface KnownFailure {
  suite: string;
  code: string;
  operation: string | null;
  scenario: string;
  step: string;
}

/** A baseline file: the violations a team already knows of, which fail no run. */
export interface Baseline {
  tool: 'petstore-verify';
  /** The file format's version. */
  baseline: 1;
  known: KnownFailure[];
}

/** A baseline file that cannot be used: the message names the file and what is wrong. */
export class BaselineError extends KitError<'invalid_baseline'> {
  override name = 'BaselineError';

  constructor(message: string) {
    super('invalid_baseline', message);
  }
}

// The commands of an exploration run up to the one at `index`, without their numbers.
function commandSequence(result: CaseResult, index: number): string {
  return result.exchanges
    .slice(0, index + 1)
    .map((exchange) => unnumbered(exchange.name))
    .join(' → ');
}

// The identity of a finding of an exchange of a case: { suite, code, operation, scenario, step }.
function knownFailureOf(where: { suite: string; result: CaseResult; index: number; finding: Finding }): KnownFailure {
  const { suite, result, index, finding } = where;
  const exchange = result.exchanges[index]!;
  const explored = suite === 'explore';
  return {
    suite,
    code: finding.code,
    operation: matchRoute(exchange.method, exchange.path)?.route.operation ?? null,
    scenario: explored ? 'explore' : result.name,
    step: explored ? commandSequence(result, index) : exchange.name,
  };
}

const identity = (failure: KnownFailure) =>
  JSON.stringify([failure.suite, failure.code, failure.operation, failure.scenario, failure.step]);

/**
 * What a known failure matches a finding by: its whole identity, but for exploration the rule and the
 * operation alone. Every run generates other states and sequences, and the baseline holds the one
 * shrinking happened to reach: a run's sequence almost never equals it, so matching by sequence would
 * set no run apart (docs/spec-gaps.md). The step stays in the file, for the reader.
 */
const matchKey = (failure: KnownFailure) =>
  failure.suite === 'explore' ? JSON.stringify([failure.suite, failure.code, failure.operation]) : identity(failure);

/**
 * The baseline of these suites: every violation's identity, once each, sorted so that the file
 * changes only when the failures do.
 * @example
 * await writeFile('verify-baseline.json', baselineText(report.suites));
 */
export function baselineText(suites: readonly SuiteResult[]): string {
  const known = new Map<string, KnownFailure>();
  for (const suite of suites)
    for (const result of suite.cases)
      result.exchanges.forEach((exchange, index) => {
        for (const finding of [...exchange.violations, ...(exchange.known ?? [])]) {
          const failure = knownFailureOf({ suite: suite.suite, result, index, finding });
          known.set(identity(failure), failure);
        }
      });
  const sorted = [...known.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  const baseline: Baseline = { tool: 'petstore-verify', baseline: 1, known: sorted.map(([, failure]) => failure) };
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

function isKnownFailure(value: unknown): value is KnownFailure {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return (
    ['suite', 'code', 'scenario', 'step'].every((field) => typeof entry[field] === 'string') &&
    (entry.operation === null || typeof entry.operation === 'string')
  );
}

/**
 * Reads a baseline file written by `--write-baseline`.
 * @throws BaselineError when it cannot be read, is not JSON, or is not a baseline.
 * @example
 * const baseline = await readBaseline('verify-baseline.json');
 */
export async function readBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BaselineError(`cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new BaselineError(`the baseline ${file} is not JSON: ${(error as Error).message}`);
  }
  const baseline = value as Partial<Baseline> | null;
  if (
    baseline === null ||
    typeof baseline !== 'object' ||
    baseline.tool !== 'petstore-verify' ||
    baseline.baseline !== 1 ||
    !Array.isArray(baseline.known)
  )
    throw new BaselineError(
      `the baseline ${file} is not one petstore-verify --write-baseline writes ({"tool": "petstore-verify", "baseline": 1, "known": [...]})`,
    );
  const invalid = baseline.known.findIndex((entry) => !isKnownFailure(entry));
  if (invalid !== -1)
    throw new BaselineError(
      `the baseline ${file} has an invalid entry at /known/${invalid}: each needs suite, code, operation, scenario and step`,
    );
  return baseline as Baseline;
}

/** The suites with the baseline's failures moved from `violations` to `known`, and what the baseline holds that no longer fails. */
export interface BaselineOutcome {
  suites: SuiteResult[];
  /** Known failures of the baseline that this run did not see: fixed, or not run. */
  fixed: KnownFailure[];
}

/** A baseline, ready to look identities up in. */
export class KnownFailures {
  /**
   * The baseline's failures, each once: a baseline merged from several runs' files, or edited by hand,
   * may repeat one, and it is still one failure, counted and named once.
   */
  readonly distinct: KnownFailure[];
  readonly #known: Set<string>;
  readonly #seen = new Set<string>();

  constructor(readonly baseline: Baseline) {
    const byIdentity = new Map(baseline.known.map((failure) => [identity(failure), failure] as const));
    this.distinct = [...byIdentity.values()];
    this.#known = new Set(this.distinct.map(matchKey));
  }

  /**
   * A case with the violations the baseline knows moved to each exchange's `known`; a case that
   * failed only by known failures passes, one that could not run keeps its verdict.
   * @example
   * const marked = knownFailures.markCase('scenarios', result);
   */
  markCase(suite: string, result: CaseResult): CaseResult {
    const exchanges = result.exchanges.map((exchange, index): CheckedExchange => {
      const split = { violations: [] as Finding[], known: [...(exchange.known ?? [])] };
      // Marked before (a progress line): still seen by this run, so not fixed.
      for (const finding of split.known) {
        const key = matchKey(knownFailureOf({ suite, result, index, finding }));
        if (this.#known.has(key)) this.#seen.add(key);
      }
      for (const finding of exchange.violations) {
        const key = matchKey(knownFailureOf({ suite, result, index, finding }));
        if (this.#known.has(key)) {
          this.#seen.add(key);
          split.known.push(finding);
        } else split.violations.push(finding);
      }
      return { ...exchange, ...split };
    });
    return { ...result, exchanges, verdict: result.verdict === 'failed' ? caseVerdict(exchanges) : result.verdict };
  }

  /**
   * Whether every violation of the last of an exploration run's steps is a known failure: the
   * exploration then sets the run apart and goes on (`ExploreOptions.setAside`).
   * @example
   * explore({ ...options, setAside: (steps) => knownFailures.knowsLastStep(steps) });
   */
  knowsLastStep(steps: readonly CheckedExchange[]): boolean {
    const index = steps.length - 1;
    const last = steps[index];
    if (last === undefined || last.violations.length === 0) return false;
    const result: CaseResult = { name: 'explore', verdict: 'failed', exchanges: [...steps] };
    return last.violations.every((finding) =>
      this.#known.has(matchKey(knownFailureOf({ suite: 'explore', result, index, finding }))),
    );
  }

  /** One exchange of a scenario or a pact interaction, marked as `markCase` marks it (for progress lines). */
  markExchange(suite: string, caseName: string, exchange: CheckedExchange): CheckedExchange {
    return this.markCase(suite, { name: caseName, verdict: 'passed', exchanges: [exchange] }).exchanges[0]!;
  }

  /**
   * Marks every case of the suites, and says which known failures are fixed: those whose scenario or
   * interaction (for exploration, the suite) ran without failing so. A run that chose other
   * scenarios says nothing of the rest.
   * @example
   * const { suites, fixed } = new KnownFailures(await readBaseline('verify-baseline.json')).apply(report.suites);
   */
  apply(suites: readonly SuiteResult[]): BaselineOutcome {
    // What a suite carries besides its tallies (exploration's shrunk failure) is kept.
    const marked = suites.map((suite) =>
      suite.cases.length === 0
        ? suite
        : {
            ...suite,
            ...tallySuite(
              suite.suite,
              suite.cases.map((result) => this.markCase(suite.suite, result)),
              suite.durationMs,
              {
                ...(suite.seed !== undefined && { seed: suite.seed }),
                ...(suite.reason !== undefined && { reason: suite.reason }),
              },
            ),
          },
    );
    // Ran to the end: not skipped, set up, and not cut short by a target that failed to answer or a run
    // that stopped; exploration only when none of its runs was.
    const ranToTheEnd = (result: CaseResult) =>
      (result.verdict === 'passed' || result.verdict === 'failed') &&
      !result.exchanges.some((exchange) =>
        [...exchange.violations, ...(exchange.known ?? [])].some(
          (finding) =>
            finding.code === 'run-stopped' || finding.code === 'no-answer' || finding.code === 'body-too-large',
        ),
      );
    // An exploration run that sent nothing (skipped) neither ran nor cut the exploration short.
    const explored = (cases: readonly CaseResult[]) => {
      const sent = cases.filter((result) => result.verdict !== 'skipped');
      return sent.length > 0 && sent.every(ranToTheEnd);
    };
    const ran = new Set(
      suites.flatMap((suite) =>
        suite.suite === 'explore'
          ? explored(suite.cases)
            ? ['explore explore']
            : []
          : suite.cases.filter(ranToTheEnd).map((result) => `${suite.suite} ${result.name}`),
      ),
    );
    const fixed = this.distinct.filter(
      (failure) => ran.has(`${failure.suite} ${failure.scenario}`) && !this.#seen.has(matchKey(failure)),
    );
    return { suites: marked, fixed };
  }
}
