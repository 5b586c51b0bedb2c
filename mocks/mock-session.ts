import type { FaultInput } from '../core/fault-format.js';
import type { ScenarioStep } from '../core/scenario.js';
import { operationOf, type OperationName } from '../core/routes.js';
import { MockError } from './errors.js';
import { FaultPlan, faultsInForceLimit, type ActiveFault } from './faults.js';
import {
  RequestJournal,
  type JournalEntry,
  type RecordedCall,
  type RequestFilter,
  type ResponseCoverage,
} from './journal.js';
import { type OrderSeed, OrderStore, type OrderCollection, type StoredOrder } from './order-store.js';
import type { ConflictBody } from './operations.js';
import type { NetworkError, Reply } from './reply.js';

/** What the mock needs of a scenario to load it: its name, its provider state when it has one, and the faults its steps declare. */
export interface LoadableScenario {
  name: string;
  /** What the scenario shows, in a sentence (listed by `GET /__mock/scenarios`). */
  description?: string;
  state?: { params: { orders: readonly unknown[] } };
  steps?: readonly Pick<ScenarioStep, 'request' | 'fault'>[];
}

/** A scenario the mock can load, as `GET /__mock/scenarios` lists it. */
export interface ScenarioSummary {
  name: string;
  description: string;
  /** How many orders its provider state holds, or null when it keeps the store as it is. */
  orders: number | null;
  /** How many faults its steps put in force. */
  faults: number;
}

/** What loading a scenario did, as `POST /__mock/scenarios/{name}` answers it. */
export interface ScenarioLoaded {
  scenario: string;
  /** Whether the scenario set a provider state (a scenario without one keeps the store). */
  seeded: boolean;
  /** How many orders the store holds now. */
  orders: number;
  /** How many faults are in force now (the scenario's step faults). */
  faults: number;
}

/**
 * The faults a scenario's steps declare, each turned into a fault of the step's operation that
 * lets the scenario's earlier calls of that operation through and affects exactly the step's call.
 * @throws MockError `invalid_fault` when a step with a fault is not a call of an operation.
 * @example
 * // steps: GET /store/orders; GET /store/orders with fault { status: 503 }
 * scenarioFaults(scenario) // [{ operation: 'listOrders', after: 1, times: 1, status: 503 }]
 */
export function scenarioFaults(scenario: LoadableScenario): FaultInput[] {
  const calls = new Map<string, number>();
  const faults: FaultInput[] = [];
  for (const step of scenario.steps ?? []) {
    const operation = operationOf(step.request.method, step.request.path);
    if (operation === undefined) {
      if (step.fault === undefined) continue;
      throw new MockError(
        'invalid_fault',
        `Scenario ${scenario.name}: ${step.request.method} ${step.request.path} is not an operation a fault can affect.`,
      );
    }
    const earlier = calls.get(operation) ?? 0;
    calls.set(operation, earlier + 1);
    if (step.fault !== undefined) faults.push({ ...step.fault, operation, after: earlier, times: 1 });
  }
  return faults;
}

/**
 * How a session answers where the contract allows more than one answer; `GET`/`PUT /__mock/settings`.
 * @example
 * { conflictBody: 'none' } // a shipped order's 409 comes without a body
 */
export interface MockSettings {
  /** What the 409 of a cancel of a shipped order carries: an Error record (`error`, the default) or no body (`none`). */
  conflictBody: ConflictBody;
}

/** The settings a mock starts with unless told otherwise. */
export const defaultMockSettings: Readonly<MockSettings> = { conflictBody: 'error' };

/** What `conflictBody` may be: an Error record, or no body. */
export const conflictBodies: readonly ConflictBody[] = ['error', 'none'];

/**
 * Checks settings from a request body or a caller: an object of known settings, each with a value it may take.
 * @throws MockError `invalid_request` naming each setting that is wrong; nothing changes.
 * @example
 * checkedSettings({ conflictBody: 'none' }) // { conflictBody: 'none' }
 */
export function checkedSettings(value: unknown): Partial<MockSettings> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new MockError('invalid_request', 'Invalid settings: send an object such as {"conflictBody": "none"}.', {
      violations: [{ path: '', message: 'must be an object' }],
    });
  // Read once: what is stored is what was checked.
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

