// v2's list judged in the default run: each page through the one judge, the walks' semantics (every
// order of a filter once, in ascending order of id, no page over its limit, ids exact past 2^53 and the
// same as v1's list of the same store), and the parameters v2 cannot use answered 400.
import type { Finding } from '../../core/checks.js';
import { toInt64 } from '../../core/int64.js';
import { judgeCall } from '../../core/judge.js';
import { isFailure } from '../../core/observation.js';
import type { OrderStatus } from '../../core/order-status.js';
import { parseJson } from '../../core/parse-json.js';
import { statusFindings } from '../../core/checks.js';
import { caseVerdict, type CaseResult, type CheckedExchange } from '../base/results.js';
import { changeProviderState, judged, sendToTarget, type TargetOptions } from './run.js';
import { pageFindings, skippedFindings, type V2Walk, type WalkProgress } from '../scenario/walk-findings.js';

export type { V2Walk } from '../scenario/walk-findings.js';

const statuses: readonly OrderStatus[] = ['pending', 'shipped', 'cancelled'];

/**
 * The store the v2 cases set: 23 orders (more than the default limit) with ids past 2^53, where a
 * rounding to a JavaScript number shows, of every status in turn.
 * @example
 * v2Store()[0] // { id: 9007199254740993n, petId: 7n, quantity: 1, status: 'pending' }
 */
export function v2Store(): { id: bigint; petId: bigint; quantity: number; status: OrderStatus }[] {
  return Array.from({ length: 23 }, (_, index) => ({
    id: 9007199254740993n + 2n * BigInt(index),
    petId: 7n,
    quantity: index + 1,
    status: statuses[index % statuses.length]!,
  }));
}

/** The walks the run makes: the default limit unfiltered, and each status with a limit of its own. */
export const v2Walks: readonly V2Walk[] = [
  {},
  { status: 'pending', limit: 3 },
  { status: 'shipped', limit: 2 },
  { status: 'cancelled', limit: 7 },
];

/** The bad parameters sent, each of which v2's list must refuse with a 400 Error record. */
export const v2BadQueries: readonly string[] = [
  'status=lost',
  'limit=0',
  'limit=101',
  'limit=ten',
  'cursor=not-a-cursor-of-yours',
];

interface Context {
  options: TargetOptions & { stateUrl: string };
  v2Base: string;
  strict: boolean;
}

function queryOf(walk: V2Walk, cursor?: string): string {
  const query = new URLSearchParams();
  if (walk.status !== undefined) query.set('status', walk.status);
  if (walk.limit !== undefined) query.set('limit', String(walk.limit));
  if (cursor !== undefined) query.set('cursor', cursor);
  return query.toString();
}

/**
 * A walk's or a call's name, as reports show it: `list v2 status=pending limit=3`.
 * @example
 * walkName({ status: 'pending', limit: 3 }) // 'walk v2 status=pending limit=3'
 * walkName({}) // 'walk v2 (default limit)'
 */
export function walkName(walk: V2Walk): string {
  const query = queryOf(walk).replaceAll('&', ' ');
  return `walk v2 ${query === '' ? '(default limit)' : query}`;
}

async function call(
  context: Context,
  name: string,
  query: string,
  key = true,
  extra: (status: number) => Finding[] = () => [],
): Promise<{ exchange: CheckedExchange; body: unknown }> {
  const started = performance.now();
  const target = `/store/orders${query === '' ? '' : `?${query}`}`;
  const observed = await sendToTarget(context.options, `${context.v2Base}${target}`, {
    method: 'GET',
    headers: { accept: 'application/json', ...(key && { authorization: `Bearer ${context.options.apiKey}` }) },
  });
  const { findings } = judgeCall({ call: { method: 'GET', path: '/store/orders', base: '/v2' }, observed });
  if (!isFailure(observed)) findings.push(...extra(observed.status));
  let body: unknown;
  if (!isFailure(observed) && observed.status === 200) {
    try {
      body = parseJson(observed.text);
    } catch {
      body = undefined;
    }
  }
  const exchange = judged({
    name,
    call: { method: 'GET', path: `/v2${target}` },
    observed,
    findings,
    strict: context.strict,
    started,
  });
  return { exchange, body };
}

// The ids of a page's orders, with their statuses, as bigints (undefined: not a page the judge passed).
function pageOf(body: unknown): { orders: { id: bigint | undefined; status: unknown }[]; next: unknown } | undefined {
  if (body === null || typeof body !== 'object' || !('orders' in body) || !Array.isArray(body.orders)) return undefined;
  const orders = (body.orders as unknown[]).map((order) => {
    const record = (order ?? {}) as { id?: unknown; status?: unknown };
    return { id: toInt64(record.id), status: record.status };
  });
  return { orders, next: (body as { nextCursor?: unknown }).nextCursor };
}

/**
 * One walk: the first page, then each page its `nextCursor` asks for, until a null one (at most one
 * page more than the store holds orders, so a cursor that never ends ends the walk with a finding).
 * Every page is judged by the spec; the walk's findings are on the exchange of the page that shows them.
 */
