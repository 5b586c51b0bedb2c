import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Arbitrary, AsyncCommand } from 'fast-check';
import { stringify } from 'yaml';
import type { StoredOrder } from '../mocks/order-store.js';
import type { KeyChoice } from '../mocks/authorization.js';
import { int64Maximum, int64Minimum } from '../spec/int64.js';
import { stringifyJson } from '../spec/json.js';
import { providerState, type OrderInput, type OrderStatus } from '../spec/provider-state.js';
import { documentedResponse, pathOf, routeOf, type OperationName } from '../spec/routes.js';
import type { BodySchemaName, ContractStep } from '../mocks/scenarios.js';
import { checkAgainstSpec, type Finding, type ObservedResponse } from './checks.js';
import { acceptedStatuses, compareWithModel, ProviderHistory } from './compare.js';
import { InterfaceModel, type ModelAnswer } from './model.js';
import { failureFinding, isFailure, TargetUnreachable, type Observation } from './observe.js';
import { installHint } from './optional-dependencies.js';
import { loadPrismOracle, withSecondOracle, type PrismOracle } from './prism.js';
import {
  caseVerdict,
  findingsOnlyExchange,
  tallySuite,
  type CaseResult,
  type CheckedExchange,
  type SuiteResult,
} from './results.js';
import {
  changeProviderState,
  eachAnswerAgainstSpec,
  judged,
  raceFindings,
  RunStopped,
  sendCall,
  stoppedExchange,
  type TargetOptions,
} from './run.js';

/** The seed an exploration uses unless told otherwise: the same sequences in every CI run. */
export const defaultExplorationSeed = 20261123;

/** How to explore a provider. */
export interface ExploreOptions extends TargetOptions {
  /** Where Pact's state changes go: every run sets a generated state. */
  stateUrl: string;
  /** How many generated runs (a state and a sequence of commands each). Default: 100. */
  runs?: number;
  /** The seed of the generation: a run replays exactly with the same seed. Default: `defaultExplorationSeed`. */
  seed?: number;
  /** The most commands in one run. Default: 12. */
  maxSteps?: number;
  /** Write the shrunk failure, if any, as a scenario file in this folder. */
  save?: string;
  /** Called after every run, and once with the shrunk failure. */
  onRun?: (result: CaseResult) => void;
}

/** The outcome of an exploration: the suite's results, and the shrunk failure when there is one. */
export interface ExplorationResult extends SuiteResult {
  seed: number;
  /** The shrunk failure: its state, its numbered steps, and where its scenario file was saved. */
  failure?: {
    run: number;
    state: OrderInput[];
    steps: CheckedExchange[];
    scenarioFile?: string;
    scenario: SavedScenario;
  };
}

/** A scenario as exploration saves it: the kit's scenario format. */
export interface SavedScenario {
  description: string;
  state: { name: string; params: { orders: OrderInput[] } };
  steps: ContractStep[];
}

const two53 = 2n ** 53n;

// ---------------------------------------------------------------------------------------------
// The model and the target, as fast-check's model-based testing sees them.

/** The model side: the kit's mock, and its orders after the last command (what preconditions read). */
interface ExplorationModel {
  mock: InterfaceModel;
  orders: StoredOrder[];
}

/** The target side: where to send, what to remember, and the log of the run. */
interface ExplorationTarget {
  options: ExploreOptions;
  prism: PrismOracle | undefined;
  history: ProviderHistory;
  steps: CheckedExchange[];
  saved: ContractStep[];
}

/** Thrown by a command whose answer differs from the model's: fast-check then shrinks the run. */
class Mismatch extends Error {
  override name = 'Mismatch';
}

const ordinal = (index: number) => `${index + 1}${['st', 'nd', 'rd'][index] ?? 'th'}`;

function bodySchemaOf(operation: OperationName, status: number): ContractStep['expect']['body'] {
  const documented = documentedResponse(routeOf(operation), status);
  if (status === 204) return 'none';
  if (documented === undefined) return undefined;
  const schema: BodySchemaName =
    operation === 'listOrders' && status === 200
      ? 'Order[]'
      : operation === 'readPet' && status === 200
        ? 'Pet'
        : 'Error';
  return documented.schema === null ? { schema: 'Error', optional: true } : { schema };
}

