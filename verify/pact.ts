import { Verifier } from '@pact-foundation/pact';
import type { IncomingMessage } from 'node:http';
import { pactApiKey, pactParticipants } from '../contracts/participants.js';
import { shippedPactFile } from '../contracts/pact-file.js';

/** A Pact Broker to fetch pacts from and publish verification results to. */
export interface PactBroker {
  url: string;
  token?: string;
  username?: string;
  password?: string;
  /** The provider's version; with it, verification results are published. */
  providerVersion?: string;
  providerBranch?: string;
}

/** How to verify the pact against an implementation. */
export interface PactVerifyOptions {
  /** The implementation's base URL, ending with /v1 (the pact's paths start with /v1). */
  baseUrl: string;
  /** A key the implementation accepts: it replaces the pact's development key in every request that sends it. */
  apiKey: string;
  /** Where Pact POSTs its state changes `{ state, params, action }` (the kit's mock: /__mock/provider-state). */
  stateUrl: string;
  /** Pact files to verify. Default: the pact the package ships (unless a broker is given). */
  pactUrls?: string[];
  /** Fetch the pacts from a broker instead, and publish the results there. */
  broker?: PactBroker;
  logLevel?: 'error' | 'warn' | 'info' | 'debug' | 'trace';
}

/**
 * The base URL Pact sends its requests to: the pact's paths carry the /v1 prefix, so it is removed here.
 * @example
 * pactProviderBaseUrl('https://api.example.com/petstore/v1') // 'https://api.example.com/petstore'
 */
export function pactProviderBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!trimmed.endsWith('/v1')) throw new Error(`the base URL must end with /v1 for Pact verification, got ${JSON.stringify(baseUrl)}`);
  return trimmed.slice(0, -'/v1'.length);
}

/**
 * Verifies the pact against any implementation with Pact's Verifier, sending provider states to
 * `stateUrl` in Pact's own state-change format (setup, then teardown). Pact prints its report;
 * the promise resolves when every interaction passed and rejects otherwise.
 * @example
 * await verifyPact({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key', stateUrl: 'http://127.0.0.1:4010/__mock/provider-state' });
 */
export async function verifyPact(options: PactVerifyOptions): Promise<void> {
  // Requests that carry the pact's development key carry the target's key instead; the wrong and
  // missing keys of the 401 interactions stay as they are.
  const swapKey = (request: IncomingMessage, _response: unknown, next: () => void) => {
    if (request.headers.authorization === `Bearer ${pactApiKey}`) request.headers.authorization = `Bearer ${options.apiKey}`;
    next();
  };
  const broker = options.broker;
  const verifier = new Verifier({
    provider: pactParticipants.provider,
    providerBaseUrl: pactProviderBaseUrl(options.baseUrl),
    providerStatesSetupUrl: options.stateUrl,
    providerStatesSetupTeardown: true,
    requestFilter: swapKey,
    logLevel: options.logLevel ?? 'warn',
    ...(broker === undefined
      ? { pactUrls: options.pactUrls ?? [shippedPactFile] }
      : {
          pactBrokerUrl: broker.url,
          ...(broker.token !== undefined && { pactBrokerToken: broker.token }),
          ...(broker.username !== undefined && { pactBrokerUsername: broker.username }),
          ...(broker.password !== undefined && { pactBrokerPassword: broker.password }),
          consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
          ...(broker.providerVersion !== undefined && { publishVerificationResult: true, providerVersion: broker.providerVersion }),
          ...(broker.providerBranch !== undefined && { providerVersionBranch: broker.providerBranch }),
        }),
  });
  await verifier.verifyProvider();
}

/** What to publish the shipped pact as. */
export interface PactPublication {
  broker: Pick<PactBroker, 'url' | 'token' | 'username' | 'password'>;
  /** The consumer's version (a commit SHA, say). */
  consumerVersion: string;
  branch?: string;
  /** The pact file to publish. Default: the pact the package ships. */
  pactFile?: string;
}

/**
 * Publishes the consumer pact to a Pact Broker (or PactFlow) through its `POST /contracts/publish`
 * API, as `pact-broker publish` does, and resolves with the broker's notices.
 * @throws Error with the broker's status and answer when it refuses.
 * @example
 * await publishPact({ broker: { url: process.env.PACT_BROKER_BASE_URL!, token: process.env.PACT_BROKER_TOKEN }, consumerVersion: 'abc123', branch: 'main' });
 */
export async function publishPact(publication: PactPublication): Promise<string[]> {
  const { readFile } = await import('node:fs/promises');
  const { broker } = publication;
  const content = await readFile(publication.pactFile ?? shippedPactFile);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/hal+json, application/json' };
  if (broker.token !== undefined) headers.authorization = `Bearer ${broker.token}`;
  else if (broker.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${broker.username}:${broker.password ?? ''}`).toString('base64')}`;
  const response = await fetch(`${broker.url.replace(/\/+$/, '')}/contracts/publish`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      pacticipantName: pactParticipants.consumer,
      pacticipantVersionNumber: publication.consumerVersion,
      ...(publication.branch !== undefined && { branch: publication.branch }),
      contracts: [
        {
          consumerName: pactParticipants.consumer,
          providerName: pactParticipants.provider,
          specification: 'pact',
          contentType: 'application/json',
          content: content.toString('base64'),
        },
      ],
    }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the Pact Broker answered ${response.status}: ${text.slice(0, 300)}`);
  try {
    return ((JSON.parse(text) as { notices?: { text: string }[] }).notices ?? []).map((notice) => notice.text);
  } catch {
    return [];
  }
}
