import { KnownFailures, type Baseline, type KnownFailure } from './baseline.js';
import { preflight, type PreflightFailure, type PreflightOptions } from '../provider/preflight.js';
import type { Scenario } from '../../core/scenario.js';
import { explore, explorationSettings, type ExploreOptions } from '../explore/explore.js';
import { BrokerError } from '../pact/broker-client.js';
import { TargetUnreachable } from '../http/observe.js';
import type { PactBroker } from '../pact/pact-broker.js';
import { verifyPact } from '../pact/pact.js';
import { checkPactFiles, PactFileError } from '../pact/pact-document.js';
import { prismLoader } from '../base/prism.js';
import { isLeftOut, runReport, type RunReport } from './run-report.js';
import { judgeCall } from '../../core/judge.js';
import { pathOf, routeOf, storeListing } from '../../core/routes.js';
import { titleOf } from '../../core/operation-definitions.js';
import type { Observation } from '../../core/observation.js';
import {
  caseVerdict,
  skippedSuite,
  tallySuite,
  type CaseResult,
  type CheckedExchange,
  type SuiteName,
  type SuiteResult,
} from '../base/results.js';
import { Redaction } from '../base/redaction.js';
import { judged, RunStopped, verify, type TargetOptions } from '../provider/run.js';
import { VerifyError } from '../base/errors.js';
import { verifyV2List } from '../provider/v2-list.js';

/** A whole `petstore-verify` run: the target, the suites to run, and what each needs. */
export interface VerificationOptions extends TargetOptions {
  /** The suites to run, in this order: `pact`, `scenarios`, `explore`. */
  suites: readonly SuiteName[];
  /** The scenarios of the `scenarios` suite. */
  scenarios: readonly Scenario[];
  /**
   * Verify only the pact interactions of these scenarios (`--scenario`). Default: every interaction.
   * Either way the pact suite reports them in the order of `scenarios`, step by step.
   */
  pactScenarios?: readonly string[];
  /** The pact suite's broker, when the pacts come from one. */
  broker?: PactBroker;
  /** Pact files the pact suite verifies instead of the shipped pact (a consumer's own, `--pact`). */
  pactFiles?: readonly string[];
  /** Whether a documented response the run did not exercise fails it. Default: false. */
  requireCoverage?: boolean;
  /**
   * The stability markers whose operations the run leaves out (`--leave-out-beta`: `unstableMarkers`):
   * no suite judges them, and every report names them as left out. Default: none.
   */
  leaveOut?: readonly string[];
  /** The kit's version, for the reports. */
  version: string;
  /** Whether to check the base URL, the key and the state URL before any suite (`preflight`). Default: true. */
  preflight?: boolean;
  /** Violations already known (`--baseline`): reported as known, failing nothing; the report says which are fixed. */
  baseline?: Baseline;
  /**
   * Whether the run's violations will be written as a baseline (`--write-baseline`): the exploration
   * then sets every difference apart, as a run reading that baseline sets apart the ones it knows, and
   * makes every run, none shrunk, so that the run reading the baseline on the same provider at the same
   * seed meets exactly what it holds. Default: false.
   */
  writesBaseline?: boolean;
  /** The exploration's runs, seed, steps and folder to save a failure in (see `ExploreOptions`). */
  exploration?: Pick<ExploreOptions, 'runs' | 'seed' | 'maxSteps' | 'save' | 'setAside'>;
  /** Called after every judged exchange of the pact and the scenarios, for progress output. */
  onExchange?: (suite: SuiteName, caseName: string, exchange: CheckedExchange) => void;
  /** Called after every exploration run, and with the shrunk failure. */
  onRun?: (result: CaseResult) => void;
}

/** One suite of a run: a suite that needs provider states is skipped, with the reason, when no state URL was given. */
async function runSuite(
  suite: VerificationOptions['suites'][number],
  options: VerificationOptions,
): Promise<SuiteResult> {
  const { stateUrl } = options;
  if (suite === 'scenarios') {
    const started = performance.now();
    const scenarios = await verify({
      ...options,
      onExchange: (exchange, scenario) => options.onExchange?.('scenarios', scenario, exchange),
    });
    // v2's list sets a store of its own (verifyV2List): without a state URL it is not judged, and the
    // report names it (notVerified); left out by its marker (--leave-out-beta), the report names it left out.
    // `--scenario` narrows the run to the scenarios it names, and v2's walk is none of them.
    if (
      stateUrl === undefined ||
      options.pactScenarios !== undefined ||
      isLeftOut(routeOf('listOrdersV2'), options.leaveOut ?? [])
    )
      return scenarios;
    const v2 = await verifyV2List({ ...options, stateUrl }).catch((error: unknown) => {
      // A state change refused or a run stopped: the walk could not run (2), never a violation.
      if (!(error instanceof VerifyError || error instanceof RunStopped)) throw error;
      return [{ name: "v2's list", verdict: 'error' as const, reason: `not run: ${error.message}`, exchanges: [] }];
    });
    for (const result of v2)
      for (const exchange of result.exchanges) options.onExchange?.('scenarios', result.name, exchange);
    return tallySuite('scenarios', [...scenarios.cases, ...v2], performance.now() - started);
  }
  if (suite === 'pact') {
    if (stateUrl === undefined)
      return skippedSuite('pact', 'every interaction sets a provider state, and no --state-url was given');
    return verifyPact({
      ...options,
      stateUrl,
      version: options.version,
      ...(options.broker !== undefined && { broker: options.broker }),
      ...(options.pactFiles !== undefined && { pactUrls: [...options.pactFiles] }),
      ...(options.pactScenarios !== undefined && { onlyScenarios: options.pactScenarios }),
      onExchange: (exchange, interaction) => options.onExchange?.('pact', interaction, exchange),
    });
  }
  if (stateUrl === undefined)
    return skippedSuite('explore', 'every run sets a generated provider state, and no --state-url was given');
  return explore({
    ...options,
    ...options.exploration,
    stateUrl,
    ...(options.onRun !== undefined && { onRun: options.onRun }),
  });
}

