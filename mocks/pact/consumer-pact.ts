// A consumer's pact, written from what its app called on the mock: each call of the journal becomes
// a Pact V4 interaction with the provider state it depended on, judged first by the one judge (the
// specification and the model), so that a pact the contract forbids never leaves the frontend.
import { developmentApiKey, wrongApiKey, type KeyChoice } from '../../core/authorization.js';
import { findingMessage, type Finding } from '../../core/finding.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { providerState } from '../../core/provider-state.js';
import { toInt64 } from '../../core/int64.js';
import { orderFields } from '../../core/records.js';
import { operationDefinitions, statusShowing } from '../../core/operation-definitions.js';
import {
  documentedResponse,
  matchRoute,
  routeOf,
  schemaNameOf,
  type DocumentedResponse,
  type RouteMatch,
} from '../../core/routes.js';
import { openApiDocument } from '../../spec/generated/openapi-document.js';
import { MockUsageError, PactContradictsSpec, type PactFinding } from '../base/errors.js';
import {
  checkedParties,
  conflictError,
  defaultPactProvider,
  writePactFile,
  type PactOptions,
  type PactSelection,
} from './pact-file.js';
import type { InteractionJudge } from './interaction-judge.js';
import { isPicked, keptBodiesLimit, type RecordedCall } from '../journal/journal.js';
import { InteractionMerger, type Interaction, type PactConflict } from './pact-merge.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { kitMetadata, leftOutText, type LeftOutCall } from './pact-metadata.js';
import { PactText, pactSizeLimit, pactTooLargeMessage, type PactTooLarge } from './pact-text.js';
import { pactCallLimit, type PactCalls } from './pact-ledger.js';
import { majorBase } from '../../core/major-base.js';

export { leftOutText, type LeftOutCall } from './pact-metadata.js';
export { pactTooLargeMessage } from './pact-text.js';

/**
 * A consumer's pact as data: the document, what the judge found, the calls left out, and what the
 * mock could not see (`unseen`: answers of handlers in front of the kit's, when no MSW server was observed).
 */
export interface ConsumerPact {
  document: Record<string, JsonValue>;
  findings: PactFinding[];
  leftOut: LeftOutCall[];
  /** Requests answered differently under the same provider state: such a pact cannot be written. */
  conflicts: PactConflict[];
  unseen?: string;
}

/** Where a pact's calls were answered: the base path they are under, and whether some answers went unseen. */
export interface PactContext {
  basePath: string;
  /** Set when the mock's MSW handlers are in use and no server was observed (`mock.observe`). */
  unseen?: string;
  /** The judge of each interaction (`judgeInteraction`), given by the mock: the pact room makes no mock. */
  judge: InteractionJudge;
  /** The most bytes of JSON text the pact may have. Default: `pactSizeLimit` (64 MiB). */
  maxBytes?: number;
  /** Where `writeConsumerPact` says the calls the pact it wrote leaves out, in its metadata's words. */
  warn?: (line: string) => void;
}

const utf8 = new TextDecoder();
const rfc3339 = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';
const httpDate =
  '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$';
const rule = (matcher: Record<string, JsonValue>) => ({ combine: 'AND', matchers: [matcher] });

function bodyText(body: string | readonly Uint8Array[] | null): string {
  if (body === null) return '';
  if (typeof body === 'string') return body;
  return body.map((part) => utf8.decode(part, { stream: true })).join('') + utf8.decode();
}

/** The Authorization a pact sends for what the app sent: the pact's own keys, never the app's. */
function keyOf(call: RecordedCall): { choice: KeyChoice; header: string | undefined } {
  if (call.authorization === 'none') return { choice: 'none', header: undefined };
  if (call.authorization === 'valid') return { choice: 'valid', header: `Bearer ${developmentApiKey}` };
  return { choice: 'wrong', header: `Bearer ${wrongApiKey}` };
}

/**
 * The orders the answer depended on, as the provider state sets them: what the operation's definition
 * says its answer proves (the orders a list showed; the order a cancel found, with the status that
 * gave its answer), none where it proves nothing of an order held (a refusal, a 404).
 */
