import type { StoredOrder } from './records.js';
import { parseInt64, toInt64 } from './int64.js';
import { parseJson, type JsonValue } from './parse-json.js';
import { orderFields, orderInt64Fields } from './records.js';
import { documentedResponse, matchRoute, routeOf, schemaNameOf, type OperationName } from './routes.js';
import { jsonBody, statusFindings, type Finding, type ObservedResponse } from './checks.js';
import type { ContractStep } from './scenario.js';
import { preview } from './preview.js';
import { operationDefinitions, statusShowing } from './operation-definitions.js';
import { pageFindings, pageWalk, skippedFindings, type WalkProgress } from './page-findings.js';

/** What the model answers one call: the status, the headers and the body, as the kit's mock does. */
export interface ModelAnswer {
  operation: OperationName;
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** Where the specification is open, what the harness accepts besides what the model answers, and why. */
export interface Tolerance {
  id: string;
  where: string;
  accepts: string;
  because: string;
}

/**
 * Every tolerance of the harness, in one table: the fixed suite, the pact guard and exploration all
 * compare with the model through it, and `docs/harness.md` lists it (a test keeps the two equal).
 */
export const tolerances: readonly Tolerance[] = [
  {
    id: 'cancelled-order-cancelled-again',
    where: 'DELETE of an order already cancelled',
    accepts: '404 or 409 (the mock answers 404), never a 2xx',
    because: 'the state table has no row for a cancelled order (spec gap 22)',
  },
  {
    id: 'race-losers',
    where: 'cancels of one pending order sent at once',
    accepts: 'exactly one 204; every other answer 404 or 409',
    because: 'the losers cancel an order the winner cancelled: as above',
  },
  {
    id: 'list-during-cancels',
    where: 'a list at the same time as cancels of pending orders (each request sent before the others were answered)',
    accepts: 'each order being cancelled listed or not; every other order as the state gives it',
    because: 'the provider may take the list before or after each cancel',
  },
  {
    id: 'cancelled-order-listed',
    where: 'a list after a cancellation',
    accepts: 'the cancelled order listed with its fields unchanged, or absent; once absent, it stays absent',
    because:
      'the specification does not say whether a cancelled order stays listed (spec gap 21); scenarios mark it advisory',
  },
  {
    id: 'list-order',
    where: 'a list',
    accepts: 'the orders in any order',
    because: 'the specification sets no order',
  },
  {
    id: 'unseeded-fields',
    where: 'a listed order',
    accepts: 'a field the provider state does not give: absent, or present with any value the schema allows',
    because: 'no Order field is required, and a provider may store a default',
  },
  {
    id: 'extra-fields',
    where: 'an Order or an Error record',
    accepts: 'fields beyond those the specification lists',
    because: 'neither schema forbids additional properties',
  },
  {
    id: 'date-time-forms',
    where: 'shipDate',
    accepts: 'any RFC 3339 form of the same instant (fractional seconds, an offset instead of Z)',
    because: 'the format is date-time: what it says is an instant',
  },
  {
    id: 'error-record-content',
    where: 'an Error record',
    accepts: 'any code and message; its status must equal the HTTP status',
    because: 'the codes are not enumerated (section 7, rule 2)',
  },
  {
    id: 'conflict-body',
    where: 'the 409 of a cancellation',
    accepts: 'no body, or an Error record',
    because: 'the 409 has no body schema (spec gap 20)',
  },
  {
    id: 'media-type-parameters',
    where: 'Content-Type',
    accepts: 'application/json with parameters, such as charset=utf-8',
    because: 'RFC 9110 §8.3.1: parameters belong to the media type',
  },
  {
    id: 'pet-record',
    where: 'the pet read',
    accepts: "any JSON object, and any Deprecation and Sunset dates in their RFCs' syntax",
    because: 'the Pet fields and the dates are not shown',
  },
  {
    id: 'near-path-refusals',
    where: 'a path near a documented one, without a key (scenario near-paths-without-key)',
    accepts:
      "401 or 404 with an Error record on an operation's path; elsewhere any redirect or 4xx refusal, never a 2xx",
    because:
      "every request requires authentication, but whether routing or authentication answers first is the provider's",
  },
  {
    id: 'bearer-challenge-parameters',
    where: 'WWW-Authenticate on a 401',
    accepts: 'a Bearer challenge with any parameters (realm, error), among other challenges',
    because: 'RFC 6750 §3 requires the challenge, not its parameters',
  },
];

/**
 * Tolerance `race-losers`, for any calls made at once whose answers may end in any order: exactly one
 * answer has a winning status and every other one a losing status.
 */
export function settlesRace(
  statuses: readonly number[],
  winners: readonly number[],
  losers: readonly number[],
): boolean {
  const won = statuses.filter((status) => winners.includes(status)).length;
  return won === 1 && statuses.every((status) => winners.includes(status) || losers.includes(status));
}

/**
 * The answers of N identical requests sent at once: with `others`, exactly one has the step's status
 * and every other one of `others`; without, every one has the step's status. `calls` names the
 * requests in the message, and `because` says why, when there is more to say.
 */
export function raceFindings(
  expect: ContractStep['expect'],
  statuses: readonly number[],
  calls = 'answers',
  because?: string,
): Finding[] {
  const winner = [expect.status].flat();
  const race = (expected: string): Finding[] => [
    {
      code: 'status-race',
      path: 'status',
      expected: `${expected}${because === undefined ? '' : `, ${because}`}`,
      actual: statuses.join(', '),
    },
  ];
  if (expect.others === undefined) {
    return statuses.every((status) => winner.includes(status))
      ? []
      : race(`every one of ${statuses.length} ${calls} at once to be ${winner.join(' or ')}`);
  }
  const others = expect.others;
  if (settlesRace(statuses, winner, others)) return [];
  return race(
    `exactly one of ${statuses.length} ${calls} at once to be ${winner.join(' or ')} and the others ${others.join(' or ')}`,
  );
}

/**
 * What a provider may answer a request without a key on a path near a documented one (tolerance
 * `near-path-refusals`): on an operation's path (an id that is no canonical int64), a 401 or a 404;
 * elsewhere (a trailing slash, a second slash), any redirect or 4xx refusal. Never a 2xx.
 */
export function nearPathStatuses(method: string, path: string): number[] {
  return matchRoute(method, path) === undefined ? [301, 302, 307, 308, 400, 401, 403, 404, 405] : [401, 404];
}

/**
 * What the harness remembers of a provider across the calls of one state: the cancelled orders it
 * has shown leaving the list, which must not come back (tolerance `cancelled-order-listed`).
 */
export class ProviderHistory {
  readonly left = new Set<bigint>();
}

// Compared as the int64 it is (ids), the instant it says (date-times), or strictly.
function sameValue(field: string, expected: unknown, actual: unknown): boolean {
  if ((orderInt64Fields as string[]).includes(field) || field === 'quantity') {
    const left =
      typeof expected === 'bigint' ? expected : Number.isInteger(expected) ? BigInt(expected as number) : undefined;
    const right = typeof actual === 'bigint' ? actual : Number.isInteger(actual) ? BigInt(actual as number) : undefined;
    return left !== undefined && left === right;
  }
  if (field === 'shipDate' && typeof expected === 'string' && typeof actual === 'string') {
    const [left, right] = [instant(expected), instant(actual)];
    return left !== undefined && left === right;
  }
  return expected === actual;
}

/** An RFC 3339 date-time as a comparable instant: milliseconds since the epoch, and the fraction beyond them. */
function instant(text: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (match === null) return undefined;
  const milliseconds = Date.parse(`${match[1]}${match[3]!.toUpperCase()}`);
  if (Number.isNaN(milliseconds)) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return `${milliseconds}.${fraction}`;
}

function listAgainstModel(model: StoredOrder[], body: JsonValue | undefined, history: ProviderHistory): Finding[] {
  if (!Array.isArray(body)) return [];
  const findings: Finding[] = [];
  const byId = new Map(model.map((order) => [order.id, order]));
  const seen = new Set<bigint>();
  body.forEach((entry, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
    const id = toInt64(entry.id);
    if (id === undefined || seen.has(id)) return; // the schema check and the duplicate check say why
    seen.add(id);
    const order = byId.get(id);
    if (order === undefined) {
      findings.push({
        code: 'order-unknown',
        path: `/${index}/id`,
        expected: 'only orders of the provider state',
        actual: `order ${id}, which it does not hold`,
      });
      return;
    }
    if (order.status === 'cancelled' && history.left.has(id)) {
      findings.push({
        code: 'order-relisted',
        path: `/${index}/id`,
        expected: `cancelled order ${id} to stay out of the list once it left`,
        actual: 'it listed again',
      });
    }
    for (const field of orderFields) {
      if (order[field] === undefined) continue; // tolerance unseeded-fields
      if (!sameValue(field, order[field], entry[field])) {
        findings.push({
          code: 'order-field',
          path: `/${index}/${field}`,
          expected: `${field} ${preview(order[field])} as the provider state gives it`,
          actual: preview(entry[field]),
        });
      }
    }
  });
  const listedIds = body.map((entry) =>
    preview(entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? entry.id : undefined),
  );
  for (const order of model) {
    if (order.status === 'cancelled') {
      if (!seen.has(order.id)) history.left.add(order.id);
    } else if (!seen.has(order.id)) {
      findings.push({
        code: 'order-listed',
        path: '',
        expected: `order ${order.id} in the list`,
        actual: `ids [${listedIds.join(', ')}]`,
      });
    }
  }
  return findings;
}

/**
 * A page of v2's list against the model's store: its filter's orders only, each with the filter's
 * status and the state's values, in ascending order of id, at most its limit; and a walk's first page
 * (no `cursor` sent) shows every order of its filter when it is the last (`nextCursor` null), and
 * every one up to the highest id it gives when it is not.
 */
function pageAgainstModel(model: StoredOrder[], body: JsonValue | undefined, query: string): Finding[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray(body.orders)) return [];
  const walk = pageWalk(query);
  const entries = body.orders;
  const orders = entries.map((entry) => {
    const record = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? entry : {};
    return { id: toInt64(record.id), status: record.status };
  });
  const progress: WalkProgress = { seen: new Set<bigint>(), last: undefined };
  const findings = pageFindings({ walk, orders, store: model, progress });
  const byId = new Map(model.map((order) => [order.id, order]));
  entries.forEach((entry, index) => {
    const id = orders[index]!.id;
    const order = id === undefined ? undefined : byId.get(id);
    if (order !== undefined)
      findings.push(
        ...orderAgainstModel(order as unknown as JsonValue, entry).map((finding) => ({
          ...finding,
          path: `/orders/${index}${finding.path}`,
        })),
      );
  });
  // A walk's first page that is not its last has still left out for good any order of its filter
  // below the highest id it gives: the pages after it give higher ids only (v2's document).
  const through = body.nextCursor === null ? undefined : progress.last;
  if (!walk.cursor && (body.nextCursor === null || through !== undefined))
    findings.push(...skippedFindings({ walk, store: model, seen: progress.seen, through }));
  return findings;
}

