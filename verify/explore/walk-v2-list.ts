// A walk of v2's list in an exploration run: every page of a generated status filter and limit, each
// judged by the one judge, the walk judged against the model's store by the rules of the default run's
// walks (verify/provider/v2-list.ts): no page over the limit, the filter's status, each order once, in
// ascending order of id, exact. Each page is a step of the scenario a shrunk failure saves, the later
// ones following the cursor the page before gave (spec gap 62).
import type { AsyncCommand } from 'fast-check';
import { authorizationHeader } from '../../core/authorization.js';
import type { Finding } from '../../core/checks.js';
import type { ContractStep } from '../../core/scenario.js';
import { toInt64 } from '../../core/int64.js';
import { judgeCall } from '../../core/judge.js';
import { isFailure, type Observation } from '../../core/observation.js';
import { majorBase } from '../../core/major-base.js';
import { parseJson } from '../../core/parse-json.js';
import { judged, sendToTarget } from '../provider/run.js';
import {
  limitOf,
  pageFindings,
  skippedFindings,
  type ShownOrder,
  type V2Walk,
  type WalkProgress,
} from '../../core/page-findings.js';
import { stopAtDifference, type ExplorationModel, type ExplorationTarget } from './exploration.js';

/**
 * The findings of one walk's pages against the store it walked, as data: the default run's walk judge
 * (core/page-findings.ts), page by page; only a walk that ended can have skipped an order.
 * @example
 * walkFindings({ limit: 1 }, [[{ id: 1n, status: 'pending' }, { id: 2n, status: 'shipped' }]], [{ id: 1n, status: 'pending' }, { id: 2n, status: 'shipped' }])
 *   .map((finding) => finding.code) // ['page-over-limit']
 */
export function walkFindings(
  walk: V2Walk,
  pages: readonly (readonly ShownOrder[])[],
  store: readonly { id: bigint; status: string }[],
  ended = true,
): Finding[] {
  const progress: WalkProgress = { seen: new Set(), last: undefined };
  const findings = pages.flatMap((orders, number) =>
    pageFindings({ walk, orders, store, progress, at: `page ${number + 1} ` }),
  );
  return ended ? [...findings, ...skippedFindings({ walk, store, seen: progress.seen })] : findings;
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
    const most = Math.ceil(wanted / limitOf(this.walk)) + 1;
    const pages: ShownOrder[][] = [];
    const findings: Finding[] = [];
    // Exploration walks v2 only beside a base URL ending with /v1 (explore.ts): there is a v2 base.
    const v2Base = majorBase(target.options.baseUrl, '/v2')!;
    let cursor: string | undefined;
    let path = '';
    let last: Observation | undefined;
    let ended = false;
    // Each page a step of the saved scenario, the ones after the first following the cursor the page
    // before gave (a cursor belongs to the provider that issued it: spec gap 62).
    const saved: ContractStep[] = [];
    const written: Record<string, string> = {};
    if (this.walk.status !== undefined) written.status = this.walk.status;
    if (this.walk.limit !== undefined) written.limit = String(this.walk.limit);
    while (pages.length < most) {
      const query = new URLSearchParams();
      if (this.walk.status !== undefined) query.set('status', this.walk.status);
      if (this.walk.limit !== undefined) query.set('limit', String(this.walk.limit));
      if (cursor !== undefined) query.set('cursor', cursor);
      path = `/store/orders${query.size === 0 ? '' : `?${query}`}`;
      saved.push({
        name: `page ${pages.length + 1}`,
        request: {
          method: 'GET',
          path: '/store/orders',
          base: '/v2',
          ...(Object.keys(written).length > 0 && { query: { ...written } }),
          ...(cursor !== undefined && { cursor: 'follow' as const }),
        },
        expect: { status: 200, body: { schema: 'OrderPage' } },
      });
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
    target.saved.push(...saved.map((step) => ({ ...step, name: `${numbered.name}, ${step.name}` })));
    if (exchange.violations.length > 0) stopAtDifference(target, numbered.name);
  }
  toString(): string {
    const status = this.walk.status === undefined ? 'every status' : `status ${this.walk.status}`;
    return `walk v2's list: ${status}, limit ${this.walk.limit ?? `${limitOf(this.walk)} (default)`}`;
  }
}
