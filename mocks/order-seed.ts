import { toInt64 } from '../core/int64.js';
import { parseJson } from '../core/parse-json.js';
import {
  duplicateOrderId,
  orderInputViolations,
  orderStatuses,
  type JsonInteger,
  type OrderInput,
  type OrderStatus,
} from '../core/provider-state.js';
import { orderFields, orderInt64Fields, type Order } from '../core/records.js';
import { violationSummary } from '../core/schema-validator.js';
import { MockError } from './errors.js';

/** An order as the store holds it: the Order fields of the specification, int64 fields as `bigint`, and its status. */
export type StoredOrder = Omit<Order, 'id' | 'petId' | 'quantity'> & {
  id: bigint;
  petId?: bigint;
  quantity?: JsonInteger;
  status: OrderStatus;
};

/** An order's fields as a seed takes them: checked input (int64 fields `number` or `bigint`) or a stored order. */
type OrderFields = Partial<Record<keyof Order, unknown>>;

// A module's own constants, not imported bindings: the loop below runs 500,000 times for 100,000 orders.
const publicFields: readonly (keyof Order)[] = [...orderFields];
const int64Fields: readonly (keyof Order)[] = [...orderInt64Fields];
const fieldKeys = publicFields.map((field) => `${JSON.stringify(field)}:`);

// The JSON text of one order as `listOrders` answers it: the documented fields only, in the
// specification's order, int64 fields exact. Equal to stringifyJson of the same fields (test/units.test.ts).
function publicOrderJson(order: OrderFields): string {
  let text = '';
  for (let index = 0; index < publicFields.length; index++) {
    const value = order[publicFields[index]!];
    if (value === undefined) continue;
    text +=
      (text === '' ? '{' : ',') +
      fieldKeys[index]! +
      (typeof value === 'string' ? JSON.stringify(value) : String(value));
  }
  return text === '' ? '{}' : `${text}}`;
}

const utf8 = new TextEncoder();
const utf8Text = new TextDecoder();

/** A turn of the event loop: what a long piece of work waits for between slices, so that other requests get through. */
export const nextTurn = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/**
 * The JSON body of stored orders, every field and the status (`GET /__mock/orders`), as UTF-8 parts:
 * `count` orders read `perSlice` at a time by `slice(start, end)`, with a turn of the event loop
 * between slices, so that a store of 250,000 orders never holds the server for long at once.
 * @example
 * const orders = [{ id: 1n, status: 'shipped' as const }];
 * new TextDecoder().decode(Buffer.concat(await storedOrdersBody(orders.length, (start, end) => orders.slice(start, end)))) // '[{"id":1,"status":"shipped"}]'
 */
export async function storedOrdersBody(
  count: number,
  slice: (start: number, end: number) => readonly StoredOrder[],
  perSlice = 500,
): Promise<Uint8Array[]> {
  if (count === 0) return [utf8.encode('[]')];
  const parts: Uint8Array[] = [];
  for (let start = 0; start < count; start += perSlice) {
    if (start > 0) await nextTurn();
    const texts: string[] = [];
    for (const order of slice(start, Math.min(start + perSlice, count))) {
      const fields = publicOrderJson(order);
      texts.push(`${fields === '{}' ? '{' : `${fields.slice(0, -1)},`}"status":${JSON.stringify(order.status)}}`);
    }
    const end = start + perSlice >= count ? ']' : '';
    parts.push(utf8.encode(`${start === 0 ? '[' : ','}${texts.join(',')}${end}`));
  }
  return parts;
}

/**
 * The body of `listOrders` for these orders, as UTF-8 bytes: every order that is not cancelled,
 * documented fields only. Written field by field, about four times faster than a general serialiser
 * on 100,000 orders, and encoded once: a big list is sent many times (9 MB for 100,000 orders).
 * Orders are encoded 256 at a time, so no text of the whole list is ever held. Where each listed
 * order's bytes start is written into `starts`, when given (one entry for each order listed).
 * @example
 * new TextDecoder().decode(listBody([{ id: 1n, status: 'pending' }, { id: 2n, status: 'cancelled' }])) // '[{"id":1}]'
 */