function orderAgainstModel(model: JsonValue, body: JsonValue | undefined): Finding[] {
  if (model === null || typeof model !== 'object' || Array.isArray(model)) return [];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return []; // the schema check says why
  return orderFields
    .filter((field) => model[field] !== undefined && !sameValue(field, model[field], body[field]))
    .map((field) => ({
      code: 'order-field',
      path: `/${field}`,
      expected: `${field} ${preview(model[field])} as the provider state gives it`,
      actual: preview(body[field]),
    }));
}

/**
 * What else a provider may answer where the model answers a cancel of an order already cancelled as
 * for an absent one (tolerance `cancelled-order-cancelled-again`, from the operation's definition).
 */
function cancelledAgainAccepts(
  answer: ModelAnswer,
  before: readonly StoredOrder[],
  path: string,
): readonly number[] | undefined {
  const cancels = operationDefinitions[answer.operation].cancels;
  if (cancels === undefined || answer.status !== statusShowing(answer.operation, 'cancelled')) return undefined;
  const id = cancelledOrderId(routeOf(answer.operation).method, path);
  return id !== undefined && before.some((order) => order.id === id && order.status === 'cancelled')
    ? cancels.againAccepts
    : undefined;
}

/**
 * The order a call cancels, as the mock reads its path; undefined for a call of an operation that
 * cancels nothing (its definition has no `cancels`), or a segment that is no int64.
 */