async function walkCase(context: Context, walk: V2Walk, store: ReturnType<typeof v2Store>): Promise<CaseResult> {
  const name = walkName(walk);
  const progress: WalkProgress = { seen: new Set(), last: undefined };
  const exchanges: CheckedExchange[] = [];
  let cursor: string | undefined;
  for (let number = 1; number <= store.length + 2; number++) {
    const { exchange, body } = await call(context, `page ${number}`, queryOf(walk, cursor));
    exchanges.push(exchange);
    const page = pageOf(body);
    if (page === undefined) return { name, verdict: caseVerdict(exchanges), exchanges };
    const findings = pageFindings({ walk, orders: page.orders, store, progress });
    if (typeof page.next === 'string') cursor = page.next;
    const ended = page.next === null || page.next === undefined;
    if (ended || number === store.length + 2) {
      findings.push(...skippedFindings({ walk, store, seen: progress.seen }));
      if (!ended)
        findings.push({
          code: 'page-repeats-order',
          path: '/nextCursor',
          expected: `a null nextCursor within ${store.length + 2} pages`,
          actual: 'a cursor still',
        });
    }
    exchanges[exchanges.length - 1] = withFindings(exchange, findings, context.strict);
    if (ended) break;
  }
  return { name, verdict: caseVerdict(exchanges), exchanges };
}

function withFindings(exchange: CheckedExchange, findings: Finding[], strict: boolean): CheckedExchange {
  return {
    ...exchange,
    violations: [...exchange.violations, ...findings.filter((finding) => strict || !finding.advisory)],
  };
}

/** v1's list of the same store holds, exactly as bigints, v2's orders that are not cancelled. */
async function sameAsV1Case(context: Context, store: ReturnType<typeof v2Store>): Promise<CaseResult> {
  const name = "v1's list and v2's of one store";
  const started = performance.now();
  const observed = await sendToTarget(context.options, `${context.options.baseUrl.replace(/\/+$/, '')}/store/orders`, {
    method: 'GET',
    headers: { accept: 'application/json', authorization: `Bearer ${context.options.apiKey}` },
  });
  const { findings } = judgeCall({ call: { method: 'GET', path: '/store/orders' }, observed });
  if (!isFailure(observed) && observed.status === 200 && findings.length === 0) {
    const listed = (parseJson(observed.text) as { id?: unknown }[]).map((order) => toInt64(order.id));
    const wanted = store.filter((order) => order.status !== 'cancelled').map((order) => order.id);
    const missing = wanted.filter((id) => !listed.includes(id));
    if (missing.length > 0)
      findings.push({
        code: 'order-listed',
        path: '',
        expected: `v1 to list v2's ${wanted.length} orders that are not cancelled`,
        actual: `${missing.length} missing: ${missing.slice(0, 3).join(', ')}`,
      });
  }
  const exchange = judged({
    name,
    call: { method: 'GET', path: '/v1/store/orders' },
    observed,
    findings,
    strict: context.strict,
    started,
  });
  return { name, verdict: caseVerdict([exchange]), exchanges: [exchange] };
}

/** Every bad parameter answered 400 with an Error record, and a call without a key 401. */
async function refusalsCase(context: Context): Promise<CaseResult> {
  const name = "v2's list refuses what it cannot use";
  const exchanges: CheckedExchange[] = [];
  for (const query of v2BadQueries) {
    const { exchange } = await call(context, query, query, true, (status) => statusFindings([400], status));
    exchanges.push(exchange);
  }
  const { exchange } = await call(context, 'no key', '', false, (status) => statusFindings([401], status));
  exchanges.push(exchange);
  return { name, verdict: caseVerdict(exchanges), exchanges };
}

/**
 * v2's list verified against a target serving both majors (v2's base path is v1's with `/v2` for
 * `/v1`): it sets a store of its own (`v2Store`), walks it (`v2Walks`), compares it with v1's list and
 * sends the bad parameters (`v2BadQueries`); then it tears the state down. One case a walk, one for v1,
 * one for the refusals.
 * @example
 * const cases = await verifyV2List({ baseUrl, apiKey, stateUrl });
 * cases.filter((result) => result.verdict === 'failed').map((result) => result.name)
 * @throws TargetUnreachable, RunStopped, and VerifyError when the state change is refused.
 */
export async function verifyV2List(options: TargetOptions & { stateUrl: string }): Promise<CaseResult[]> {
  const context: Context = {
    options,
    v2Base: options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '/v2'),
    strict: options.strict ?? false,
  };
  const store = v2Store();
  await changeProviderState(options, store, 'setup');
  const cases: CaseResult[] = [];
  for (const walk of v2Walks) cases.push(await walkCase(context, walk, store));
  cases.push(await sameAsV1Case(context, store));
  cases.push(await refusalsCase(context));
  await changeProviderState(options, [], 'teardown');
  return cases;
}
