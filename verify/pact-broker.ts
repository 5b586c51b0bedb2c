import { readFile } from 'node:fs/promises';
import { shippedPactFile } from '../contracts/pact-file.js';
import { pactParticipants } from '../contracts/participants.js';
import { VerifyError } from './errors.js';

/** A Pact Broker to fetch pacts from and publish verification results to. */
export interface PactBroker {
  url: string;
  token?: string;
  username?: string;
  password?: string;
  /** Verify only this consumer's pacts (`--pact-broker-consumer`). Default: every consumer's. */
  consumer?: string;
  /** The provider's version; with it, verification results are published. */
  providerVersion?: string;
  providerBranch?: string;
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
/** The consumer and provider a pact file names: the shipped pact's, or those of a consumer's own (`--pact`). */
function participantsOf(content: Buffer, file: string | undefined): { consumer: string; provider: string } {
  if (file === undefined) return pactParticipants;
  let pact: { consumer?: { name?: unknown }; provider?: { name?: unknown } };
  try {
    pact = JSON.parse(content.toString('utf8')) as typeof pact;
  } catch {
    throw new VerifyError('invalid_pact_file', `${file} is not a pact file: it is not JSON`);
  }
  const consumer = pact.consumer?.name;
  const provider = pact.provider?.name;
  if (typeof consumer !== 'string' || typeof provider !== 'string')
    throw new VerifyError('invalid_pact_file', `${file} is not a pact file: it names no consumer and provider`);
  return { consumer, provider };
}

export async function publishPact(publication: PactPublication): Promise<string[]> {
  const { broker } = publication;
  const content = await readFile(publication.pactFile ?? shippedPactFile);
  const { consumer, provider } = participantsOf(content, publication.pactFile);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/hal+json, application/json',
  };
  if (broker.token !== undefined) headers.authorization = `Bearer ${broker.token}`;
  else if (broker.username !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${broker.username}:${broker.password ?? ''}`).toString('base64')}`;
  const response = await fetch(`${broker.url.replace(/\/+$/, '')}/contracts/publish`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      pacticipantName: consumer,
      pacticipantVersionNumber: publication.consumerVersion,
      ...(publication.branch !== undefined && { branch: publication.branch }),
      contracts: [
        {
          consumerName: consumer,
          providerName: provider,
          specification: 'pact',
          contentType: 'application/json',
          content: content.toString('base64'),
        },
      ],
    }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new VerifyError('broker_refused', `the Pact Broker answered ${response.status}: ${text.slice(0, 300)}`);
  try {
    return ((JSON.parse(text) as { notices?: { text: string }[] }).notices ?? []).map((notice) => notice.text);
  } catch {
    return [];
  }
}

/**
 * What Pact's verifier needs to fetch the pacts from a broker and, given a provider version, publish its results there.
 */
export function pactBrokerOptions(broker: PactBroker): object {
  return {
    pactBrokerUrl: broker.url,
    ...(broker.token !== undefined && { pactBrokerToken: broker.token }),
    ...(broker.username !== undefined && { pactBrokerUsername: broker.username }),
    ...(broker.password !== undefined && { pactBrokerPassword: broker.password }),
    // Pact's recommended selectors: what the consumers' main branches hold, and what is deployed or released.
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }].map((selector) =>
      broker.consumer === undefined ? selector : { ...selector, consumer: broker.consumer },
    ),
    ...(broker.providerVersion !== undefined && {
      publishVerificationResult: true,
      providerVersion: broker.providerVersion,
    }),
    ...(broker.providerBranch !== undefined && { providerVersionBranch: broker.providerBranch }),
  };
}
