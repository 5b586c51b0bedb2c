import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { findingText, type Finding } from '../../core/finding.js';
import type { JsonValue } from '../../core/parse-json.js';
import { majorOf, matchRoute } from '../../core/routes.js';
import { stringifyJson } from '../../core/stringify-json.js';
import type { InteractionToJudge } from '../../mocks/pact/interaction-judge.js';
import { judgeInteraction } from '../../mocks/pipeline/judge-interaction.js';
import { pactKeyChoice } from '../scenario/key-choice-of.js';
import { isLocalPact, readPactDocument } from './pact-document.js';
import { pactQueryKey } from './pact-query.js';
import type { CaseResult } from '../base/results.js';

type Json = Record<string, JsonValue>;

/** Consumers' pacts, judged: the files Pact's verifier is to read, and the interactions the specification contradicts. */
export interface JudgedConsumerPacts {
  /** The pact files without the contradicted interactions (copies where any was taken out). */
  pactUrls: string[];
  /** One case per contradicted interaction: the consumer's error, never the provider's. */
  contradicted: CaseResult[];
  /** One skipped case per interaction of an operation the run leaves out (`leaveOut`): never sent, never passed. */
  leftOut: CaseResult[];
  /** Removes the copies. */
  remove(): Promise<void>;
}

const object = (value: JsonValue | undefined): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};

/** A pact's header fields (V4 lists, V2 and V3 strings) as fetch's Headers. */
function headersOf(fields: JsonValue | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(object(fields))) {
    const values = Array.isArray(value) ? value : [value];
    headers.set(name, values.map(String).join(', '));
  }
  return headers;
}

/** A pact's response body as text: V4's `{ content, contentType, encoded }`, or V2 and V3's JSON value. */
function bodyOf(response: Json): { text: string; contentType: string | undefined } {
  const body = response.body;
  if (body === undefined || body === null) return { text: '', contentType: undefined };
  const v4 = object(body);
  if ('content' in v4) {
    const contentType = typeof v4.contentType === 'string' ? v4.contentType : undefined;
    const content = v4.content;
    if (v4.encoded === 'base64' && typeof content === 'string')
      return { text: Buffer.from(content, 'base64').toString('utf8'), contentType };
    if (typeof content === 'string' && !/json/i.test(contentType ?? '')) return { text: content, contentType };
    return { text: content === undefined ? '' : stringifyJson(content), contentType };
  }
  return { text: stringifyJson(body), contentType: 'application/json' };
}

/**
 * An interaction of a pact file as the judge sees it. What the pact leaves open, the provider may
 * answer as the specification says: a body without a stated Content-Type is taken as the body's own,
 * a 401 without a stated challenge as carrying one.
 */
function interactionToJudge(interaction: Json, runKey: string | undefined): InteractionToJudge {
  const request = object(interaction.request);
  const response = object(interaction.response);
  const states = Array.isArray(interaction.providerStates) ? interaction.providerStates : [];
  const orders = object(object(states[0]).params).orders;
  const headers = headersOf(response.headers);
  const { text, contentType } = bodyOf(response);
  if (text !== '' && !headers.has('content-type')) headers.set('content-type', contentType ?? 'application/json');
  const status = typeof response.status === 'number' ? response.status : 200;
  if (status === 401 && !headers.has('www-authenticate')) headers.set('www-authenticate', 'Bearer');
  // A status a rule lets vary (Pact V4's `statusCode`) with no body stated: the body is the provider's.
  const bodyUnknown = text === '' && object(object(response.matchingRules).status).matchers !== undefined;
  const query = pactQueryKey(request.query);
  return {
    method: String(request.method ?? 'GET').toUpperCase(),
    // Another major's path keeps its base (`/v2/store/orders`): never read as v1's call.
    path: String(request.path ?? '/').replace(/^\/v1(?=\/|$)/, ''),
    ...(query !== '' && { query }),
    key: pactKeyChoice(headersOf(request.headers).get('authorization') ?? undefined, runKey),
    orders: Array.isArray(orders) ? orders : undefined,
    response: { status, headers, text, ...(bodyUnknown && { bodyUnknown }) },
  };
}

/** Whether a response's body has matching rules (V3 and V4 `matchingRules.body`, V2 `$.body…` keys). */
function hasBodyRules(response: Json): boolean {
  const rules = object(response.matchingRules);
  return Object.keys(object(rules.body)).length > 0 || Object.keys(rules).some((key) => key.startsWith('$.body'));
}

// What the model says of a list's or a page's values: a pact whose body has matching rules does not
// demand them (Pact matches them by type), so they are the provider's to give, judged by the guard.
const listedValues = new Set([
  'order-unknown',
  'order-field',
  'order-listed',
  'order-relisted',
  'id-unique',
  'int64-exact',
  'filter-ignored',
  'page-over-limit',
  'page-order',
  'page-repeats-order',
  'page-skips-order',
]);

/**
 * Whether a finding is about what the pact leaves to the provider, so no contradiction: a header it
 * does not state (Pact checks only those it states), or the values of a body it matches by rules.
 */