function stateOf(
  match: RouteMatch,
  answer: { status: number; body: JsonValue | undefined; heldAs: RecordedCall['heldAs'] },
): JsonValue[] {
  const { status, body, heldAs } = answer;
  const evidence = operationDefinitions[match.route.operation].evidence({ status, body, parameter: match.parameter });
  if (evidence.kind === 'listed') return [...evidence.orders];
  if (evidence.kind === 'held' && againAcceptsOf(match, { status, heldAs }) !== undefined)
    return [{ id: evidence.id, status: 'cancelled' }];
  if (evidence.kind === 'held' && evidence.as !== 'absent')
    return [{ ...fieldsShown(body, evidence.id), id: evidence.id, status: evidence.as }];
  return [];
}

/**
 * The statuses the contract accepts for a refused cancel of an order the mock held as cancelled (404
 * or 409), when this answer is one of them: the pact then states the order as cancelled, so that a
 * provider that revives a cancelled order, or cancels it twice, does not pass on an empty store.
 */
function againAcceptsOf(
  match: RouteMatch,
  { status, heldAs }: { status: number; heldAs: RecordedCall['heldAs'] },
): readonly number[] | undefined {
  const accepted =
    heldAs === 'cancelled' ? operationDefinitions[match.route.operation].cancels?.againAccepts : undefined;
  return accepted?.includes(status) ? accepted : undefined;
}

/**
 * The answer to a cancel of an order already cancelled, as a pact states it: any status the
 * operation's definition accepts for it (404 or 409, tolerance `cancelled-order-cancelled-again`,
 * Pact V4's `statusCode` matcher), and no body, since the 409 documents none (spec gap 2).
 */
function refusedAgain(status: number, accepted: readonly number[]): Interaction {
  return { status, matchingRules: { status: rule({ match: 'statusCode', status: [...accepted] }) } };
}

/**
 * The documented fields of the order an answer's body shows, when it is the order the call names (a
 * read's or a ship's 200): the provider state must hold them, or a verifier finds them missing.
 */
function fieldsShown(body: JsonValue | undefined, id: bigint): Record<string, JsonValue> {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || toInt64(body.id) !== id) return {};
  return Object.fromEntries(orderFields.flatMap((field) => (body[field] === undefined ? [] : [[field, body[field]!]])));
}

/** The matching rules of a response body: where the contract lets an honest provider differ. */
function bodyRules(body: JsonValue | undefined): Record<string, JsonValue> | undefined {
  // An empty list is matched as it is: a list with an order in it is not what an empty store answers.
  if (Array.isArray(body) && body.length === 0) return undefined;
  if (Array.isArray(body)) {
    // One object shared by every variant: the text is the same, and a list of 2,000 orders holds one, not 2,000.
    const rules = {
      '$.petId': rule({ match: 'integer' }),
      '$.quantity': rule({ match: 'integer' }),
      '$.shipDate': rule({ match: 'regex', regex: rfc3339 }),
    };
    return { $: rule({ match: 'arrayContains', variants: body.map((_, index) => ({ index, rules })) }) };
  }
  // The specification does not enumerate the Error record's codes: any string; its status is the response's.
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'code' in body)
    return { '$.code': rule({ match: 'type' }), '$.message': rule({ match: 'type' }) };
  // Any object (`{}`, the pet read): Pact allows a response more fields than it states, so no rule.
  if (body !== null && typeof body === 'object' && Object.keys(body).length === 0) return undefined;
  if (body !== undefined && body !== null && typeof body === 'object') return { $: rule({ match: 'type' }) };
  return undefined;
}

/**
 * Whether the document lets a response's body be any JSON object: its schema an object that names no
 * field (the pet read's Pet). The pact then states `{}`, which every object matches (Pact allows a
 * response more fields than it states), so that no field the app happened to see becomes the contract.
 */
function isAnyObject(response: DocumentedResponse | undefined): boolean {
  const name = response === undefined ? undefined : schemaNameOf(response);
  const schemas = openApiDocument.components.schemas as Record<string, { type?: unknown; properties?: unknown }>;
  const schema = name === undefined ? undefined : schemas[name];
  return schema?.type === 'object' && schema.properties === undefined;
}

