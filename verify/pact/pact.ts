import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { pactParticipants } from '../../contracts/participants.js';
import { requireInstalled } from '../base/optional-dependencies.js';
import { pactCases, verifierNotRun } from './pact-cases.js';
import {
  fetchListedPact,
  listPactsForVerification,
  publishVerificationResult,
  recordProviderBranch,
  type BrokerPact,
  type BrokerWaits,
  type ListedPact,
  type PactBroker,
} from './pact-broker.js';
import { brokerBase, BrokerError } from './broker-client.js';
import { guardStatePath, startPactGuard, type GuardRecord } from './pact-guard.js';
import { belongsToScenarios, readPactInteractions, scenarioFilter } from './pact-interactions.js';
import {
  caseVerdict,
  skippedSuite,
  tallySuite,
  type CaseResult,
  type CheckedExchange,
  type SuiteResult,
} from '../base/results.js';
import type { TargetOptions } from '../provider/run.js';
import { runPactChild, type PactChildOutcome } from './run-pact-child.js';
import type { Scenario } from '../../core/scenario.js';
import { VerifyError } from '../base/errors.js';
import { judgeConsumerPacts } from './consumer-pacts.js';
import { checkPactText, PactFileError } from './pact-document.js';

/** How to verify the pact against an implementation. */
export interface PactVerifyOptions extends TargetOptions {
  /** Where Pact's state changes `{ state, params, action }` go (the kit's mock: /__mock/provider-state). */
  stateUrl: string;
  /** Pact files to verify. Default: the pact the package ships (unless a broker is given). */
  pactUrls?: string[];
  /** Fetch the pacts from a broker instead, and publish the results there. */
  broker?: PactBroker;
  /** The kit's version, published with the verification results as the verifier's. Default: `unknown`. */
  version?: string;
  /** Called after every interaction, for progress output. */
  onExchange?: (exchange: CheckedExchange, interaction: string) => void;
  /**
   * Verify only the interactions of these scenarios (an interaction is named `scenario › step`).
   * Default: every interaction of the pact.
   */
  onlyScenarios?: readonly string[];
  /**
   * The stability markers whose operations' interactions a consumer's pact (`pactUrls`, a broker's) has
   * left out (`--leave-out-beta`): each is a skipped case, never sent. Default: none.
   */
  leaveOut?: readonly string[];
  /**
   * The scenarios in the order their interactions are reported, step by step; interactions of no
   * scenario here come after them, in Pact's order. Default: Pact's order (by description).
   */
  scenarios?: readonly Scenario[];
}

/**
 * The base URL Pact sends its requests to: the pact's paths carry the /v1 prefix, so it is removed here.
 * @throws Error when the base URL does not end with /v1, with a hint.
 * @example
 * pactProviderBaseUrl('https://api.example.com/petstore/v1') // 'https://api.example.com/petstore'
 */
export function pactProviderBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!trimmed.endsWith('/v1'))
    throw new VerifyError(
      'invalid_base_url',
      `the base URL must end with /v1 for Pact verification (the interface's version path), got ${JSON.stringify(baseUrl)}`,
    );
  return trimmed.slice(0, -'/v1'.length);
}

/** The options of Pact's verifier: the guard as the provider, and the pact files or the broker to verify. */
function verifierOptions(setup: {
  guardOrigin: string;
  /** The provider's base URL without /v1. */
  prefix: string;
  pactUrls: string[];
  timeout: number | undefined;
}): object {
  const { guardOrigin } = setup;
  return {
    provider: pactParticipants.provider,
    providerBaseUrl: `${guardOrigin}${new URL(setup.prefix).pathname.replace(/\/+$/, '')}`,
    providerStatesSetupUrl: `${guardOrigin}${guardStatePath}`,
    providerStatesSetupTeardown: true,
    providerStatesSetupBody: true,
    logLevel: 'error',
    timeout: setup.timeout ?? 10_000,
    pactUrls: setup.pactUrls,
  };
}

