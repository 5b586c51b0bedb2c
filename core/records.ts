import { schemas } from '../spec/generated/contract.js';
import type { OrderStatus } from './order-status.js';
import type { components as exactComponents } from '../spec/generated/openapi-exact-types.js';
import type { components } from '../spec/generated/openapi-types.js';

/** An Order as `JSON.parse` gives it: int64 fields are numbers, exact only up to 2^53. */
export type Order = components['schemas']['Order'];
/**
 * The name the package exports `Order` under.
 * @example
 * const order: WireOrder = { id: 1, petId: 7, quantity: 1 };
 */
export type WireOrder = Order;
/**
 * An Order as the kit's client and `exactFetch` give it: `id` and `petId` are `bigint`s.
 * @example
 * const order: ExactOrder = { id: 9007199254740993n, petId: 7n };
 */
export type ExactOrder = exactComponents['schemas']['Order'];
/**
 * The Error record the interface answers with.
 * @example
 * const error: ErrorRecord = { code: 'order_not_found', message: 'Order 9 not found.', status: 404 };
 */
export type ErrorRecord = components['schemas']['Error'];

/** The only fields the public interface sends, in the document's order. */
export const orderFields = Object.keys(schemas.Order.properties) as (keyof Order)[];

export const orderInt64Fields = Object.entries(schemas.Order.properties)
  .filter(([, schema]) => 'format' in schema && schema.format === 'int64')
  .map(([name]) => name as keyof Order);

const jsonTypes: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => typeof value === 'bigint' || Number.isInteger(value),
  number: (value) => typeof value === 'number' || typeof value === 'bigint',
  boolean: (value) => typeof value === 'boolean',
};

/** Checks only the required fields and their types, without Ajv, to keep the browser client light. */
export function isErrorRecord(value: unknown): value is ErrorRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return schemas.Error.required.every((field) => {
    const type = schemas.Error.properties[field].type;
    return Object.hasOwn(record, field) && (jsonTypes[type]?.(record[field]) ?? true);
  });
}

/**
 * An integer as a JSON value holds it: a number, or a bigint past 2^53 (the kit's parser keeps those exact).
 * @example
 * const id: JsonInteger = 9007199254740993n;
 */
export type JsonInteger = number | bigint;

/** An order as the store holds it: int64 fields as `bigint`, and its status. */
export type StoredOrder = Omit<Order, 'id' | 'petId' | 'quantity'> & {
  id: bigint;
  petId?: bigint;
  quantity?: JsonInteger;
  status: OrderStatus;
};