/** One call on both sides, judged: the model's answer, the provider's, the spec, Prism, the model comparison. */
async function judgedCall(
  model: ExplorationModel,
  target: ExplorationTarget,
  name: string,
  call: { method: string; path: string; key: KeyChoice },
): Promise<{ exchange: CheckedExchange; answer: ModelAnswer; before: StoredOrder[] }> {
  const started = performance.now();
  const before = model.orders;
  const [observed, answer] = await Promise.all([
    sendCall(target.options, call.method, call.path, call.key),
    model.mock.call(call.method, call.path, call.key),
  ]);
  model.orders = await model.mock.orders();
  const findings = judge(target, call, observed, answer!, before, model.orders);
  // Exploration compares with the model strictly: an advisory finding stops a run too.
  const exchange = judged({
    name,
    call,
    observed,
    findings: findings.findings,
    disagreements: findings.disagreements,
    strict: true,
    started,
  });
  return { exchange, answer: answer!, before };
}

function judge(
  target: ExplorationTarget,
  call: { method: string; path: string },
  observed: Observation,
  answer: ModelAnswer,
  before: StoredOrder[],
  after: StoredOrder[],
) {
  if (isFailure(observed)) return { findings: [failureFinding(observed)], disagreements: [] };
  const findings: Finding[] = checkAgainstSpec(call.method, call.path, observed);
  findings.push(...compareWithModel({ path: call.path, answer, before, after, observed }, target.history));
  return { findings, disagreements: withSecondOracle(target.prism, call.method, call.path, observed, findings) };
}

/** Records a judged call in the run's log and as a step of the scenario it would save, and stops the run on a violation. */
function record(target: ExplorationTarget, exchange: CheckedExchange, step: ContractStep): void {
  const numbered = { ...exchange, name: `${target.steps.length + 1}. ${exchange.name}` };
  target.steps.push(numbered);
  target.saved.push({ ...step, name: numbered.name });
  if (exchange.violations.length > 0) throw new Mismatch(numbered.name);
}

/** The scenario step that replays a call: its request, and what the model answered (with the tolerances). */
function stepOf(
  call: { method: string; path: string; key: KeyChoice },
  answer: ModelAnswer,
  before: StoredOrder[],
  after: StoredOrder[],
): ContractStep {
  const statuses = acceptedStatuses(answer, before, call.path);
  const body = bodySchemaOf(answer.operation, answer.status);
  const expect: ContractStep['expect'] = {
    status: statuses.length === 1 ? statuses[0]! : statuses,
    ...(body !== undefined && { body }),
  };
  if (answer.operation === 'listOrders' && answer.status === 200) {
    expect.listed = after.filter((order) => order.status !== 'cancelled').map((order) => order.id);
    const cancelled = after.filter((order) => order.status === 'cancelled').map((order) => order.id);
    if (cancelled.length > 0) expect.advisory = { notListed: cancelled };
  }
  if (answer.operation === 'readPet' && answer.status === 200) expect.headers = ['Deprecation', 'Sunset'];
  return {
    name: '',
    request: {
      method: call.method as 'GET' | 'DELETE',
      path: call.path,
      ...(call.key !== 'valid' && { key: call.key }),
    },
    expect,
  };
}

type ExplorationCommand = AsyncCommand<ExplorationModel, ExplorationTarget>;

