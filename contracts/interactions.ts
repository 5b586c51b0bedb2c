import { getResponse } from 'msw';
import { MatchersV3 } from '@pact-foundation/pact';
import { createOrderMock } from '../mocks/adapters/order-mock.js';
import { authorizationHeader, type KeyChoice } from '../core/authorization.js';
import { parseJson, type JsonValue } from '../core/parse-json.js';
import { providerState } from '../core/provider-state.js';
import { parseInt64 } from '../core/int64.js';
import { matchRoute, routes, schemaNameOf } from '../core/routes.js';
import { schemas } from '../spec/generated/contract.js';
import { contractSteps, injectsFaults, stepTarget, type ContractStep, type Scenario } from '../core/scenario.js';
import { pactApiKey } from './participants.js';

/** One Pact interaction, derived from one scenario step. */
export interface DerivedInteraction {
  scenario: string;
  step: ContractStep;
  /** `scenario › step`: unique across the pact. */
  description: string;
  /** The provider state: the scenario's orders, with the effect of its earlier steps (a 204 cancels). */
  state: { name: typeof providerState; params: { orders: unknown[] } };
  request: { method: string; path: string; headers: Record<string, string> };
  /** A status, or a matcher over the statuses the scenario accepts. */
  status: number | ReturnType<typeof MatchersV3.matchStatus>;
  headers: Record<string, unknown>;
  /** The body with its matchers, or undefined when the consumer does not depend on one. */
  body: unknown;
}

function keyHeader(choice: KeyChoice | undefined): Record<string, string> {
  const { authorization } = authorizationHeader(choice, pactApiKey);
  return authorization === undefined ? {} : { Authorization: authorization };
}

// MatchersV3.integer refuses a bigint; this JSON, written by stringifyJson, keeps an int64 example exact.
function integerMatcher(value: number | bigint): Record<string, unknown> {
  return { 'pact:matcher:type': 'integer', value };
}

/** An RFC 3339 date-time, any fraction and offset: Pact's `datetime` matcher would refuse what `toISOString()` writes. */
export const rfc3339DateTime = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$';

/**
 * Whether a step belongs in the pact: one request the typed client could send, with a key it sends, to an
 * operation's path with an int64 id. Races, other keys and near paths are left to the scenario suite.
 * @example
 * inPact({ request: { method: 'GET', path: '/store/orders', key: 'basic' } }) // false
 * inPact({ request: { method: 'DELETE', path: '/store/orders/abc' } }) // false
 */
export function inPact(step: Pick<ContractStep, 'request' | 'parallel'>): boolean {
  const { method, path, key, base, query, cursor } = step.request;
  const route = matchRoute(method, path);
  const parameter = route?.parameter;
  return (
    // The pact the kit ships is v1's calls without a query; a step with a base, a query or a cursor to follow is the scenario suite's.
    base === undefined &&
    query === undefined &&
    cursor === undefined &&
    step.parallel === undefined &&
    (key === undefined || ['valid', 'none', 'wrong'].includes(key)) &&
    route !== undefined &&
    (parameter === undefined || String(parseInt64(parameter)) === parameter)
  );
}

function orderMatcher(order: Record<string, JsonValue>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(order).map(([field, value]) => {
      if (field === 'id') return [field, value];
      if (field === 'shipDate' && typeof value === 'string') return [field, MatchersV3.regex(rfc3339DateTime, value)];
      if (typeof value === 'boolean') return [field, MatchersV3.boolean(value)];
      if (typeof value === 'number' || typeof value === 'bigint') return [field, integerMatcher(value)];
      return [field, MatchersV3.like(value)];
    }),
  );
}

// The document's error record: the schema of its error responses (every operation's 401).
const errorSchemaName = routes
  .flatMap((route) => route.responses.filter((response) => response.status >= 400).map(schemaNameOf))
  .find((name) => name !== undefined);