/** Runs Pact's verifier behind the guard, under the run's deadline; the guard stops it when the run stops. */
async function verifyBehindGuard(
  options: PactVerifyOptions,
  pacts: { prefix: string; pactUrls: string[] },
): Promise<{ outcome: PactChildOutcome; records: GuardRecord[] }> {
  let stopChild: (reason: string) => void = () => undefined;
  const guard = await startPactGuard(options, (reason) => stopChild(reason));
  try {
    const child = runPactChild({
      options: verifierOptions({
        guardOrigin: guard.origin,
        prefix: pacts.prefix,
        pactUrls: pacts.pactUrls,
        timeout: options.timeout,
      }),
      deadline: options.deadline,
      descriptionFilter: options.onlyScenarios === undefined ? undefined : scenarioFilter(options.onlyScenarios),
      // A broker's pacts are fetched by the kit and given as files: the verifier talks only to the guard.
      loopbackOnly: pacts.pactUrls.every((url) => !/^https?:/i.test(url)),
    });
    stopChild = (reason) => {
      child.stop(reason);
    };
    const outcome = await child.outcome;
    // Stopped at the deadline with nothing of the provider's under way or late: the run's clock ran out
    // elsewhere (a slow broker), so the verifier's stop is no evidence against the provider.
    const unfinished =
      outcome.crash !== undefined &&
      options.deadline !== undefined &&
      Date.now() >= options.deadline &&
      !guard.keptWaiting();
    return {
      outcome: unfinished
        ? { ...outcome, crash: `${outcome.crash} (no request to the provider was under way)`, unfinished }
        : outcome,
      records: guard.records,
    };
  } finally {
    await guard.close();
  }
}

/**
 * Verifies the pact against any implementation with Pact's native verifier, run in a process of its
 * own under the run's deadline, behind the kit's guard (see `startPactGuard`): provider states go to
 * `stateUrl` in Pact's own state-change format (setup, then teardown). Resolves with one case per
 * interaction: Pact's mismatches, one line each, and what the guard found. A crash or a hang of the
 * verifier is a violation with its reason, never an exception. Pact files (`pactUrls`) are checked
 * whole before anything is sent (`checkPactText`). With a broker, its list is fetched, then each pact
 * just before it is verified (every request within `timeout`, none past `deadline`): a pending pact's
 * failures are reported as `pending` and fail nothing (the suite's `pendingPacts` names it); a pact the
 * broker did not serve, or served unusable, is a case in error naming the broker and why (the suite's
 * `unverifiedPacts`), and the others are still judged; with a provider version, each judged pact's
 * result is published, and a publication that fails is a case in error, with the broker's reason.
 * @throws PactFileError (code `invalid_consumer_pact`) when a pact file cannot be used; nothing was sent then.
 * @throws BrokerError when the broker's list of pacts cannot be fetched (not reached in time, refused, not its HAL).
 * @example
 * const suite = await verifyPact({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key', stateUrl: 'http://127.0.0.1:4010/__mock/provider-state' });
 * suite.verdict // 'passed'
 */
export async function verifyPact(options: PactVerifyOptions): Promise<SuiteResult> {
  requireInstalled('pact');
  const started = performance.now();
  const prefix = pactProviderBaseUrl(options.baseUrl);
  if (options.broker !== undefined) return verifyBrokerPacts(options, options.broker, prefix);
  const consumers =
    options.pactUrls !== undefined
      ? await judgeConsumerPacts(options.pactUrls, {
          apiKey: options.apiKey,
          include: (description) => belongsToScenarios(description, options.onlyScenarios),
          leaveOut: options.leaveOut,
        })
      : undefined;
  try {
    const pactUrls = consumers?.pactUrls ?? [shippedPactFile];
    // Cases of interactions not sent: the consumer's errors, and those of operations the run leaves out.
    const unsent = [...(consumers?.contradicted ?? []), ...(consumers?.leftOut ?? [])];
    const verified = await verifyPactFiles(options, {
      prefix,
      pactUrls,
      taken: new Set<GuardRecord>(),
      skipEmpty: unsent.length > 0 || options.onlyScenarios !== undefined,
    });
    if (verified === undefined) {
      if (unsent.length > 0) return tallySuite('pact', unsent, performance.now() - started);
      return skippedSuite('pact', 'none of the chosen scenarios has an interaction in the pact');
    }
    const cases = [...unsent, ...verified];
    reportExchanges(options, cases);
    return tallySuite('pact', cases, performance.now() - started);
  } finally {
    await consumers?.remove();
  }
}

/** The progress callback, for every exchange of these cases. */
function reportExchanges(options: PactVerifyOptions, cases: readonly CaseResult[]): void {
  for (const result of cases) for (const exchange of result.exchanges) options.onExchange?.(exchange, result.name);
}