class ListOrders implements ExplorationCommand {
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

type CancelTarget = 'pending' | 'shipped' | 'cancelled' | 'unknown' | 'neighbour';

/** The id a cancel of this kind aims at in the model's store, or undefined when the store has none. */
function cancelTarget(orders: StoredOrder[], kind: CancelTarget, pick: number, unknown: bigint): bigint | undefined {
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

class CancelOrder implements ExplorationCommand {
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

class ReadPet implements ExplorationCommand {
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
const burstExpect: ContractStep['expect'] = { status: 204, others: [404, 409] };

/** Several cancels of one pending order at once: exactly one 204 (tolerance `race-losers`). */
class CancelBurst implements ExplorationCommand {
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

/** A list sent while pending orders are being cancelled: each of them listed or not, every other order as the state gives it. */
class ListDuringCancels implements ExplorationCommand {
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
      if (isFailure(observed)) findings.push(failureFinding(observed, about));
      else
        findings.push(
          ...compareWithModel({ path: call.path, answer, before, after, observed }, target.history).map((finding) => ({
            ...finding,
            about,
          })),
        );
      saved.push(stepOf(call, answer, before, after));
    }
    model.orders = await model.mock.orders();
    // After the cancels, the orders being cancelled count as cancelled: listed or not (tolerance cancelled-order-listed).
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
    if (exchange.violations.length > 0) throw new Mismatch(exchange.name);
  }
  toString(): string {
    return `list the orders while cancelling ${this.picks.length} pending order(s)`;
  }
}

// ---------------------------------------------------------------------------------------------

/** fast-check, as the exploration loads it: only when it runs. */
type FastCheck = typeof import('fast-check');

/**
 * fast-check, loaded when an exploration runs: an optional peer of the package, which the
 * petstore-verify command carries inside its bundle.
 * @throws Error with the install line when it is not installed.
 */
async function loadFastCheck(): Promise<FastCheck> {
  try {
    return await import('fast-check');
  } catch {
    throw new Error(`petstore-contract-kit ${installHint(['fastCheck']) ?? 'needs fast-check'}`);
  }
}

// Ids where a provider's int64 handling breaks: zero, the edges of a double's exact integers, int64's edges.
const specialIds: readonly bigint[] = [
  0n,
  1n,
  -1n,
  7n,
  42n,
  two53 - 1n,
  two53,
  two53 + 1n,
  -two53,
  -two53 - 1n,
  -(two53 - 1n),
  int64Maximum,
  int64Maximum - 1n,
  int64Minimum,
  int64Minimum + 1n,
];

/** Order ids (special ids, small ones, the whole int64 range) and pet ids. */
function idArbitraries(fc: FastCheck): { id: Arbitrary<bigint>; petId: Arbitrary<bigint> } {
  return {
    id: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...specialIds) },
      { weight: 3, arbitrary: fc.bigInt({ min: -1000n, max: 1000n }) },
      { weight: 2, arbitrary: fc.bigInt({ min: int64Minimum, max: int64Maximum }) },
    ),
    petId: fc.oneof(
      fc.constantFrom(0n, 1n, int64Minimum, int64Maximum, two53 + 1n),
      fc.bigInt({ min: int64Minimum, max: int64Maximum }),
    ),
  };
}

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

/** A ship date in one of the RFC 3339 forms a provider may write: Z, fractional seconds, +00:00, another offset. */
function shipDateArbitrary(fc: FastCheck): Arbitrary<string> {
  return fc
    .record({
      at: fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2030, 11, 31) / 1000 }),
      form: fc.constantFrom('Z', 'fraction', 'zero-offset', 'offset'),
    })
    .map(({ at, form }) => {
      const date = new Date(at * 1000);
      if (form === 'fraction') return new Date(at * 1000 + 250).toISOString();
      const shift = form === 'offset' ? 5 * 60 + 30 : 0;
      const local = new Date(date.getTime() + shift * 60_000);
      const text = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
      return form === 'Z' ? `${text}Z` : `${text}${form === 'offset' ? '+05:30' : '+00:00'}`;
    });
}

