import { readFile } from 'node:fs/promises';
import { parseJson } from '../../core/parse-json.js';
import { matchRoute } from '../../core/routes.js';
import { unnumbered } from '../explore/judged-call.js';
import type { ExplorationSettings } from '../explore/explore.js';
import type { Finding } from '../../core/finding.js';
import { caseVerdict, tallySuite, type CaseResult, type CheckedExchange, type SuiteResult } from '../base/results.js';
import { KitError } from '../../core/errors.js';

/**
 * What names a violation across runs, never its message nor a value that changes from run to run:
 * the suite, the rule, the operation, where in the suite (the scenario and its step, the pact
 * interaction, or for exploration the sequence of commands up to the failing one, since a run's number
 * depends on the seed) and where in the answer (`path`, positions in a list written `*`).
 */
export interface KnownFailure {
  suite: string;
  code: string;
  operation: string | null;
  scenario: string;
  step: string;
  /**
   * Where in the answer: the finding's JSON Pointer, header name or `status`, every position in a list
   * (and the number of an answer among several sent at once) written `*`, so that `/0/complete` and
   * `/3/complete` are one failure. A file written before it had none: such an entry matches any place.
   */
  path?: string;
}

/** A baseline file: the violations a team already knows of, which fail no run. */
export interface Baseline {
  tool: 'petstore-verify';
  /** The file format's version. */
  baseline: 1;
  /**
   * The exploration the file was written from, when one ran: a run reading it at the same seed and
   * steps, with as many runs or more, makes the same runs first, so a known failure of the exploration
   * it no longer meets is fixed; at another seed it says nothing of them.
   */
  explored?: ExplorationSettings;
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

/**
 * A finding's place with what changes from run to run left out: every position in a list, and the
 * number of an answer among several sent at once, become `*` (`/3/complete` and `/0/complete` are one
 * place, `/0/petId` another).
 * @example
 * placeOf('answer 2 www-authenticate') // 'answer * www-authenticate'
 */
export function placeOf(path: string): string {
  return path.replace(/(^|\/|answer )\d+(?=\/|\s|$)/g, '$1*');
}

// The identity of a finding of an exchange of a case: { suite, code, operation, scenario, step, path }.
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
    path: placeOf(finding.path),
  };
}

const identity = (failure: KnownFailure) =>
  JSON.stringify([failure.suite, failure.code, failure.operation, failure.scenario, failure.step, failure.path]);

/**
 * What a known failure matches a finding by: its whole identity, but for exploration the rule, the
 * operation and the place alone. Every run generates other states and sequences: a run's sequence
 * almost never equals the one in the file, so matching by sequence would set no run apart
 * (docs/spec-gaps.md, 41 and 45). The step stays in the file, for the reader. Without its place (a
 * file written before places were), the key leaves the place out: `placeless`.
 */
function matchKey(failure: KnownFailure, placeless = false): string {
  const place = placeless ? [] : [failure.path];
  return failure.suite === 'explore'
    ? JSON.stringify([failure.suite, failure.code, failure.operation, ...place])
    : JSON.stringify([failure.suite, failure.code, failure.operation, failure.scenario, failure.step, ...place]);
}

// The key an entry of a baseline is found by: without a place when it has none.
const entryKey = (failure: KnownFailure) => matchKey(failure, failure.path === undefined);

/**
 * The baseline of these suites: every violation's identity, once each, sorted so that the file
 * changes only when the failures do. An exploration's failure is kept once by its rule, operation and
 * place, with the sequence of the first run that met it: the same runs (the same seed) give the same
 * bytes.
 * @example
 * await writeFile('verify-baseline.json', baselineText(report.suites, { explored: explorationSettings({ runs: 25 }) }));
 */
