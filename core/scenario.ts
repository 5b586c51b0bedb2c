import type { KeyChoice } from './authorization.js';
import type { FaultEffect } from './fault-format.js';
import type { OrderInput } from './provider-state.js';
import { ScenarioError } from './scenario-error.js';

/** A schema a body must match: a list of Orders, or a schema of the document. */
export type BodySchemaName = 'Order[]' | 'Error' | 'Pet';
/** An id as a scenario holds it: `bigint` beyond the safe range. */
export type ScenarioId = number | bigint;

/** What must hold of the response to one step. */
export interface StepExpectation {
  /** The status (or one of the statuses) the answer has; with `parallel`, the status exactly one answer has. */
  status: number | number[];
  /** With `parallel`: the statuses every other answer may have (default: `status`). */
  others?: number[];
  body?: 'none' | { schema: BodySchemaName; optional?: boolean };
  listed?: ScenarioId[];
  notListed?: ScenarioId[];
  headers?: string[];
  advisory?: { listed?: ScenarioId[]; notListed?: ScenarioId[] };
}

/** One request of a scenario and what must hold of its response. */
export interface ContractStep {
  name: string;
  request: { method: 'GET' | 'DELETE'; path: string; key?: KeyChoice };
  /** Send the request this many times at once: a race, found by exploration or written by hand. */
  parallel?: number;
  fault?: undefined;
  expect: StepExpectation;
  /** In a recording: what the upstream answered, and where that broke the contract. Replays ignore it. */
  recorded?: RecordedAnswer;
}

/**
 * What the upstream answered a step of a recording (`petstore-verify proxy --record`): its status,
 * and each way the answer broke the contract as the proxy judged it then (the rule's code, where,
 * what the contract requires, what came).
 */
export interface RecordedAnswer {
  status: number;
  findings?: { code: string; path: string; expected: string; actual: string }[];
}

/** What a recording says of itself: where it came from, and what of its state is inferred rather than listed. */
export interface RecordingNote {
  /** The upstream's origin and base path (never its credentials). */
  upstream: string;
  /** When the recording started (RFC 3339). */
  started: string;
  /** How each step's key choice was told: by comparing with `--api-key`, or from the upstream's answers. */
  keys: 'compared with --api-key' | 'inferred from the answers';
  /** The scenario whose state the proxy set before the first step (`--from-scenario`), and where: the state is known, not inferred. */
  from?: { scenario: string; stateUrl: string };
  /** Orders (or their statuses) inferred from an answer rather than listed. */
  inferred?: { id: ScenarioId; status: 'pending' | 'shipped'; listed: boolean; because: string }[];
  /** Fields of listed orders a provider state cannot take, left out. */
  dropped?: { id?: ScenarioId; field: string; reason: string }[];
  /** Reads left out because they repeated the read before them, answer and all. */
  repeatedReads?: number;
  /** Requests for no operation of the specification, not recorded. */
  skipped?: number;
}

/**
 * A step that tells the mock to inject a fault into its call: what a frontend sees when the network
 * or the provider fails. Only a mock can replay it, so a scenario with one is never run against a provider.
 */
export interface FaultStep {
  name: string;
  request: { method: 'GET' | 'DELETE'; path: string; key?: KeyChoice };
  fault: FaultEffect;
  /** The response the fault makes (its status, its Error body), or `networkError` for a dropped connection. */
  expect: StepExpectation | { networkError: true };
}

/** A step of a scenario: a call of the contract, or a call the mock makes fail. */
export type ScenarioStep = ContractStep | FaultStep;

/**
 * A named scenario from `scenarios/NAME.yaml`: the provider state to set, then the steps.
 * @example
 * const [scenario] = await loadScenarios({ names: ['cancel-shipped-order'] });
 * scenario.state?.params.orders // [{ id: 1, ... }, { id: 3, ..., status: 'shipped' }]
 */
export interface Scenario {
  name: string;
  file: string;
  description: string;
  /** Its orders as checked on load: an int64 beyond 2^53 is a `bigint`, a smaller one a number (`OrderInput`). */
  state?: { name: string; params: { orders: OrderInput[] } };
  steps: ScenarioStep[];
  /** Set in a file the proxy recorded. */
  recording?: RecordingNote;
}

/**
 * Whether a scenario injects faults: then it describes the mock for frontends, not the contract,
 * and `petstore-verify` and the Pact interactions leave it out.
 * @example
 * injectsFaults(scenario) ? 'mock only' : 'contract'
 */
export function injectsFaults(scenario: Pick<Scenario, 'steps'>): boolean {
  return scenario.steps.some((step) => step.fault !== undefined);
}

/**
 * The steps of a scenario that injects no faults, typed as contract steps.
 * @throws ScenarioError when the scenario injects faults.
 */
export function contractSteps(scenario: Scenario): ContractStep[] {
  if (injectsFaults(scenario))
    throw new ScenarioError(
      'scenario_with_faults',
      `scenario ${scenario.name} injects faults: only the mock can replay it`,
    );
  return scenario.steps as ContractStep[];
}

export { ScenarioError };
