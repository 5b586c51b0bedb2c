import { schemas } from '../spec/generated/contract.js';
import type { components as exactComponents } from '../spec/generated/openapi-exact-types.js';
import type { components } from '../spec/generated/openapi-types.js';

/**
 * An Order record as JSON carries it on the wire, its int64 fields as JavaScript numbers (generated
 * from `spec/openapi.yaml`): what `JSON.parse` would give, exact only up to 2^53.
 */
export type Order = components['schemas']['Order'];
/** The Order record on the wire (see `Order`): the name the package exports it under. */
export type WireOrder = Order;
/**
 * An Order record as the kit gives it, its int64 fields (`id`, `petId`) as `bigint`s: what the kit's
 * client, `exactFetch` and the generated `petstore-contract-kit/openapi` types hold.
 */
export type ExactOrder = exactComponents['schemas']['Order'];
/** The Error record `{ code, message, status }` (generated from `spec/openapi.yaml`). */
export type ErrorRecord = components['schemas']['Error'];

/**
 * The field names of an Order, in the document's order: the only fields the public interface sends.
 * @example
 * orderFields // ['id', 'petId', 'quantity', 'shipDate', 'complete']
 */
export const orderFields = Object.keys(schemas.Order.properties) as (keyof Order)[];

/**
 * The Order fields whose format is int64: held as `bigint` where they pass 2^53, and checked over the whole int64 range.
 * @example
 * orderInt64Fields // ['id', 'petId']
 */
export const orderInt64Fields = Object.entries(schemas.Order.properties)
  .filter(([, schema]) => 'format' in schema && schema.format === 'int64')
  .map(([name]) => name as keyof Order);

const jsonTypes: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => typeof value === 'bigint' || Number.isInteger(value),
  number: (value) => typeof value === 'number' || typeof value === 'bigint',
  boolean: (value) => typeof value === 'boolean',
};

/**
 * Whether a parsed body is an Error record: an object with every required field of the spec's Error
 * schema, each of its type. Read off the route table's schemas, without Ajv, so that a browser client
 * can recognise an Error record cheaply.
 * @example
 * isErrorRecord({ code: 'order_not_found', message: 'Order 9 not found.', status: 404 }) // true
 * isErrorRecord({ reason: 'shipped' }) // false
 */
export function isErrorRecord(value: unknown): value is ErrorRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return schemas.Error.required.every((field) => {
    const type = schemas.Error.properties[field].type;
    return Object.hasOwn(record, field) && (jsonTypes[type]?.(record[field]) ?? true);
  });
}