function bodyFor(step: ContractStep, example: JsonValue | undefined): unknown {
  const expected = step.expect.body;
  if (expected === undefined || expected === 'none' || expected.optional || example === undefined) return undefined;
  if (expected.schema === errorSchemaName) {
    const record = example as Record<string, JsonValue>;
    return {
      code: MatchersV3.string(String(record.code)),
      message: MatchersV3.string(String(record.message)),
      status: record.status,
    };
  }
  if (!expected.schema.endsWith('[]')) {
    // One record: its fields matched as a list's orders are, or any object where the document shows none (the pet).
    const shown = (schemas[expected.schema as keyof typeof schemas] as { properties?: object } | undefined)?.properties;
    return shown === undefined ? {} : orderMatcher(example as Record<string, JsonValue>);
  }
  const orders = example as Record<string, JsonValue>[];
  const listed = step.expect.listed ?? [];
  if (listed.length > 0) {
    // arrayContaining: these orders must be there; others may be (a cancelled order may stay listed).
    const named = orders.filter((order) => listed.some((id) => BigInt(id) === BigInt(order.id as number)));
    return MatchersV3.arrayContaining(...named.map(orderMatcher));
  }
  return orders.length > 0 ? MatchersV3.eachLike(orderMatcher(orders[0]!)) : [];
}

// The orders as the mock now holds them, in the state's own shape: each given order, with its status where it changed.
async function stateAfter(
  mock: ReturnType<typeof createOrderMock>,
  orders: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const statuses = new Map((await mock.orders()).map((order) => [order.id, order.status]));
  return orders.map((order) => {
    const status = statuses.get(BigInt(order.id as number | bigint));
    return status === undefined || status === (order.status ?? 'pending') ? order : { ...order, status };
  });
}

/**
 * Derives the Pact interactions from the scenarios, one per step, in the state the earlier steps left.
 * Examples are the mock's real answers; matchers hold what a consumer depends on (types, named ids, statuses).
 * @example
 * const interactions = await deriveInteractions(await loadScenarios());
 * interactions[0].description // 'cancel-cancelled-order › cancel the pending order'
 */
export async function deriveInteractions(scenarios: readonly Scenario[]): Promise<DerivedInteraction[]> {
  const interactions: DerivedInteraction[] = [];
  for (const scenario of scenarios.filter((candidate) => !injectsFaults(candidate))) {
    const mock = createOrderMock({ seed: [] });
    let orders: Record<string, unknown>[] = ((scenario.state?.params.orders ?? []) as Record<string, unknown>[]).map(
      (order) => ({ ...order }),
    );
    await mock.replaceOrders(orders);
    for (const step of contractSteps(scenario)) {
      if (!inPact(step)) {
        // Not in the pact, but what it does is the next step's provider state all the same.
        for (let call = 0; call < (step.parallel ?? 1); call++) {
          // At its own major, with its query (a cursor it follows changes nothing: a read).
          await getResponse(
            mock.handlers,
            new Request(`http://petstore.invalid${step.request.base ?? '/v1'}${stepTarget(step.request)}`, {
              method: step.request.method,
              headers: keyHeader(step.request.key),
            }),
          );
        }
        orders = await stateAfter(mock, orders);
        continue;
      }
      const request = new Request(`http://petstore.invalid/v1${step.request.path}`, {
        method: step.request.method,
        headers: keyHeader(step.request.key),
      });
      const response = (await getResponse(mock.handlers, request))!;
      const text = await response.text();
      const statuses = Array.isArray(step.expect.status) ? step.expect.status : [step.expect.status];
      const headers: Record<string, unknown> = {};
      for (const name of step.expect.headers ?? []) {
        if (name.toLowerCase() === 'sunset')
          headers.Sunset = MatchersV3.regex(
            /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.source,
            response.headers.get('sunset')!,
          );
        else if (name.toLowerCase() === 'deprecation')
          headers.Deprecation = MatchersV3.regex(/^@-?\d+$/.source, response.headers.get('deprecation')!);
        else headers[name] = MatchersV3.like(response.headers.get(name) ?? '');
      }
      interactions.push({
        scenario: scenario.name,
        step,
        description: `${scenario.name} › ${step.name}`,
        state: { name: providerState, params: { orders: orders.map((order) => ({ ...order })) } },
        request: { method: step.request.method, path: `/v1${step.request.path}`, headers: keyHeader(step.request.key) },
        status: statuses.length === 1 ? statuses[0]! : MatchersV3.matchStatus(response.status, statuses),
        headers,
        body: bodyFor(step, text === '' ? undefined : parseJson(text)),
      });
      orders = await stateAfter(mock, orders);
    }
  }
  return interactions;
}
