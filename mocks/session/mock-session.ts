import type { FaultInput } from '../../core/fault-format.js';
import type { ScenarioStep } from '../../core/scenario.js';
import { matchRoute, type OperationName } from '../../core/routes.js';
import { MockError } from '../base/errors.js';
import { FaultPlan, faultsInForceLimit, type ActiveFault } from './faults.js';
import { RequestJournal, type JournalEntry, type RecordedCall, type ResponseCoverage } from '../journal/journal.js';
import { PactLedger, type PactCalls } from '../pact/pact-ledger.js';
import { checkedFilter, type RequestFilter } from '../journal/request-filter.js';
import { type OrderSeed, OrderStore, type OrderCollection, type StoredOrder } from '../store/order-store.js';
import type { ConflictBody } from './operations.js';
import type { NetworkError, Reply } from '../base/reply.js';

/** What the mock needs of a scenario to load it. */
export interface LoadableScenario {
  name: string;
  description?: string;
  state?: { params: { orders: readonly unknown[] } };
  steps?: readonly Pick<ScenarioStep, 'request' | 'fault'>[];
}

/** A scenario the mock can load, as `GET /__mock/scenarios` lists it. */
export interface ScenarioSummary {
  name: string;
  description: string;
  /** Null when the scenario keeps the store as it is. */
  orders: number | null;
  faults: number;
}

/** What loading a scenario did, as `POST /__mock/scenarios/{name}` answers it. */
export interface ScenarioLoaded {
  scenario: string;
  seeded: boolean;
  orders: number;
  faults: number;
}

/**
 * The faults a scenario's steps declare, each one hitting exactly its step's call.
 * @example
 * // steps: GET /store/orders; GET /store/orders with fault { status: 503 }
 * scenarioFaults(scenario) // [{ operation: 'listOrders', after: 1, times: 1, status: 503 }]
 */
export function scenarioFaults(scenario: LoadableScenario): FaultInput[] {
  const calls = new Map<string, number>();
  const faults: FaultInput[] = [];
  for (const step of scenario.steps ?? []) {
    const operation = matchRoute(step.request.method, step.request.path, step.request.base)?.route.operation;
    if (operation === undefined) {
      if (step.fault === undefined) continue;
      throw new MockError(
        'invalid_fault',
        `Scenario ${scenario.name}: ${step.request.method} ${step.request.base ?? ''}${step.request.path} is not an operation a fault can affect.`,
      );
    }
    const earlier = calls.get(operation) ?? 0;
    calls.set(operation, earlier + 1);
    if (step.fault !== undefined) faults.push({ ...step.fault, operation, after: earlier, times: 1 });
  }
  return faults;
}

/**
 * How a session answers where the contract allows more than one answer.
 * @example
 * { conflictBody: 'none' } // a shipped order's 409 comes without a body
 */
export interface MockSettings {
  conflictBody: ConflictBody;
}

/**
 * The settings a session starts with.
 * @example
 * defaultMockSettings.conflictBody // 'error'
 */
export const defaultMockSettings: Readonly<MockSettings> = { conflictBody: 'error' };

export const conflictBodies: readonly ConflictBody[] = ['error', 'none'];

/**
 * Checks settings from a request body or a caller.
 * @example
 * checkedSettings({ conflictBody: 'none' }) // { conflictBody: 'none' }
 */
export function checkedSettings(value: unknown): Partial<MockSettings> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new MockError('invalid_request', 'Invalid settings: send an object such as {"conflictBody": "none"}.', {
      violations: [{ path: '', message: 'must be an object' }],
    });
  const entries = Object.entries(value);
  const violations = entries.flatMap(([name, setting]) =>
    name !== 'conflictBody'
      ? [{ path: `/${name}`, message: 'is not a setting (the settings: conflictBody)' }]
      : conflictBodies.includes(setting as ConflictBody)
        ? []
        : [{ path: '/conflictBody', message: 'must be "error" or "none"' }],
  );
  if (violations.length > 0)
    throw new MockError(
      'invalid_request',
      `Invalid settings: ${violations.map((violation) => `${violation.path} ${violation.message}`).join('; ')}.`,
      { violations },
    );
  const checked: Partial<MockSettings> = {};
  for (const [name, setting] of entries) if (name === 'conflictBody') checked.conflictBody = setting as ConflictBody;
  return checked;
}