export function baselineText(
  suites: readonly SuiteResult[],
  options: { explored?: ExplorationSettings | undefined } = {},
): string {
  const known = new Map<string, KnownFailure>();
  for (const suite of suites)
    for (const result of suite.cases)
      result.exchanges.forEach((exchange, index) => {
        for (const finding of [...exchange.violations, ...(exchange.known ?? [])]) {
          const failure = knownFailureOf({ suite: suite.suite, result, index, finding });
          const key = matchKey(failure);
          if (!known.has(key)) known.set(key, failure);
        }
      });
  const sorted = [...known.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  const explored = suites.some((suite) => suite.suite === 'explore' && suite.cases.length > 0)
    ? options.explored
    : undefined;
  const baseline: Baseline = {
    tool: 'petstore-verify',
    baseline: 1,
    ...(explored !== undefined && { explored }),
    known: sorted.map(([, failure]) => failure),
  };
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

function isKnownFailure(value: unknown): value is KnownFailure {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return (
    ['suite', 'code', 'scenario', 'step'].every((field) => typeof entry[field] === 'string') &&
    (entry.operation === null || typeof entry.operation === 'string') &&
    (entry.path === undefined || typeof entry.path === 'string')
  );
}

function isExplorationSettings(value: unknown): value is ExplorationSettings {
  if (value === null || typeof value !== 'object') return false;
  const settings = value as Record<string, unknown>;
  return ['seed', 'runs', 'maxSteps'].every((field) => Number.isSafeInteger(settings[field]));
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
  if (baseline.explored !== undefined && !isExplorationSettings(baseline.explored))
    throw new BaselineError(
      `the baseline ${file} has an invalid /explored: it needs seed, runs and maxSteps, each a whole number`,
    );
  const invalid = baseline.known.findIndex((entry) => !isKnownFailure(entry));
  if (invalid !== -1)
    throw new BaselineError(
      `the baseline ${file} has an invalid entry at /known/${invalid}: each needs suite, code, operation, scenario and step (and path, if it has one, a string)`,
    );
  return baseline as Baseline;
}

/** The suites with the baseline's failures moved from `violations` to `known`, and what the baseline holds that no longer fails. */
export interface BaselineOutcome {
  suites: SuiteResult[];
  /** Known failures of the baseline that this run did not see: fixed, or not run. */
  fixed: KnownFailure[];
}

// Whether an exploration with the settings `reading` made every run one with `written` made, first.
function madeTheRunsOf(written: ExplorationSettings | undefined, reading: ExplorationSettings | undefined): boolean {
  return (
    written !== undefined &&
    reading !== undefined &&
    written.seed === reading.seed &&
    written.maxSteps === reading.maxSteps &&
    reading.runs >= written.runs
  );
}

/** A baseline, ready to look identities up in. */
export class KnownFailures {
  /**
   * The baseline's failures, each once: a baseline merged from several runs' files, or edited by hand,
   * may repeat one, and it is still one failure, counted and named once.
   */
  readonly distinct: KnownFailure[];
  readonly #known: Set<string>;
  // The keys of entries without a place (a file written before places were): they match any place.
  readonly #placeless: Set<string>;
  readonly #seen = new Set<string>();

  constructor(readonly baseline: Baseline) {
    const byIdentity = new Map(baseline.known.map((failure) => [identity(failure), failure] as const));
    this.distinct = [...byIdentity.values()];
    this.#known = new Set(this.distinct.filter((failure) => failure.path !== undefined).map((f) => matchKey(f)));
    this.#placeless = new Set(this.distinct.filter((failure) => failure.path === undefined).map(entryKey));
  }

  // The key of the baseline's entry that knows this failure, if one does.
  #entryOf(failure: KnownFailure): string | undefined {
    const placed = matchKey(failure);
    if (this.#known.has(placed)) return placed;
    const placeless = matchKey(failure, true);
    return this.#placeless.has(placeless) ? placeless : undefined;
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
        const key = this.#entryOf(knownFailureOf({ suite, result, index, finding }));
        if (key !== undefined) this.#seen.add(key);
      }
      for (const finding of exchange.violations) {
        const key = this.#entryOf(knownFailureOf({ suite, result, index, finding }));
        if (key !== undefined) {
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
    return last.violations.every(
      (finding) => this.#entryOf(knownFailureOf({ suite: 'explore', result, index, finding })) !== undefined,
    );
  }

  /** One exchange of a scenario or a pact interaction, marked as `markCase` marks it (for progress lines). */
  markExchange(suite: string, caseName: string, exchange: CheckedExchange): CheckedExchange {
    return this.markCase(suite, { name: caseName, verdict: 'passed', exchanges: [exchange] }).exchanges[0]!;
  }

  /**
   * Marks every case of the suites, and says which known failures are fixed: those whose scenario or
   * interaction (for exploration, every run the baseline was written from: `reading.explored` is this
   * run's exploration) ran without failing so. A run that chose other scenarios, or explored at another
   * seed, says nothing of the rest.
   * @example
   * const { suites, fixed } = new KnownFailures(await readBaseline('verify-baseline.json')).apply(report.suites, {
   *   explored: explorationSettings({ runs: 25 }),
   * });
   */
  apply(suites: readonly SuiteResult[], reading: { explored?: ExplorationSettings | undefined } = {}): BaselineOutcome {
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
    // An exploration run that sent nothing (skipped) neither ran nor cut the exploration short. An
    // exploration vouches for a fix only when it made the runs the baseline was written from, all of
    // them: the same seed and steps, as many runs or more, and no new difference stopping it (a failed
    // case, once the known ones are marked). At another seed, not meeting a failure says nothing of it.
    const explored = (cases: readonly CaseResult[]) => {
      const sent = cases.filter((result) => result.verdict !== 'skipped');
      return (
        sent.length > 0 &&
        sent.every(ranToTheEnd) &&
        !cases.some((result) => result.verdict === 'failed') &&
        madeTheRunsOf(this.baseline.explored, reading.explored)
      );
    };
    const ran = new Set(
      marked.flatMap((suite) =>
        suite.suite === 'explore'
          ? explored(suite.cases)
            ? ['explore explore']
            : []
          : suite.cases.filter(ranToTheEnd).map((result) => `${suite.suite} ${result.name}`),
      ),
    );
    const fixed = this.distinct.filter(
      (failure) => ran.has(`${failure.suite} ${failure.scenario}`) && !this.#seen.has(entryKey(failure)),
    );
    return { suites: marked, fixed };
  }
}