/** The response of an interaction: the status, the headers a pact states, the body with its rules. */
function responseOf(call: RecordedCall, text: string, body: JsonValue | undefined): Interaction {
  const answer = call.answer!;
  const headers: Record<string, JsonValue> = {};
  const headerRules: Record<string, JsonValue> = {};
  if (answer.contentType !== null && text !== '') {
    headers['Content-Type'] = [answer.contentType];
    headerRules['Content-Type'] = rule({ match: 'regex', regex: '^application/json(\\s*;.*)?$' });
  }
  if (answer.wwwAuthenticate !== null) {
    headers['WWW-Authenticate'] = [answer.wwwAuthenticate];
    headerRules['WWW-Authenticate'] = rule({ match: 'regex', regex: '^(?i)bearer\\b.*$' });
  }
  // The deprecated pet read's dates are the provider's to choose: their syntax is the contract (RFC 9745, 8594).
  if (answer.deprecation !== undefined) {
    headers.Deprecation = [answer.deprecation];
    headerRules.Deprecation = rule({ match: 'regex', regex: '^@-?\\d+(;.*)?$' });
  }
  if (answer.sunset !== undefined) {
    headers.Sunset = [answer.sunset];
    headerRules.Sunset = rule({ match: 'regex', regex: httpDate });
  }
  const rules = isPage(body) ? pageRules(body) : bodyRules(body);
  return {
    status: call.status as number,
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(body !== undefined && { body: { content: body, contentType: 'application/json', encoded: false } }),
    ...((rules !== undefined || Object.keys(headerRules).length > 0) && {
      matchingRules: {
        ...(Object.keys(headerRules).length > 0 && { header: headerRules }),
        ...(rules !== undefined && { body: rules }),
      },
    }),
  };
}

/** Why a call of the journal cannot be a pact's interaction, if it cannot. */
function reasonToLeaveOut(call: RecordedCall): LeftOutCall['reason'] | undefined {
  if (call.status === 'network') return 'network';
  if (call.answer?.by === 'fault') return 'fault';
  if (call.operation === null || call.answer === undefined) return 'not-an-operation';
  // A cursor is the provider's to write (opaque, spec gap 54): the mock's means nothing to another provider.
  if (call.query !== undefined && new URLSearchParams(call.query).has('cursor')) return 'cursor';
  if (call.answer.bodyDropped === true) return 'body-too-large';
  return undefined;
}

/** A request's query as Pact V4 writes it (each name to its values, in the order sent), undefined for none. */
function pactQuery(query: string | undefined): Record<string, JsonValue> | undefined {
  if (query === undefined) return undefined;
  const values: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) (values[name] ??= []).push(value);
  return Object.keys(values).length === 0 ? undefined : values;
}

/**
 * The orders a page of v2's list shows, as the provider state sets them, when the page shows all its
 * filter's orders (its `nextCursor` null): a store of exactly them gives the same page. A page with a
 * next cursor shows part of what its filter keeps, and no state of its orders alone gives it (spec gap 54).
 */
function pageState(body: JsonValue | undefined): { orders: JsonValue[] } | 'next-cursor' | undefined {
  if (!isPage(body)) return undefined;
  return body.nextCursor === null || body.nextCursor === undefined ? { orders: [...body.orders] } : 'next-cursor';
}

/** Whether a body is a page of v2's list (`OrderPage`): its orders, and its next cursor. */
function isPage(body: JsonValue | undefined): body is { orders: JsonValue[]; nextCursor?: JsonValue } {
  return body !== null && typeof body === 'object' && !Array.isArray(body) && Array.isArray(body.orders);
}

/**
 * The matching rules of a page of v2's list: its orders as a list's. Its `nextCursor` is null (a page
 * with a next cursor is left out, `pageState`), stated as it is: a provider that pages too early fails.
 */
function pageRules(body: { orders: JsonValue[] }): Record<string, JsonValue> | undefined {
  const orders = bodyRules(body.orders)?.$;
  return orders === undefined ? undefined : { '$.orders': orders };
}

/** The path a major's calls are under on this mock: v1's base path, or v2's beside it. */
function majorPath(basePath: string, base: string): string {
  return majorBase(basePath, base) ?? `${basePath}${base}`;
}

