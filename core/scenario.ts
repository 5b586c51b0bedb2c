import type { KeyChoice } from './authorization.js';
import type { FaultEffect } from './fault-format.js';
import type { OrderInput } from './provider-state.js';
import type { Route } from './routes.js';
import { ScenarioError } from './scenario-error.js';

// The name a documented response's schema goes by (`schemaNameOf`): a component, or an array of one.
type NameOf<Schema> = Schema extends { readonly $ref: `#/components/schemas/${infer Name}` }
  ? Name
  : Schema extends { readonly type: 'array'; readonly items: { readonly $ref: `#/components/schemas/${infer Name}` } }
    ? `${Name}[]`
    : never;

/**
 * Every body schema a step may name: the names of the document's response schemas, read off the route
 * table's types (`Order[]`, `Error`, `Pet`).
 * @example
 * const name: BodySchemaName = 'Order[]';
 */
export type BodySchemaName = NameOf<Route['responses'][number]['schema']>;
export type ScenarioId = number | bigint;

/**
 * What must hold of the response to one step.
 * @example
 * const expectation: StepExpectation = { status: 409, body: { schema: 'Error' } };
 */
export interface StepExpectation {
  /** With `parallel`: the status exactly one answer has. */
  status: number | number[];
  /** With `parallel`: the statuses the other answers may have (default: `status`). */
  others?: number[];
  body?: 'none' | { schema: BodySchemaName; optional?: boolean };
  listed?: ScenarioId[];
  notListed?: ScenarioId[];
  headers?: string[];
  advisory?: { listed?: ScenarioId[]; notListed?: ScenarioId[] };
}

/**
 * A step's request: the call below its major's base path, with its query and key.
 * @example
 * const page: StepRequest = { method: 'GET', base: '/v2', path: '/store/orders', query: { status: 'pending', limit: '2' } };
 * const next: StepRequest = { ...page, cursor: 'follow' }; // the nextCursor the previous page gave
 */
export interface StepRequest {
  method: Route['method'];
  /** Below the major's base path, without a query when `query` is given. */
  path: string;
  key?: KeyChoice;
  /** The major's base path (`/v1`, the default, or `/v2`). */
  base?: Route['base'];
  /** The query, name by name in the order sent: a list sends the name once a value, in its order. Values are text, as on the wire. */
  query?: Record<string, string | string[]>;
  /** `follow`: send as `cursor` the `nextCursor` of the v2 page answered last before this step (a cursor belongs to the provider that gave it). */
  cursor?: 'follow';
}

/**
 * The target of a step's request below its base path: the path, then its query (form-encoded, in the
 * order written), then the cursor it follows, when it follows one.
 * @example
 * stepTarget({ method: 'GET', base: '/v2', path: '/store/orders', query: { status: 'pending' }, cursor: 'follow' }, 'abc')
 *   // '/store/orders?status=pending&cursor=abc'
 */
export function stepTarget(request: StepRequest, followed?: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {}))
    for (const each of [value].flat()) query.append(name, each);
  if (request.cursor === 'follow' && followed !== undefined) query.append('cursor', followed);
  return query.size === 0 ? request.path : `${request.path}?${query}`;
}

export interface ContractStep {
  name: string;
  request: StepRequest;
  /** Send the request this many times at once, to test a race. */
  parallel?: number;
  fault?: undefined;
  expect: StepExpectation;
  recorded?: RecordedAnswer;
}

export interface RecordedAnswer {
  status: number;
  /** A `parallel` step's: each answer's status, in the order the answers ended (`status` is the first). */
  statuses?: number[];
  findings?: { code: string; path: string; expected: string; actual: string }[];
}

/** Where a recording came from, and which of its state was inferred rather than listed. */
export interface RecordingNote {
  /** Origin and base path, never credentials. */
  upstream: string;
  started: string;
  keys: 'compared with --api-key' | 'inferred from the answers';
  /** Set by `--from-scenario`: the state is then known, not inferred (no state URL for a HAR: nothing was set). */
  from?: { scenario: string; stateUrl?: string };
  inferred?: { id: ScenarioId; status: 'pending' | 'shipped' | 'cancelled'; listed: boolean; because: string }[];
  dropped?: { id?: ScenarioId; field: string; reason: string }[];
  /** Reads that repeated the one before, answer and all. */
  repeatedReads?: number;
  skipped?: number;
}

/** A step that makes the mock fail its call. Only a mock can replay it, never a provider. */
export interface FaultStep {
  name: string;
  request: StepRequest;
  fault: FaultEffect;
  expect: StepExpectation | { networkError: true };
}

/**
 * A call of the contract, or a call the mock makes fail.
 * @example
 * const step: ScenarioStep = { name: 'list', request: { method: 'GET', path: '/store/orders' }, expect: { status: 200 } };
 */
export type ScenarioStep = ContractStep | FaultStep;

/**
 * A scenario from `scenarios/NAME.yaml`: the provider state to set, then the steps.
 * @example
 * const [scenario] = await loadScenarios({ names: ['cancel-shipped-order'] });
 * scenario.state?.params.orders // [{ id: 1, ... }, { id: 3, ..., status: 'shipped' }]
 */
export interface Scenario {
  name: string;
  file: string;
  description: string;
  state?: { name: string; params: { orders: OrderInput[] } };
  steps: ScenarioStep[];
  recording?: RecordingNote;
}

/** A scenario that injects faults describes the mock for frontends, not the contract: the harness and the pact leave it out. */
export function injectsFaults(scenario: Pick<Scenario, 'steps'>): boolean {
  return scenario.steps.some((step) => step.fault !== undefined);
}

/** @throws ScenarioError `scenario_with_faults` when the scenario injects faults. */
export function contractSteps(scenario: Scenario): ContractStep[] {
  if (injectsFaults(scenario))
    throw new ScenarioError(
      'scenario_with_faults',
      `scenario ${scenario.name} injects faults: only the mock can replay it`,
    );
  return scenario.steps as ContractStep[];
}

export { ScenarioError };