export function cancelledOrderId(method: string, path: string): bigint | undefined {
  const match = matchRoute(method, path);
  if (match === undefined || match.parameter === undefined) return undefined;
  if (operationDefinitions[match.route.operation].cancels === undefined) return undefined;
  return parseInt64(decodedSegment(match.parameter));
}

/**
 * A path segment as the mock reads it (its escapes undone); a malformed escape (`%E0`) is left as it
 * came, which no id is.
 */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The statuses a provider may answer where the model answers `answer` (the model's status, and those
 * the tolerance table adds).
 */
export function acceptedStatuses(answer: ModelAnswer, before: readonly StoredOrder[], path: string): number[] {
  const accepted = cancelledAgainAccepts(answer, before, path);
  return accepted === undefined ? [answer.status] : [...accepted];
}

/** One call as both sides saw it: the model's answer and its store before and after, and the provider's response. */
export interface ComparedCall {
  path: string;
  /** The call's query as sent, without its `?` (`''` for none): given, a page is judged by its filter and limit; absent, not compared here. */
  query?: string | undefined;
  answer: ModelAnswer;
  before: readonly StoredOrder[];
  after: StoredOrder[];
  observed: ObservedResponse;
}

/**
 * Compares a provider's response with the model's answer to the same call: the status (exactly, but
 * where the tolerance table allows others), a list's orders as a multiset with every field's value
 * (instants as instants), and the headers the model sends that the specification requires
 * (the headers the document names for the response: `Deprecation` and `Sunset` on the pet read). The spec-level checks (schema, challenge, encoding)
 * are `checkAgainstSpec`'s.
 * @example
 * compareWithModel({ path: '/store/orders', answer, before, after, observed }, history) // [] when they agree
 */
