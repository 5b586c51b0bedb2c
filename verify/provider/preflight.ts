import { stringifyJson } from '../../core/stringify-json.js';
import { providerState } from '../../core/provider-state.js';
import { pathOf, storeListing } from '../../core/routes.js';
import { observe, TargetUnreachable } from '../http/observe.js';
import type { Observation } from '../../core/observation.js';

/** A setup mistake the preflight found: which check, and one line naming what to fix. */
export interface PreflightFailure {
  /**
   * What was wrong: the target's base URL, its key, its state URL, a pact file to verify (`--pact`),
   * or `pact-broker`: the broker's pacts could not be fetched (found by the pact suite, before it verified).
   */
  check: 'base-url' | 'api-key' | 'state-url' | 'pact-file' | 'pact-broker';
  message: string;
}

/** What the preflight found: a setup mistake, and the list's answer it received (to be judged like any other). */
export interface PreflightResult {
  setupError?: PreflightFailure;
  /** The answer to the list with the key, when one came (whole, or broken after its headers). */
  listed?: Observation;
}

/** What the preflight checks: the target, the key, and the state URL when there is one. */
export interface PreflightOptions {
  /** The base URL of the implementation, ending with /v1. */
  baseUrl: string;
  apiKey: string;
  stateUrl?: string;
  /** Milliseconds for each request. Default: 10,000 (the preflight asks at most three). */
  timeout?: number;
}

async function observed(
  url: string,
  init: Parameters<typeof observe>[1],
  timeout: number,
): Promise<Observation | string> {
  try {
    return await observe(url, init, timeout);
  } catch (error) {
    if (error instanceof TargetUnreachable) return error.message;
    throw error;
  }
}

const answered = (observation: Observation | string): string =>
  typeof observation === 'string'
    ? observation
    : 'failure' in observation
      ? observation.failure
      : `${observation.status}`;

async function checkTarget(options: PreflightOptions, timeout: number): Promise<PreflightResult> {
  const { baseUrl } = options;
  if (!/\/v1\/*$/.test(new URL(baseUrl).pathname))
    return {
      setupError: {
        check: 'base-url',
        message: `the base URL ${baseUrl} does not end with /v1, below which the interface's paths are (did you mean ${baseUrl.replace(/\/+$/, '')}/v1?); check --base-url`,
      },
    };
  const listing = storeListing();
  const list = `${options.baseUrl.replace(/\/+$/, '')}${pathOf(listing)}`;
  const observation = await observed(
    list,
    { method: listing.method, headers: { authorization: `Bearer ${options.apiKey}` } },
    timeout,
  );
  // Nothing answered (refused, unknown host, no headers in time): a setup mistake. A response that came
  // broken (a truncated body, bad gzip, a body that stalls) is the provider's to answer for: it is judged.
  const silent = typeof observation === 'string' || ('failure' in observation && observation.silent === true);
  if (silent)
    return {
      setupError: {
        check: 'base-url',
        message: `the base URL does not answer: ${listing.method} ${list}: ${answered(observation)}; check --base-url`,
      },
    };
  if (!('failure' in observation) && observation.status === 401)
    return { setupError: { check: 'api-key', message: 'the API key was refused (401): check --api-key' } };
  return { listed: observation };
}

async function checkStateUrl(stateUrl: string, timeout: number): Promise<PreflightFailure | undefined> {
  for (const action of ['setup', 'teardown'] as const) {
    const body = stringifyJson({ state: providerState, params: { orders: [] }, action });
    const observation = await observed(
      stateUrl,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
      timeout,
    );
    const status = typeof observation === 'string' || 'failure' in observation ? undefined : observation.status;
    if (status === undefined || status < 200 || status > 299)
      return {
        check: 'state-url',
        message: `the state URL refused a ${action} of "${providerState}": POST ${stateUrl} answered ${answered(observation)}; check --state-url (the kit's mock serves it at /__mock/provider-state)`,
      };
  }
  return undefined;
}

/**
 * Checks, before any suite runs, the mistakes that would make every check fail for one reason: a
 * base URL that does not end with /v1 (no request sent), one that does not answer, an API key the target refuses (the list answers 401 with it), and
 * a state URL that does not take a setup and a teardown of an empty store. At most three requests.
 * The list's answer is given back, to be judged: nothing the harness receives goes unjudged.
 */
export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const timeout = options.timeout ?? 10_000;
  const target = await checkTarget(options, timeout);
  if (target.setupError !== undefined || options.stateUrl === undefined) return target;
  const setupError = await checkStateUrl(options.stateUrl, timeout);
  return setupError === undefined ? target : { setupError };
}
