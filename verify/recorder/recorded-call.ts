import type { KeyChoice } from '../../core/authorization.js';
import type { ContractStep } from '../../core/scenario.js';
import { titleOf } from '../../core/operation-definitions.js';
import { isSafeMethod, matchRoute, storeListing, type Route } from '../../core/routes.js';
import { jsonBody, type Finding, type ObservedResponse } from '../../core/checks.js';
import { pageAgainstModel, type PageSeen, type PageStart } from '../scenario/page-against-model.js';
import { keyChoiceOf } from '../scenario/key-choice-of.js';
import { nearPathStep, nearRouteOf } from '../scenario/near-path-step.js';

/** One exchange the proxy forwarded, as the recorder takes it. */
export interface ExchangeToRecord {
  method: string;
  /** The path below the base URL, without its query: undefined for a request outside it. */
  operationPath: string | undefined;
  /** `/v2` for a call of v2's (below the base URL with `/v2` for `/v1`); else v1's. */
  base?: '/v2' | undefined;
  /** A v2 call's query as sent, without the `?`: its declared parameters are written (never `cursor`), the rest never. */
  query?: string | undefined;
  /** The request's `Authorization` header: read to tell the key choice, never written. */
  authorization: string | undefined;
  /** The upstream's status (0 when none came). */
  status: number;
  /** The response as the checks read it, when it could be read whole. */
  observed: ObservedResponse | undefined;
  /** What the proxy's checks found against the specification. */
  findings: readonly Finding[];
  /** When the request came and when its answer ended (`performance.now()`): calls at once are told apart by them. */
  startedAt: number;
  endedAt: number;
  /**
   * A request the client gave up on (a HAR's `status: 0`): no answer came, but the deployment may have
   * applied it, at any time after it was sent, so `endedAt` is `Infinity` (at once with every later call).
   */
  aborted?: true;
}

/** A step as it was recorded: its name, the file, and where the upstream's answer disagrees with the contract. */
export interface RecordedStep {
  file: string;
  step: ContractStep;
  /** The model's findings: where the upstream's answer is not what the contract requires in the recorded state. */
  disagreements: Finding[];
  /** Set for an earlier step judged again, because a later answer told more of the state (the first list). */
  again?: true;
}

/** One call the recording can write as a step, with what the upstream answered. */
export interface RecordableCall {
  title: string;
  method: Route['method'];
  path: string;
  key: KeyChoice;
  exchange: ExchangeToRecord;
  /** For a call on a path near a documented one without an accepted key: the step the rule `near-path-refusals` makes. */
  near?: ContractStep;
  /** A v2 call's: its base, the query it writes (declared parameters but `cursor`), and, for v2's list, where its page starts. */
  v2?: V2Call;
}

/**
 * What a v2 call writes and how its page is judged.
 * @example
 * const v2: V2Call = { base: '/v2', query: { status: 'pending', limit: '2' }, follows: true, start: { after: 2n } };
 */
export interface V2Call {
  base: '/v2';
  /** The declared parameters but `cursor`, in the order sent. */
  query: Record<string, string | string[]> | undefined;
  /** Whether it sent the `nextCursor` of the v2 page recorded last (then its step follows it: `cursor: follow`). */
  follows: boolean;
  /** Where its page starts, for v2's list. */
  start: PageStart;
  /**
   * Whether the recording's state is known (set, or named with `--from-scenario`): only then is a page
   * judged against the model's store; an inferred state takes nothing from v2's pages (spec gap 62).
   */
  storeKnown?: boolean;
}

/** What the model made of a call in the state the recording was judged in. */
export interface StepJudgement {
  step: ContractStep;
  /** The step as the file writes it: a step is written as YAML once. */
  text: string;
  /** What the model found, before calls at the same time are allowed for. */
  found: Finding[];
  /** Where the upstream's answer disagrees with the contract, calls at the same time allowed for. */
  disagreements: Finding[];
  /** The model's status, and for a list the orders it holds that the upstream's list leaves out. */
  judgedAs: { status: number; missing: bigint[] };
}

/** A call of the recording and, once judged, its judgement (none while the state it is judged in changes). */
export interface RecordingEntry {
  call: RecordableCall;
  judgement: StepJudgement | undefined;
}

/**
 * The call an exchange makes for the recording, numbered `number`: an operation's, or one on a path near
 * an operation's without an accepted key (judged by the rule `near-path-refusals`); undefined for an
 * exchange of no operation (a near path with an accepted key included: nothing there is the contract's),
 * or with no answer.
 */
export function recordableCall(
  exchange: ExchangeToRecord,
  number: number,
  apiKey: string | undefined,
  lastPage?: PageSeen,
): RecordableCall | undefined {
  const { method } = exchange;
  // Parameters after a `;` in a segment (`5;jsessionid=…`) can carry a session: never written.
  const path = exchange.operationPath?.replace(/;[^/]*/g, '');
  // No answer at all (the connection dropped before a status line): nothing the upstream said to record.
  // An aborted cancel is kept: the deployment may have applied it (the race rules decide what that allows).
  if (path === undefined || (exchange.status === 0 && exchange.aborted !== true)) return undefined;
  if (exchange.base === '/v2') return recordableV2Call({ exchange, number, apiKey, path, lastPage });
  // Every operation of the route table, whatever its method: a method named here would skip the next one.
  const match = matchRoute(method, path);
  const key = keyChoiceOf(exchange.authorization, { apiKey, status: exchange.status });
  if (match === undefined) {
    const near = nearPathStep({ method, path, key });
    if (near === undefined) return undefined;
    const title = `${number}. ${stepTitle(method, path, key)}`;
    return { title, method: near.request.method, path, key, exchange, near: { ...near, name: title } };
  }
  const aborted = exchange.aborted === true ? ', aborted by the client: no answer came' : '';
  return {
    title: `${number}. ${stepTitle(method, path, key)}${aborted}`,
    method: match.route.method,
    path,
    key,
    exchange,
  };
}

