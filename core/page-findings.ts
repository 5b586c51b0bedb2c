// What a walk of v2's list shows against the store it walked, judged once for the default run's walks
// (provider/v2-list.ts) and exploration's (explore/walk-v2-list.ts): no page over its limit, the filter's status
// on each order, each order once, in ascending order of id, each id the store's exactly, and, once the
// walk ended, none of the filter's orders left out.
import type { Finding } from './checks.js';
import { orderStatuses, type OrderStatus } from './order-status.js';
import { routeOf } from './routes.js';

/** A walk of v2's list: a status filter or none, a limit or none (the document's default). */
export interface V2Walk {
  status?: OrderStatus;
  limit?: number;
}

/** An order as a page shows it: its id read exactly, when it is an integer, and its status as sent. */
export interface ShownOrder {
  id: bigint | undefined;
  status: unknown;
}

/** What a walk has given so far: the ids seen, and the highest. */
export interface WalkProgress {
  seen: Set<bigint>;
  last: bigint | undefined;
}

/**
 * The walk a page of v2's list belongs to, read from its call's query (without its `?`): its status
 * filter and limit, and whether it sent a `cursor` (then it is no walk's first page, and the store's
 * orders before the cursor are the provider's to have left out). A value the list refuses (a 400) is
 * read as absent: no page is judged by it.
 * @example
 * pageWalk('status=pending&limit=3') // { status: 'pending', limit: 3, cursor: false }
 */
export function pageWalk(query: string): V2Walk & { cursor: boolean } {
  const parameters = new URLSearchParams(query);
  const status = parameters.get('status');
  const limit = parameters.get('limit');
  return {
    ...(orderStatuses.includes(status as OrderStatus) && { status: status as OrderStatus }),
    ...(limit !== null && /^[1-9][0-9]{0,2}$/.test(limit) && { limit: Number(limit) }),
    cursor: parameters.has('cursor'),
  };
}

/**
 * Whether a call's query (without its `?`) sends a `cursor`: a value its provider wrote (opaque, spec
 * gap 51), so what its page holds depends on no provider state alone, and no model can judge it.
 * @example
 * sendsCursor('limit=2&cursor=abc') // true
 * sendsCursor(undefined) // false
 */
export function sendsCursor(query: string | undefined): boolean {
  return query !== undefined && new URLSearchParams(query).has('cursor');
}

/**
 * The limit a walk's pages are held to: its own, or the document's default for `limit`.
 * @example
 * limitOf({}) // 20
 */
export function limitOf(walk: V2Walk): number {
  if (walk.limit !== undefined) return walk.limit;
  const query = routeOf('listOrdersV2').query as readonly { name: string; schema: { default?: unknown } }[];
  const stated = query.find((parameter) => parameter.name === 'limit')?.schema.default;
  return typeof stated === 'number' ? stated : 20;
}

/**
 * One page's findings, its progress noted in `progress`; `at` prefixes each finding's path.
 * @example
 * pageFindings({ walk: { limit: 1 }, orders: [{ id: 1n, status: 'pending' }, { id: 2n, status: 'pending' }], store: [{ id: 1n, status: 'pending' }, { id: 2n, status: 'pending' }], progress: { seen: new Set(), last: undefined } })
 *   .map((finding) => finding.code) // ['page-over-limit']
 */
export function pageFindings(input: {
  walk: V2Walk;
  orders: readonly ShownOrder[];
  store: readonly { id: bigint; status: string }[];
  progress: WalkProgress;
  at?: string;
}): Finding[] {
  const { walk, orders, store, progress, at = '' } = input;
  const findings: Finding[] = [];
  const limit = limitOf(walk);
  if (orders.length > limit)
    findings.push({
      code: 'page-over-limit',
      path: `${at}/orders`,
      expected: `at most ${limit} orders${walk.limit === undefined ? ' (the default limit)' : ''}`,
      actual: `${orders.length}`,
    });
  orders.forEach((order, index) => {
    const path = `${at}/orders/${index}`;
    // An order without its status is the schema's finding (`OrderWithStatus` requires it), not the filter's.
    if (walk.status !== undefined && order.status !== undefined && order.status !== walk.status)
      findings.push({
        code: 'filter-ignored',
        path: `${path}/status`,
        expected: walk.status,
        actual: String(order.status),
      });
    if (order.id !== undefined) findings.push(...idFindings({ id: order.id, path, store, progress }));
  });
  return findings;
}

function idFindings(input: {
  id: bigint;
  path: string;
  store: readonly { id: bigint }[];
  progress: WalkProgress;
}): Finding[] {
  const { id, path, store, progress } = input;
  const findings: Finding[] = [];
  if (progress.seen.has(id))
    findings.push({
      code: 'page-repeats-order',
      path: `${path}/id`,
      expected: 'an order not given before',
      actual: `${id} again`,
    });
  else if (progress.last !== undefined && id < progress.last)
    findings.push({
      code: 'page-order',
      path: `${path}/id`,
      expected: `an id above ${progress.last}`,
      actual: `${id}`,
    });
  if (!store.some((stored) => stored.id === id)) {
    const rounded = store.find((stored) => Number(stored.id) === Number(id));
    findings.push(
      rounded === undefined
        ? { code: 'order-unknown', path: `${path}/id`, expected: 'an order of the provider state', actual: `${id}` }
        : { code: 'int64-exact', path: `${path}/id`, expected: `${rounded.id}`, actual: `${id} (rounded past 2^53)` },
    );
  }
  progress.seen.add(id);
  progress.last = progress.last === undefined || id > progress.last ? id : progress.last;
  return findings;
}

/**
 * The finding of a walk that ended without giving every order of its filter, or none. With `through`,
 * of a walk not ended: the orders of its filter up to that id (the highest it gave) must all have been
 * given, since its pages go on in ascending order of id and never come back below it.
 * @example
 * skippedFindings({ walk: {}, store: [{ id: 1n, status: 'pending' }], seen: new Set() })[0]?.code // 'page-skips-order'
 * skippedFindings({ walk: {}, store: [{ id: 1n, status: 'pending' }, { id: 2n, status: 'pending' }], seen: new Set([2n]), through: 2n })[0]?.actual // '1 never given: 1'
 */
export function skippedFindings(input: {
  walk: V2Walk;
  store: readonly { id: bigint; status: string }[];
  seen: ReadonlySet<bigint>;
  through?: bigint | undefined;
}): Finding[] {
  const { walk, store, seen, through } = input;
  const expected = store.filter(
    (order) =>
      (walk.status === undefined || order.status === walk.status) && (through === undefined || order.id <= through),
  );
  const missing = expected.filter((order) => !seen.has(order.id));
  if (missing.length === 0) return [];
  const shown = missing.slice(0, 3).map((order) => order.id);
  return [
    {
      code: 'page-skips-order',
      path: '/orders',
      expected:
        through === undefined
          ? `every order of the filter once across the walk (${expected.length})`
          : `every order of the filter up to the last id the page gives, ${through} (${expected.length})`,
      actual: `${missing.length} never given: ${shown.join(', ')}${missing.length > 3 ? ', …' : ''}`,
    },
  ];
}