/**
 * A suite, unless the run's deadline passed before it started: then it sends nothing and is a case
 * that could not run (exit 2 unless something failed), never a violation. The time went elsewhere (a
 * slow Pact Broker, say): a suite that was never sent holds no evidence against the provider.
 */
async function runSuiteBeforeDeadline(
  suite: VerificationOptions['suites'][number],
  options: VerificationOptions,
): Promise<SuiteResult> {
  if (options.deadline === undefined || Date.now() < options.deadline) return runSuite(suite, options);
  const reason = 'not run: the run passed its deadline before this suite started (nothing of it was sent)';
  return tallySuite(suite, [{ name: suite, verdict: 'error', reason, exchanges: [] }], 0);
}

// What the preflight checks: the state URL only when a suite sets provider states.
function preflightOptions(options: VerificationOptions): PreflightOptions {
  // Only a suite that sets provider states needs the state URL to work.
  const needsStates =
    options.suites.some((suite) => suite !== 'scenarios') ||
    options.scenarios.some((scenario) => scenario.state !== undefined);
  return {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeout: Math.min(options.timeout ?? 10_000, 10_000),
    ...(needsStates && options.stateUrl !== undefined && { stateUrl: options.stateUrl }),
  };
}

// The report of the suites that ran, from the run's options and clock, and what stopped it early.
function reportOf(
  options: VerificationOptions,
  run: {
    suites: SuiteResult[];
    startedAt: Date;
    started: number;
    setupError?: PreflightFailure | undefined;
    unreachable?: string | undefined;
    baseline?: { known: number; fixed: KnownFailure[] } | undefined;
  },
): RunReport {
  const { suites, startedAt, started } = run;
  const report = runReport({
    ...(run.baseline !== undefined && { baseline: run.baseline }),
    ...(run.setupError !== undefined && { setupError: run.setupError }),
    ...(run.unreachable !== undefined && { unreachable: run.unreachable }),
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    suites,
    version: options.version,
    strict: options.strict ?? false,
    prism: options.prism !== false,
    requireCoverage: options.requireCoverage ?? false,
    ...(options.leaveOut !== undefined && { leaveOut: options.leaveOut }),
    startedAt,
    durationMs: performance.now() - started,
  });
  return redactionOf(options).value(report);
}

/** What the run was given in confidence, taken out of its report: every reporter writes from the report. */
export function redactionOf(
  options: Pick<VerificationOptions, 'apiKey' | 'baseUrl' | 'stateUrl' | 'broker'>,
): Redaction {
  const { broker } = options;
  return new Redaction({
    secrets: [options.apiKey, broker?.token, broker?.password],
    urls: [options.baseUrl, options.stateUrl, broker?.url],
  });
}

/**
 * Runs the suites against a target and gives the run's report, whose `exitCode` the command exits
 * with: every suite that ran, the coverage of the documented responses, and the reasons when it is
 * not green. A target that stops answering ends the run with the reason: exit 1 when violations were
 * found before, else 2; a pact file that cannot be used (`pactFiles`) ends it before anything is sent,
 * as a setup error (exit 2); nothing is thrown. No key, token, password or URL user information the run
 * was given is in the report (`Redaction`).
 * @example
 * const report = await runVerification({ baseUrl, apiKey, stateUrl, suites: ['pact', 'scenarios'], scenarios, version: '0.1.0' });
 * process.exitCode = report.exitCode;
 */
