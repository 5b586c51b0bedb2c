// A walk of v2's list in an exploration run: every page of a generated status filter and limit, each
// judged by the one judge, the walk judged against the model's store by the rules of the default run's
// walks (verify/provider/v2-list.ts): no page over the limit, the filter's status, each order once, in
// ascending order of id, exact.
import type { AsyncCommand } from 'fast-check';
import { authorizationHeader } from '../../core/authorization.js';
import type { Finding } from '../../core/checks.js';
import { toInt64 } from '../../core/int64.js';
import { judgeCall } from '../../core/judge.js';
import { isFailure, type Observation } from '../../core/observation.js';
import { parseJson } from '../../core/parse-json.js';
import { judged, sendToTarget } from '../provider/run.js';
import type { V2Walk } from '../provider/v2-list.js';
import { stopAtDifference, type ExplorationModel, type ExplorationTarget } from './exploration.js';

const defaultLimit = 20;

/**
 * The findings of one walk's pages against the store it walked, as data.
 * @example
 * walkFindings({ limit: 1 }, [[{ id: 1n, status: 'pending' }, { id: 2n, status: 'shipped' }]], [{ id: 1n, status: 'pending' }, { id: 2n, status: 'shipped' }])
 *   .map((finding) => finding.code) // ['page-over-limit']
 */
export function walkFindings(
  walk: V2Walk,
  pages: readonly (readonly { id: bigint | undefined; status: unknown }[])[],
  store: readonly { id: bigint; status: string }[],
  ended = true,
): Finding[] {
  const findings: Finding[] = [];
  const limit = walk.limit ?? defaultLimit;
  const seen = new Set<bigint>();
  let last: bigint | undefined;
  pages.forEach((orders, number) => {
    const at = `page ${number + 1} `;
    if (orders.length > limit)
      findings.push({
        code: 'page-over-limit',
        path: `${at}/orders`,
        expected: `at most ${limit} orders${walk.limit === undefined ? ' (the default limit)' : ''}`,
        actual: `${orders.length}`,
      });
    orders.forEach((order, index) => {
      const path = `${at}/orders/${index}`;
      if (walk.status !== undefined && order.status !== walk.status)
        findings.push({
          code: 'filter-ignored',
          path: `${path}/status`,
          expected: walk.status,
          actual: String(order.status),
        });
      if (order.id === undefined) return;
      const id = order.id;
      if (seen.has(id))
        findings.push({
          code: 'page-repeats-order',
          path: `${path}/id`,
          expected: 'an order not given before',
          actual: `${id} again`,
        });
      else if (last !== undefined && id < last)
        findings.push({ code: 'page-order', path: `${path}/id`, expected: `an id above ${last}`, actual: `${id}` });
      if (!store.some((stored) => stored.id === id)) {
        const rounded = store.find((stored) => Number(stored.id) === Number(id));
        findings.push(
          rounded === undefined
            ? { code: 'order-unknown', path: `${path}/id`, expected: 'an order of the provider state', actual: `${id}` }
            : {
                code: 'int64-exact',
                path: `${path}/id`,
                expected: `${rounded.id}`,
                actual: `${id} (rounded past 2^53)`,
              },
        );
      }
      seen.add(id);
      last = last === undefined || id > last ? id : last;
    });
  });
  // A walk that did not end has not given every order yet: only one that ended can skip one.
  const missing = store.filter(
    (order) => (walk.status === undefined || order.status === walk.status) && !seen.has(order.id),
  );
  if (ended && missing.length > 0)
    findings.push({
      code: 'page-skips-order',
      path: '/orders',
      expected: 'every order of the filter once across the walk',
      actual: `${missing.length} never given: ${missing
        .slice(0, 3)
        .map((order) => order.id)
        .join(', ')}${missing.length > 3 ? ', …' : ''}`,
    });
  return findings;
}

/**
 * Walks v2's list, cursor after cursor, with a status filter or none and a limit or none (the default),
 * judged against the model's store: a walk changes nothing, so the model's store is the provider's.
 * @example
 * new WalkV2List({ status: 'pending', limit: 2 }).toString() // "walk v2's list: status pending, limit 2"
 */
export class WalkV2List implements AsyncCommand<ExplorationModel, ExplorationTarget> {
  constructor(readonly walk: V2Walk) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const store = model.orders.map((order) => ({ id: order.id, status: order.status as string }));
    const wanted = store.filter((order) => this.walk.status === undefined || order.status === this.walk.status).length;
    const most = Math.ceil(wanted / (this.walk.limit ?? defaultLimit)) + 1;
    const pages: { id: bigint | undefined; status: unknown }[][] = [];
    const findings: Finding[] = [];
    const v2Base = target.options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '/v2');
    let cursor: string | undefined;
    let path = '';
    let last: Observation | undefined;
    let ended = false;
    while (pages.length < most) {
      const query = new URLSearchParams();
      if (this.walk.status !== undefined) query.set('status', this.walk.status);
      if (this.walk.limit !== undefined) query.set('limit', String(this.walk.limit));
      if (cursor !== undefined) query.set('cursor', cursor);
      path = `/store/orders${query.size === 0 ? '' : `?${query}`}`;
      last = await sendToTarget(target.options, `${v2Base}${path}`, {
        method: 'GET',
        headers: { accept: 'application/json', ...authorizationHeader('valid', target.options.apiKey) },
      });
      const about = `page ${pages.length + 1}`;
      findings.push(
        ...judgeCall({ call: { method: 'GET', path: '/store/orders', base: '/v2' }, observed: last, about }).findings,
      );
      if (findings.length > 0 || isFailure(last)) {
        ended = true;
        break;
      }
      const page = parseJson(last.text) as { orders: { id?: unknown; status?: unknown }[]; nextCursor: string | null };
      pages.push(page.orders.map((order) => ({ id: toInt64(order.id), status: order.status })));
      if (page.nextCursor === null) {
        ended = true;
        break;
      }
      cursor = page.nextCursor;
    }
    if (!ended)
      findings.push({
        code: 'page-repeats-order',
        path: '/nextCursor',
        expected: `a null nextCursor within ${most} pages (${wanted} orders)`,
        actual: 'a cursor still',
      });
    if (findings.every((finding) => finding.about === undefined))
      findings.push(...walkFindings(this.walk, pages, store, ended));
    const exchange = judged({
      name: this.toString(),
      call: { method: 'GET', path: `/v2${path}` },
      observed: last!,
      findings,
      strict: true,
      started,
    });
    const numbered = { ...exchange, name: `${target.steps.length + 1}. ${exchange.name}` };
    target.steps.push(numbered);
    if (exchange.violations.length > 0) stopAtDifference(target, numbered.name);
  }
  toString(): string {
    const status = this.walk.status === undefined ? 'every status' : `status ${this.walk.status}`;
    return `walk v2's list: ${status}, limit ${this.walk.limit ?? '20 (default)'}`;
  }
}
