// A consumer's pact, written from what its app called on the mock: each call of the journal becomes
// a Pact V4 interaction with the provider state it depended on, judged first by the one judge (the
// specification and the model), so that a pact the contract forbids never leaves the frontend.
import { developmentApiKey, wrongApiKey, type KeyChoice } from '../core/authorization.js';
import { findingMessage, type Finding } from '../core/finding.js';
import { parseInt64 } from '../core/int64.js';
import { parseJson, type JsonValue } from '../core/parse-json.js';
import { providerState } from '../core/provider-state.js';
import { matchRoute, type OperationName } from '../core/routes.js';
import { stringifyJson } from '../core/stringify-json.js';
import { PactContradictsSpec } from './errors.js';
import {
  checkedParties,
  defaultPactProvider,
  writePactFile,
  type PactOptions,
  type PactSelection,
} from './pact-file.js';
import { judgeInteraction } from './judge-interaction.js';
import { isPicked, type RecordedCall } from './journal.js';

/** A call of the journal left out of the pact, and why: it is not the provider's contract, or cannot be stated. */
export interface LeftOutCall {
  call: string;
  reason: 'fault' | 'network' | 'body-too-large' | 'not-an-operation';
}

/** A finding of the judge on one interaction of the pact: the pact cannot be written while there is one. */
export interface PactFinding extends Finding {
  interaction: string;
}

/** A consumer's pact as data: the document, what the judge found, and the calls left out. */
export interface ConsumerPact {
  document: Record<string, JsonValue>;
  findings: PactFinding[];
  leftOut: LeftOutCall[];
}

type Interaction = Record<string, JsonValue>;

const utf8 = new TextDecoder();
const rfc3339 = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';
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
 * The orders the answer depended on, as the provider state sets them: the orders a list showed, the
 * order a cancel found (its id, and the status that gave its answer), none for a refusal or a 404.
 */
function stateOf(operation: OperationName, below: string, status: number, body: JsonValue | undefined): JsonValue[] {
  if (operation === 'listOrders') return status === 200 && Array.isArray(body) ? body : [];
  if (operation !== 'cancelOrder') return [];
  const id = parseInt64(decodeURIComponent(below.split('/').pop() ?? ''));
  if (id === undefined) return [];
  if (status === 204) return [{ id, status: 'pending' }];
  if (status === 409) return [{ id, status: 'shipped' }];
  return [];
}

/** The matching rules of a response body: where the contract lets an honest provider differ. */
function bodyRules(body: JsonValue | undefined): Record<string, JsonValue> | undefined {
  if (Array.isArray(body) && body.length > 0)
    return {
      $: rule({
        match: 'arrayContains',
        variants: body.map((_, index) => ({
          index,
          rules: {
            '$.petId': rule({ match: 'integer' }),
            '$.quantity': rule({ match: 'integer' }),
            '$.shipDate': rule({ match: 'regex', regex: rfc3339 }),
          },
        })),
      }),
    };
  // The specification does not enumerate the Error record's codes: any string; its status is the response's.
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'code' in body)
    return { '$.code': rule({ match: 'type' }), '$.message': rule({ match: 'type' }) };
  if (body !== undefined && body !== null && typeof body === 'object') return { $: rule({ match: 'type' }) };
  return undefined;
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
  const rules = bodyRules(body);
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
  if (call.answer.bodyDropped === true) return 'body-too-large';
  return undefined;
}

/** One call as an interaction (without its description), and what the judge found of it. */
async function interactionOf(
  call: RecordedCall,
  basePath: string,
): Promise<{ interaction: Interaction; findings: Finding[] }> {
  const below = call.path.slice(basePath.length);
  const text = bodyText(call.answer!.body);
  let body: JsonValue | undefined;
  try {
    body = text === '' ? undefined : parseJson(text);
  } catch {
    body = undefined;
  }
  const key = keyOf(call);
  const route = matchRoute(call.method, below)!.route;
  const state = stateOf(route.operation, below, call.status as number, body);
  const headers = new Headers();
  if (call.answer!.contentType !== null) headers.set('content-type', call.answer!.contentType);
  if (call.answer!.wwwAuthenticate !== null) headers.set('www-authenticate', call.answer!.wwwAuthenticate);
  const findings = await judgeInteraction({
    method: call.method,
    path: below,
    key: key.choice,
    orders: state,
    response: { status: call.status as number, headers, text },
  });
  const interaction: Interaction = {
    type: 'Synchronous/HTTP',
    ...(route.operation !== 'readPet' && { providerStates: [{ name: providerState, params: { orders: state } }] }),
    request: {
      method: call.method,
      path: `/v1${below}`,
      ...(key.header !== undefined && {
        headers: { Authorization: [key.header] },
        matchingRules: { header: { Authorization: rule({ match: 'regex', regex: '^(?i)bearer\\s+\\S+$' }) } },
      }),
    },
    // The specification gives the 409 no body (spec gap 2): a provider may send one or not, so the pact states none.
    response: route.operation === 'cancelOrder' && call.status === 409 ? { status: 409 } : responseOf(call, text, body),
    pending: false,
  };
  return { interaction, findings };
}

