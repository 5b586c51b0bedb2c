import type { Scenario } from '../../core/scenario.js';
import type { Finding } from '../../core/finding.js';
import { sameJson } from '../../core/same-json.js';
import type { GuardRecord } from './pact-guard.js';
import { inScenarioOrder, type PactInteraction } from './pact-interactions.js';
import { caseVerdict, findingsOnlyExchange, type CaseResult, type CheckedExchange } from '../base/results.js';
import type { RuleCode } from '../../core/rules.js';
import type { PactChildOutcome, PactMismatch, PactResults } from './run-pact-child.js';

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
  return inStableOrder(mismatches).map(mismatchFinding);
}

/**
 * Pact's mismatches with its header mismatches ordered by header name, in the places Pact gave them.
 * Pact's verifier lists a response's header mismatches in the order of a hash map, which changes from
 * run to run (pact-core 19 and 20 alike: a response without Deprecation and Sunset gave either first):
 * ordered, the same defect reads the same in every run and on every stack.
 * @example
 * inStableOrder([sunsetMissing, deprecationMissing]) // [deprecationMissing, sunsetMissing]
 */
export function inStableOrder(mismatches: readonly PactMismatch[]): PactMismatch[] {
  const isHeader = (mismatch: PactMismatch) => mismatch.type === 'HeaderMismatch';
  const name = (mismatch: PactMismatch) => (mismatch.key ?? '').toLowerCase();
  const headers = mismatches
    .filter(isHeader)
    .sort((one, other) => (name(one) < name(other) ? -1 : name(one) > name(other) ? 1 : 0));
  return mismatches.map((mismatch) => (isHeader(mismatch) ? headers.shift()! : mismatch));
}

// Whether an error of Pact's verifier is about this interaction: it names it by its description,
// after the consumer's and provider's names when the pact came from a broker.
function isAbout(error: NonNullable<PactResults['errors']>[number], description: string): boolean {
  return error.interaction === description || error.interaction.endsWith(` - ${description}`);
}

/**
 * Whether a record of the guard's is an interaction's request: its method, path, query and key, in its
 * provider state (interactions on one path may differ by their query alone: each is paired with its own answer). The state is compared as data: Pact's verifier sends its params with their keys
 * sorted, whatever the pact's order.
 */
function isRequestOf(interaction: PactInteraction, record: GuardRecord): boolean {
  return (
    record.method === interaction.method &&
    record.path === interaction.path &&
    record.query === interaction.query &&
    record.authorization === interaction.authorization &&
    (interaction.state === undefined || (record.state !== undefined && sameJson(record.state, interaction.state)))
  );
}

/** The guard's first record for an interaction that no other has taken, taken now. */
function recordsFor(interaction: PactInteraction, records: GuardRecord[], taken: Set<GuardRecord>): GuardRecord[] {
  const found = records.find((record) => !taken.has(record) && isRequestOf(interaction, record));
  if (found === undefined) return [];
  taken.add(found);
  return [found];
}

/**
 * The interaction a result of Pact's is about, and its request. Pact names a result by description
 * alone, and interactions in different states may share one: the result takes the first untaken
 * record that is the request of an interaction of that description not yet reported (Pact's verifier
 * runs one interaction after another, so its results and the guard's records come in the same order).
 */
function pairFor(
  description: string,
  evidence: Pick<PactEvidence, 'interactions' | 'records' | 'taken'>,
  reported: Set<PactInteraction>,
): { interaction: PactInteraction | undefined; guarded: GuardRecord[] } {
  const { interactions, records, taken } = evidence;
  const named = interactions.filter((candidate) => candidate.description === description);
  // Pacts from a broker are not read here: the guard's next record is this interaction's request.
  if (named.length === 0) return { interaction: undefined, guarded: nextRecord(records, taken) };
  const unreported = named.filter((candidate) => !reported.has(candidate));
  const candidates = unreported.length > 0 ? unreported : named;
  for (const record of records) {
    const interaction = taken.has(record) ? undefined : candidates.find((candidate) => isRequestOf(candidate, record));
    if (interaction === undefined) continue;
    taken.add(record);
    reported.add(interaction);
    return { interaction, guarded: [record] };
  }
  reported.add(candidates[0]!);
  return { interaction: candidates[0], guarded: [] };
}

