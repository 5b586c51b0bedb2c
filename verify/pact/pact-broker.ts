import { readFile } from 'node:fs/promises';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { pactParticipants } from '../../contracts/participants.js';
import {
  brokerBase,
  BrokerError,
  brokerRequest,
  brokerWaits,
  halLink,
  requiredLink,
  type BrokerAccess,
  type BrokerWaits,
} from './broker-client.js';
import { VerifyError } from '../base/errors.js';
import { checkPactText } from './pact-document.js';

export { BrokerError, type BrokerAccess, type BrokerWaits } from './broker-client.js';

/**
 * A consumer version selector of the broker's `for-verification` API, such as `{ mainBranch: true }`,
 * `{ branch: 'main', consumer: 'web-app' }` or `{ deployedOrReleased: true }`.
 */
export type ConsumerVersionSelector = Record<string, string | boolean>;

/** A Pact Broker to fetch pacts from and publish verification results to. */
export interface PactBroker extends BrokerAccess {
  /** The provider whose pacts are fetched and verified. Default: `petstore-order-interface`. */
  provider?: string;
  /** Verify only this consumer's pacts (`--pact-broker-consumer`). Default: every consumer's. */
  consumer?: string;
  /** Which consumer versions' pacts. Default: `{ mainBranch: true }` and `{ deployedOrReleased: true }` (of `consumer`). */
  consumerVersionSelectors?: ConsumerVersionSelector[];
  /** Pact's pending pacts: a pending pact that fails is reported and fails nothing. Default: false. */
  enablePending?: boolean;
  /** Also verify the work-in-progress pacts published since this date (`2026-01-01`); they are pending. */
  includeWipPactsSince?: string;
  /** The provider's version; with it, verification results are published. */
  providerVersion?: string;
  providerBranch?: string;
  /** The build's page, published with the verification results. */
  buildUrl?: string;
}

/** What to publish the shipped pact as. */
export interface PactPublication {
  broker: BrokerAccess;
  /** The consumer's version (a commit SHA, say). */
  consumerVersion: string;
  branch?: string;
  /** Tags of the consumer version (the broker prefers branches now). */
  tags?: readonly string[];
  /** The CI build that published it. */
  buildUrl?: string;
  /** The pact file to publish. Default: the pact the package ships. */
  pactFile?: string;
  /** Milliseconds to wait for the broker's whole answer. Default: 10,000. */
  timeout?: number;
}

/**
 * The consumer and provider a pact file names: the shipped pact's, or those of a consumer's own
 * (`--pact`), checked whole first as `petstore-verify --pact` checks it: a pact no provider could be
 * verified against is not published.
 */
function participantsOf(content: Buffer, file: string | undefined): { consumer: string; provider: string } {
  if (file === undefined) return pactParticipants;
  const check = checkPactText(content.toString('utf8'));
  if (!check.ok) {
    const [first] = check.diagnostics;
    const where = first === undefined || first.path === '' ? '' : `${first.path}: `;
    throw new VerifyError(
      'invalid_pact_file',
      `${file} is not a pact that can be published: ${where}${first?.message}`,
    );
  }
  const { consumer, provider } = check.pact as unknown as { consumer: { name: string }; provider: { name: string } };
  return { consumer: consumer.name, provider: provider.name };
}

/** The texts of the notices (or, from older brokers, the logs) of the broker's answer to a publication. */
function noticesOf(answer: unknown): string[] {
  const { notices, logs } = (answer ?? {}) as { notices?: unknown; logs?: unknown };
  const texts = [
    ...(Array.isArray(notices) ? notices.map((notice) => (notice as { text?: unknown }).text) : []),
    ...(Array.isArray(logs) ? logs.map((log) => (log as { message?: unknown }).message) : []),
  ];
  return texts.filter((text): text is string => typeof text === 'string');
}

/**
 * Publishes the consumer pact to a Pact Broker (or PactFlow) through its `POST /contracts/publish`
 * API, as `pact-broker publish` does (with the branch, tags and build URL given), and resolves with
 * the broker's notices.
 * @throws BrokerError when the broker refuses, cannot be reached within the timeout, or answers no JSON;
 * VerifyError `invalid_pact_file` for a file that is no pact.
 * @example
 * await publishPact({ broker: { url: process.env.PACT_BROKER_BASE_URL!, token: process.env.PACT_BROKER_TOKEN }, consumerVersion: 'abc123', branch: 'main' });
 */
