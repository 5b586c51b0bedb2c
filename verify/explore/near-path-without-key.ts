// A command exploration generates: a request without a key on a path near a documented one.
import type { ContractStep } from '../../core/scenario.js';
import { matchRoute, pathOf, routeOf, routes, type OperationName, type Route } from '../../core/routes.js';
import { titleOf } from '../../core/operation-definitions.js';
import { judgeCall } from '../../core/judge.js';
import { nearPathStatuses } from '../../core/compare.js';
import { judged, sendCall } from '../provider/run.js';
import type { ExplorationCommand } from './commands.js';
import type { ExplorationModel, ExplorationTarget } from './exploration.js';
import { record } from './judged-call.js';

/** How a path is near a documented one: its parameter written otherwise, or a slash too many. */
export type NearPath = 'trailing-slash' | 'second-slash' | 'percent-encoded' | 'not-an-integer' | 'beyond-int64';

const pathKinds: readonly NearPath[] = ['trailing-slash', 'second-slash'];
const parameterKinds: readonly NearPath[] = ['percent-encoded', 'not-an-integer', 'beyond-int64'];

/** The kinds of near path of a route: every route's slashes, and an integer parameter written otherwise. */
export function nearPathsOf(route: Route): readonly NearPath[] {
  return (route.parameter?.schema as { type?: unknown } | undefined)?.type === 'integer'
    ? [...pathKinds, ...parameterKinds]
    : pathKinds;
}

/** Every route of the table with each kind of near path it has, for the arbitraries. */
export const nearPaths: readonly { operation: OperationName; kind: NearPath }[] = routes.flatMap((route) =>
  nearPathsOf(route).map((kind) => ({ operation: route.operation, kind })),
);

const percentEncoded = (text: string) =>
  [...text].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join('');

/**
 * The near path of this kind of an operation's route, its parameter (if any) an order's id.
 * @example
 * nearPath('cancelOrder', 'not-an-integer', 3n) // { method: 'DELETE', path: '/store/orders/3.0' }
 */
export function nearPath(
  operation: OperationName,
  kind: NearPath,
  id: bigint,
): { method: Route['method']; path: string } {
  const route = routeOf(operation);
  const at = (parameter: string) =>
    route.parameter === null ? route.path : route.path.replace(`{${route.parameter.name}}`, parameter);
  switch (kind) {
    case 'trailing-slash':
      return { method: route.method, path: `${pathOf(route, id)}/` };
    case 'second-slash':
      return { method: route.method, path: pathOf(route, id).replace(/^(\/[^/]*)\//, '$1//') };
    case 'percent-encoded':
      return { method: route.method, path: at(percentEncoded(String(id))) };
    case 'not-an-integer':
      return { method: route.method, path: at(`${id}.0`) };
    case 'beyond-int64':
      return { method: route.method, path: at(id < 0n ? '-9223372036854775809' : '9223372036854775808') };
  }
}

// The stored id nearest `near`, or 1 for an empty store.
function storedIdNear(model: ExplorationModel, near: bigint): bigint {
  let best: bigint | undefined;
  for (const { id } of model.orders) {
    const distance = (value: bigint) => (value > near ? value - near : near - value);
    if (best === undefined || distance(id) < distance(best) || (distance(id) === distance(best) && id < best))
      best = id;
  }
  return best ?? 1n;
}

/**
 * A request without a key on a path near a documented one, aimed at the order of the store nearest a
 * generated id: never a 2xx (tolerance `near-path-refusals`), an Error record where the path is an
 * operation's, and no change to the store (the model's store is unchanged, so the next list would show one).
 */
export class NearPathWithoutKey implements ExplorationCommand {
  constructor(
    readonly operation: OperationName,
    readonly kind: NearPath,
    readonly near: bigint,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const call = nearPath(this.operation, this.kind, storedIdNear(model, this.near));
    const observed = await sendCall(target.options, call.method, call.path, 'none');
    // The step a scenario would replay, judged as the scenario suite judges it.
    const onOperation = matchRoute(call.method, call.path) !== undefined;
    const step: ContractStep = {
      name: '',
      request: { ...call, key: 'none' },
      expect: { status: nearPathStatuses(call.method, call.path), ...(onOperation && { body: { schema: 'Error' } }) },
    };
    const { findings } = judgeCall({ call, observed, step });
    const exchange = judged({ name: this.toString(), call, observed, findings, strict: true, started });
    record(target, exchange, step);
  }
  toString(): string {
    const title = titleOf(this.operation);
    const near = routeOf(this.operation).parameter === null ? '' : ` nearest ${this.near}`;
    return `${title}${near} without a key on a path near the documented one (${this.kind})`;
  }
}
