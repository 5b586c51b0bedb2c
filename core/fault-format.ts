import { operationNames, type OperationName } from './routes.js';
import { schemaValidator, type Violation } from './schema-validator.js';

/** Every operation of the route table, and `*` for all of them. */
export const faultOperations = [...operationNames, '*'] as const;
export type FaultOperation = OperationName | '*';

export const faultDelayLimit = 60_000;

const faultBatchLimit = 100;

/** What a fault does to a call: wait, then answer an error status, drop the connection, or go on. */
export interface FaultEffect {
  /** Milliseconds, or a range drawn from with the seed. */
  delay?: number | { min: number; max: number };
  /** Answered with an Error record instead of calling the operation. */
  status?: number;
  /** Default: `injected_fault`. */
  code?: string;
  message?: string;
  /** Drop the connection, so that `fetch` rejects. */
  network?: boolean;
  /** Default: 1, so that a run replays. */
  seed?: number;
}

/** A fault as `POST /__mock/faults`, `--fault` and `mock.addFaults` take it. */
export interface FaultInput extends FaultEffect {
  /** Default: `*`. */
  operation?: FaultOperation;
  /** Matching calls let through before the fault starts. Default: 0. */
  after?: number;
  /** Default: every call from then on. */
  times?: number;
  /** Default: 1. */
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

// Ajv reports why a delay failed both of its shapes: keep only the reasons of the shape the value has.
function delayViolations(found: Violation[], delay: unknown): Violation[] {
  if (delay === undefined) return found;
  const shape =
    typeof delay === 'number' ? 'number' : typeof delay === 'object' && delay !== null ? 'object' : 'neither';
  const shapeMessages = new Set(['must be integer', 'must be object', 'must match exactly one schema in oneOf']);
  const kept = found.filter(({ path, message }) => path !== '/delay' || !shapeMessages.has(message));
  const integerBranch = found.find(({ path, message }) => path === '/delay' && message === 'must be integer');
  if (shape === 'neither') return [...kept, { path: '/delay', message: delayShape }];
  if (shape === 'number' && integerBranch !== undefined && !Number.isInteger(delay)) return [...kept, integerBranch];
  return kept;
}

// Ajv words an unmet anyOf or not in terms of schemas; say what the rule means instead.
function effectViolations(validate: (value: unknown) => Violation[], value: unknown, at: string): Violation[] {
  const found = delayViolations(validate(value), (value as FaultEffect | null)?.delay);
  // With no effect asked for, why each alternative failed only repeats the effect requirement.
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

/** Checks a fault, or a list of at most 100. */
export function faultViolations(value: unknown): Violation[] {
  if (Array.isArray(value) && value.length > faultBatchLimit)
    return [{ path: '', message: `must hold at most ${faultBatchLimit} faults` }];
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((fault, index) =>
    effectViolations(validateFault, fault, Array.isArray(value) ? `/${index}` : ''),
  );
}

/** A step's fault takes its operation and count from the step. */
export function stepFaultViolations(value: unknown): Violation[] {
  return effectViolations(validateStepFault, value, '');
}