/**
 * A v2 call as the recording writes it: an operation of v2's (nothing near one: v2 has no near-path
 * rule), its declared parameters but the cursor, and, sent with a cursor, only the one the v2 page
 * recorded last gave (a cursor from a page the recording does not hold, or not the last, cannot be
 * followed by a replay: the call is counted as skipped, its answer still judged by the specification).
 */
function recordableV2Call(input: {
  exchange: ExchangeToRecord;
  number: number;
  apiKey: string | undefined;
  path: string;
  lastPage: PageSeen | undefined;
}): RecordableCall | undefined {
  const { exchange, number, apiKey, path, lastPage } = input;
  const match = matchRoute(exchange.method, path, '/v2');
  if (match === undefined) return undefined;
  const sent = new URLSearchParams(exchange.query ?? '');
  const cursors = sent.getAll('cursor');
  const follows =
    cursors.length === 1 && typeof lastPage?.nextCursor === 'string' && cursors[0] === lastPage.nextCursor;
  if (cursors.length > 0 && !follows) return undefined;
  const declared = new Set(
    (match.route.query as readonly { name: string }[]).map(({ name }) => name).filter((name) => name !== 'cursor'),
  );
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of sent) {
    if (!declared.has(name)) continue;
    const earlier = query[name];
    query[name] = earlier === undefined ? value : [earlier, value].flat();
  }
  const written = Object.keys(query).length === 0 ? undefined : query;
  const key = keyChoiceOf(exchange.authorization, { apiKey, status: exchange.status });
  const shown =
    written === undefined
      ? ''
      : ` ${new URLSearchParams(Object.entries(written).flatMap(([name, value]) => [value].flat().map((each) => [name, each]))).toString().replaceAll('&', ' ')}`;
  return {
    title: `${number}. ${titleOf(match.route.operation)}${shown}${follows ? ', the next page' : ''}${keyPhrases[key]}`,
    method: match.route.method,
    path,
    key,
    exchange,
    v2: { base: '/v2', query: written, follows, start: follows ? lastPage!.next : 'first' },
  };
}

/**
 * What the page of a recorded call of v2's list showed, for the call that follows its cursor; undefined
 * for a call that is not such a page, or was not answered 200.
 * @example
 * recording.lastPage = pageSeenOf(call); // { nextCursor: 'opaque', next: { after: 2n } }
 */
export function pageSeenOf(call: RecordableCall): PageSeen | undefined {
  const { v2, exchange } = call;
  if (v2 === undefined || exchange.status !== 200 || exchange.observed === undefined) return undefined;
  if (matchRoute(call.method, call.path, '/v2')?.route.operation !== 'listOrdersV2') return undefined;
  const body = exchange.observed.bodyUnknown === true ? undefined : jsonBody(exchange.observed);
  if (body === undefined) return undefined;
  return pageAgainstModel({ query: new URLSearchParams(exchange.query ?? ''), start: v2.start, body, store: undefined })
    .seen;
}

/** Whether `call` is a read identical to the one just before it, answer and all: nothing changed between them. */
export function repeatsRead(previous: RecordableCall | undefined, call: RecordableCall): boolean {
  return (
    previous !== undefined &&
    isSafeMethod(call.method) &&
    isSafeMethod(previous.method) &&
    previous.path === call.path &&
    previous.exchange.base === call.exchange.base &&
    previous.exchange.query === call.exchange.query &&
    previous.key === call.key &&
    previous.exchange.status === call.exchange.status &&
    previous.exchange.observed !== undefined &&
    // Two answers whose bodies nobody kept may differ: neither repeats the other.
    previous.exchange.observed.bodyUnknown !== true &&
    call.exchange.observed?.bodyUnknown !== true &&
    previous.exchange.observed.text === call.exchange.observed?.text
  );
}

const keyPhrases: Record<KeyChoice, string> = {
  valid: '',
  none: ' without a key',
  wrong: ' with a wrong key',
  basic: ' with another scheme',
  'lowercase-scheme': ' with the scheme in lower case',
  prefixed: ' with a near key (prefixed)',
  suffixed: ' with a near key (suffixed)',
  containing: ' with a near key (containing)',
  truncated: ' with a near key (truncated)',
};

/** A step's name: what the call does, and with which key. */
export function stepTitle(method: string, path: string, key: KeyChoice): string {
  const match = matchRoute(method, path);
  const near = match === undefined ? nearRouteOf(method, path) : undefined;
  if (near !== undefined) return `${titleOf(near.route.operation)} at ${path}, with ${near.kind}${keyPhrases[key]}`;
  // A recordable call is one of an operation or near one; the list's title stands for none, as before.
  const action =
    match === undefined ? titleOf(storeListing().operation) : titleOf(match.route.operation, match.parameter);
  return `${action}${keyPhrases[key]}`;
}