/** One call as an interaction (without its description), and what the judge found of it. */
async function interactionOf(
  call: RecordedCall,
  { basePath, judge }: PactContext,
): Promise<{ interaction: Interaction; findings: Finding[] } | { leftOut: LeftOutCall['reason'] }> {
  const { base } = routeOf(call.operation!);
  const below = call.path.slice(majorPath(basePath, base).length);
  const text = bodyText(call.answer!.body);
  let body: JsonValue | undefined;
  try {
    body = text === '' ? undefined : parseJson(text);
  } catch {
    body = undefined;
  }
  const key = keyOf(call);
  const match = matchRoute(call.method, below, base)!;
  const { route } = match;
  const page = call.status === 200 ? pageState(body) : undefined;
  if (page === 'next-cursor') return { leftOut: 'next-cursor' };
  const state = page?.orders ?? stateOf(match, { status: call.status as number, body, heldAs: call.heldAs });
  const query = pactQuery(call.query);
  const againAccepts = againAcceptsOf(match, { status: call.status as number, heldAs: call.heldAs });
  const headers = new Headers();
  const answer = call.answer!;
  if (answer.contentType !== null) headers.set('content-type', answer.contentType);
  if (answer.wwwAuthenticate !== null) headers.set('www-authenticate', answer.wwwAuthenticate);
  if (answer.deprecation !== undefined) headers.set('deprecation', answer.deprecation);
  if (answer.sunset !== undefined) headers.set('sunset', answer.sunset);
  const findings = contradictionsOf(call, match);
  findings.push(
    ...(await judge({
      method: call.method,
      // Another major's path keeps its base: the judge, v1's today, must not read it as v1's call.
      path: base === '/v1' ? below : `${base}${below}`,
      query: call.query,
      key: key.choice,
      orders: state,
      response: { status: call.status as number, headers, text },
    })),
  );
  const interaction: Interaction = {
    type: 'Synchronous/HTTP',
    // Every interaction sets the one provider state, the pet read too (with no orders: it depends on none),
    // so that a verifier's state setup always has a state to set.
    providerStates: [{ name: providerState, params: { orders: state } }],
    request: {
      method: call.method,
      path: `${base}${below}`,
      ...(query !== undefined && { query }),
      ...(key.header !== undefined && {
        headers: { Authorization: [key.header] },
        matchingRules: { header: { Authorization: rule({ match: 'regex', regex: '^(?i)bearer\\s+\\S+$' }) } },
      }),
    },
    // Where the document shows no body for a status (the 409, spec gap 2), a provider may send one or
    // not, so the pact states none.
    response:
      againAccepts !== undefined
        ? refusedAgain(call.status as number, againAccepts)
        : documentedResponse(route, call.status as number)?.schema === null
          ? { status: call.status as number }
          : responseOf(call, text, isAnyObject(documentedResponse(route, call.status as number)) ? {} : body),
    pending: false,
  };
  return { interaction, findings };
}

/** The path a description names: below v1's base path (`/store/orders`), or with another major's (`/v2/store/orders`). */
function descriptionPath(call: RecordedCall, basePath: string): string {
  const { base } = routeOf(call.operation!);
  const below = call.path.slice(majorPath(basePath, base).length);
  return base === '/v1' ? below : `${base}${below}`;
}

/** A call as the metadata names it: `GET /v2/store/orders?cursor=abc 200`. */
function calledAs(call: RecordedCall): string {
  return `${call.method} ${call.path}${call.query === undefined ? '' : `?${call.query}`} ${call.status}`;
}

/** A short name for an interaction: what was called, and what it answered. */
function descriptionOf(call: RecordedCall, below: string): string {
  return `${call.method} ${below}${call.query === undefined ? '' : `?${call.query}`} ${call.status} (${call.authorization === 'valid' ? 'with the key' : call.authorization === 'none' ? 'without a key' : 'with a wrong key'})`;
}

/**
 * A call a handler in front of the kit's answered, against how the mock's own store held the order it
 * names then: a 409 for an order it held as pending is a contradiction the pact must not launder into
 * a "shipped" state.
 */
