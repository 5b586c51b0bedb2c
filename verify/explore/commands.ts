// The commands exploration generates: each one call (or a few at once) on the model and the provider.
import type { AsyncCommand } from 'fast-check';
import type { StoredOrder } from '../../mocks/store/order-store.js';
import type { KeyChoice } from '../../core/authorization.js';
import { int64Maximum, int64Minimum } from '../../core/int64.js';
import { pathOf, routeOf, type OperationName } from '../../core/routes.js';
import { operationDefinitions, statusShowing, titleOf, type OrderTarget } from '../../core/operation-definitions.js';
import type { ContractStep } from '../../core/scenario.js';
import type { Finding, ObservedResponse } from '../../core/checks.js';
import { judgeCall } from '../../core/judge.js';
import { failureFinding, isFailure } from '../../core/observation.js';
import { raceFindings } from '../../core/compare.js';
import { eachAnswerAgainstSpec, judged, sendCall } from '../provider/run.js';
import { stepOf } from '../scenario/model-step.js';
import { judge, judgedCall, record } from './judged-call.js';
import { stopAtDifference, two53, type ExplorationModel, type ExplorationTarget } from './exploration.js';

export type ExplorationCommand = AsyncCommand<ExplorationModel, ExplorationTarget>;

const keySuffix = (key: KeyChoice) => (key === 'valid' ? '' : ` with key ${key}`);

/** One call of an operation the route table gives without a path parameter (the list), with a key choice. */
export class CallOperation implements ExplorationCommand {
  constructor(
    readonly operation: OperationName,
    readonly key: KeyChoice = 'valid',
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const route = routeOf(this.operation);
    const call = { method: route.method, path: pathOf(route), key: this.key };
    const { exchange, answer, before } = await judgedCall(model, target, this.toString(), call);
    record(target, exchange, stepOf(call, answer, before, model.orders));
  }
  toString(): string {
    return `${titleOf(this.operation)}${keySuffix(this.key)}`;
  }
}