export function listBody(orders: readonly (OrderFields & { status?: unknown })[], starts?: Int32Array): Uint8Array {
  // Sized from the first orders, so that the bytes are written once, in place: no buffer to grow and copy.
  const sampled = Math.min(orders.length, 64);
  let sample = 0;
  for (let index = 0; index < sampled; index++) sample += publicOrderJson(orders[index]!).length + 1;
  let bytes = new Uint8Array(Math.ceil((sample / Math.max(1, sampled)) * orders.length * 1.1) + 64);
  let length = 0;
  let batch: string[] = [];
  let listed = 0;
  const flush = () => {
    const text = batch.join('');
    // UTF-8 takes at most 3 bytes for each UTF-16 code unit.
    if (length + text.length * 3 > bytes.length) {
      const larger = new Uint8Array(Math.max(Math.ceil(bytes.length * 1.5), length + text.length * 3));
      larger.set(bytes.subarray(0, length));
      bytes = larger;
    }
    const written = utf8.encodeInto(text, bytes.subarray(length)).written;
    // Each piece is '[' or ',' and an order; ASCII text has as many bytes as characters.
    const ascii = written === text.length;
    let at = length;
    for (const piece of batch) {
      if (starts !== undefined && piece.length > 1 && listed < starts.length) starts[listed++] = at + 1;
      at += ascii ? piece.length : utf8.encode(piece).length;
    }
    length += written;
    batch = [];
  };
  let first = true;
  for (const order of orders) {
    if (order.status === 'cancelled') continue;
    batch.push((first ? '[' : ',') + publicOrderJson(order));
    first = false;
    if (batch.length === 256) flush();
  }
  batch.push(first ? '[]' : ']');
  flush();
  // Kept as a view when little is left over (a list with many cancelled orders is copied to its size).
  return length >= bytes.length * 0.8 ? bytes.subarray(0, length) : bytes.slice(0, length);
}

/**
 * Checks a list of orders the way every writer of the store does (control plane, seed files,
 * provider states, in-process callers): one schema check of the whole list, int64 fields exact, ids
 * unique. Violation paths are JSON Pointers, prefixed with `at` (where the orders sit in a larger body).
 * @throws MockError `invalid_orders` (with every violation) or `duplicate_order_id`.
 * @example
 * checkOrders([{ id: 'x' }], '/params/orders') // throws: Invalid orders: /params/orders/0/id must be integer.
 */
function checkOrders(input: unknown, at = ''): asserts input is OrderInput[] {
  const violations = orderInputViolations(input, at);
  if (violations.length > 0)
    throw new MockError('invalid_orders', `Invalid orders: ${violationSummary(violations)}.`, { violations });
  const orders = input as OrderInput[];
  // Sorted, equal ids sit side by side: a typed array sorts 100,000 of them in a few milliseconds.
  const ids = new BigInt64Array(orders.length);
  for (let index = 0; index < orders.length; index++) ids[index] = toInt64(orders[index]!.id)!;
  ids.sort();
  for (let index = 1; index < ids.length; index++) if (ids[index] === ids[index - 1]) throw duplicateOf(orders, at);
}

// The first order, by position, whose id an earlier order has.
function duplicateOf(orders: readonly OrderInput[], at: string): MockError {
  const duplicate = duplicateOrderId(orders, at)!;
  return new MockError('duplicate_order_id', `Invalid orders: id ${duplicate.id} appears more than once.`, {
    violations: [duplicate.violation],
  });
}

/**
 * Checks a list of orders and turns it into stored orders (copies: the input is not changed).
 * @throws MockError `invalid_orders` or `duplicate_order_id`.
 * @example
 * toStoredOrders([{ id: 1 }]) // [{ id: 1n, status: 'pending' }]
 */
export function toStoredOrders(input: unknown, at = ''): StoredOrder[] {
  checkOrders(input, at);
  return input.map((order) => storedOrder(order, order.status ?? 'pending'));
}

/**
 * An order's fields as the store holds them: the documented fields only, in the specification's
 * order, int64 fields as `bigint`, and the status (the input is not changed).
 * @example
 * storedOrder({ id: 1, petId: 7 }, 'shipped') // { id: 1n, petId: 7n, status: 'shipped' }
 */
export function storedOrder(fields: OrderFields, status: OrderStatus): StoredOrder {
  const stored: Record<string, unknown> = {};
  for (const field of publicFields) if (fields[field] !== undefined) stored[field] = fields[field];
  for (const field of int64Fields) if (fields[field] !== undefined) stored[field] = toInt64(fields[field]);
  stored.status = status;
  return stored as StoredOrder;
}