export async function publishPact(publication: PactPublication): Promise<string[]> {
  const { broker } = publication;
  const content = await readFile(publication.pactFile ?? shippedPactFile);
  const { consumer, provider } = participantsOf(content, publication.pactFile);
  const { json } = await brokerRequest(broker, {
    method: 'POST',
    url: new URL('contracts/publish', brokerBase(broker.url)).href,
    ...(publication.timeout !== undefined && { timeout: publication.timeout }),
    body: {
      pacticipantName: consumer,
      pacticipantVersionNumber: publication.consumerVersion,
      ...(publication.branch !== undefined && { branch: publication.branch }),
      ...(publication.tags !== undefined && publication.tags.length > 0 && { tags: [...publication.tags] }),
      ...(publication.buildUrl !== undefined && { buildUrl: publication.buildUrl }),
      contracts: [
        {
          consumerName: consumer,
          providerName: provider,
          specification: 'pact',
          contentType: 'application/json',
          content: content.toString('base64'),
        },
      ],
    },
  });
  return noticesOf(json);
}

/** A pact the broker gave for verification: its text exactly as sent, and what the broker says of it. */
export interface BrokerPact {
  /** The broker's name for it: `Pact between web-app (abc123) and petstore-order-interface`. */
  name: string;
  url: string;
  /** The pact's JSON text, exactly as the broker sent it (ids beyond 2^53 stay exact). */
  text: string;
  /** Pending (`enablePending`): a failure is reported and fails nothing. */
  pending: boolean;
  /** A work-in-progress pact (`includeWipPactsSince`). */
  wip: boolean;
  /** Where its verification results are published (`pb:publish-verification-results`). */
  publishUrl: string | undefined;
}

/** The pacts the broker gave, and its index (the links to publish results with). */
export interface BrokerPacts {
  pacts: BrokerPact[];
  index: unknown;
}

/**
 * The consumer version selectors asked for: those given, else Pact's recommended ones (of the consumer given).
 * @example
 * selectorsOf({ url: 'http://127.0.0.1:9292', consumer: 'web-app' })
 * // [{ mainBranch: true, consumer: 'web-app' }, { deployedOrReleased: true, consumer: 'web-app' }]
 */
export function selectorsOf(broker: PactBroker): ConsumerVersionSelector[] {
  if (broker.consumerVersionSelectors !== undefined && broker.consumerVersionSelectors.length > 0)
    return broker.consumerVersionSelectors;
  // Pact's recommended selectors: what the consumers' main branches hold, and what is deployed or released.
  const recommended: ConsumerVersionSelector[] = [{ mainBranch: true }, { deployedOrReleased: true }];
  return recommended.map((selector) =>
    broker.consumer === undefined ? selector : { ...selector, consumer: broker.consumer },
  );
}

/** The body of the `for-verification` request, as pact-js's verifier sends it. */
function forVerificationBody(broker: PactBroker): object {
  return {
    consumerVersionSelectors: selectorsOf(broker),
    includePendingStatus: broker.enablePending === true || broker.includeWipPactsSince !== undefined,
    ...(broker.includeWipPactsSince !== undefined && { includeWipPactsSince: broker.includeWipPactsSince }),
    ...(broker.providerBranch !== undefined && { providerVersionBranch: broker.providerBranch }),
  };
}

/** A pact the broker lists for verification, before it is fetched: its URL, name, pending and WIP flags. */
export type ListedPact = Omit<BrokerPact, 'text' | 'publishUrl'>;

/** The pacts listed in the `for-verification` answer: each one's URL, name, pending and WIP flags. */
function listedPacts(answer: unknown, where: string): ListedPact[] {
  const pacts = (answer as { _embedded?: { pacts?: unknown } } | null)?._embedded?.pacts;
  if (!Array.isArray(pacts))
    throw new BrokerError('broker_invalid_answer', `the Pact Broker's answer to ${where} lists no _embedded.pacts`);
  return pacts.map((pact) => {
    const url = requiredLink(pact, 'self', where);
    const { verificationProperties: properties, _links: links } = pact as {
      verificationProperties?: { pending?: unknown; wip?: unknown };
      _links: { self: { name?: unknown } };
    };
    return {
      url,
      name: typeof links.self.name === 'string' ? links.self.name : url,
      pending: properties?.pending === true,
      wip: properties?.wip === true,
    };
  });
}

/**
 * The pacts a provider is to verify, as the broker lists them, and its index (the links to publish
 * results with): from the index, the `pb:provider-pacts-for-verification` link
 * (`/pacts/provider/{provider}/for-verification`), POSTed the consumer version selectors, the pending
 * and WIP settings and the provider's branch. Each request waits at most `timeout`, none past `deadline`.
 * @throws BrokerError (one line naming the URL) when the broker cannot be reached in time, refuses,
 * answers something that is not its HAL, or (credentials set) links or redirects to another origin.
 * @example
 * const { listed } = await listPactsForVerification({ url: 'http://127.0.0.1:9292' }, { timeout: 10_000 });
 * listed.map((pact) => pact.name) // ['Pact between web-app (abc123) and petstore-order-interface']
 */