/** A short name for an interaction: what was called, and what it answered. */
function descriptionOf(call: RecordedCall, below: string): string {
  return `${call.method} ${below} ${call.status} (${call.authorization === 'valid' ? 'with the key' : call.authorization === 'none' ? 'without a key' : 'with a wrong key'})`;
}

/**
 * The Pact V4 document of the calls an app made, as the journal holds them: identical interactions
 * once, calls a fault answered (or dropped) left out and named in the metadata, and each interaction
 * judged by the specification and the model before it is written.
 * @example
 * const { document, findings } = await consumerPact(session.journalCalls(), { consumer: 'web-app' }, '/v1');
 * findings // [] when every call is one the contract allows
 */
export async function consumerPact(
  calls: readonly RecordedCall[],
  selection: PactSelection,
  basePath: string,
): Promise<ConsumerPact> {
  const picked = calls.filter((call) => isPicked(call, selection.filter));
  await Promise.all(picked.map((call) => call.answer?.bodyRead));
  const interactions: Interaction[] = [];
  const written = new Map<string, string>();
  const findings: PactFinding[] = [];
  const leftOut: LeftOutCall[] = [];
  const descriptions = new Map<string, number>();
  for (const call of picked) {
    const reason = reasonToLeaveOut(call);
    if (reason !== undefined) {
      leftOut.push({ call: `${call.method} ${call.path} ${call.status}`, reason });
      continue;
    }
    const { interaction, findings: found } = await interactionOf(call, basePath);
    const identity = stringifyJson(interaction as JsonValue);
    if (written.has(identity)) continue;
    const base = descriptionOf(call, call.path.slice(basePath.length));
    const seen = (descriptions.get(base) ?? 0) + 1;
    descriptions.set(base, seen);
    const description = seen === 1 ? base : `${base} #${seen}`;
    written.set(identity, description);
    interactions.push({ description, ...interaction });
    for (const finding of found) findings.push({ ...finding, interaction: description });
  }
  const document: Record<string, JsonValue> = {
    consumer: { name: selection.consumer },
    provider: { name: selection.provider ?? defaultPactProvider },
    interactions,
    metadata: {
      pactSpecification: { version: '4.0' },
      'petstore-contract-kit': {
        leftOut: leftOut.length === 0 ? 'none' : leftOut.map((call) => `${call.call}: ${call.reason}`).join('; '),
      },
    },
  };
  return { document, findings, leftOut };
}

/**
 * Judges the calls as a pact, and writes it when the judge found nothing: `dir/CONSUMER-PROVIDER.json`,
 * all at once (a new file, then renamed). Throws `PactContradictsSpec`, writing nothing, when it found
 * something. Resolves with the file's path.
 * @example
 * await writeConsumerPact(session.journalCalls(), { consumer: 'web-app' }, '/v1') // 'pacts/web-app-petstore-order-interface.json'
 */
export async function writeConsumerPact(
  calls: readonly RecordedCall[],
  options: PactOptions,
  basePath: string,
): Promise<string> {
  const parties = checkedParties(options);
  const { document, findings } = await consumerPact(calls, { ...options, ...parties }, basePath);
  if (findings.length > 0)
    throw new PactContradictsSpec(
      `the pact was not written: the contract does not allow ${findings.length === 1 ? 'this interaction' : 'these interactions'}: ${findings
        .map((finding) => `${finding.interaction}: ${findingMessage(finding)}`)
        .join('; ')}`,
      findings,
    );
  return writePactFile(document, { ...options, ...parties });
}