/**
 * A list of orders checked once, to start stores from: the default session's store, every named
 * session's store and every reset share it, and nothing in it changes.
 *
 * A seed holds its orders as the body `listOrders` answers for them (UTF-8 JSON, 9 MB for 100,000
 * orders), a status for each, and the few cancelled orders (which the list leaves out) apart. A store
 * that has not changed since it started answers the list with those very bytes; a store that
 * changes reads its orders back from them once. So 100,000 orders are held once, as compactly as
 * their JSON, and not also as 100,000 objects.
 * @example
 * const seed = OrderSeed.from([{ id: 1 }, { id: 2, status: 'shipped' }]);
 * new OrderStore(seed); new OrderStore(seed); // checked once, held once
 */
export class OrderSeed {
  /** How many orders the seed holds, whatever their status. */
  readonly size: number;
  readonly #body: Uint8Array;
  readonly #list: readonly Uint8Array[];
  // Where each listed order's bytes start in the body: a slice of the orders is read back alone.
  readonly #starts: Int32Array;
  // The status of each order, in order, as its index in orderStatuses.
  readonly #statuses: Uint8Array;
  // The cancelled orders, by position (the list body leaves them out), and their positions in order.
  readonly #cancelled: ReadonlyMap<number, StoredOrder>;
  readonly #cancelledPositions: readonly number[];

  private constructor(orders: readonly OrderInput[]) {
    this.size = orders.length;
    this.#statuses = new Uint8Array(orders.length);
    const cancelled = new Map<number, StoredOrder>();
    for (let index = 0; index < orders.length; index++) {
      const status = orders[index]!.status ?? 'pending';
      this.#statuses[index] = orderStatuses.indexOf(status);
      if (status === 'cancelled') cancelled.set(index, storedOrder(orders[index]!, status));
    }
    this.#cancelled = cancelled;
    this.#cancelledPositions = [...cancelled.keys()];
    this.#starts = new Int32Array(orders.length - cancelled.size);
    this.#body = listBody(orders, this.#starts);
    this.#list = [this.#body];
  }

  /**
   * Checks orders into a seed; a seed is returned as it is. The input is not changed or kept.
   * @param at where the orders sit in a request body, as a JSON Pointer, for the error paths.
   * @throws MockError `invalid_orders` or `duplicate_order_id`.
   */
  static from(input: unknown, at = ''): OrderSeed {
    if (input instanceof OrderSeed) return input;
    checkOrders(input, at);
    return new OrderSeed(input);
  }

  /**
   * The body of `listOrders` for the seed: the bytes it holds its orders in, as one part (the same
   * array at every call, so that a server can tell a body it has sent before).
   * @example
   * new TextDecoder().decode(OrderSeed.from([{ id: 1 }, { id: 2, status: 'cancelled' }]).listBody()[0]) // '[{"id":1}]'
   */
  listBody(): readonly Uint8Array[] {
    return this.#list;
  }

  /**
   * The seed's orders from position `from` up to `to`, read back from its bytes: new objects at each
   * call, the caller's to keep or change. A store creates its records a slice at a time this way.
   */
  orders(from = 0, to = this.size): StoredOrder[] {
    const first = this.#listedBefore(from);
    const last = this.#listedBefore(to);
    let listed: OrderFields[] = [];
    if (last > first) {
      // From the first order's '{' to the ',' after the last one (or the closing ']').
      const end = last < this.#starts.length ? this.#starts[last]! - 1 : this.#body.length - 1;
      listed = parseJson(`[${utf8Text.decode(this.#body.subarray(this.#starts[first]!, end))}]`) as OrderFields[];
    }
    const orders: StoredOrder[] = [];
    let next = 0;
    for (let position = from; position < to; position++) {
      const cancelled = this.#cancelled.get(position);
      orders.push(
        cancelled !== undefined
          ? { ...cancelled }
          : storedOrder(listed[next++]!, orderStatuses[this.#statuses[position]!]!),
      );
    }
    return orders;
  }

  // How many orders before this position the list body holds (those that are not cancelled).
  #listedBefore(position: number): number {
    let cancelled = 0;
    while (cancelled < this.#cancelledPositions.length && this.#cancelledPositions[cancelled]! < position) cancelled++;
    return position - cancelled;
  }
}