function leftToTheProvider(finding: Finding, response: Json): boolean {
  return finding.code === 'header-missing' || (listedValues.has(finding.code) && hasBodyRules(response));
}

/** A contradicted interaction as a case: an error of the consumer's pact, with what the specification says. */
function contradictedCase(description: string, contradictions: Finding[]): CaseResult {
  return {
    name: description,
    verdict: 'error',
    reason: `the consumer's pact contradicts the specification, so no provider can pass it: ${contradictions.map(findingText).join('; ')}`,
    contradictions,
    exchanges: [],
  };
}

/**
 * One pact file judged: undefined when it is to be verified as it is (every interaction allowed, or
 * an http(s) URL Pact's verifier fetches itself), else the pact and the interactions it keeps; the
 * contradicted ones' cases are added to `contradicted`.
 * @throws PactFileError when the file cannot be used (`readPactDocument`).
 */
async function judgedFile(
  file: string,
  options: JudgeOptions,
  cases: { contradicted: CaseResult[]; leftOut: CaseResult[] },
): Promise<{ pact: Json; kept: Json[] } | undefined> {
  if (!isLocalPact(file)) return undefined;
  const pact = await readPactDocument(file);
  const { interactions } = pact;
  const kept: Json[] = [];
  for (const interaction of interactions) {
    const description = String(interaction.description);
    const stability = leftOutMarker(object(interaction.request), options.leaveOut ?? []);
    if (stability !== undefined) {
      cases.leftOut.push(leftOutCase(description, stability));
      continue;
    }
    const findings =
      options.include?.(description) === false
        ? []
        : (await judgeInteraction(interactionToJudge(interaction, options.apiKey))).filter(
            (finding) => !leftToTheProvider(finding, object(interaction.response)),
          );
    if (findings.length === 0) kept.push(interaction);
    else cases.contradicted.push(contradictedCase(description, findings));
  }
  return kept.length === interactions.length ? undefined : { pact, kept };
}

/**
 * The stability marker that leaves an interaction's operation out of the run (`leaveOut`, the markers
 * of `--leave-out-beta`), read from its request's method and path by the path's major; undefined when
 * the run judges it (a path of no operation is judged, and the judge says so).
 */
function leftOutMarker(request: Json, leaveOut: readonly string[]): string | undefined {
  if (leaveOut.length === 0) return undefined;
  const { base, path } = majorOf(String(request.path ?? '/').replace(/^\/v1(?=\/|$)/, ''));
  const stability = matchRoute(String(request.method ?? 'GET').toUpperCase(), path, base)?.route.stability;
  return stability !== null && stability !== undefined && leaveOut.includes(stability) ? stability : undefined;
}

/** An interaction the run leaves out, as a case: skipped with why, as the run names the operation left out. */
function leftOutCase(description: string, stability: string): CaseResult {
  return {
    name: description,
    verdict: 'skipped',
    reason: `left out: its operation is marked ${stability}, which --leave-out-beta leaves out (not sent to the provider)`,
    exchanges: [],
  };
}

/** Who may verify which interactions: the run's key, the interactions asked for, and the markers it leaves out. */
interface JudgeOptions {
  apiKey?: string | undefined;
  include?: (description: string) => boolean;
  /** The stability markers whose operations' interactions are left out (`--leave-out-beta`). Default: none. */
  leaveOut?: readonly string[] | undefined;
}

/**
 * Judges every interaction of consumers' pact files (`--pact`) by the one judge before a provider is
 * held to them: an interaction the specification or the model contradicts (an undocumented status, a
 * body that is no Order or Error record, an answer its provider state cannot give) becomes an error
 * case of its own and is taken out of what Pact's verifier reads, so an honest provider is never red
 * for it. A file that cannot be used (not JSON, a wrong shape: `checkPactText`) is refused first.
 * @throws PactFileError (code `invalid_consumer_pact`) for the first file that cannot be used; no copy is left.
 * @example
 * const judged = await judgeConsumerPacts(['pacts/web-app-petstore-order-interface.json'], { apiKey: 'k' });
 * judged.contradicted // [] for a pact mock.pact() wrote
 */
export async function judgeConsumerPacts(
  files: readonly string[],
  options: JudgeOptions,
): Promise<JudgedConsumerPacts> {
  const pactUrls: string[] = [];
  const contradicted: CaseResult[] = [];
  const leftOut: CaseResult[] = [];
  let copies: string | undefined;
  const remove = async () => {
    if (copies !== undefined) await rm(copies, { recursive: true, force: true });
  };
  try {
    for (const file of files) {
      const judged = await judgedFile(file, options, { contradicted, leftOut });
      if (judged === undefined) pactUrls.push(file);
      else if (judged.kept.length > 0) {
        copies ??= await mkdtemp(join(tmpdir(), 'petstore-verify-pacts-'));
        const copy = join(copies, `${pactUrls.length}-${basename(file)}`);
        await writeFile(copy, stringifyJson({ ...judged.pact, interactions: judged.kept }));
        pactUrls.push(copy);
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { pactUrls, contradicted, leftOut, remove };
}