/** The orders of a generated provider state: unique ids, 0 to 20 mostly, and now and then 2^53 beside 2^53 + 1. */
function stateArbitrary(fc: FastCheck, ids: ReturnType<typeof idArbitraries>): Arbitrary<OrderInput[]> {
  const orderArbitrary = fc.record(
    {
      id: ids.id,
      petId: ids.petId,
      quantity: fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 1000 })),
      shipDate: shipDateArbitrary(fc),
      complete: fc.boolean(),
      status: fc.constantFrom<OrderStatus>('pending', 'pending', 'shipped', 'cancelled'),
    },
    { requiredKeys: ['id', 'status'] },
  );
  return fc
    .tuple(
      fc.oneof(
        { weight: 9, arbitrary: fc.uniqueArray(orderArbitrary, { selector: (order) => order.id, maxLength: 20 }) },
        {
          weight: 1,
          arbitrary: fc.uniqueArray(orderArbitrary, { selector: (order) => order.id, minLength: 21, maxLength: 60 }),
        },
      ),
      fc.constantFrom('none', 'none', 'none', 'above', 'below'),
    )
    .map(([orders, neighbours]) => {
      const pair = neighbours === 'above' ? [two53, two53 + 1n] : neighbours === 'below' ? [-two53, -two53 - 1n] : [];
      const extra = pair
        .filter((id) => !orders.some((order) => order.id === id))
        .map((id): OrderInput => ({ id, status: 'pending' }));
      return [...orders, ...extra] as OrderInput[];
    });
}

/** Every command exploration generates, weighted towards what changes the store. */
function commandArbitraries(fc: FastCheck, ids: ReturnType<typeof idArbitraries>): Arbitrary<ExplorationCommand>[] {
  const acceptedKey = fc.oneof(
    { weight: 5, arbitrary: fc.constant<KeyChoice>('valid') },
    { weight: 1, arbitrary: fc.constant<KeyChoice>('lowercase-scheme') },
  );
  const refusedKey = fc.constantFrom<KeyChoice>('none', 'wrong', 'basic');
  return [
    acceptedKey.map((key) => new ListOrders(key)),
    fc
      .tuple(
        fc.constantFrom<CancelTarget>('pending', 'pending', 'pending', 'shipped', 'cancelled', 'unknown', 'neighbour'),
        fc.nat(20),
        ids.id,
      )
      .map(([kind, pick, unknown]) => new CancelOrder(kind, pick, unknown)),
    fc
      .tuple(fc.constantFrom<CancelTarget>('pending', 'shipped', 'cancelled', 'pending'), fc.nat(20), ids.id)
      .map(([kind, pick, unknown]) => new CancelOrder(kind, pick, unknown)),
    refusedKey.map((key) => new ListOrders(key)),
    fc
      .tuple(fc.constantFrom<CancelTarget>('pending', 'shipped', 'unknown'), fc.nat(20), ids.id, refusedKey)
      .map(([kind, pick, unknown, key]) => new CancelOrder(kind, pick, unknown, key)),
    fc.tuple(ids.petId, fc.oneof(acceptedKey, refusedKey)).map(([petId, key]) => new ReadPet(petId, key)),
    fc.tuple(fc.nat(20), fc.integer({ min: 2, max: 6 })).map(([pick, count]) => new CancelBurst(pick, count)),
    fc.array(fc.nat(20), { minLength: 1, maxLength: 3 }).map((picks) => new ListDuringCancels(picks)),
  ];
}

/**
 * What exploration generates. States: 0 to 20 orders, sometimes more; ids over the whole int64 range;
 * every field present or absent, with edge values; statuses mixed. Commands: every kind of call,
 * weighted towards what changes the store.
 */
function arbitraries(fc: FastCheck): {
  stateArbitrary: Arbitrary<OrderInput[]>;
  commandArbitraries: Arbitrary<ExplorationCommand>[];
} {
  const ids = idArbitraries(fc);
  return { stateArbitrary: stateArbitrary(fc, ids), commandArbitraries: commandArbitraries(fc, ids) };
}

/** What a saved scenario says of the failure it replays. */
interface FailureFound {
  run: number;
  seed: number;
  state: OrderInput[];
  /** The steps as scenario steps. */
  saved: ContractStep[];
  /** The steps the shrunk run explored. */
  explored: number;
  /** The step that differed, without its number. */
  failed: string;
}