export function compareWithModel(call: ComparedCall, history: ProviderHistory): Finding[] {
  const { answer, observed } = call;
  const refused = statusFindings(acceptedStatuses(answer, call.before, call.path), observed.status);
  if (refused.length > 0) return refused;
  const findings: Finding[] = [];
  // What the document says of the response guides the comparison: a list of orders is compared with
  // the model's store, and every header it names must be sent.
  const documented = documentedResponse(routeOf(answer.operation), observed.status);
  const schemaName = documented === undefined ? undefined : schemaNameOf(documented);
  if (schemaName === 'Order[]') findings.push(...listAgainstModel(call.after, jsonBody(observed), history));
  if (schemaName === 'OrderPage' && call.query !== undefined)
    findings.push(...pageAgainstModel(call.after, jsonBody(observed), call.query));
  // One order (a read of it): every field the model's order has, compared as in a list.
  if (schemaName === 'Order' && answer.body !== null)
    findings.push(...orderAgainstModel(parseJson(answer.body), jsonBody(observed)));
  for (const name of documented?.headers ?? [])
    if (!observed.headers.has(name))
      findings.push({
        code: 'header-missing',
        path: name,
        expected: `header ${name}, which the document names for ${answer.operation} ${observed.status}`,
        actual: 'none',
      });
  return findings;
}
