import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pactParticipants } from '../contracts/participants.js';
import { shippedPactFile } from '../contracts/pact-file.js';
import { parseJson } from '../core/parse-json.js';
import { stringifyJson } from '../core/stringify-json.js';
import { packageFolder } from '../core/package-folder.js';
import type { Finding } from './checks.js';
import type { RuleCode } from './rules.js';
import { requireInstalled } from './optional-dependencies.js';
import { guardStatePath, startPactGuard, type GuardRecord } from './pact-guard.js';
import {
  caseVerdict,
  findingsOnlyExchange,
  skippedSuite,
  tallySuite,
  type CaseResult,
  type CheckedExchange,
  type SuiteResult,
} from './results.js';
import type { TargetOptions } from './run.js';
import type { Scenario } from '../core/scenario.js';

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
 * The regular expression (Pact's `PACT_DESCRIPTION` filter) that matches the interactions of these scenarios.
 * @example
 * scenarioFilter(['cancel-shipped-order']) // '^(?:cancel-shipped-order) › '
 */
export function scenarioFilter(names: readonly string[]): string {
  return `^(?:${names.map((name) => name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|')}) › `;
}

/** Whether an interaction named `scenario › step` belongs to one of these scenarios. */
function ofScenarios(description: string, names: readonly string[] | undefined): boolean {
  return names === undefined || names.some((name) => description.startsWith(`${name} › `));
}

/**
 * Sorts cases named `scenario › step` into the scenarios' order, step by step; the others keep
 * their order, after them.
 */
function inScenarioOrder(cases: CaseResult[], scenarios: readonly Scenario[] | undefined): CaseResult[] {
  if (scenarios === undefined) return cases;
  const rank = new Map<string, number>();
  for (const scenario of scenarios)
    for (const step of scenario.steps) rank.set(`${scenario.name} › ${step.name}`, rank.size);
  const rankOf = (name: string) => rank.get(name) ?? rank.size;
  return cases
    .map((result, index) => ({ result, index }))
    .sort((one, other) => rankOf(one.result.name) - rankOf(other.result.name) || one.index - other.index)
    .map(({ result }) => result);
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
    throw new Error(
      `the base URL must end with /v1 for Pact verification (the interface's version path), got ${JSON.stringify(baseUrl)}`,
    );
  return trimmed.slice(0, -'/v1'.length);
}

/** An interaction of a pact file, as far as the guard's records are matched to it. */
interface PactInteraction {
  description: string;
  method: string;
  path: string;
  authorization: string | undefined;
  state: string | undefined;
}

type PactFile = {
  interactions?: {
    description: string;
    providerStates?: { params?: { orders?: unknown } }[];
    request: { method: string; path: string; headers?: Record<string, string | string[]> };
  }[];
};

async function readInteractions(files: readonly string[]): Promise<PactInteraction[]> {
  const interactions: PactInteraction[] = [];
  for (const file of files) {
    let pact: PactFile;
    try {
      pact = parseJson(await readFile(file, 'utf8')) as unknown as PactFile;
    } catch {
      continue; // Pact's verifier says what is wrong with it
    }
    for (const interaction of pact.interactions ?? []) {
      const header = Object.entries(interaction.request.headers ?? {}).find(
        ([name]) => name.toLowerCase() === 'authorization',
      )?.[1];
      const orders = interaction.providerStates?.[0]?.params?.orders;
      interactions.push({
        description: interaction.description,
        method: interaction.request.method,
        path: interaction.request.path.replace(/^\/v1/, ''),
        authorization: Array.isArray(header) ? header.join(', ') : header,
        state: orders === undefined ? undefined : stringifyJson(orders),
      });
    }
  }
  return interactions;
}

/** What Pact's verifier reports, as `pactffi_verifier_json` writes it. */
interface PactResults {
  result?: boolean;
  interactionResults?: { description: string; result: string; duration?: string }[];
  errors?: {
    interaction: string;
    mismatch?: {
      type?: string;
      message?: string;
      mismatches?: PactMismatch[];
    };
  }[];
}

/** One mismatch of Pact's verifier: what the pact expected, what came, and Pact's sentence. */
interface PactMismatch {
  type?: string;
  expected?: unknown;
  actual?: unknown;
  mismatch?: string;
  path?: string;
  key?: string;
}

// A value Pact reports, on one line and at most 200 characters.
function pactValue(value: unknown): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).replace(/\s+/g, ' ');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * The kit's rule for a kind of mismatch Pact reports, so that one defect carries one code in every
 * suite: a status, a header or a body that is not what the pact describes is what the scenario suite
 * calls it. What has no rule of the kit (a query, metadata, a kind Pact adds later) stays `pact`.
 */