/** The first record no interaction has taken yet, taken now. */
function nextRecord(records: GuardRecord[], taken: Set<GuardRecord>): GuardRecord[] {
  const found = records.find((record) => !taken.has(record));
  if (found === undefined) return [];
  taken.add(found);
  return [found];
}

/** Why an interaction Pact reported OK judged nothing: no request of it reached the guard. */
function unansweredReason(interaction: PactInteraction): string {
  const query = interaction.query === '' ? '' : `?${interaction.query}`;
  return `no answer of the provider's to ${interaction.method} ${interaction.path}${query} reached petstore-verify's guard: Pact's OK alone judged nothing`;
}

/** What a verification gave, for turning into cases: Pact's outcome, the pact's interactions, the guard's records. */
export interface PactEvidence {
  outcome: PactChildOutcome;
  interactions: PactInteraction[];
  records: GuardRecord[];
  /** The records already matched to an interaction. */
  taken: Set<GuardRecord>;
}

/** A case per interaction result of Pact's: its mismatches, and what the guard found in its request. */
function interactionCases(evidence: PactEvidence): CaseResult[] {
  const { outcome } = evidence;
  const reported = new Set<PactInteraction>();
  const errors = outcome.results?.errors ?? [];
  const usedErrors = new Set<(typeof errors)[number]>();
  return (outcome.results?.interactionResults ?? []).map((result) => {
    const { interaction, guarded } = pairFor(result.description, evidence, reported);
    // A result that is not OK takes the first of its description's errors not yet taken (Pact's order):
    // another interaction of the same description may be the one that failed.
    const error =
      result.result === 'OK'
        ? undefined
        : errors.find((candidate) => !usedErrors.has(candidate) && isAbout(candidate, result.description));
    if (error !== undefined) usedErrors.add(error);
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
      // An interaction of a pact read here whose request never reached the provider through the guard
      // judged nothing of the provider's: never a pass on Pact's word alone (issue 56, a pairing that
      // missed a query let eight interactions "pass" with no answer), and not the provider's failure
      // either, since nothing of its was seen: a case that could not run.
      if (interaction !== undefined && error === undefined && result.result === 'OK')
        return { name: result.description, verdict: 'error', reason: unansweredReason(interaction), exchanges };
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

/** The name of the case that stands for the verifier itself (`pact › verifier`). */
const verifierCaseName = 'verifier';

// A verifier that crashed, or that verified none of the interactions.
function verifierCases({ outcome, interactions }: PactEvidence): CaseResult[] {
  const results = outcome.results?.interactionResults ?? [];
  if (
    outcome.crash === undefined &&
    !(outcome.results !== undefined && results.length === 0 && interactions.length > 0)
  )
    return [];
  const reason = outcome.crash ?? `Pact's verifier verified none of the ${interactions.length} interactions`;
  // A verifier that never started on the pact, or that the deadline stopped while the provider kept
  // nothing waiting, judged nothing of the provider's: a case that could not run (exit 2, the reason in
  // the verdict), never a violation that blames the provider (exit 1).
  if (outcome.notRun === true || outcome.unfinished === true)
    return [{ name: verifierCaseName, verdict: 'error', reason, exchanges: [] }];
  const exchange = findingsOnlyExchange(verifierCaseName, [
    { code: 'pact-verifier', path: '', expected: "Pact's verifier to verify the pact", actual: reason },
  ]);
  return [{ name: verifierCaseName, verdict: 'failed', reason, exchanges: [exchange] }];
}

/**
 * Whether these cases hold the verifier's case that could not run (it never started on the pact):
 * there is then no verdict on the pact to publish.
 * @example
 * verifierNotRun([{ name: 'verifier', verdict: 'error', reason, exchanges: [] }]) // true
 */
export function verifierNotRun(cases: readonly CaseResult[]): boolean {
  return cases.some((result) => result.name === verifierCaseName && result.verdict === 'error');
}

/**
 * The cases of a verification: one per interaction Pact ran, in the scenarios' order, then what the guard
 * saw that no interaction names, errors that name no interaction, and a verifier that crashed.
 */
export function pactCases(evidence: PactEvidence, scenarios: readonly Scenario[] | undefined): CaseResult[] {
  const cases = inScenarioOrder(interactionCases(evidence), scenarios);
  for (const caseResults of [unmatchedRecordCases, unnamedErrorCases, verifierCases])
    cases.push(...caseResults(evidence));
  return cases;
}
