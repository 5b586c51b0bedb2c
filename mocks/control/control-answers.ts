import { isInt64 } from '../../core/int64.js';

/** Whether a JSON value has a shape; the control client checks each answer with one before using it. */
export type Shape = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const text: Shape = (value) => typeof value === 'string';
const flag: Shape = (value) => typeof value === 'boolean';
const count: Shape = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const int64: Shape = isInt64;
const duration: Shape = (value) => typeof value === 'number' && value >= 0;
const nullable =
  (shape: Shape): Shape =>
  (value) =>
    value === null || shape(value);
const optional =
  (shape: Shape): Shape =>
  (value) =>
    value === undefined || shape(value);
const oneOf =
  (...values: readonly unknown[]): Shape =>
  (value) =>
    values.includes(value);
const listOf =
  (shape: Shape): Shape =>
  (value) =>
    Array.isArray(value) && value.every(shape);
/** An object with at least these fields, each of its shape. */
const record =
  (fields: Record<string, Shape>): Shape =>
  (value) =>
    isObject(value) && Object.entries(fields).every(([name, shape]) => shape(value[name]));

const order = record({ id: int64, petId: optional(int64), status: oneOf('pending', 'shipped', 'cancelled') });
const settings = record({ conflictBody: oneOf('error', 'none') });
const fault = record({ id: count, operation: text, seen: count, affected: count });
const coverage = record({
  operations: listOf(
    record({ operation: text, method: text, path: text, responses: listOf(record({ status: count, seen: count })) }),
  ),
  covered: count,
  total: count,
});

/**
 * The shapes of the control plane's answers, as docs/frontend.md documents them, and what each is called
 * in the control client's error when an answer does not have it.
 * @example
 * controlAnswers.orders.shape([{ id: 1, status: 'pending' }]) // true
 * controlAnswers.orders.shape({ orders: [] }) // false
 */
export const controlAnswers = {
  orders: { what: 'a list of orders', shape: listOf(order) },
  loaded: {
    what: 'a loaded scenario',
    shape: record({ scenario: text, seeded: flag, orders: count, faults: count }),
  },
  scenarios: {
    what: 'a list of scenarios',
    shape: listOf(record({ name: text, description: text, orders: nullable(count), faults: count })),
  },
  settings: { what: 'the settings', shape: settings },
  faults: { what: 'a list of faults', shape: listOf(fault) },
  requests: {
    what: 'a list of journal entries',
    shape: listOf(
      record({
        method: text,
        path: text,
        operation: nullable(text),
        status: (value) => value === 'network' || count(value),
        session: nullable(text),
        time: text,
        authorization: oneOf('none', 'valid', 'invalid'),
      }),
    ),
  },
  coverage: { what: 'a coverage', shape: coverage },
  sessions: { what: 'a list of sessions', shape: listOf(record({ name: text, idle: duration })) },
} as const satisfies Record<string, { what: string; shape: Shape }>;

/** The name of one of the control plane's answer shapes. */
export type ControlAnswer = keyof typeof controlAnswers;