function contradictionsOf(call: RecordedCall, match: RouteMatch): Finding[] {
  if (call.heldAs === undefined || typeof call.status !== 'number') return [];
  const { operation } = match.route;
  const shown = operationDefinitions[operation].evidence({
    status: call.status,
    body: undefined,
    parameter: match.parameter,
  });
  const expected = statusShowing(operation, call.heldAs);
  if (shown.kind !== 'held' || expected === undefined || call.status === expected) return [];
  // A cancelled order refused again: any status the contract accepts there (404 or 409) is honest.
  if (againAcceptsOf(match, { status: call.status, heldAs: call.heldAs }) !== undefined) return [];
  const id = String(shown.id);
  const held = call.heldAs === 'absent' ? `held no order ${id}` : `held order ${id} as ${call.heldAs}`;
  return [
    {
      code: 'status-unexpected',
      path: 'status',
      expected: `status ${expected}: the mock ${held} when a handler in front of it answered (arrange the mock's orders instead: mock.collection(), a scenario)`,
      actual: `status ${call.status}`,
    },
  ];
}

/** A pact built: the document, what was found, and its JSON text as UTF-8 parts (those of `stringifyJson(document)`). */
interface BuiltPact {
  pact: ConsumerPact;
  parts: Uint8Array[];
}

/** Why a pact was not built: its text passed its limit. */
interface TooLargePact {
  tooLarge: PactTooLarge;
}

/**
 * Builds a pact one interaction at a time, merged as it comes, its text counted as it is written
 * (`PactText`: a turn of the event loop after every slice of text); stops as soon as the text passes
 * `maxBytes`. As `text`, it keeps the text and not the interactions (the document it gives has none):
 * what it holds is then about the text, never the text and its objects.
 */
async function buildPact(
  pactCalls: PactCalls,
  selection: PactSelection,
  context: PactContext,
  as: 'document' | 'text',
): Promise<BuiltPact | TooLargePact> {
  const { filter } = checkedParties(selection);
  const picked = pactCalls.calls.filter((call) => isPicked(call, filter));
  await Promise.all(picked.map((call) => call.answer?.bodyRead));
  const parties = {
    consumer: { name: selection.consumer },
    provider: { name: selection.provider ?? defaultPactProvider },
  };
  const text = new PactText({ maxBytes: context.maxBytes ?? pactSizeLimit, keep: as === 'text' });
  // The document's keys in its order: consumer, provider, interactions, metadata.
  text.write(`${stringifyJson(parties).slice(0, -1)},"interactions":[`);
  const merger = new InteractionMerger([], { keep: as === 'document' });
  const findings: PactFinding[] = [];
  const leftOut: LeftOutCall[] = [];
  let written = 0;
  for (const call of picked) {
    const reason = reasonToLeaveOut(call);
    if (reason !== undefined) {
      leftOut.push({ call: calledAs(call), reason });
      continue;
    }
    const built = await interactionOf(call, context);
    if ('leftOut' in built) {
      leftOut.push({ call: calledAs(call), reason: built.leftOut });
      continue;
    }
    const added = merger.add(
      { description: descriptionOf(call, descriptionPath(call, context.basePath)), ...built.interaction },
      pactCalls.madeIn?.get(call),
    );
    if (added === undefined) continue;
    for (const finding of built.findings) findings.push({ ...finding, interaction: String(added.description) });
    if (!text.write(`${written++ === 0 ? '' : ','}${stringifyJson(added)}`)) return { tooLarge: text.tooLarge() };
    await text.pause();
  }
  for (const call of pactCalls.notKept) leftOut.push({ call, reason: 'pact-limit' });
  const unnamed = pactCalls.overflow - pactCalls.notKept.length;
  if (unnamed > 0) leftOut.push({ call: `${unnamed} more distinct calls`, reason: 'pact-limit' });
  // In the Playwright reporter's words: a failed test's first-made calls are not the contract.
  for (const test of pactCalls.testsNotPassed ?? []) leftOut.push({ call: `test "${test}"`, reason: 'did not pass' });
  const metadata = {
    pactSpecification: { version: '4.0' },
    'petstore-contract-kit': kitMetadata(leftOut, pactCalls.overflow, context.unseen),
  };
  if (!text.write(`],"metadata":${stringifyJson(metadata)}}`)) return { tooLarge: text.tooLarge() };
  const document: Record<string, JsonValue> = { ...parties, interactions: merger.interactions, metadata };
  const { conflicts } = merger;
  const pact = {
    document,
    findings,
    leftOut,
    conflicts,
    ...(context.unseen !== undefined && { unseen: context.unseen }),
  };
  return { pact, parts: text.parts };
}

