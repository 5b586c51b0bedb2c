import { MockError, type Violation } from './errors.js';
import { jsonReply, type Reply } from './reply.js';
import { schemaValidator } from './spec.js';

/**
 * What a fault with `network: true` answers instead of a reply: the adapters drop the connection
 * (MSW's `Response.error()`, a destroyed socket on the standalone server).
 */
export const networkError = 'network-error';
/** The answer of a dropped connection. */
export type NetworkError = typeof networkError;

/**
 * The operations a fault can target: the spec's operation ids, `readPet` for the deprecated pet
 * read (whose id the specification does not show), and `*` for all three.
 * @example
 * mock.addFaults({ operation: faultOperations[1], status: 503, times: 2 }) // the next two cancels fail
 */
export const faultOperations = ['listOrders', 'cancelOrder', 'readPet', '*'] as const;
/** An operation a fault targets. */
export type FaultOperation = (typeof faultOperations)[number];

/** The longest delay a fault may ask for, in milliseconds: one minute. */
export const faultDelayLimit = 60_000;

/** What a fault does to a call: wait, then answer an error status, drop the connection, or go on. */
export interface FaultEffect {
  /** Milliseconds to wait before answering: a fixed number, or a range drawn from with the fault's seed. */
  delay?: number | { min: number; max: number };
  /** Answer this status (400 to 599) with an Error record instead of calling the operation. */
  status?: number;
  /** The Error record's `code`. Default: `injected_fault`. */
  code?: string;
  /** The Error record's `message`. Default: says which operation the mock was told to fail. */
  message?: string;
  /** Drop the connection: `fetch` rejects with a network error (a `TypeError`). */
  network?: boolean;
  /** The seed of this fault's random draws (delay ranges, `probability`). Default: 1, so a run replays. */
  seed?: number;
}

/**
 * A fault as `POST /__mock/faults` and `mock.addFaults` take it: an effect, the operation it
 * targets, and which of that operation's calls it affects.
 * @example
 * // the third and fourth listOrders calls wait 200 ms to 800 ms, then fail with 503
 * const fault: FaultInput = { operation: 'listOrders', after: 2, times: 2, delay: { min: 200, max: 800 }, status: 503 };
 */
export interface FaultInput extends FaultEffect {
  /** The operation to affect. Default: `*`, every operation. */
  operation?: FaultOperation;
  /** How many matching calls to let through before the fault starts. Default: 0. */
  after?: number;
  /** How many matching calls to affect. Default: every one from then on. */
  times?: number;
  /** The chance, from 0 to 1, that an eligible call is affected (drawn with the seed). Default: 1. */
  probability?: number;
}

/** A fault in force, as `GET /__mock/faults` lists it: its input, with `id`, the calls it has `seen` and how many it has `affected`. */
export interface ActiveFault extends FaultInput {
  id: number;
  operation: FaultOperation;
  seen: number;
  affected: number;
}

const effectProperties = {
  delay: {
    oneOf: [
      { type: 'integer', minimum: 0, maximum: faultDelayLimit },
      {
        type: 'object',
        required: ['min', 'max'],
        additionalProperties: false,
        properties: { min: { type: 'integer', minimum: 0, maximum: faultDelayLimit }, max: { type: 'integer', minimum: 0, maximum: faultDelayLimit } },
      },
    ],
  },
  status: { type: 'integer', minimum: 400, maximum: 599 },
  code: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' },
  message: { type: 'string', minLength: 1, maxLength: 500 },
  network: { type: 'boolean' },
  seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
};

// At least one effect; a status and a dropped connection exclude each other; code and message need a status.
const effectRules = {
  anyOf: [
    { required: ['delay'], properties: { delay: true } },
    { required: ['status'], properties: { status: true } },
    { required: ['network'], properties: { network: { const: true } } },
  ],
  not: { required: ['status', 'network'], properties: { status: true, network: { const: true } } },
  dependentRequired: { code: ['status'], message: ['status'] },
};

/** The JSON Schema of a fault a scenario step declares (its operation and count come from the step). */
export const stepFaultSchema = { type: 'object', additionalProperties: false, properties: effectProperties, ...effectRules };

/** The JSON Schema of a fault `POST /__mock/faults` takes. */
export const faultSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...effectProperties,
    operation: { enum: [...faultOperations] },
    after: { type: 'integer', minimum: 0 },
    times: { type: 'integer', minimum: 1 },
    probability: { type: 'number', minimum: 0, maximum: 1 },
  },
  ...effectRules,
};

const validateFault = schemaValidator('fault', faultSchema);
const validateStepFault = schemaValidator('step-fault', stepFaultSchema);
const effectRequirement =
  'must ask for a delay, a status or a dropped connection (network: true), and not both a status and a dropped connection';

// Ajv reports an unmet anyOf or not as a message about schemas; say what the rule means instead.
function effectViolations(validate: (value: unknown) => Violation[], value: unknown, at: string): Violation[] {
  const violations = validate(value).map(({ path, message }) => {
    if (/^must (match a schema in anyOf|NOT be valid)/.test(message)) return { path: at + path, message: effectRequirement };
    const dependency = /^must have property (\w+) when property (\w+) is present$/.exec(message);
    if (dependency) return { path: `${at}${path}/${dependency[2]}`, message: `requires ${dependency[1]}` };
    return { path: at + path, message };
  });
  const delay = (value as FaultEffect | null)?.delay;
  if (typeof delay === 'object' && delay !== null && typeof delay.min === 'number' && delay.min > delay.max) {
    violations.push({ path: `${at}/delay`, message: 'min must not be greater than max' });
  }
  return violations.filter((violation, index) => violations.findIndex((other) => other.path === violation.path && other.message === violation.message) === index);
}