/** The controls of one session: the same calls as the control plane under `/__mock`. */
export interface MockControls {
  readonly store: OrderStore;
  /**
   * Every order with its status.
   * @example
   * (await mock.orders()).map((order) => order.status) // ['pending', 'pending', 'shipped', 'shipped', 'pending']
   */
  orders(): Promise<StoredOrder[]>;
  /**
   * The session's orders as an `@msw/data` collection, to arrange data in a test. Ask again after a reset or replacement.
   * @example
   * const orders = await mock.collection();
   * await orders.update((q) => q.where({ id: 1n }), { data(order) { order.status = 'shipped'; } });
   * await orders.create({ id: 9007199254740993n, petId: 7n }); // pending, listed next
   * // DELETE /v1/store/orders/1 now answers 409
   */
  collection(): Promise<OrderCollection>;
  /** Replaces every order; on bad input nothing changes. */
  replaceOrders(orders: readonly unknown[]): Promise<void>;
  /** Returns the store, faults and settings to how the session started. */
  reset(): Promise<void>;
  /**
   * Loads a scenario: its orders and faults replace the session's.
   * @example
   * const mock = createOrderMock({ scenarios: bundledScenarios });
   * await mock.loadScenario('cancel-shipped-order'); // DELETE /v1/store/orders/3 now answers 409
   */
  loadScenario(name: string): Promise<ScenarioLoaded>;
  /**
   * The scenarios `loadScenario` knows.
   * @example
   * createOrderMock({ scenarios: bundledScenarios }).scenarios()[0] // { name: 'cancel-cancelled-order', description: '…', orders: 1, faults: 0 }
   */
  scenarios(): ScenarioSummary[];
  settings(): MockSettings;
  /**
   * Changes settings until the next reset; returns them all.
   * @example
   * mock.changeSettings({ conflictBody: 'none' }); // DELETE of a shipped order: 409 without a body
   */
  changeSettings(settings: Partial<MockSettings>): MockSettings;
  /**
   * Adds faults and returns them with their ids.
   * @example
   * mock.addFaults({ operation: 'listOrders', status: 503, times: 1 }); // the next list answers 503
   * mock.addFaults({ operation: 'cancelOrder', delay: { min: 100, max: 400 }, seed: 7 });
   * mock.addFaults({ operation: 'cancelOrder', network: true, after: 2, times: 1 }); // the third cancel fails to connect
   */
  addFaults(faults: FaultInput | readonly FaultInput[]): ActiveFault[];
  clearFaults(): void;
  removeFault(id: number): void;
  faults(): ActiveFault[];
  /**
   * The calls this session answered, oldest first, those matching `filter` if given.
   * @example
   * expect(mock.requests({ operation: 'cancelOrder', status: 204 })).toHaveLength(1);
   * expect(mock.requests({ method: 'DELETE', path: '/v1/store/orders/3' })).toHaveLength(1);
   */
  requests(filter?: RequestFilter): JournalEntry[];
  clearRequests(): void;
  /**
   * How often this session gave each documented response since the journal was last cleared.
   * @example
   * mock.coverage().operations.find((operation) => operation.operation === 'cancelOrder')!.responses // [{ status: 204, seen: 1 }, { status: 401, seen: 0 }, ...]
   */
  coverage(): ResponseCoverage;
}

/** How a session starts, and what it returns to on reset. */
export interface SessionStart {
  seed: OrderSeed;
  faults: readonly FaultInput[];
  scenarios: readonly LoadableScenario[];
  journalSize: number;
  sleep?: (milliseconds: number) => Promise<void>;
  /** The most orders all sessions may hold, and how many the other sessions hold. */
  orderBudget?: { limit: number; ordersInOtherSessions(session: MockSession): number };
  settings?: MockSettings;
  /** Names each session's store, for its entity tags. */
  storeTag?: () => string;
}

/**
 * One store and its faults, with their controls: a mock's default session, or one named by `X-Mock-Session`.
 * @example
 * const session = new MockSession({ seed: OrderSeed.from([{ id: 1 }]), faults: [], scenarios: [], journalSize: 1000 });
 * session.addFaults({ operation: 'listOrders', status: 503, times: 1 });
 */
export class MockSession implements MockControls {
  readonly store: OrderStore;
  readonly #plan: FaultPlan;
  readonly #journal: RequestJournal;
  readonly #pactCalls = new PactLedger();
  readonly #start: SessionStart;
  #settings: MockSettings;
  #roundingHinted = false;

  constructor(start: SessionStart) {
    const tag = start.storeTag?.();
    this.store = new OrderStore(start.seed, tag === undefined ? {} : { tag });
    this.#plan = new FaultPlan({ sleep: start.sleep });
    this.#journal = new RequestJournal(start.journalSize);
    this.#start = start;
    this.#settings = { ...(start.settings ?? defaultMockSettings) };
    if (start.faults.length > 0) this.#plan.add(start.faults);
  }