// The stored id nearest `near` (the smaller of two as near): a generated id that shrinks towards 0
// keeps naming the same order while the state shrinks around it.
function nearest(ids: readonly bigint[], near: bigint): bigint | undefined {
  let best: bigint | undefined;
  let bestDistance = 0n;
  for (const id of ids) {
    const distance = id > near ? id - near : near - id;
    if (best === undefined || distance < bestDistance || (distance === bestDistance && id < best)) {
      best = id;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The id an operation on one order aims at in the model's store: the stored order of the kind nearest
 * `near`, `near` itself for an unknown id (when the store does not hold it), or the neighbour beyond
 * 2^53 of a stored id nearest `near`; undefined when the store has none.
 * @example
 * orderTarget([{ id: 1n, status: 'pending' }, { id: 9n, status: 'pending' }], 'pending', 7n) // 9n
 */
export function orderTarget(orders: readonly StoredOrder[], kind: OrderTarget, near: bigint): bigint | undefined {
  const ids = new Set(orders.map((order) => order.id));
  if (kind === 'unknown') return ids.has(near) ? undefined : near;
  if (kind === 'neighbour')
    // One away from a stored id beyond 2^53: the same number once read as a float.
    return nearest(
      orders
        .flatMap((order) => (order.id >= two53 || order.id <= -two53 ? [order.id + 1n, order.id - 1n] : []))
        .filter((id) => !ids.has(id) && id <= int64Maximum && id >= int64Minimum),
      near,
    );
  return nearest(
    orders.filter((order) => order.status === kind).map((order) => order.id),
    near,
  );
}

function targetText(kind: OrderTarget, near: bigint): string {
  if (kind === 'unknown') return `the unknown id ${near}`;
  if (kind === 'neighbour') return `the neighbour beyond 2^53 of the order nearest ${near}`;
  return `the ${kind} order nearest ${near}`;
}

/**
 * One call of an operation on one order (its definition's `targets`), aimed at an order of a kind:
 * the model's stored order of that kind nearest a generated id.
 */
export class CallOnOrder implements ExplorationCommand {
  constructor(
    readonly operation: OperationName,
    readonly kind: OrderTarget,
    readonly near: bigint,
    readonly key: KeyChoice = 'valid',
  ) {}
  check(model: ExplorationModel): boolean {
    return orderTarget(model.orders, this.kind, this.near) !== undefined;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const id = orderTarget(model.orders, this.kind, this.near)!;
    const route = routeOf(this.operation);
    const call = { method: route.method, path: pathOf(route, id), key: this.key };
    const { exchange, answer, before } = await judgedCall(model, target, `${this.toString()}: ${id}`, call);
    record(target, exchange, stepOf(call, answer, before, model.orders));
  }
  toString(): string {
    const title = titleOf(this.operation);
    return `${title}: ${targetText(this.kind, this.near)}${keySuffix(this.key)}`;
  }
}

/** One call of an operation with a path parameter that names no order (the pet read): any int64. */
export class CallWithId implements ExplorationCommand {
  constructor(
    readonly operation: OperationName,
    readonly id: bigint,
    readonly key: KeyChoice,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const route = routeOf(this.operation);
    const call = { method: route.method, path: pathOf(route, this.id), key: this.key };
    const { exchange, answer, before } = await judgedCall(model, target, this.toString(), call);
    record(target, exchange, stepOf(call, answer, before, model.orders));
  }
  toString(): string {
    return `${titleOf(this.operation, String(this.id))}${keySuffix(this.key)}`;
  }
}

/**
 * What a burst of cancels of one pending order must give (tolerance `race-losers`), as a step expects
 * it: one answer as for a pending order (204), every other as for one cancelled already (404 or 409).
 */
export function burstExpectOf(operation: OperationName): ContractStep['expect'] {
  return {
    status: statusShowing(operation, 'pending')!,
    others: [...(operationDefinitions[operation].cancels?.againAccepts ?? [])],
  };
}

/** Several cancels of one pending order at once (an operation whose definition `cancels`): exactly one 204. */
export class CancelBurst implements ExplorationCommand {
  constructor(
    readonly operation: OperationName,
    readonly near: bigint,
    readonly count: number,
  ) {}
  check(model: ExplorationModel): boolean {
    return orderTarget(model.orders, 'pending', this.near) !== undefined;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const id = orderTarget(model.orders, 'pending', this.near)!;
    const route = routeOf(this.operation);
    const call = { method: route.method, path: pathOf(route, id), key: 'valid' as KeyChoice };
    const burstExpect = burstExpectOf(this.operation);
    const observations = await Promise.all(
      Array.from({ length: this.count }, () => sendCall(target.options, call.method, call.path, call.key)),
    );
    for (let index = 0; index < this.count; index++) await model.mock.call(call.method, call.path, call.key);
    model.orders = await model.mock.orders();
    const failure = observations.find(isFailure);
    const findings: Finding[] = [];
    if (failure !== undefined) findings.push(failureFinding(failure));
    else {
      const responses = observations as ObservedResponse[];
      findings.push(...eachAnswerAgainstSpec(call.method, call.path, responses));
      findings.push(
        ...raceFindings(
          burstExpect,
          responses.map((observed) => observed.status),
          'cancels',
          'as the model answers one after another',
        ),
      );
    }
    const exchange = judged({
      name: `${this.toString()}: ${id}`,
      call,
      observed: observations[0]!,
      findings,
      strict: true,
      started,
    });
    record(target, exchange, {
      name: '',
      request: { method: route.method, path: call.path },
      parallel: this.count,
      expect: burstExpect,
    });
  }
  toString(): string {
    const title = titleOf(this.operation);
    return `${title}: the pending order nearest ${this.near}, ${this.count} times at once`;
  }
}

/**
 * A cancel of a cancelled order, then a list: the refused cancel must change nothing (a cancelled
 * order that had left the list stays out of it; tolerance `cancelled-order-listed`).
 */
export class CancelAgainThenList implements ExplorationCommand {
  readonly #cancel: CallOnOrder;
  readonly #list: CallOperation;
  constructor(
    readonly operation: OperationName,
    readonly list: OperationName,
    readonly near: bigint,
  ) {
    this.#cancel = new CallOnOrder(operation, 'cancelled', near);
    this.#list = new CallOperation(list);
  }
  check(model: ExplorationModel): boolean {
    return this.#cancel.check(model);
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    await this.#cancel.run(model, target);
    await this.#list.run(model, target);
  }
  toString(): string {
    return `${this.#cancel.toString()} again, then list`;
  }
}

/** A list sent while pending orders are being cancelled: each of them listed or not, every other order as the state gives it. */
export class ListDuringCancels implements ExplorationCommand {
  constructor(
    readonly operation: OperationName,
    readonly list: OperationName,
    readonly nears: bigint[],
  ) {}
  check(model: ExplorationModel): boolean {
    return model.orders.some((order) => order.status === 'pending');
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const ids = [...new Set(this.nears.map((near) => orderTarget(model.orders, 'pending', near)!))];
    const listRoute = routeOf(this.list);
    const cancelRoute = routeOf(this.operation);
    const list = { method: listRoute.method, path: pathOf(listRoute), key: 'valid' as KeyChoice };
    const cancels = ids.map((id) => ({
      method: cancelRoute.method,
      path: pathOf(cancelRoute, id),
      key: 'valid' as KeyChoice,
    }));
    const [listed, ...cancelled] = await Promise.all(
      [list, ...cancels].map((call) => sendCall(target.options, call.method, call.path, call.key)),
    );
    const before = model.orders;
    const findings: Finding[] = [];
    const saved: ContractStep[] = [];
    for (const [index, call] of cancels.entries()) {
      const answer = (await model.mock.call(call.method, call.path, call.key))!;
      const observed = cancelled[index]!;
      const after = await model.mock.orders();
      const about = `${call.method} ${call.path}`;
      const side = { answer, before, after, history: target.history };
      findings.push(...judgeCall({ call, observed, model: side, about }).findings);
      saved.push(stepOf(call, answer, before, after));
    }
    model.orders = await model.mock.orders();
    // After the cancels, the orders being cancelled count as cancelled: listed or not (tolerance list-during-cancels).
    const listAnswer = (await model.mock.call(list.method, list.path, list.key))!;
    const listJudged = judge(target, list, listed!, listAnswer, before, model.orders);
    findings.push(...listJudged.findings);
    const exchange = judged({
      name: `${this.toString()}: ${ids.join(', ')}`,
      call: list,
      observed: listed!,
      findings,
      disagreements: listJudged.disagreements,
      strict: true,
      started,
    });
    // A scenario cannot send different requests at once: it replays the cancels, then the list.
    const listStep = stepOf(list, listAnswer, before, model.orders);
    target.steps.push({ ...exchange, name: `${target.steps.length + 1}. ${exchange.name}` });
    target.saved.push(
      ...saved.map((step, index) => ({
        ...step,
        name: `${target.steps.length}. ${titleOf(this.operation, String(ids[index]))} (during the list)`,
      })),
      { ...listStep, name: `${target.steps.length}. ${exchange.name}` },
    );
    if (exchange.violations.length > 0) stopAtDifference(target, exchange.name);
  }
  toString(): string {
    const [list, cancel] = [this.list, this.operation].map((name) => titleOf(name));
    return `${list} while ${cancel}: the pending order(s) nearest ${this.nears.join(', ')}`;
  }
}