function savedScenario({ run, seed, state, saved, explored, failed }: FailureFound): SavedScenario {
  return {
    description: `Found by petstore-verify explore (seed ${seed}, run ${run}), shrunk to ${explored} step${explored === 1 ? '' : 's'}: ${failed} differs from what the model answers.`,
    state: { name: providerState, params: { orders: state } },
    steps: saved,
  };
}

function toYaml(scenario: SavedScenario): string {
  // The yaml package writes a bigint as the exact integer it is.
  return `# Saved by petstore-verify explore: replay it with petstore-verify --scenarios DIR, or load it in petstore-mock --scenarios DIR.\n${stringify(scenario, { lineWidth: 0 })}`;
}

/** The last failure fast-check saw: after shrinking, the smallest. */
interface ExploredFailure {
  state: OrderInput[];
  steps: CheckedExchange[];
  saved: ContractStep[];
}

/** What the runs of one exploration gave: the passed runs, the first failing run's number, the last failure, an abort. */
class ExplorationLog {
  readonly runs: CaseResult[] = [];
  failedRun = 0;
  lastFailure: ExploredFailure | undefined;
  aborted: Error | undefined;
  #firstFailureSeen = false;
  readonly #onRun: ((result: CaseResult) => void) | undefined;

  constructor(onRun: ((result: CaseResult) => void) | undefined) {
    this.#onRun = onRun;
  }