/**
 * The Pact V4 document of the calls an app made on a session since it started (or since
 * `clearPact()`), `reset()`s and the journal's limit notwithstanding: identical interactions once,
 * calls a fault answered (or dropped) left out and named in the metadata, each interaction judged by
 * the specification and the model before it is written, and a cancel a handler answered compared
 * with how the mock held the order. Built a slice at a time (other requests are answered between
 * slices); throws `MockUsageError` (`pact_too_large`) when its JSON text would pass `pactSizeLimit`
 * (or the context's `maxBytes`).
 * @example
 * const { document, findings } = await consumerPact(session.pactCalls(), { consumer: 'web-app' }, { basePath: '/v1', judge: judgeInteraction });
 * findings // [] when every call is one the contract allows
 */
export async function consumerPact(
  pactCalls: PactCalls,
  selection: PactSelection,
  context: PactContext,
): Promise<ConsumerPact> {
  const built = await buildPact(pactCalls, selection, context, 'document');
  if ('tooLarge' in built)
    throw new MockUsageError('pact_too_large', pactTooLargeMessage(selection.consumer, built.tooLarge));
  return built.pact;
}

/**
 * The consumer pact as `consumerPact` builds it, as its JSON text in UTF-8 parts, byte for byte
 * `stringifyJson(document)`, written as it is built (what `GET /__mock/pact` answers), with what was
 * found and left out (its `document` holds no interactions: they are in the text); or, past the size
 * limit, how far it got, the text built so far dropped.
 * @example
 * const built = await consumerPactText(session.pactCalls(), { consumer: 'web-app' }, { basePath: '/v1', judge: judgeInteraction, maxBytes: 1024 });
 * 'tooLarge' in built // true when the pact's text passed 1,024 bytes
 */
export async function consumerPactText(
  pactCalls: PactCalls,
  selection: PactSelection,
  context: PactContext,
): Promise<BuiltPact | TooLargePact> {
  return buildPact(pactCalls, selection, context, 'text');
}

/**
 * Judges the calls as a pact, and merges it into `dir/CONSUMER-PROVIDER.json` when the judge found
 * nothing: the interactions already there stay, the same request under the same state is written
 * once (see `writePactFile`). Throws `PactContradictsSpec`, writing nothing, when the judge found
 * something, and `MockUsageError` (`pact_limit_reached`) when calls did not fit. Resolves with the file's path.
 * @example
 * await writeConsumerPact(session.pactCalls(), { consumer: 'web-app' }, { basePath: '/v1', judge: judgeInteraction }) // 'pacts/web-app-petstore-order-interface.json'
 */
export async function writeConsumerPact(
  pactCalls: PactCalls,
  options: PactOptions,
  context: PactContext,
): Promise<string> {
  const parties = checkedParties(options);
  if (pactCalls.overflow > 0)
    throw new MockUsageError(
      'pact_limit_reached',
      `the pact was not written: ${pactCalls.overflow} distinct calls came past the ${pactCallLimit} (or ${keptBodiesLimit / 1024 / 1024} MiB of bodies) a session's pact holds, and a pact without them would not be your app's whole contract; clear it between parts with clearPact(), or write a pact per test file`,
    );
  const { document, findings, conflicts, leftOut } = await consumerPact(pactCalls, { ...options, ...parties }, context);
  if (findings.length > 0)
    throw new PactContradictsSpec(
      `the pact was not written: the contract does not allow ${findings.length === 1 ? 'this interaction' : 'these interactions'}: ${findings
        .map((finding) => `${finding.interaction}: ${findingMessage(finding)}`)
        .join('; ')}`,
      findings,
    );
  if (conflicts.length > 0) throw conflictError(conflicts);
  const file = await writePactFile(document, { ...options, ...parties });
  if (leftOut.length > 0) context.warn?.(`the pact ${file} leaves out ${leftOutText(leftOut)}`);
  return file;
}