/**
 * The cases of pact files verified in one run of the verifier; undefined, with `skipEmpty`, when no
 * interaction is left to verify (none of the chosen scenarios', or all contradicted).
 */
async function verifyPactFiles(
  options: PactVerifyOptions,
  files: { prefix: string; pactUrls: string[]; taken: Set<GuardRecord>; skipEmpty: boolean },
): Promise<CaseResult[] | undefined> {
  const interactions = (await readPactInteractions(files.pactUrls)).filter((interaction) =>
    belongsToScenarios(interaction.description, options.onlyScenarios),
  );
  if (interactions.length === 0 && files.skipEmpty) return undefined;
  const { outcome, records } = await verifyBehindGuard(options, files);
  return pactCases({ outcome, interactions, records, taken: files.taken }, options.scenarios);
}

/** A pending pact's case: its violations set apart as pending, failing nothing (Pact's pending pacts). */
function asPending(result: CaseResult): CaseResult {
  const exchanges = result.exchanges.map((exchange) => ({
    ...exchange,
    violations: [],
    pending: [...(exchange.pending ?? []), ...exchange.violations],
  }));
  return { ...result, verdict: result.verdict === 'failed' ? caseVerdict(exchanges) : result.verdict, exchanges };
}

/** Whether a pact's cases all passed: what is published as its verification result. */
function passed(cases: readonly CaseResult[]): boolean {
  return cases.every((result) => result.verdict === 'passed' || result.verdict === 'skipped');
}

/** One pact of the broker's, written to a file and verified: its cases, pending ones set apart. */
async function verifyBrokerPact(
  options: PactVerifyOptions,
  pact: BrokerPact,
  at: { prefix: string; file: string },
): Promise<{ cases: CaseResult[]; success: boolean; verifierRan: boolean }> {
  await writeFile(at.file, pact.text);
  // Judged as a --pact file is: what the contract does not allow is the consumer's, never the provider's.
  const consumers = await judgeConsumerPacts([at.file], {
    apiKey: options.apiKey,
    include: (description) => belongsToScenarios(description, options.onlyScenarios),
    leaveOut: options.leaveOut,
  });
  try {
    // Each pact is verified behind a guard of its own: its records are taken by its interactions alone.
    const files = { prefix: at.prefix, pactUrls: consumers.pactUrls, taken: new Set<GuardRecord>(), skipEmpty: true };
    const verified = consumers.pactUrls.length === 0 ? [] : ((await verifyPactFiles(options, files)) ?? []);
    const cases = [...consumers.contradicted, ...consumers.leftOut, ...verified];
    const success = passed(cases);
    return { cases: pact.pending ? cases.map(asPending) : cases, success, verifierRan: !verifierNotRun(verified) };
  } finally {
    await consumers.remove();
  }
}

/**
 * Publishes each pact's result (after the provider version's branch), every request within the run's
 * timeout and deadline: the first failure, as a case in error naming the broker's reason; none when
 * all were published, or there was nothing to publish.
 */
async function publishResults(
  options: PactVerifyOptions,
  broker: PactBroker,
  verified: { index: unknown; results: { pact: BrokerPact; success: boolean }[] },
): Promise<CaseResult[]> {
  const providerVersion = broker.providerVersion;
  if (providerVersion === undefined || verified.results.length === 0) return [];
  const waits = waitsOf(options);
  try {
    await recordProviderBranch(broker, verified.index, waits);
    for (const { pact, success } of verified.results)
      await publishVerificationResult(
        broker,
        pact,
        { success, providerVersion, verifierVersion: options.version ?? 'unknown' },
        waits,
      );
    return [];
  } catch (error) {
    const reason = `the verification results were not published: ${(error as Error).message}`;
    return [{ name: 'publish verification results', verdict: 'error', reason, exchanges: [] }];
  }
}

/** The run's waits, for every request to the broker: each within the timeout, none past the deadline. */
function waitsOf(options: PactVerifyOptions): BrokerWaits {
  return { timeout: options.timeout, deadline: options.deadline };
}

/** What was published: the provider version, its branch, the build's page, how many pacts' results. */
function publishedOf(broker: PactBroker, pacts: number): NonNullable<SuiteResult['publishedResults']> {
  return {
    providerVersion: broker.providerVersion ?? '',
    ...(broker.providerBranch !== undefined && { providerBranch: broker.providerBranch }),
    ...(broker.buildUrl !== undefined && { buildUrl: broker.buildUrl }),
    pacts,
  };
}