export async function listPactsForVerification(
  broker: PactBroker,
  waits: BrokerWaits = {},
): Promise<{ listed: ListedPact[]; index: unknown }> {
  const indexUrl = brokerBase(broker.url);
  const index = (await brokerRequest(broker, { method: 'GET', url: indexUrl, ...waits })).json;
  const provider = broker.provider ?? pactParticipants.provider;
  const url = requiredLink(index, 'pb:provider-pacts-for-verification', `GET ${indexUrl}`, { provider });
  const answer = await brokerRequest(broker, { method: 'POST', url, body: forVerificationBody(broker), ...waits });
  return { listed: listedPacts(answer.json, `POST ${url}`), index };
}

/**
 * One pact the broker listed, fetched and checked to be a pact: an object with interactions.
 * @throws BrokerError naming the pact's URL when it cannot be fetched in time, is refused, or is no pact.
 * @example
 * const pact = await fetchListedPact(broker, listed[0], { timeout: 10_000, deadline });
 */
export async function fetchListedPact(
  broker: PactBroker,
  listed: ListedPact,
  waits: BrokerWaits = {},
): Promise<BrokerPact> {
  const { text, json } = await brokerRequest(broker, { method: 'GET', url: listed.url, ...waits });
  const interactions = (json as { interactions?: unknown } | null)?.interactions;
  if (!Array.isArray(interactions))
    throw new BrokerError(
      'broker_invalid_answer',
      `the Pact Broker's answer to GET ${listed.url} is no pact: it has no interactions`,
    );
  return { ...listed, text, publishUrl: halLink(json, 'pb:publish-verification-results', listed.url) };
}

/**
 * Fetches the pacts a provider is to verify from a Pact Broker, as pact-js's verifier does: the list
 * (`listPactsForVerification`), then each pact it lists (`fetchListedPact`). Every request waits at
 * most the timeout (a number, or `waits.timeout`) and none past `waits.deadline`.
 * @throws BrokerError (one line naming the URL) when the broker cannot be reached in time, refuses,
 * answers something that is not its HAL, or (credentials set) links or redirects to another origin.
 * @example
 * const { pacts } = await fetchPactsForVerification({ url: 'http://127.0.0.1:9292', enablePending: true }, 10_000);
 * pacts.map((pact) => pact.name) // ['Pact between web-app (abc123) and petstore-order-interface']
 */
export async function fetchPactsForVerification(
  broker: PactBroker,
  waits?: number | BrokerWaits,
): Promise<BrokerPacts> {
  const bounds = brokerWaits(waits);
  const { listed, index } = await listPactsForVerification(broker, bounds);
  const pacts: BrokerPact[] = [];
  for (const pact of listed) pacts.push(await fetchListedPact(broker, pact, bounds));
  return { pacts, index };
}

/** The verification result of one pact, to publish. */
export interface VerificationResult {
  success: boolean;
  providerVersion: string;
  /** The kit's version, as the verifier. */
  verifierVersion: string;
}

/**
 * Records the provider version on its branch (`pb:pacticipant-branch-version` of the index), as Pact's
 * verifier does before it publishes results: once per run, before the first result. It waits at most
 * the timeout (a number, or `waits.timeout`), and not past `waits.deadline`.
 * @throws BrokerError when the broker refuses or has no such link.
 * @example
 * await recordProviderBranch({ url, provider: 'petstore-order-interface', providerVersion: '1.2.3', providerBranch: 'main' }, index);
 */
export async function recordProviderBranch(
  broker: PactBroker,
  index: unknown,
  waits?: number | BrokerWaits,
): Promise<void> {
  if (broker.providerBranch === undefined || broker.providerVersion === undefined) return;
  const url = requiredLink(index, 'pb:pacticipant-branch-version', `GET ${brokerBase(broker.url)}`, {
    pacticipant: broker.provider ?? pactParticipants.provider,
    branch: broker.providerBranch,
    version: broker.providerVersion,
  });
  await brokerRequest(broker, { method: 'PUT', url, body: {}, ...brokerWaits(waits) });
}

/**
 * Publishes one pact's verification result to its `pb:publish-verification-results` link, waiting at
 * most the timeout (a number, or `waits.timeout`), and not past `waits.deadline`.
 * @throws BrokerError when the pact has no such link, or the broker refuses or does not answer.
 * @example
 * await publishVerificationResult(broker, pact, { success: true, providerVersion: '1.2.3', verifierVersion: '0.1.0' });
 */
export async function publishVerificationResult(
  broker: PactBroker,
  pact: BrokerPact,
  result: VerificationResult,
  waits?: number | BrokerWaits,
): Promise<void> {
  if (pact.publishUrl === undefined)
    throw new BrokerError(
      'broker_invalid_answer',
      `the Pact Broker's pact ${pact.url} has no pb:publish-verification-results link: its results cannot be published`,
    );
  await brokerRequest(broker, {
    method: 'POST',
    url: pact.publishUrl,
    ...brokerWaits(waits),
    body: {
      success: result.success,
      providerApplicationVersion: result.providerVersion,
      ...(broker.buildUrl !== undefined && { buildUrl: broker.buildUrl }),
      verifiedBy: { implementation: 'petstore-contract-kit', version: result.verifierVersion },
    },
  });
}
