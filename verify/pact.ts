import { shippedPactFile } from '../contracts/pact-file.js';
import { pactParticipants } from '../contracts/participants.js';
import { requireInstalled } from './optional-dependencies.js';
import { pactCases } from './pact-cases.js';
import { pactBrokerOptions, type PactBroker } from './pact-broker.js';
import { guardStatePath, startPactGuard, type GuardRecord } from './pact-guard.js';
import { belongsToScenarios, readPactInteractions, scenarioFilter } from './pact-interactions.js';
import { skippedSuite, tallySuite, type CheckedExchange, type SuiteResult } from './results.js';
import type { TargetOptions } from './run.js';
import { runPactChild, type PactChildOutcome } from './run-pact-child.js';
import type { Scenario } from '../core/scenario.js';
import { VerifyError } from './errors.js';
import { judgeConsumerPacts } from './consumer-pacts.js';

/** How to verify the pact against an implementation. */
export interface PactVerifyOptions extends TargetOptions {
  /** Where Pact's state changes `{ state, params, action }` go (the kit's mock: /__mock/provider-state). */
  stateUrl: string;
  /** Pact files to verify. Default: the pact the package ships (unless a broker is given). */
  pactUrls?: string[];
  /** Fetch the pacts from a broker instead, and publish the results there. */
  broker?: PactBroker;
  /** Called after every interaction, for progress output. */
  onExchange?: (exchange: CheckedExchange, interaction: string) => void;
  /**
   * Verify only the interactions of these scenarios (an interaction is named `scenario › step`).
   * Default: every interaction of the pact.
   */
  onlyScenarios?: readonly string[];
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
  broker: PactBroker | undefined;
  pactUrls: string[];
  timeout: number | undefined;
}): object {
  const { guardOrigin, broker } = setup;
  return {
    provider: pactParticipants.provider,
    providerBaseUrl: `${guardOrigin}${new URL(setup.prefix).pathname.replace(/\/+$/, '')}`,
    providerStatesSetupUrl: `${guardOrigin}${guardStatePath}`,
    providerStatesSetupTeardown: true,
    providerStatesSetupBody: true,
    logLevel: 'error',
    timeout: setup.timeout ?? 10_000,
    ...(broker === undefined ? { pactUrls: setup.pactUrls } : pactBrokerOptions(broker)),
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
        broker: options.broker,
        pactUrls: pacts.pactUrls,
        timeout: options.timeout,
      }),
      deadline: options.deadline,
      descriptionFilter: options.onlyScenarios === undefined ? undefined : scenarioFilter(options.onlyScenarios),
      loopbackOnly: options.broker === undefined && pacts.pactUrls.every((url) => !/^https?:/i.test(url)),
    });
    stopChild = (reason) => {
      child.stop(reason);
    };
    return { outcome: await child.outcome, records: guard.records };
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
 * whole before anything is sent (`checkPactText`).
 * @throws PactFileError (code `invalid_consumer_pact`) when a pact file cannot be used; nothing was sent then.
 * @example
 * const suite = await verifyPact({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key', stateUrl: 'http://127.0.0.1:4010/__mock/provider-state' });
 * suite.verdict // 'passed'
 */
export async function verifyPact(options: PactVerifyOptions): Promise<SuiteResult> {
  requireInstalled('pact');
  const started = performance.now();
  const prefix = pactProviderBaseUrl(options.baseUrl);
  const consumers =
    options.broker === undefined && options.pactUrls !== undefined
      ? await judgeConsumerPacts(options.pactUrls, {
          apiKey: options.apiKey,
          include: (description) => belongsToScenarios(description, options.onlyScenarios),
        })
      : undefined;
  try {
    const pactUrls = options.broker === undefined ? (consumers?.pactUrls ?? [shippedPactFile]) : [];
    const interactions = (await readPactInteractions(pactUrls)).filter((interaction) =>
      belongsToScenarios(interaction.description, options.onlyScenarios),
    );
    const contradicted = consumers?.contradicted ?? [];
    if (options.broker === undefined && interactions.length === 0) {
      if (contradicted.length > 0) return tallySuite('pact', contradicted, performance.now() - started);
      if (options.onlyScenarios !== undefined)
        return skippedSuite('pact', 'none of the chosen scenarios has an interaction in the pact');
    }
    const { outcome, records } = await verifyBehindGuard(options, { prefix, pactUrls });
    const cases = [
      ...contradicted,
      ...pactCases({ outcome, interactions, records, taken: new Set() }, options.scenarios),
    ];
    for (const result of cases) for (const exchange of result.exchanges) options.onExchange?.(exchange, result.name);
    return tallySuite('pact', cases, performance.now() - started);
  } finally {
    await consumers?.remove();
  }
}