function mismatchCode(mismatch: PactMismatch): RuleCode {
  const absent = mismatch.actual === undefined || mismatch.actual === null || mismatch.actual === '';
  switch (mismatch.type) {
    case 'StatusMismatch':
      return 'status-unexpected';
    case 'HeaderMismatch':
      if (mismatch.key?.toLowerCase() === 'content-type') return 'media-type';
      // The pact's header matchers are the syntax of Deprecation and Sunset.
      return absent ? 'header-missing' : 'header-syntax';
    case 'BodyTypeMismatch':
      return 'media-type';
    case 'BodyMismatch':
      return absent ? 'body-missing' : 'body-schema';
    default:
      return 'pact';
  }
}

/** A mismatch of Pact's as a finding: Pact's expected and actual values, and its sentence when it adds one. */
function mismatchFinding(mismatch: PactMismatch): Finding {
  const sentence = pactValue(mismatch.mismatch ?? mismatch.type ?? 'a mismatch');
  const code = mismatchCode(mismatch);
  if (mismatch.type === 'StatusMismatch')
    return {
      code,
      path: 'status',
      expected: `status ${pactValue(mismatch.expected)}`,
      actual: pactValue(mismatch.actual),
    };
  return {
    code,
    path: mismatch.type === 'HeaderMismatch' ? (mismatch.key ?? 'header') : (mismatch.path ?? ''),
    expected: mismatch.expected === undefined ? 'what the pact describes' : pactValue(mismatch.expected),
    actual: mismatch.actual === undefined ? sentence : `${pactValue(mismatch.actual)} (Pact: ${sentence})`,
  };
}

function mismatchFindings(error: NonNullable<PactResults['errors']>[number]): Finding[] {
  const mismatches = error.mismatch?.mismatches ?? [];
  if (mismatches.length === 0)
    return [
      {
        code: 'pact',
        path: '',
        expected: 'the interaction to be verified',
        actual: pactValue(error.mismatch?.message ?? error.mismatch?.type ?? 'it failed'),
      },
    ];
  return mismatches.map(mismatchFinding);
}

// Whether an error of Pact's verifier is about this interaction: it names it by its description,
// after the consumer's and provider's names when the pact came from a broker.
function isAbout(error: NonNullable<PactResults['errors']>[number], description: string): boolean {
  return error.interaction === description || error.interaction.endsWith(` - ${description}`);
}

interface ChildOutcome {
  results?: PactResults;
  crash?: string;
}

/** What the verifier's process left: its verdict in the outcome file, else why there is none. */
async function readOutcome(ended: {
  exit: { code: number | null; signal: NodeJS.Signals | null };
  outcomeFile: string;
  /** The end of what the process wrote to stderr. */
  stderr: string;
  /** Why the process was stopped, if it was. */
  stopReason: string | undefined;
}): Promise<ChildOutcome> {
  const { exit } = ended;
  try {
    if (exit.signal === 'SIGKILL') return { crash: ended.stopReason ?? `Pact's verifier was killed` };
    const outcome = JSON.parse(await readFile(ended.outcomeFile, 'utf8')) as { results?: string; crash?: string };
    if (outcome.crash !== undefined) return { crash: outcome.crash };
    return { results: JSON.parse(outcome.results ?? '{}') as PactResults };
  } catch {
    const line = ended.stderr
      .trim()
      .split('\n')
      .filter((text) => text.trim() !== '')
      .pop();
    return {
      crash: `Pact's verifier ended without a verdict (exit ${exit.code ?? exit.signal})${line === undefined ? '' : `: ${line.trim()}`}`,
    };
  }
}

