// The commands exploration generates: each one call (or a few at once) on the model and the provider.
import type { AsyncCommand } from 'fast-check';
import type { StoredOrder } from '../../mocks/store/order-store.js';
import type { KeyChoice } from '../../core/authorization.js';
import { int64Maximum, int64Minimum } from '../../core/int64.js';
import { pathOf, routeOf } from '../../core/routes.js';
import type { ContractStep } from '../../core/scenario.js';
import type { Finding, ObservedResponse } from '../../core/checks.js';
import { judgeCall } from '../../core/judge.js';
import { failureFinding, isFailure } from '../../core/observation.js';
import { raceFindings } from '../../core/compare.js';
import { eachAnswerAgainstSpec, judged, sendCall } from '../run.js';
import { stepOf } from '../model-step.js';
import { judge, judgedCall, record } from './judged-call.js';
import { ordinal, stopAtDifference, two53, type ExplorationModel, type ExplorationTarget } from './exploration.js';

export type ExplorationCommand = AsyncCommand<ExplorationModel, ExplorationTarget>;

export class ListOrders implements ExplorationCommand {
  constructor(readonly key: KeyChoice) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const call = { method: 'GET', path: pathOf(routeOf('listOrders')), key: this.key };
    const { exchange, answer, before } = await judgedCall(model, target, this.toString(), call);
    record(target, exchange, stepOf(call, answer, before, model.orders));
  }
  toString(): string {
    return this.key === 'valid' ? 'list the orders' : `list the orders with key ${this.key}`;
  }
}

export type CancelTarget = 'pending' | 'shipped' | 'cancelled' | 'unknown' | 'neighbour';

/** The id a cancel of this kind aims at in the model's store, or undefined when the store has none. */
export function cancelTarget(
  orders: StoredOrder[],
  kind: CancelTarget,
  pick: number,
  unknown: bigint,
): bigint | undefined {
  const ids = new Set(orders.map((order) => order.id));
  if (kind === 'unknown') return ids.has(unknown) ? undefined : unknown;
  if (kind === 'neighbour') {
    // One away from a stored id beyond 2^53: the same number once read as a float.
    const candidates = orders
      .flatMap((order) => (order.id >= two53 || order.id <= -two53 ? [order.id + 1n, order.id - 1n] : []))
      .filter((id) => !ids.has(id) && id <= int64Maximum && id >= int64Minimum);
    return candidates.length === 0 ? undefined : candidates[pick % candidates.length];
  }
  const matching = orders.filter((order) => order.status === kind);
  return matching.length === 0 ? undefined : matching[pick % matching.length]!.id;
}

export class CancelOrder implements ExplorationCommand {
  constructor(
    readonly kind: CancelTarget,
    readonly pick: number,
    readonly unknown: bigint,
    readonly key: KeyChoice = 'valid',
  ) {}
  check(model: ExplorationModel): boolean {
    return cancelTarget(model.orders, this.kind, this.pick, this.unknown) !== undefined;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const id = cancelTarget(model.orders, this.kind, this.pick, this.unknown)!;
    const call = { method: 'DELETE', path: pathOf(routeOf('cancelOrder'), id), key: this.key };
    const { exchange, answer, before } = await judgedCall(model, target, `${this.toString()}: ${id}`, call);
    record(target, exchange, stepOf(call, answer, before, model.orders));
  }
  toString(): string {
    const what =
      this.kind === 'unknown'
        ? 'an unknown order'
        : this.kind === 'neighbour'
          ? 'the neighbour of an order beyond 2^53'
          : `the ${ordinal(this.pick)} ${this.kind} order`;
    return `cancel ${what}${this.key === 'valid' ? '' : ` with key ${this.key}`}`;
  }
}

export class ReadPet implements ExplorationCommand {
  constructor(
    readonly petId: bigint,
    readonly key: KeyChoice,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const call = { method: 'GET', path: pathOf(routeOf('readPet'), this.petId), key: this.key };
    const { exchange, answer, before } = await judgedCall(model, target, this.toString(), call);
    record(target, exchange, stepOf(call, answer, before, model.orders));
  }
  toString(): string {
    return `read pet ${this.petId}${this.key === 'valid' ? '' : ` with key ${this.key}`}`;
  }
}

// What a burst of cancels of one pending order must give (tolerance `race-losers`), as a step expects it.
export const burstExpect: ContractStep['expect'] = { status: 204, others: [404, 409] };

/** Several cancels of one pending order at once: exactly one 204 (tolerance `race-losers`). */
export class CancelBurst implements ExplorationCommand {
  constructor(
    readonly pick: number,
    readonly count: number,
  ) {}
  check(model: ExplorationModel): boolean {
    return cancelTarget(model.orders, 'pending', this.pick, 0n) !== undefined;
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const id = cancelTarget(model.orders, 'pending', this.pick, 0n)!;
    const call = { method: 'DELETE', path: pathOf(routeOf('cancelOrder'), id), key: 'valid' as KeyChoice };
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
      request: { method: 'DELETE', path: call.path },
      parallel: this.count,
      expect: burstExpect,
    });
  }
  toString(): string {
    return `cancel the ${ordinal(this.pick)} pending order ${this.count} times at once`;
  }
}

/**
 * A cancel of a cancelled order, then a list: the refused cancel must change nothing (a cancelled
 * order that had left the list stays out of it; tolerance `cancelled-order-listed`).
 */
export class CancelAgainThenList implements ExplorationCommand {
  readonly #cancel: CancelOrder;
  readonly #list = new ListOrders('valid');
  constructor(readonly pick: number) {
    this.#cancel = new CancelOrder('cancelled', pick, 0n);
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
  constructor(readonly picks: number[]) {}
  check(model: ExplorationModel): boolean {
    return model.orders.some((order) => order.status === 'pending');
  }
  async run(model: ExplorationModel, target: ExplorationTarget): Promise<void> {
    const started = performance.now();
    const ids = [...new Set(this.picks.map((pick) => cancelTarget(model.orders, 'pending', pick, 0n)!))];
    const list = { method: 'GET', path: pathOf(routeOf('listOrders')), key: 'valid' as KeyChoice };
    const cancels = ids.map((id) => ({
      method: 'DELETE',
      path: pathOf(routeOf('cancelOrder'), id),
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
        name: `${target.steps.length}. cancel ${ids[index]} (during the list)`,
      })),
      { ...listStep, name: `${target.steps.length}. ${exchange.name}` },
    );
    if (exchange.violations.length > 0) stopAtDifference(target, exchange.name);
  }
  toString(): string {
    return `list the orders while cancelling ${this.picks.length} pending order(s)`;
  }
}
