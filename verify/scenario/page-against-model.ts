// One page of v2's list judged against the model's store, where only that page (and what came before it
// in the same walk) is seen: a scenario's step, a HAR's entry, a proxied call. What a page proves depends
// on where it starts: a first page starts at the filter's first order; a page asked with the cursor of a
// page seen before starts after that page's last order; a page asked with a cursor from nowhere seen
// starts we do not know where (spec gap 62).
import { jsonBody, type Finding, type ObservedResponse } from '../../core/checks.js';
import { matchRoute } from '../../core/routes.js';
import { toInt64 } from '../../core/int64.js';
import { orderStatuses, type OrderStatus } from '../../core/order-status.js';
import { pageFindings, type ShownOrder, type V2Walk } from '../../core/page-findings.js';

/**
 * Where a page starts: `first` (no cursor), after this id (the cursor a page seen before gave, its last
 * order's id; `null` for a page before it that showed no order), or `unknown` (a cursor from nowhere seen).
 * @example
 * const start: PageStart = { after: 9007199254740993n };
 */
export type PageStart = 'first' | 'unknown' | { after: bigint | null };

/**
 * One page to judge: the query it was asked with, where it starts, its parsed body, and the model's store.
 * @example
 * const page: PageToJudge = { query: new URLSearchParams('limit=2'), start: 'first', body: parseJson(text), store: await model.orders() };
 */
export interface PageToJudge {
  /** The call's query (its `cursor` is not read: `start` says where the page starts). */
  query: URLSearchParams;
  start: PageStart;
  /** The page as parsed with ids exact (`parseJson`). */
  body: unknown;
  /**
   * The model's store when the page was asked for, every status; undefined where no store is known (a
   * HAR or a proxied call in a state inferred from v1's answers): then only what the page shows of
   * itself is judged (its limit, the filter's status, ascending ids, none twice, none at or below the
   * last order of the page before it).
   */
  store: readonly { id: bigint; status: string }[] | undefined;
}

/**
 * What the page showed, for the page that follows its cursor: its `nextCursor`, and where the next page starts.
 * @example
 * const seen: PageSeen = { nextCursor: 'opaque', next: { after: 2n } };
 */
export interface PageSeen {
  nextCursor: string | null | undefined;
  next: PageStart;
}

/**
 * The walk a query asks for (its status filter and limit), when both are ones the document allows.
 * @example
 * walkOfQuery(new URLSearchParams('status=pending&limit=2')) // { status: 'pending', limit: 2 }
 * walkOfQuery(new URLSearchParams('limit=ten')) // undefined
 */
export function walkOfQuery(query: URLSearchParams): V2Walk | undefined {
  const walk: V2Walk = {};
  const status = query.getAll('status');
  const limit = query.getAll('limit');
  if (status.length > 1 || limit.length > 1) return undefined;
  if (status[0] !== undefined) {
    if (!orderStatuses.includes(status[0] as OrderStatus)) return undefined;
    walk.status = status[0] as OrderStatus;
  }
  if (limit[0] !== undefined) {
    if (!/^\d{1,3}$/.test(limit[0])) return undefined;
    walk.limit = Number(limit[0]);
  }
  return walk;
}

/**
 * A page's findings against the model's store, and what the page following its cursor starts after.
 * Every page: no more orders than its limit, the filter's status, ids the store holds exactly, ascending,
 * none given before in the walk. A page whose start is known: exactly the filter's orders that follow
 * the start, in order, none left out (`page-skips-order` names the first left out); with a null
 * `nextCursor`, nothing of the filter left after it. A page from an unknown cursor: with a null
 * `nextCursor`, no order of the filter after its last.
 * @example
 * pageAgainstModel({ query: new URLSearchParams('limit=2'), start: 'first', body: { orders: [{ id: 1n, status: 'pending' }], nextCursor: null },
 *   store: [{ id: 1n, status: 'pending' }, { id: 2n, status: 'shipped' }] }).findings.map((finding) => finding.code) // ['page-skips-order']
 */