/** The most faults one `POST /__mock/faults` may add. */
export const faultBatchLimit = 100;

/**
 * Checks a fault or a list of faults and returns them as a list.
 * @throws MockError `invalid_fault` naming each field that is wrong.
 * @example
 * toFaultInputs({ operation: 'cancelOrder', status: 503 }) // [{ operation: 'cancelOrder', status: 503 }]
 */
export function toFaultInputs(value: unknown): FaultInput[] {
  const list = Array.isArray(value) ? value : [value];
  const violations =
    Array.isArray(value) && value.length > faultBatchLimit
      ? [{ path: '', message: `must hold at most ${faultBatchLimit} faults` }]
      : list.flatMap((fault, index) => effectViolations(validateFault, fault, Array.isArray(value) ? `/${index}` : ''));
  if (violations.length > 0) {
    const first = violations[0]!;
    throw new MockError('invalid_fault', `Invalid fault: ${first.path || 'the body'} ${first.message}.`, { violations });
  }
  return list as FaultInput[];
}

/**
 * Checks the fault of a scenario step; returns the violations, empty when it is valid.
 * @example
 * stepFaultViolations({ status: 99 }) // [{ path: '/status', message: 'must be >= 400' }]
 */
export function stepFaultViolations(value: unknown): Violation[] {
  return effectViolations(validateStepFault, value, '');
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

/** What the plan decided for one call: wait this long, then answer `reply` (an error, or a dropped connection), or go on. */
export interface FaultDecision {
  delay: number;
  reply?: Reply | NetworkError;
}

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * The faults in force for one store: each call of an operation is matched against them in the
 * order they were added; every matching fault counts the call, and the first one due affects it.
 * Each fault draws from its own seeded random stream, so a run replays whatever else happens.
 * @example
 * const plan = new FaultPlan();
 * plan.add([{ operation: 'listOrders', status: 503, times: 1 }]);
 * await plan.apply('listOrders') // a 503 reply with an Error record; the next call goes through
 */
export class FaultPlan {
  #faults: FaultInForce[] = [];
  #nextId = 1;

  /** Adds faults (checked first with `toFaultInputs`; on an error nothing is added) and returns them as they are now in force. */
  add(inputs: unknown): ActiveFault[] {
    const added = toFaultInputs(inputs).map((input) => {
      const fault: ActiveFault = { id: this.#nextId++, ...input, operation: input.operation ?? '*', seen: 0, affected: 0 };
      return { fault, random: randomStream(input.seed ?? 1) };
    });
    this.#faults.push(...added);
    return added.map(({ fault }) => ({ ...fault }));
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults = [];
  }

  /** The faults in force, with their counts. Faults that have affected all their `times` calls are gone. */
  list(): ActiveFault[] {
    return this.#faults.map(({ fault }) => ({ ...fault }));
  }

  /** Whether there is no fault in force: the fast path for the usual call. */
  get empty(): boolean {
    return this.#faults.length === 0;
  }

  /** Counts a call of `operation` and decides what happens to it. */
  decide(operation: Exclude<FaultOperation, '*'>): FaultDecision | undefined {
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
    if (fault.times !== undefined && fault.affected >= fault.times) this.#faults = this.#faults.filter((entry) => entry !== chosen);
    const delay = typeof fault.delay === 'object' ? fault.delay.min + Math.floor(random() * (fault.delay.max - fault.delay.min + 1)) : (fault.delay ?? 0);
    if (fault.network) return { delay, reply: networkError };
    if (fault.status === undefined) return { delay };
    const record = {
      code: fault.code ?? 'injected_fault',
      message: fault.message ?? `The mock was told to fail this ${operation} call with ${fault.status} (fault ${fault.id}).`,
      status: fault.status,
    };
    return { delay, reply: jsonReply(record, fault.status) };
  }

  /**
   * Counts a call, waits for its delay, and returns the reply that replaces it, or undefined to answer as usual.
   * @example
   * const replaced = await plan.apply('cancelOrder'); if (replaced) return replaced;
   */
  async apply(operation: Exclude<FaultOperation, '*'>): Promise<Reply | NetworkError | undefined> {
    const decision = this.decide(operation);
    if (decision === undefined) return undefined;
    if (decision.delay > 0) await sleep(decision.delay);
    return decision.reply;
  }
}

/**
 * The operation a call of the interface is, by its method and its path under the base URL, or
 * undefined when it is none of them.
 * @example
 * operationOf('DELETE', '/store/orders/3') // 'cancelOrder'
 */
export function operationOf(method: string, path: string): Exclude<FaultOperation, '*'> | undefined {
  const pathname = path.split(/[?#]/)[0]!;
  if (method === 'GET' && pathname === '/store/orders') return 'listOrders';
  if (method === 'DELETE' && /^\/store\/orders\/[^/]+$/.test(pathname)) return 'cancelOrder';
  if (method === 'GET' && /^\/pets\/[^/]+$/.test(pathname)) return 'readPet';
  return undefined;
}