  /** A run that passed: reported until the first failure (after it, fast-check's runs are shrinking). */
  passed(state: OrderInput[], steps: CheckedExchange[]): void {
    if (this.#firstFailureSeen) return;
    const result: CaseResult = {
      name: `run ${this.runs.length + 1}`,
      description: `${state.length} order${state.length === 1 ? '' : 's'}, ${steps.length} step${steps.length === 1 ? '' : 's'}`,
      verdict: 'passed',
      exchanges: steps,
    };
    this.runs.push(result);
    this.#onRun?.(result);
  }

  failed(failure: ExploredFailure): void {
    if (!this.#firstFailureSeen) {
      this.#firstFailureSeen = true;
      this.failedRun = this.runs.length + 1;
    }
    this.lastFailure = failure;
  }
}

/**
 * One run of the property: sets the generated state on the target and in the model, runs the commands
 * against both, and tears the state down. A difference (or a state that cannot be set) is logged and
 * thrown for fast-check to shrink; a target that stopped answering aborts the exploration.
 */
async function exploreRun(
  run: { options: ExploreOptions; prism: PrismOracle | undefined; log: ExplorationLog; fc: FastCheck },
  state: OrderInput[],
  commands: Iterable<ExplorationCommand>,
): Promise<void> {
  const { options, prism, log, fc } = run;
  if (log.aborted !== undefined) return;
  const target: ExplorationTarget = { options, prism, history: new ProviderHistory(), steps: [], saved: [] };
  try {
    await changeProviderState(options, state, 'setup');
    const mock = await InterfaceModel.seeded(state);
    await fc.asyncModelRun(async () => ({ model: { mock, orders: await mock.orders() }, real: target }), commands);
    log.passed(state, target.steps);
  } catch (error) {
    if (error instanceof TargetUnreachable || error instanceof RunStopped) {
      log.aborted = error;
      return;
    }
    if (!(error instanceof Mismatch)) {
      // The state could not be set, or something else went wrong: a failure like any other, with its reason.
      target.steps.push(
        findingsOnlyExchange(`${target.steps.length + 1}. ${(error as Error).message}`, [
          {
            code: 'exploration',
            path: '',
            expected: 'the run to set its state and replay',
            actual: (error as Error).message,
          },
        ]),
      );
    }
    log.failed({ state, steps: target.steps, saved: target.saved });
    throw error;
  } finally {
    await changeProviderState(options, [], 'teardown').catch(() => undefined);
  }
}

/** The shrunk failure as a case and as the result's `failure`, its scenario written to `save` when given. */
async function shrunkFailure(
  failure: ExploredFailure,
  found: { run: number; seed: number; numShrinks: number; save: string | undefined },
): Promise<{ shrunk: CaseResult; failure: NonNullable<ExplorationResult['failure']> }> {
  const { run, seed } = found;
  const failing = failure.steps.at(-1)?.name ?? 'a step';
  const scenario = savedScenario({
    run,
    seed,
    state: failure.state,
    saved: failure.saved,
    explored: failure.steps.length,
    failed: failing.replace(/^\d+\. /, ''),
  });
  let scenarioFile: string | undefined;
  if (found.save !== undefined) {
    await mkdir(found.save, { recursive: true });
    scenarioFile = join(found.save, `explore-${seed}-run-${run}.yaml`);
    await writeFile(scenarioFile, toYaml(scenario));
  }
  const shrunk: CaseResult = {
    name: `run ${run}, shrunk`,
    description: `${failure.state.length} order${failure.state.length === 1 ? '' : 's'} in the state: ${stringifyJson(failure.state)}`,
    verdict: caseVerdict(failure.steps, 'failed'),
    reason: `shrunk ${found.numShrinks} times to ${failure.steps.length} step${failure.steps.length === 1 ? '' : 's'}${scenarioFile === undefined ? '' : `; saved as ${scenarioFile}`}`,
    exchanges: failure.steps,
  };
  return {
    shrunk,
    failure: {
      run,
      state: failure.state,
      steps: failure.steps,
      scenario,
      ...(scenarioFile !== undefined && { scenarioFile }),
    },
  };
}

/**
 * Explores a provider with generated provider states and command sequences (fast-check's model-based
 * testing), the kit's mock as the model: each run sets a generated state through `stateUrl` (and in the
 * model), then runs the commands against both and compares every answer (the spec, Prism, the model,
 * the tolerance table). A difference stops the run; fast-check shrinks it to the smallest state and
 * sequence that still differ, which is reported as numbered steps and, with `save`, written as a
 * scenario file that replays it. The same seed gives the same runs.
 * @throws TargetUnreachable when the target or the state URL does not answer at all.
 * @example
 * const result = await explore({ baseUrl, apiKey, stateUrl, runs: 100, seed: 42 });
 * result.failure?.steps // the shrunk sequence, numbered
 */
export async function explore(options: ExploreOptions): Promise<ExplorationResult> {
  const started = performance.now();
  const seed = options.seed ?? defaultExplorationSeed;
  const fc = await loadFastCheck();
  const { stateArbitrary, commandArbitraries } = arbitraries(fc);
  const prism = options.prism === false ? undefined : await (options.loadPrism ?? loadPrismOracle)();
  const log = new ExplorationLog(options.onRun);
  const property = fc.asyncProperty(
    stateArbitrary,
    fc.commands(commandArbitraries, { maxCommands: options.maxSteps ?? 12 }),
    (state, commands) => exploreRun({ options, prism, log, fc }, state, commands),
  );
  const left = options.deadline === undefined ? undefined : options.deadline - Date.now();
  const details = await fc.check(property, {
    seed,
    numRuns: options.runs ?? 100,
    ...(left !== undefined && { interruptAfterTimeLimit: Math.max(1, left), markInterruptAsFailure: true }),
  });
  const { aborted, lastFailure } = log;
  if (aborted instanceof TargetUnreachable) throw aborted;
  const cases = [...log.runs];
  const result: ExplorationResult = { ...tallySuite('explore', cases, 0), seed };
  if (aborted !== undefined || (details.interrupted && !details.failed)) {
    const reason = aborted?.message ?? 'the run passed its deadline';
    cases.push({ name: 'stopped', verdict: 'failed', reason, exchanges: [stoppedExchange(reason)] });
    options.onRun?.(cases.at(-1)!);
  } else if (details.failed && lastFailure !== undefined) {
    const found = { run: log.failedRun, seed, numShrinks: details.numShrinks, save: options.save };
    const { shrunk, failure } = await shrunkFailure(lastFailure, found);
    cases.push(shrunk);
    options.onRun?.(shrunk);
    result.failure = failure;
  }
  return { ...result, ...tallySuite('explore', cases, performance.now() - started), seed };
}