export function pageAgainstModel(page: PageToJudge): { findings: Finding[]; seen: PageSeen } {
  const walk = walkOfQuery(page.query) ?? {};
  const body = (page.body ?? {}) as { orders?: unknown; nextCursor?: unknown };
  const nextCursor = typeof body.nextCursor === 'string' || body.nextCursor === null ? body.nextCursor : undefined;
  const orders: ShownOrder[] = (Array.isArray(body.orders) ? (body.orders as unknown[]) : []).map((order) => {
    const record = (order ?? {}) as { id?: unknown; status?: unknown };
    return { id: toInt64(record.id), status: record.status };
  });
  // Without a store, each id the page shows is taken as one of it: nothing is judged of what it holds.
  const store =
    page.store ??
    orders.flatMap((order) => (order.id === undefined ? [] : [{ id: order.id, status: String(order.status) }]));
  const kept = store
    .filter((order) => walk.status === undefined || order.status === walk.status)
    .map((order) => order.id)
    .sort((one, other) => (one < other ? -1 : one > other ? 1 : 0));
  const start = page.start;
  const after = typeof start === 'object' ? start.after : undefined;
  // What the walk gave before this page: the store's orders of the filter up to the start (without a
  // store, the start's own order alone: an id below it is out of order, not known to be a repeat).
  const given =
    after === undefined || after === null
      ? []
      : [...(page.store === undefined ? [] : kept.filter((id) => id <= after)), after];
  const findings = pageFindings({
    walk,
    orders,
    store,
    progress: { seen: new Set(given), last: after ?? undefined },
  });
  const shown = orders.map((order) => order.id).filter((id): id is bigint => id !== undefined);
  const last = shown.reduce<bigint | undefined>((most, id) => (most === undefined || id > most ? id : most), undefined);
  // Without a store, nothing more: what a page leaves out is not known.
  const judgeLeftOut = page.store !== undefined && findings.length === 0;
  if (judgeLeftOut && start !== 'unknown') {
    const expected = kept.filter((id) => after === undefined || after === null || id > after);
    const left = shown.findIndex((id, index) => id !== expected[index]);
    if (left !== -1)
      findings.push({
        code: 'page-skips-order',
        path: `/orders/${left}/id`,
        expected: `${expected[left]}, the next order of the filter ${after === undefined || after === null ? 'on a first page' : `after ${after}`}`,
        actual: `${shown[left]}`,
      });
    else if (nextCursor === null && expected.length > shown.length)
      findings.push(leftAfter(expected.slice(shown.length)));
  } else if (judgeLeftOut && nextCursor === null && last !== undefined) {
    const rest = kept.filter((id) => id > last);
    if (rest.length > 0) findings.push(leftAfter(rest));
  }
  const next: PageStart = start === 'unknown' && last === undefined ? 'unknown' : { after: last ?? after ?? null };
  return { findings, seen: { nextCursor, next } };
}

function leftAfter(rest: readonly bigint[]): Finding {
  return {
    code: 'page-skips-order',
    path: '/nextCursor',
    expected: `a next cursor while orders of the filter are left (${rest.slice(0, 3).join(', ')}${rest.length > 3 ? ', …' : ''})`,
    actual: 'null',
  };
}

/**
 * What a page of v2's list a HAR or the proxy saw shows of itself, with no store (`pageAgainstModel`
 * without one): its limit, the filter's status, ascending ids, none twice; none for another call or
 * answer. What it leaves out is the recorder's to judge, where the state is known (spec gap 62).
 * @example
 * pageShapeFindings({ method: 'GET', path: '/store/orders', base: '/v2', query: 'limit=1', observed }) // [] for a page of one order
 */
export function pageShapeFindings(call: {
  method: string;
  path: string;
  base: string | undefined;
  query: string | undefined;
  observed: ObservedResponse;
}): Finding[] {
  const { method, path, base, query = '', observed } = call;
  if (base !== '/v2' || observed.status !== 200 || observed.bodyUnknown === true) return [];
  if (matchRoute(method, path, base)?.route.operation !== 'listOrdersV2') return [];
  const body = jsonBody(observed);
  if (body === undefined) return [];
  return pageAgainstModel({ query: new URLSearchParams(query), start: 'unknown', body, store: undefined }).findings;
}
