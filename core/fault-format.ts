import { operationNames, type OperationName } from './routes.js';
import { schemaValidator, type Violation } from './schema-validator.js';

/**
 * The operations a fault can target: every operation of the route table, and `*` for all of them.
 * @example
 * mock.addFaults({ operation: faultOperations[1], status: 503, times: 2 }) // the next two cancels fail
 */
export const faultOperations = [...operationNames, '*'] as const;
/** An operation a fault targets. */
export type FaultOperation = OperationName | '*';

/** The longest delay a fault may ask for, in milliseconds: one minute. */
export const faultDelayLimit = 60_000;

// The most faults one `POST /__mock/faults` may add.
const faultBatchLimit = 100;

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
 * A fault as `POST /__mock/faults`, `--fault` and `mock.addFaults` take it: an effect, the operation
 * it targets, and which of that operation's calls it affects.
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

const effectProperties = {
  delay: {
    oneOf: [
      { type: 'integer', minimum: 0, maximum: faultDelayLimit },
      {
        type: 'object',
        required: ['min', 'max'],
        additionalProperties: false,
        properties: {
          min: { type: 'integer', minimum: 0, maximum: faultDelayLimit },
          max: { type: 'integer', minimum: 0, maximum: faultDelayLimit },
        },
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

const validateFault = schemaValidator('fault', {
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
});
const validateStepFault = schemaValidator('step-fault', {
  type: 'object',
  additionalProperties: false,
  properties: effectProperties,
  ...effectRules,
});
const effectRequirement =
  'must ask for a delay, a status or a dropped connection (network: true), and not both a status and a dropped connection';

const delayShape = `must be a whole number of milliseconds (0 to ${faultDelayLimit}) or { "min", "max" }`;

// Ajv checks a delay against both of its shapes and reports why each failed: keep only the reasons of
// the shape the value has (an object's "max must be <= 60000", not "must be integer"), or one line
// naming both shapes for a value that has neither.
function delayViolations(found: Violation[], delay: unknown): Violation[] {
  if (delay === undefined) return found;
  const shape =
    typeof delay === 'number' ? 'number' : typeof delay === 'object' && delay !== null ? 'object' : 'neither';
  const shapeMessages = new Set(['must be integer', 'must be object', 'must match exactly one schema in oneOf']);
  const kept = found.filter(({ path, message }) => path !== '/delay' || !shapeMessages.has(message));
  const integerBranch = found.find(({ path, message }) => path === '/delay' && message === 'must be integer');
  if (shape === 'neither') return [...kept, { path: '/delay', message: delayShape }];
  // A number that is not an integer (2.5) fails only the integer check of its own shape.
  if (shape === 'number' && integerBranch !== undefined && !Number.isInteger(delay)) return [...kept, integerBranch];
  return kept;
}

// Ajv reports an unmet anyOf or not as a message about schemas; say what the rule means instead.
function effectViolations(validate: (value: unknown) => Violation[], value: unknown, at: string): Violation[] {
  const found = delayViolations(validate(value), (value as FaultEffect | null)?.delay);
  // When no effect is asked for, Ajv also reports why each alternative failed (`/delay is required`, ...):
  // those name no rule of their own, only the one the effect requirement states.
  const noEffect = found.some(({ message }) => /^must match a schema in anyOf/.test(message));
  const alternatives = new Set(['/delay', '/status', '/network']);
  const violations = found
    .filter(
      ({ path, message }) =>
        !(noEffect && alternatives.has(path) && (message === 'is required' || message === 'must be equal to constant')),
    )
    .map(({ path, message }) => {
      if (/^must (match a schema in anyOf|NOT be valid)/.test(message))
        return { path: at + path, message: effectRequirement };
      const dependency = /^must have property (\w+) when property (\w+) is present$/.exec(message);
      if (dependency) return { path: `${at}${path}/${dependency[2]}`, message: `requires ${dependency[1]}` };
      return { path: at + path, message };
    });
  const delay = (value as FaultEffect | null)?.delay;
  if (typeof delay === 'object' && delay !== null && typeof delay.min === 'number' && delay.min > delay.max) {
    violations.push({ path: `${at}/delay`, message: 'min must not be greater than max' });
  }
  return violations.filter(
    (violation, index) =>
      violations.findIndex((other) => other.path === violation.path && other.message === violation.message) === index,
  );
}

/**
 * Checks a fault, or a list of at most 100 faults; returns the violations, empty when every one is valid.
 * @example
 * faultViolations({ operation: 'cancelOrder', status: 99 }) // [{ path: '/status', message: 'must be >= 400' }]
 */
export function faultViolations(value: unknown): Violation[] {
  if (Array.isArray(value) && value.length > faultBatchLimit)
    return [{ path: '', message: `must hold at most ${faultBatchLimit} faults` }];
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((fault, index) =>
    effectViolations(validateFault, fault, Array.isArray(value) ? `/${index}` : ''),
  );
}

/**
 * Checks the fault of a scenario step (its operation and count come from the step); returns the violations.
 * @example
 * stepFaultViolations({ status: 99 }) // [{ path: '/status', message: 'must be >= 400' }]
 */
export function stepFaultViolations(value: unknown): Violation[] {
  return effectViolations(validateStepFault, value, '');
}