  settings(): MockSettings {
    return { ...this.#settings };
  }

  /** The one setting each cancel reads, without a copy of them all. */
  get conflictBody(): ConflictBody {
    return this.#settings.conflictBody;
  }

  changeSettings(settings: unknown): MockSettings {
    Object.assign(this.#settings, checkedSettings(settings));
    return this.settings();
  }

  /** True the first time only: the float64 hint is logged once a session. */
  firstRoundingHint(): boolean {
    const first = !this.#roundingHinted;
    this.#roundingHinted = true;
    return first;
  }

  async orders(): Promise<StoredOrder[]> {
    return this.store.all();
  }

  collection(): Promise<OrderCollection> {
    return this.store.collection();
  }

  /** `at` is where the orders sit in a request body, for the violations' paths. */
  async replaceOrders(orders: unknown, at = ''): Promise<void> {
    this.#checkRoomFor(orders);
    await this.store.replace(orders, at);
  }

  // Only a replacement that grows the store is refused: a smaller one is taken even over the budget.
  #checkRoomFor(orders: unknown): void {
    const budget = this.#start.orderBudget;
    if (budget === undefined || !Array.isArray(orders) || orders.length <= this.store.size) return;
    const inOtherSessions = budget.ordersInOtherSessions(this);
    if (inOtherSessions + orders.length <= budget.limit) return;
    throw new MockError(
      'order_limit_reached',
      `Cannot hold ${orders.length} orders here: the other sessions hold ${inOtherSessions} and the mock holds at most ${budget.limit} orders in all. ` +
        'End sessions with DELETE /__mock/sessions/{name}, or start the mock with a larger --max-orders.',
    );
  }

  /** Clears the journal too, so that each test starts from nothing; the calls a pact is written from stay. */
  async reset(): Promise<void> {
    this.#journal.clear();
    this.#settings = { ...(this.#start.settings ?? defaultMockSettings) };
    this.#roundingHinted = false;
    this.#plan.clear();
    if (this.#start.faults.length > 0) this.#plan.add(this.#start.faults);
    await this.store.reset();
  }

  scenarios(): ScenarioSummary[] {
    return this.#start.scenarios.map((scenario) => ({
      name: scenario.name,
      description: scenario.description ?? '',
      orders: scenario.state === undefined ? null : scenario.state.params.orders.length,
      faults: scenarioFaults(scenario).length,
    }));
  }

  async loadScenario(name: string): Promise<ScenarioLoaded> {
    const scenario = this.#start.scenarios.find((candidate) => candidate.name === name);
    if (scenario === undefined) {
      const known = this.#start.scenarios.map((candidate) => candidate.name).join(', ') || 'none';
      throw new MockError('unknown_scenario', `Unknown scenario ${JSON.stringify(name)}; known: ${known}.`);
    }
    const faults = scenarioFaults(scenario);
    // Everything the scenario asks for is checked before anything changes.
    if (faults.length > faultsInForceLimit)
      throw new MockError(
        'fault_limit_reached',
        `Cannot load scenario ${JSON.stringify(name)}: its ${faults.length} faults are more than a session holds (${faultsInForceLimit}).`,
      );
    if (scenario.state !== undefined) {
      this.#checkRoomFor(scenario.state.params.orders);
      await this.store.replace(scenario.state.params.orders);
    }
    this.#plan.clear();
    if (faults.length > 0) this.#plan.add(faults);
    return {
      scenario: name,
      seeded: scenario.state !== undefined,
      orders: this.store.size,
      faults: this.#plan.list().length,
    };
  }

  addFaults(faults: unknown): ActiveFault[] {
    return this.#plan.add(faults);
  }

  clearFaults(): void {
    this.#plan.clear();
  }

  removeFault(id: number): void {
    if (!this.#plan.remove(id))
      throw new MockError('unknown_fault', `No fault ${id} is in force; GET /__mock/faults lists them.`);
  }

  faults(): ActiveFault[] {
    return this.#plan.list();
  }

  requests(filter?: RequestFilter): JournalEntry[] {
    return this.#journal.list(checkedFilter(filter, 'requests(filter)'));
  }

  /** Every call the journal keeps, oldest first, with its answer. */
  journalCalls(): readonly RecordedCall[] {
    return this.#journal.calls();
  }

  /** Every distinct call since the session started or `clearPact()`: what a consumer pact is written from. */
  pactCalls(): PactCalls {
    return this.#pactCalls.calls();
  }

  /** Marks that a test began; the function returned says it did not pass: its first-made calls leave the pact. */
  testStarted(name: string): () => void {
    return this.#pactCalls.testStarted(name);
  }

  /** Forgets the calls a pact is written from (`reset()` and `clearRequests()` keep them). */
  clearPact(): void {
    this.#pactCalls.clear();
  }

  clearRequests(): void {
    this.#journal.clear();
  }

  coverage(): ResponseCoverage {
    return this.#journal.coverage();
  }

  dropsConnections(): boolean {
    return !this.#plan.empty && this.#plan.dropsConnections;
  }

  recordCall(entry: RecordedCall): void {
    // Before the journal, which may drop the body the two share.
    this.#pactCalls.record(entry);
    this.#journal.record(entry);
  }

  /**
   * The faulted reply of a call, after its delay; undefined at once when no fault is in force, so that
   * the usual call does not wait for a promise.
   */
  applyFaults(operation: OperationName): Promise<Reply | NetworkError | undefined> | undefined {
    return this.#plan.empty ? undefined : this.#plan.apply(operation);
  }
}
