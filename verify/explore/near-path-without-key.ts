// A command exploration generates: a request without a key on a path near a documented one.
import type { ContractStep } from '../../core/scenario.js';
import { matchRoute } from '../../core/routes.js';
import { judgeCall } from '../../core/judge.js';
import { nearPathStatuses } from '../../core/compare.js';
import { judged, sendCall } from '../run.js';
import type { ExplorationCommand } from './commands.js';
import { ordinal, type ExplorationModel, type ExplorationTarget } from './exploration.js';
import { record } from './judged-call.js';

/** How a path is near a documented one. */
export type NearPath =
  | 'list-trailing-slash'
  | 'second-slash'
  | 'cancel-trailing-slash'
  | 'percent-encoded'
  | 'not-an-integer'
  | 'beyond-int64';

/** Every kind of near path, for the arbitraries. */
export const nearPaths: readonly NearPath[] = [
  'list-trailing-slash',
  'second-slash',
  'cancel-trailing-slash',
  'percent-encoded',
  'not-an-integer',
  'beyond-int64',
];

/** The near path of this kind for an order's id (a cancel), or for the list. */
export function nearPath(kind: NearPath, id: bigint): { method: 'GET' | 'DELETE'; path: string } {
  switch (kind) {
    case 'list-trailing-slash':
      return { method: 'GET', path: '/store/orders/' };
    case 'cancel-trailing-slash':
      return { method: 'DELETE', path: `/store/orders/${id}/` };
    case 'second-slash':
      return { method: 'GET', path: '/store//orders' };
    case 'percent-encoded':
      return {
        method: 'DELETE',
        path: `/store/orders/${[...String(id)].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join('')}`,
      };
    case 'not-an-integer':
      return { method: 'DELETE', path: `/store/orders/${id}.0` };
    case 'beyond-int64':
      return { method: 'DELETE', path: `/store/orders/${id < 0n ? '-9223372036854775809' : '9223372036854775808'}` };
  }
}

/**
 * A request without a key on a path near a documented one, aimed at an order of the store: never a
 * 2xx (tolerance `near-path-refusals`), an Error record where the path is an operation's, and no
 * change to the store (the model's store is unchanged, so the next list would show one).
 */
export class NearPathWithoutKey implements ExplorationCommand {
  constructor(
    readonly kind: NearPath,
    readonly pick: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const order = model.orders.length === 0 ? undefined : model.orders[this.pick % model.orders.length];
    const call = nearPath(this.kind, order?.id ?? 1n);
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
    const what = nearPath(this.kind, 0n).method === 'GET' ? 'list' : `cancel the ${ordinal(this.pick)} order`;
    return `${what} without a key on a path near the documented one (${this.kind})`;
  }
}
