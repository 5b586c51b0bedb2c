import { MockError } from './errors.js';
import { FaultPlan, operationOf, type ActiveFault, type FaultEffect, type FaultInput } from './faults.js';
import { OrderStore, type StoredOrder } from './order-store.js';

/** What the mock needs of a scenario to load it: its name, its provider state when it has one, and the faults its steps declare. */
export interface LoadableScenario {
  name: string;
  state?: { params: { orders: readonly unknown[] } };
  steps?: readonly { request: { method: string; path: string }; fault?: FaultEffect }[];
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
      throw new MockError('invalid_fault', `Scenario ${scenario.name}: ${step.request.method} ${step.request.path} is not an operation a fault can affect.`);
    }
    const earlier = calls.get(operation) ?? 0;
    calls.set(operation, earlier + 1);
    if (step.fault !== undefined) faults.push({ ...step.fault, operation, after: earlier, times: 1 });
  }
  return faults;
}

/**
 * One store and the faults in force on it: the default session of a mock, or a session named by the
 * `X-Mock-Session` header. Reset returns both to how the session started.
 * @example
 * const session = new MockSession([{ id: 1 }], []);
 * session.addFaults({ operation: 'listOrders', status: 503, times: 1 });
 */
export class MockSession {
  /** The orders of this session. */
  readonly store: OrderStore;
  /** The faults in force in this session. */
  readonly faults = new FaultPlan();
  readonly #initialFaults: readonly FaultInput[];

  /**
   * @param seed the orders to start with and to return to on reset.
   * @param initialFaults the faults to start with and to return to on reset (already checked).
   */
  constructor(seed: readonly unknown[], initialFaults: readonly FaultInput[]) {
    this.store = new OrderStore(seed);
    this.#initialFaults = initialFaults;
    if (initialFaults.length > 0) this.faults.add(initialFaults);
  }

  /** Every order with its status. */
  orders(): StoredOrder[] {
    return this.store.all();
  }

  /** Replaces every order; rejects with a `MockError` and changes nothing on bad input. */
  replaceOrders(orders: unknown, at = ''): Promise<void> {
    return this.store.replace(orders, at);
  }

  /** Returns the store to its seed and the faults to those the session started with. */
  async reset(): Promise<void> {
    this.faults.clear();
    if (this.#initialFaults.length > 0) this.faults.add(this.#initialFaults);
    await this.store.reset();
  }

  /**
   * Loads the scenario named `name`: its orders replace the store (a scenario without a state keeps
   * the store) and its steps' faults replace the faults in force. Tells whether it seeded.
   * @throws MockError `unknown_scenario` when no scenario has that name; nothing changes.
   */
  async loadScenario(scenarios: readonly LoadableScenario[], name: string): Promise<boolean> {
    const scenario = scenarios.find((candidate) => candidate.name === name);
    if (scenario === undefined) {
      const known = scenarios.map((candidate) => candidate.name).join(', ') || 'none';
      throw new MockError('unknown_scenario', `Unknown scenario ${JSON.stringify(name)}; known: ${known}.`);
    }
    const faults = scenarioFaults(scenario);
    if (scenario.state !== undefined) await this.store.replace(scenario.state.params.orders);
    this.faults.clear();
    if (faults.length > 0) this.faults.add(faults);
    return scenario.state !== undefined;
  }

  /**
   * Adds a fault or a list of faults (checked first: any value may come from a request body); returns those added, with their ids.
   * @throws MockError `invalid_fault`; nothing is added.
   */
  addFaults(faults: unknown): ActiveFault[] {
    return this.faults.add(faults);
  }
}