/** A pact the broker listed that was not verified, with the code and message of why (`unverifiedPacts`). */
type UnverifiedPact = NonNullable<SuiteResult['unverifiedPacts']>[number];

/** The error case of a pact the broker listed that was not verified: the broker's name for it, and why. */
function unverifiedCase(unverified: UnverifiedPact): CaseResult {
  return { name: unverified.name, verdict: 'error', reason: unverified.reason, exchanges: [] };
}

/**
 * One listed pact, fetched and checked whole (as a `--pact` file is): the pact, or why it cannot be
 * verified: the broker's failure (its code and one line naming the URL), or a pact no provider could
 * be verified against (the consumer's). Past the deadline, or after the broker stopped answering, the
 * pact is not asked for.
 */
async function pactToVerify(
  broker: PactBroker,
  listed: ListedPact,
  at: { waits: BrokerWaits; stoppedAnswering: string | undefined },
): Promise<BrokerPact | UnverifiedPact> {
  const unverified = (code: string, reason: string) => ({ name: listed.name, url: listed.url, code, reason });
  const from = `not fetched from the Pact Broker at ${new URL(brokerBase(broker.url)).origin}`;
  if (at.waits.deadline !== undefined && Date.now() >= at.waits.deadline)
    return unverified('run_stopped', `${from}: the run passed its deadline`);
  if (at.stoppedAnswering !== undefined)
    return unverified('broker_unreachable', `${from}: it stopped answering (${at.stoppedAnswering})`);
  let pact: BrokerPact;
  try {
    pact = await fetchListedPact(broker, listed, at.waits);
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error;
    return unverified(error.code, error.message);
  }
  const check = checkPactText(pact.text);
  if (!check.ok) {
    const error = new PactFileError(pact.url, check.diagnostics);
    return unverified(error.code, error.message);
  }
  return pact;
}

/**
 * The broker's pacts, each fetched and verified in turn, and their results published. The list is
 * fetched first (a broker that cannot give it stops the run: BrokerError); then each pact is fetched
 * just before it is verified, every request within the timeout and none past the deadline, so the
 * pacts a slow or failing broker did serve are judged, and each one it did not is a case in error
 * naming the broker and why (`unverifiedPacts`): never a check, never a violation of the provider's.
 */
async function verifyBrokerPacts(options: PactVerifyOptions, broker: PactBroker, prefix: string): Promise<SuiteResult> {
  const started = performance.now();
  const waits = waitsOf(options);
  const { listed, index } = await listPactsForVerification(broker, waits);
  const directory = await mkdtemp(join(tmpdir(), 'petstore-broker-pacts-'));
  try {
    const cases: CaseResult[] = [];
    const results: { pact: BrokerPact; success: boolean }[] = [];
    const pendingPacts: string[] = [];
    const unverifiedPacts: UnverifiedPact[] = [];
    let stoppedAnswering: string | undefined;
    for (const [position, entry] of listed.entries()) {
      const pact = await pactToVerify(broker, entry, { waits, stoppedAnswering });
      if (!('text' in pact)) {
        unverifiedPacts.push(pact);
        cases.push(unverifiedCase(pact));
        // A broker that did not answer one pact in time is not waited on again for each of the others.
        if (pact.code === 'broker_unreachable') stoppedAnswering ??= `no answer to GET ${pact.url}`;
        continue;
      }
      const file = join(directory, `pact-${position + 1}.json`);
      const verified = await verifyBrokerPact(options, pact, { prefix, file });
      reportExchanges(options, verified.cases);
      cases.push(...verified.cases);
      // A pact the verifier never started on has no result: publishing a failure would blame the provider's version.
      if (verified.verifierRan) results.push({ pact, success: verified.success });
      if (pact.pending && verified.verifierRan && !verified.success) pendingPacts.push(pact.name);
    }
    const publication = await publishResults(options, broker, { index, results });
    cases.push(...publication);
    const reason = listed.length === 0 ? 'the Pact Broker has no pact to verify for these selectors' : undefined;
    const published = broker.providerVersion !== undefined && publication.length === 0 && results.length > 0;
    return tallySuite('pact', cases, performance.now() - started, {
      ...(pendingPacts.length > 0 && { pendingPacts }),
      ...(unverifiedPacts.length > 0 && { unverifiedPacts }),
      ...(published && { publishedResults: publishedOf(broker, results.length) }),
      ...(reason !== undefined && cases.length === 0 && { reason }),
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
