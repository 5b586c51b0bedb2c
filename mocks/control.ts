import { MockError, jsonResponse } from './errors.js';
import { parseJson, type JsonValue } from './json.js';
import type { OrderStore } from './order-store.js';
import { schemaValidator } from './spec.js';

/**
 * The one provider state of the kit: the store holds exactly the orders in `params.orders`.
 * @example
 * new PactV4(...).addInteraction().given(providerState, { orders: [{ id: 3, status: 'shipped' }] })
 */
export const providerState = 'the store holds orders';

const validateStateChange = schemaValidator('provider-state-change', {
  type: 'object',
  required: ['state'],
  properties: {
    state: { type: 'string' },
    action: { enum: ['setup', 'teardown'] },
    params: { type: 'object' },
  },
});

// The body is read as JSON whatever its Content-Type says: `curl -d` labels JSON as a form, a browser's
// fetch with a string body as text/plain. The JSON parse is the check.
async function readJsonBody(request: Request): Promise<JsonValue> {
  const text = await request.text();
  try {
    return parseJson(text);
  } catch (error) {
    throw new MockError('invalid_json', `Invalid JSON body: ${(error as Error).message}`);
  }
}

/** `GET /__mock/orders`: every order, with its status. */
export async function readOrders(store: OrderStore): Promise<Response> {
  await store.settled();
  return jsonResponse(store.all());
}

/** `PUT /__mock/orders`: replaces the store with a JSON array of orders (each with an optional `status`); 204. */
export async function replaceOrders(store: OrderStore, request: Request): Promise<Response> {
  await store.replace(await readJsonBody(request));
  return new Response(null, { status: 204 });
}

/** `POST /__mock/reset`: back to the seed the mock started with; 204. */
export async function resetOrders(store: OrderStore): Promise<Response> {
  await store.reset();
  return new Response(null, { status: 204 });
}

/**
 * `POST /__mock/provider-state`: Pact's state-change request. `setup` (the default) of
 * `the store holds orders` replaces the store with `params.orders`; `teardown` returns it to its seed.
 * Answers 200 with `{ state, action, orders }` (the number of orders now stored).
 * @example
 * // body: {"state": "the store holds orders", "params": {"orders": [{"id": 1, "status": "shipped"}]}}
 */
export async function changeProviderState(store: OrderStore, request: Request): Promise<Response> {
  const body = await readJsonBody(request);
  const violations = validateStateChange(body);
  if (violations.length > 0) {
    const first = violations[0]!;
    throw new MockError('invalid_request', `Invalid provider state change: ${first.path || 'the body'} ${first.message}.`, { violations });
  }
  const change = body as { state: string; action?: 'setup' | 'teardown'; params?: Record<string, JsonValue> };
  if (change.state !== providerState) {
    throw new MockError('unknown_provider_state', `Unknown provider state ${JSON.stringify(change.state)}: the only state is ${JSON.stringify(providerState)}.`);
  }
  const action = change.action ?? 'setup';
  if (action === 'teardown') {
    await store.reset();
  } else {
    if (change.params?.orders === undefined) {
      throw new MockError('invalid_request', 'Invalid provider state change: /params/orders is required for setup.', {
        violations: [{ path: '/params/orders', message: 'is required' }],
      });
    }
    await store.replace(change.params.orders, '/params/orders');
  }
  return jsonResponse({ state: change.state, action, orders: store.all().length });
}

/** What the mock needs of a scenario to load it: its name and, when it has one, its provider state. */
export interface LoadableScenario {
  name: string;
  state?: { params: { orders: readonly unknown[] } };
}

/**
 * Sets the provider state of the scenario named `name` (its orders replace the store; a scenario
 * without a state leaves the store as it is) and tells whether it seeded.
 * @throws MockError `unknown_scenario` when no scenario has that name; the store is unchanged.
 * @example
 * await applyScenario(store, await loadScenarios(), 'cancel-shipped-order') // true
 */
export async function applyScenario(store: OrderStore, scenarios: readonly LoadableScenario[], name: string): Promise<boolean> {
  const scenario = scenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) {
    const known = scenarios.map((candidate) => candidate.name).join(', ') || 'none';
    throw new MockError('unknown_scenario', `Unknown scenario ${JSON.stringify(name)}; known: ${known}.`);
  }
  if (scenario.state !== undefined) await store.replace(scenario.state.params.orders);
  return scenario.state !== undefined;
}

/**
 * `POST /__mock/scenarios/{name}`: sets the scenario's provider state (see `applyScenario`) and
 * answers 200 `{ scenario, seeded, orders }`.
 * @example
 * // POST /__mock/scenarios/cancel-shipped-order → 200 {"scenario":"cancel-shipped-order","seeded":true,"orders":2}
 */
export async function loadScenario(store: OrderStore, scenarios: readonly LoadableScenario[], name: string): Promise<Response> {
  const seeded = await applyScenario(store, scenarios, name);
  await store.settled();
  return jsonResponse({ scenario: name, seeded, orders: store.all().length });
}