/** The controls of one session's store and faults: the same calls as the control plane under `/__mock`. */
export interface MockControls {
  /** The store behind the session. */
  readonly store: OrderStore;
  /**
   * Every order with its status (what `GET /__mock/orders` answers); a replacement is in place as soon as it is asked.
   * @example
   * (await mock.orders()).map((order) => order.status) // ['pending', 'pending', 'shipped', 'shipped', 'pending']
   */
  orders(): Promise<StoredOrder[]>;
  /**
   * The session's orders as an `@msw/data` collection, to arrange data in a test: records as
   * `orders()` returns them (`id` and `petId` as `bigint`, a `status`), checked against the spec's
   * Order on every create and update. What you create, update or delete there is what the next
   * `GET /v1/store/orders` lists and what decides the next cancel. `reset()`, `replaceOrders()` and
   * `loadScenario()` give the session a new collection, from the seed or the new orders: ask for it again after one.
   * @example
   * const orders = await mock.collection();
   * await orders.update((q) => q.where({ id: 1n }), { data(order) { order.status = 'shipped'; } });
   * await orders.create({ id: 9007199254740993n, petId: 7n }); // pending, listed next
   * // DELETE /v1/store/orders/1 now answers 409
   */
  collection(): Promise<OrderCollection>;
  /** Replaces every order, as `PUT /__mock/orders` does; rejects with a `MockError` and changes nothing on bad input. */
  replaceOrders(orders: readonly unknown[]): Promise<void>;
  /** Returns the store to its seed and the faults to the initial ones, as `POST /__mock/reset` does. */
  reset(): Promise<void>;
  /**
   * Loads one of the mock's scenarios, as `POST /__mock/scenarios/{name}` does: its orders replace the
   * store and its steps' faults replace the faults in force. Rejects with a `MockError`
   * (`unknown_scenario`) for a name it was not given; then nothing changes.
   * @example
   * const mock = createOrderMock({ scenarios: bundledScenarios });
   * await mock.loadScenario('cancel-shipped-order'); // DELETE /v1/store/orders/3 now answers 409
   */
  loadScenario(name: string): Promise<ScenarioLoaded>;
  /**
   * The scenarios `loadScenario` knows, by name, as `GET /__mock/scenarios` lists them.
   * @example
   * createOrderMock({ scenarios: bundledScenarios }).scenarios()[0] // { name: 'cancel-cancelled-order', description: '…', orders: 1, faults: 0 }
   */
  scenarios(): ScenarioSummary[];
  /** How the session answers where the contract allows more than one answer (`GET /__mock/settings`). */
  settings(): MockSettings;
  /**
   * Changes settings, as `PUT /__mock/settings` does, until the next reset; returns them all.
   * @throws MockError `invalid_request` for an unknown setting or value; nothing changes.
   * @example
   * mock.changeSettings({ conflictBody: 'none' }); // DELETE of a shipped order: 409 without a body
   */
  changeSettings(settings: Partial<MockSettings>): MockSettings;
  /**
   * Adds faults, as `POST /__mock/faults` does, and returns them with their ids.
   * @throws MockError `invalid_fault`; nothing is added.
   * @example
   * mock.addFaults({ operation: 'listOrders', status: 503, times: 1 }); // the next list answers 503
   * mock.addFaults({ operation: 'cancelOrder', delay: { min: 100, max: 400 }, seed: 7 });
   * mock.addFaults({ operation: 'cancelOrder', network: true, after: 2, times: 1 }); // the third cancel fails to connect
   */
  addFaults(faults: FaultInput | readonly FaultInput[]): ActiveFault[];
  /** Removes every fault, as `DELETE /__mock/faults` does. */
  clearFaults(): void;
  /**
   * Removes one fault by its id, as `DELETE /__mock/faults/{id}` does.
   * @throws MockError `unknown_fault` when no fault in force has that id.
   */
  removeFault(id: number): void;
  /** The faults in force, as `GET /__mock/faults` lists them. */
  faults(): ActiveFault[];
  /**
   * The calls of the interface this session answered, oldest first (what `GET /__mock/requests` answers),
   * those matching `filter` when one is given.
   * @example
   * expect(mock.requests({ operation: 'cancelOrder', status: 204 })).toHaveLength(1);
   * expect(mock.requests({ method: 'DELETE', path: '/v1/store/orders/3' })).toHaveLength(1);
   */
  requests(filter?: RequestFilter): JournalEntry[];
  /** Forgets the calls and the coverage counts, as `DELETE /__mock/requests` does. */
  clearRequests(): void;
  /**
   * Every documented response of every operation, with how often this session answered it since the
   * journal was last cleared (what `GET /__mock/coverage` answers).
   * @example
   * mock.coverage().operations.find((operation) => operation.operation === 'cancelOrder')!.responses // [{ status: 204, seen: 1 }, { status: 401, seen: 0 }, ...]
   */
  coverage(): ResponseCoverage;
}