export async function runVerification(options: VerificationOptions): Promise<RunReport> {
  const startedAt = new Date();
  const started = performance.now();
  const results: SuiteResult[] = [];
  let unreachable: string | undefined;
  let brokerFailure: PreflightFailure | undefined;
  // One watch for the whole run: once the target has stopped answering, every suite stops sending.
  // One Prism for the whole run too, loaded when the first suite that uses it starts.
  options = { ...options, watch: options.watch ?? { timeouts: 0 }, loadPrism: options.loadPrism ?? prismLoader() };
  // With a baseline, the progress lines already say which failures are known.
  const knownFailures = options.baseline === undefined ? undefined : new KnownFailures(options.baseline);
  if (knownFailures !== undefined) options = { ...options, ...markedCallbacks(options, knownFailures) };
  // A difference the baseline knows (any, in a run that writes one) ends its exploration run, set apart;
  // the other runs are still made: the run that writes a baseline explores as the one that reads it.
  const setAside: ExploreOptions['setAside'] =
    options.writesBaseline === true
      ? () => true
      : knownFailures === undefined
        ? options.exploration?.setAside
        : (steps) => knownFailures.knowsLastStep(steps);
  if (setAside !== undefined) options = { ...options, exploration: { ...options.exploration, setAside } };
  // A pact file that cannot be used is the input's error: said before anything is sent.
  const pactFileError = await unusablePactFile(options);
  if (pactFileError !== undefined)
    return reportOf(options, { suites: [], startedAt, started, setupError: pactFileError });
  const { setupError, listed } = options.preflight === false ? {} : await preflight(preflightOptions(options));
  // A run the preflight stopped: no suite, the one reason, exit 2.
  if (setupError !== undefined) return reportOf(options, { suites: [], startedAt, started, setupError });
  // The preflight's own answer is reported when it breaks the contract: nothing received is dropped.
  const preflightSuite = listed === undefined ? undefined : judgedPreflight(listed, options);
  if (preflightSuite !== undefined) results.push(preflightSuite);
  try {
    for (const suite of options.suites) results.push(await runSuiteBeforeDeadline(suite, options));
  } catch (error) {
    // A broker that cannot list its pacts is a setup mistake, like the preflight's: exit 2, one line
    // (a pact it then fails to serve, or serves unusable, is a case of the pact suite instead).
    if (error instanceof BrokerError) brokerFailure = { check: 'pact-broker', message: error.message };
    else if (error instanceof PactFileError) brokerFailure = { check: 'pact-file', message: error.message };
    else if (error instanceof TargetUnreachable) unreachable = error.message;
    else throw error;
  }
  if (brokerFailure !== undefined)
    return reportOf(options, { suites: results, startedAt, started, setupError: brokerFailure });
  if (knownFailures === undefined) return reportOf(options, { suites: results, startedAt, started, unreachable });
  const { suites, fixed } = knownFailures.apply(results, { explored: explorationSettings(options.exploration) });
  return reportOf(options, {
    suites,
    startedAt,
    started,
    unreachable,
    baseline: { known: knownFailures.distinct.length, fixed },
  });
}

/** The first pact file to verify (`pactFiles`) that cannot be used, as a setup error; none when all can. */
async function unusablePactFile(options: VerificationOptions): Promise<PreflightFailure | undefined> {
  if (!options.suites.includes('pact') || options.pactFiles === undefined) return undefined;
  try {
    await checkPactFiles(options.pactFiles);
    return undefined;
  } catch (error) {
    if (!(error instanceof PactFileError)) throw error;
    return { check: 'pact-file', message: error.message };
  }
}

/**
 * The preflight's list, judged against the specification as the suites judge an answer (the state it
 * ran in is unknown, so no model): a suite of its own, `preflight`, when it has a violation (a body cut
 * off, bad framing or encoding, an undocumented status, a wrong shape); else nothing to report.
 */
function judgedPreflight(listed: Observation, options: VerificationOptions): SuiteResult | undefined {
  const listing = storeListing();
  const call = { method: listing.method, path: pathOf(listing) };
  // The case and its one exchange share a name: reports name it `preflight › list the orders with the key`.
  const name = `${titleOf(listing.operation)} with the key`;
  const started = performance.now();
  const { findings } = judgeCall({ call, observed: listed });
  const exchange = judged({
    name,
    call,
    observed: listed,
    findings,
    strict: options.strict ?? false,
    started,
  });
  if (exchange.violations.length === 0) return undefined;
  options.onExchange?.('preflight', name, exchange);
  const result = { name, verdict: caseVerdict([exchange]), exchanges: [exchange] };
  return tallySuite('preflight', [result], performance.now() - started);
}

// The progress callbacks, given exchanges and runs with the baseline's failures marked as known.
function markedCallbacks(
  options: VerificationOptions,
  knownFailures: KnownFailures,
): Pick<VerificationOptions, 'onExchange' | 'onRun'> {
  const { onExchange, onRun } = options;
  return {
    ...(onExchange !== undefined && {
      onExchange: (suite, caseName, exchange) =>
        onExchange(suite, caseName, knownFailures.markExchange(suite, caseName, exchange)),
    }),
    ...(onRun !== undefined && { onRun: (result) => onRun(knownFailures.markCase('explore', result)) }),
  };
}
