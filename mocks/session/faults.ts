import { faultViolations, type FaultInput, type FaultOperation } from '../../core/fault-format.js';
import type { ErrorRecord } from '../../core/records.js';
import type { OperationName } from '../../core/routes.js';
import { MockError } from '../base/errors.js';
import { jsonReply, networkError, type NetworkError, type Reply } from '../base/reply.js';

/**
 * A fault in force, with the calls it has `seen` and `affected`.
 * @example
 * mock.faults()[0] // { id: 1, operation: 'listOrders', status: 503, seen: 0, affected: 0 }
 */
export interface ActiveFault extends FaultInput {
  id: number;
  operation: FaultOperation;
  seen: number;
  affected: number;
}

/** Checks a fault or a list of faults and returns them as a list. */
export function toFaultInputs(value: unknown): FaultInput[] {
  const violations = faultViolations(value);
  const first = violations[0];
  if (first !== undefined)
    throw new MockError('invalid_fault', `Invalid fault: ${first.path || 'the body'} ${first.message}.`, {
      violations,
    });
  return (Array.isArray(value) ? value : [value]) as FaultInput[];
}

// mulberry32: a small, fast generator whose whole state is one 32-bit number, so a seed replays exactly.
function randomStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface FaultInForce {
  fault: ActiveFault;
  random: () => number;
}

export interface FaultDecision {
  delay: number;
  reply?: Reply | NetworkError;
}

/** The most faults in force in one session at once (a `POST /__mock/faults` may add at most 100 at a time). */
export const faultsInForceLimit = 100;

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * The faults in force for one store. Every matching fault counts a call and the first one due affects
 * it; each has its own seeded random stream, so that a run replays whatever else happens.
 */
export class FaultPlan {
  #faults: FaultInForce[] = [];
  #nextId = 1;
  readonly #sleep: (milliseconds: number) => Promise<void>;

  constructor(options: { sleep?: ((milliseconds: number) => Promise<void>) | undefined } = {}) {
    this.#sleep = options.sleep ?? sleep;
  }

  /** Adds faults, all checked first, and returns them as now in force. */
  add(inputs: unknown): ActiveFault[] {
    const checked = toFaultInputs(inputs);
    if (this.#faults.length + checked.length > faultsInForceLimit)
      throw new MockError(
        'fault_limit_reached',
        `Cannot add ${checked.length} fault${checked.length === 1 ? '' : 's'}: ${this.#faults.length} ${this.#faults.length === 1 ? 'is' : 'are'} in force and a session holds at most ${faultsInForceLimit}. ` +
          'Remove some with DELETE /__mock/faults/{id}, or all with DELETE /__mock/faults.',
      );
    const added = checked.map((input) => {
      const fault: ActiveFault = {
        id: this.#nextId++,
        ...input,
        operation: input.operation ?? '*',
        seen: 0,
        affected: 0,
      };
      return { fault, random: randomStream(input.seed ?? 1) };
    });
    this.#faults.push(...added);
    return added.map(({ fault }) => ({ ...fault }));
  }

  clear(): void {
    this.#faults = [];
  }

  remove(id: number): boolean {
    const before = this.#faults.length;
    this.#faults = this.#faults.filter((entry) => entry.fault.id !== id);
    return this.#faults.length < before;
  }

  /** A fault that has affected all its `times` calls is gone. */
  list(): ActiveFault[] {
    return this.#faults.map(({ fault }) => ({ ...fault }));
  }

  get dropsConnections(): boolean {
    return this.#faults.some((entry) => entry.fault.network === true);
  }

  get empty(): boolean {
    return this.#faults.length === 0;
  }

  decide(operation: OperationName): FaultDecision | undefined {
    let chosen: FaultInForce | undefined;
    for (const entry of this.#faults) {
      const { fault } = entry;
      if (fault.operation !== '*' && fault.operation !== operation) continue;
      fault.seen++;
      if (chosen !== undefined || fault.seen <= (fault.after ?? 0)) continue;
      if (fault.probability !== undefined && entry.random() >= fault.probability) continue;
      chosen = entry;
    }
    if (chosen === undefined) return undefined;
    const { fault, random } = chosen;
    fault.affected++;
    if (fault.times !== undefined && fault.affected >= fault.times)
      this.#faults = this.#faults.filter((entry) => entry !== chosen);
    const delay =
      typeof fault.delay === 'object'
        ? fault.delay.min + Math.floor(random() * (fault.delay.max - fault.delay.min + 1))
        : (fault.delay ?? 0);
    if (fault.network) return { delay, reply: networkError };
    if (fault.status === undefined) return { delay };
    const record: ErrorRecord = {
      code: fault.code ?? 'injected_fault',
      message:
        fault.message ?? `The mock was told to fail this ${operation} call with ${fault.status} (fault ${fault.id}).`,
      status: fault.status,
    };
    return { delay, reply: jsonReply(record, fault.status) };
  }

  /** Counts a call, waits for its delay, and returns the reply that replaces it, or undefined. */
  async apply(operation: OperationName): Promise<Reply | NetworkError | undefined> {
    const decision = this.decide(operation);
    if (decision === undefined) return undefined;
    if (decision.delay > 0) await this.#sleep(decision.delay);
    return decision.reply;
  }
}