/** How a session starts, and what it returns to on reset. */
export interface SessionStart {
  /** The orders to start with and to return to on reset, checked once and shared by every session. */
  seed: OrderSeed;
  /** The faults to start with and to return to on reset (already checked). */
  faults: readonly FaultInput[];
  /** The scenarios `loadScenario` knows. */
  scenarios: readonly LoadableScenario[];
  /** How many calls the journal keeps (0: none). */
  journalSize: number;
  /** How a fault's delay waits. Default: a timer. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** The most orders all sessions may hold, and how many the others hold: a replacement past it is refused. */
  orderBudget?: { limit: number; heldBesides(session: MockSession): number };
  /** The settings to start with and to return to on reset. Default: `defaultMockSettings`. */
  settings?: MockSettings;
  /** Names the sessions' stores, for their entity tags (each session takes the next name). Default: random tags. */
  storeTag?: () => string;
}

/**
 * One store and the faults in force on it, with their controls: the default session of a mock, or a
 * session named by the `X-Mock-Session` header. Reset returns both to how the session started.
 * @example
 * const session = new MockSession({ seed: OrderSeed.from([{ id: 1 }]), faults: [], scenarios: [], journalSize: 1000 });
 * session.addFaults({ operation: 'listOrders', status: 503, times: 1 });
 */
export class MockSession implements MockControls {
  readonly store: OrderStore;
  readonly #plan: FaultPlan;
  readonly #journal: RequestJournal;
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

  changeSettings(settings: unknown): MockSettings {
    Object.assign(this.#settings, checkedSettings(settings));
    return this.settings();
  }

  /** Whether the float64-rounding hint has yet to be logged for this session (true once, then false). */
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

  /** As `MockControls#replaceOrders`; `at` is where the orders sit in a request body, for the violations' paths. */
  async replaceOrders(orders: unknown, at = ''): Promise<void> {
    this.#checkRoomFor(orders);
    await this.store.replace(orders, at);
  }

  // Refused before anything is checked or changed (the count is known from the array alone), and only
  // when the store would grow: a smaller replacement is taken even when the mock is over its budget.
  #checkRoomFor(orders: unknown): void {
    const budget = this.#start.orderBudget;
    if (budget === undefined || !Array.isArray(orders) || orders.length <= this.store.size) return;
    const besides = budget.heldBesides(this);
    if (besides + orders.length <= budget.limit) return;
    throw new MockError(
      'order_limit_reached',
      `Cannot hold ${orders.length} orders here: the other sessions hold ${besides} and the mock holds at most ${budget.limit} orders in all. ` +
        'End sessions with DELETE /__mock/sessions/{name}, or start the mock with a larger --max-orders.',
    );
  }

  /** As `MockControls#reset`; the journal is cleared too, so each test starts from nothing. */
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

  /** As `MockControls#addFaults`; any value may come from a request body, so it is checked first. */
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
    return this.#journal.list(filter);
  }

  clearRequests(): void {
    this.#journal.clear();
  }

  coverage(): ResponseCoverage {
    return this.#journal.coverage();
  }

  /** Whether a fault in force here drops connections (`network: true`). */
  dropsConnections(): boolean {
    return !this.#plan.empty && this.#plan.dropsConnections;
  }

  /** Records a call this session answered (used by the handlers and the standalone server's fast path). */
  recordCall(entry: RecordedCall): void {
    this.#journal.record(entry);
  }

  /**
   * Counts a call of an operation against the faults in force: the reply that replaces it (after the
   * fault's delay), undefined from the promise when it goes on, or undefined at once when no fault is
   * in force (the usual call pays nothing). Used by the handlers, before the bearer check.
   */
  applyFaults(operation: OperationName): Promise<Reply | NetworkError | undefined> | undefined {
    return this.#plan.empty ? undefined : this.#plan.apply(operation);
  }
}