/** Starts the child process that runs Pact's verifier: its options and its outcome go through files. */
function spawnVerifier(files: { optionsFile: string; outcomeFile: string; descriptionFilter: string | undefined }) {
  const child = join(packageFolder(import.meta.url, 'dist', 'verify/pact-child.js'), 'verify', 'pact-child.js');
  return spawn(process.execPath, [child, files.optionsFile, files.outcomeFile], {
    env: {
      ...process.env,
      PACT_DO_NOT_TRACK: 'true',
      PACT_DESCRIPTION: files.descriptionFilter,
      PACT_PROVIDER_STATE: undefined,
      PACT_PROVIDER_NO_STATE: undefined,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Pact's verifier in its own process; `stop` ends it early with a reason. */
function runChild(run: {
  /** The verifier's options. */
  options: object;
  deadline: number | undefined;
  /** Pact's `PACT_DESCRIPTION`: only the interactions whose description matches it are verified. */
  descriptionFilter: string | undefined;
}): { outcome: Promise<ChildOutcome>; stop(reason: string): void } {
  const { options, deadline, descriptionFilter } = run;
  let stopReason: string | undefined;
  let stopChild: (() => void) | undefined;
  const outcome = (async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-pact-'));
    const optionsFile = join(directory, 'options.json');
    const outcomeFile = join(directory, 'outcome.json');
    await writeFile(optionsFile, JSON.stringify(options));
    const child = spawnVerifier({ optionsFile, outcomeFile, descriptionFilter });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    stopChild = () => child.kill('SIGKILL');
    if (stopReason !== undefined) stopChild();
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              // Worded as when the run's watch stops it for the deadline: whichever comes first, one message.
              stopReason ??= `Pact's verifier was stopped: the run passed its deadline`;
              child.kill('SIGKILL');
            },
            Math.max(0, deadline - Date.now()),
          );
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    clearTimeout(timer);
    try {
      return await readOutcome({ exit, outcomeFile, stderr, stopReason });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  })();
  return {
    outcome,
    stop(reason) {
      stopReason ??= `Pact's verifier was stopped: ${reason}`;
      stopChild?.();
    },
  };
}

/** The guard's records for an interaction: its request, with its key, in its provider state. */
function recordsFor(interaction: PactInteraction, records: GuardRecord[], taken: Set<GuardRecord>): GuardRecord[] {
  const found = records.find(
    (record) =>
      !taken.has(record) &&
      record.method === interaction.method &&
      record.path === interaction.path &&
      record.authorization === interaction.authorization &&
      (interaction.state === undefined || record.state === interaction.state),
  );
  if (found === undefined) return [];
  taken.add(found);
  return [found];
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
    ...(broker === undefined ? { pactUrls: setup.pactUrls } : brokerOptions(broker)),
  };
}

function brokerOptions(broker: PactBroker): object {
  return {
    pactBrokerUrl: broker.url,
    ...(broker.token !== undefined && { pactBrokerToken: broker.token }),
    ...(broker.username !== undefined && { pactBrokerUsername: broker.username }),
    ...(broker.password !== undefined && { pactBrokerPassword: broker.password }),
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    ...(broker.providerVersion !== undefined && {
      publishVerificationResult: true,
      providerVersion: broker.providerVersion,
    }),
    ...(broker.providerBranch !== undefined && { providerVersionBranch: broker.providerBranch }),
  };
}

/** Runs Pact's verifier behind the guard, under the run's deadline; the guard stops it when the run stops. */
async function verifyBehindGuard(
  options: PactVerifyOptions,
  pacts: { prefix: string; pactUrls: string[] },
): Promise<{ outcome: ChildOutcome; records: GuardRecord[] }> {
  let stopChild: (reason: string) => void = () => undefined;
  const guard = await startPactGuard(options, (reason) => stopChild(reason));
  try {
    const child = runChild({
      options: verifierOptions({
        guardOrigin: guard.origin,
        prefix: pacts.prefix,
        broker: options.broker,
        pactUrls: pacts.pactUrls,
        timeout: options.timeout,
      }),
      deadline: options.deadline,
      descriptionFilter: options.onlyScenarios === undefined ? undefined : scenarioFilter(options.onlyScenarios),
    });
    stopChild = (reason) => {
      child.stop(reason);
    };
    return { outcome: await child.outcome, records: guard.records };
  } finally {
    await guard.close();
  }
}

/** What a verification gave, for turning into cases: Pact's outcome, the pact's interactions, the guard's records. */
interface PactEvidence {
  outcome: ChildOutcome;
  interactions: PactInteraction[];
  records: GuardRecord[];
  /** The records already matched to an interaction. */
  taken: Set<GuardRecord>;
}

/** A case per interaction result of Pact's: its mismatches, and what the guard found in its request. */
function interactionCases({ outcome, interactions, records, taken }: PactEvidence): CaseResult[] {
  return (outcome.results?.interactionResults ?? []).map((result) => {
    const error = outcome.results?.errors?.find((candidate) => isAbout(candidate, result.description));
    const interaction = interactions.find((candidate) => candidate.description === result.description);
    const guarded = interaction === undefined ? [] : recordsFor(interaction, records, taken);
    const pactFindings =
      error === undefined
        ? result.result === 'OK'
          ? []
          : [
              {
                code: 'pact' as const,
                path: '',
                expected: 'the interaction to be verified',
                actual: `it ended with ${result.result}`,
              },
            ]
        : mismatchFindings(error);
    const exchanges: CheckedExchange[] = guarded.map((record) => ({
      ...record.exchange,
      name: result.description,
      violations: [...pactFindings, ...record.exchange.violations],
    }));
    if (exchanges.length === 0) {
      exchanges.push(
        findingsOnlyExchange(result.description, pactFindings, {
          method: interaction?.method ?? '',
          path: interaction?.path ?? '',
        }),
      );
    }
    return { name: result.description, verdict: caseVerdict(exchanges), exchanges };
  });
}

// What the guard saw that no interaction result names: the interactions of a verifier that was stopped,
// a broker's pacts, or a request Pact sent twice.
function unmatchedRecordCases({ interactions, records, taken }: PactEvidence): CaseResult[] {
  return records
    .filter((candidate) => !taken.has(candidate) && candidate.exchange.violations.length > 0)
    .map((record) => {
      const interaction = interactions.find((candidate) => recordsFor(candidate, [record], taken).length > 0);
      const name = interaction?.description ?? `${record.method} ${record.path}`;
      return { name, verdict: 'failed', exchanges: [{ ...record.exchange, name }] };
    });
}

// Errors that name no interaction that ran: a pact that could not be loaded, a broker that refused.
function unnamedErrorCases({ outcome }: PactEvidence): CaseResult[] {
  const results = outcome.results?.interactionResults ?? [];
  return (outcome.results?.errors ?? [])
    .filter((error) => !results.some((result) => isAbout(error, result.description)))
    .map((error) => ({
      name: error.interaction,
      verdict: 'failed',
      exchanges: [findingsOnlyExchange(error.interaction, mismatchFindings(error))],
    }));
}

// A verifier that crashed, or that verified none of the interactions.
function verifierCases({ outcome, interactions }: PactEvidence): CaseResult[] {
  const results = outcome.results?.interactionResults ?? [];
  if (
    outcome.crash === undefined &&
    !(outcome.results !== undefined && results.length === 0 && interactions.length > 0)
  )
    return [];
  const reason = outcome.crash ?? `Pact's verifier verified none of the ${interactions.length} interactions`;
  const exchange = findingsOnlyExchange('verifier', [
    { code: 'pact-verifier', path: '', expected: "Pact's verifier to verify the pact", actual: reason },
  ]);
  return [{ name: 'verifier', verdict: 'failed', reason, exchanges: [exchange] }];
}

/**
 * Verifies the pact against any implementation with Pact's native verifier, run in a process of its
 * own under the run's deadline, behind the kit's guard (see `startPactGuard`): provider states go to
 * `stateUrl` in Pact's own state-change format (setup, then teardown). Resolves with one case per
 * interaction: Pact's mismatches, one line each, and what the guard found. A crash or a hang of the
 * verifier is a violation with its reason, never an exception.
 * @example
 * const suite = await verifyPact({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key', stateUrl: 'http://127.0.0.1:4010/__mock/provider-state' });
 * suite.verdict // 'passed'
 */
export async function verifyPact(options: PactVerifyOptions): Promise<SuiteResult> {
  requireInstalled('pact');
  const started = performance.now();
  const prefix = pactProviderBaseUrl(options.baseUrl);
  const pactUrls = options.broker === undefined ? (options.pactUrls ?? [shippedPactFile]) : [];
  const interactions = (await readInteractions(pactUrls)).filter((interaction) =>
    ofScenarios(interaction.description, options.onlyScenarios),
  );
  if (options.broker === undefined && interactions.length === 0 && options.onlyScenarios !== undefined)
    return skippedSuite('pact', 'none of the chosen scenarios has an interaction in the pact');
  const { outcome, records } = await verifyBehindGuard(options, { prefix, pactUrls });
  const evidence: PactEvidence = { outcome, interactions, records, taken: new Set() };
  const cases = inScenarioOrder(interactionCases(evidence), options.scenarios);
  for (const caseResults of [unmatchedRecordCases, unnamedErrorCases, verifierCases])
    cases.push(...caseResults(evidence));
  for (const result of cases) for (const exchange of result.exchanges) options.onExchange?.(exchange, result.name);
  return tallySuite('pact', cases, performance.now() - started);
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
  const { broker } = publication;
  const content = await readFile(publication.pactFile ?? shippedPactFile);
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
