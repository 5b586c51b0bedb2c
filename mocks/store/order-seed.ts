import { toInt64 } from '../../core/int64.js';
import { parseJson } from '../../core/parse-json.js';
import {
  duplicateOrderId,
  orderInputViolations,
  orderStatuses,
  type OrderInput,
  type OrderStatus,
} from '../../core/provider-state.js';
import { orderFields, orderInt64Fields, type Order, type StoredOrder } from '../../core/records.js';

export type { StoredOrder } from '../../core/records.js';
import { violationSummary } from '../../core/schema-validator.js';
import { MockError } from '../base/errors.js';
import { listBody } from './list-body.js';
import { defaultSeed } from './default-seed.js';
import { IdOrder } from './id-order.js';

type OrderFields = Partial<Record<keyof Order, unknown>>;

// Local constants rather than imported bindings, for the hot loop below.
const publicFields: readonly (keyof Order)[] = [...orderFields];
const int64Fields: readonly (keyof Order)[] = [...orderInt64Fields];
const fieldKeys = publicFields.map((field) => `${JSON.stringify(field)}:`);

// Equal to stringifyJson of the same fields (test/mocks/order-store/order-store.test.ts), only faster.
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

/** A turn of the event loop, so that other requests get through between slices of long work. */
export const nextTurn = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** The body of `GET /__mock/orders` as UTF-8 parts, written a slice at a time so that a big store holds no one up. */
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

/** Checks a list of orders as every writer of the store does; violation paths are prefixed with `at`. */
function checkOrders(input: unknown, at = ''): asserts input is OrderInput[] {
  const violations = orderInputViolations(input, at);
  if (violations.length > 0)
    throw new MockError('invalid_orders', `Invalid orders: ${violationSummary(violations)}.`, { violations });
  const orders = input as OrderInput[];
  // Sorted in a typed array, equal ids sit side by side.
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

/** Checks a list of orders and copies it into stored orders. */
export function toStoredOrders(input: unknown, at = ''): StoredOrder[] {
  checkOrders(input, at);
  return input.map((order) => storedOrder(order, order.status ?? 'pending'));
}

/** A copy of an order's documented fields, int64 fields as `bigint`, with the status. */
export function storedOrder(fields: OrderFields, status: OrderStatus): StoredOrder {
  const stored: Record<string, unknown> = {};
  for (const field of publicFields) if (fields[field] !== undefined) stored[field] = fields[field];
  for (const field of int64Fields) if (fields[field] !== undefined) stored[field] = toInt64(fields[field]);
  stored.status = status;
  return stored as StoredOrder;
}

/**
 * A list of orders checked once and shared by every store and reset. It holds them as the `listOrders`
 * body itself, not as objects, so that a big seed is held once and compactly.
 * @example
 * const seed = OrderSeed.from([{ id: 1 }, { id: 2, status: 'shipped' }]);
 * new OrderStore(seed); new OrderStore(seed); // checked once, held once
 */
export class OrderSeed {
  readonly size: number;
  readonly #body: Uint8Array;
  readonly #list: readonly Uint8Array[];
  // Where each listed order's bytes start in the body: a slice of the orders is read back alone.
  readonly #starts: Int32Array;
  readonly #statuses: Uint8Array;
  // The list body leaves the cancelled orders out; they are kept here.
  readonly #cancelled: ReadonlyMap<number, StoredOrder>;
  readonly #cancelledPositions: readonly number[];
  // The ids by position, exact, so that a page or a lookup finds its orders without reading the others back.
  readonly #ids: BigInt64Array;
  // The positions in ascending order of id, made at the first page or lookup that needs them.
  #idOrder: IdOrder | undefined;

  private constructor(orders: readonly OrderInput[]) {
    this.size = orders.length;
    this.#statuses = new Uint8Array(orders.length);
    this.#ids = new BigInt64Array(orders.length);
    const cancelled = new Map<number, StoredOrder>();
    for (let index = 0; index < orders.length; index++) {
      this.#ids[index] = toInt64(orders[index]!.id)!;
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
   * Checks orders into a seed; a seed is returned as it is. `at` prefixes the error paths. The kit's
   * own default seed is not checked at every start: a test checks it (the check would compile the
   * schema before the first answer).
   */
  static from(input: unknown, at = ''): OrderSeed {
    if (input instanceof OrderSeed) return input;
    if (input !== defaultSeed) checkOrders(input, at);
    return new OrderSeed(input as readonly OrderInput[]);
  }

  /**
   * The body of `listOrders`: the same array at every call, so that a server can tell a body it has sent before.
   * @example
   * new TextDecoder().decode(OrderSeed.from([{ id: 1 }, { id: 2, status: 'cancelled' }]).listBody()[0]) // '[{"id":1}]'
   */
  listBody(): readonly Uint8Array[] {
    return this.#list;
  }

  /** New copies of the orders from position `from` up to `to`, read back from the bytes. */
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

  /**
   * The order of the seed's positions by id, made once (seeds are shared by every store and reset).
   * @example
   * OrderSeed.from([{ id: 2 }, { id: 1 }]).idOrder().positionAt(0) // 1
   */
  idOrder(): IdOrder {
    const ids = this.#ids;
    this.#idOrder ??= IdOrder.of(this.size, (position) => ids[position]!);
    return this.#idOrder;
  }

  /**
   * Calls `visit` with new copies of the orders whose id is greater than `after` (all when undefined) and
   * whose status is `status` (any when undefined), in ascending order of id, until it returns false. Only
   * the orders given to `visit` are read back from the bytes.
   * @example
   * OrderSeed.from([{ id: 3 }, { id: 1 }, { id: 2, status: 'shipped' }]).eachById({ after: 1n, status: 'pending' }, (order) => { console.log(order.id); return true; }) // logs 3n
   */
  eachById(
    { after, status }: { after?: bigint | undefined; status?: OrderStatus | undefined },
    visit: (order: StoredOrder) => boolean,
  ): void {
    const ids = this.#ids;
    const idAt = (position: number) => ids[position]!;
    const order = this.idOrder();
    const wanted = status === undefined ? -1 : orderStatuses.indexOf(status);
    for (let index = order.firstAfter(after, idAt); index < order.length; index++) {
      const position = order.positionAt(index);
      if (wanted !== -1 && this.#statuses[position] !== wanted) continue;
      if (!visit(this.orders(position, position + 1)[0]!)) return;
    }
  }

  /**
   * A new copy of the order with this id, read back alone, or undefined.
   * @example
   * OrderSeed.from([{ id: 9007199254740993n, status: 'shipped' }]).find(9007199254740993n) // { id: 9007199254740993n, status: 'shipped' }
   */
  find(id: bigint): StoredOrder | undefined {
    const ids = this.#ids;
    const idAt = (position: number) => ids[position]!;
    const order = this.idOrder();
    // The first order whose id is not below `id`.
    const index = order.firstAfter(id - 1n, idAt);
    if (index === order.length) return undefined;
    const position = order.positionAt(index);
    return ids[position] === id ? this.orders(position, position + 1)[0] : undefined;
  }

  // How many orders before this position the list body holds (those that are not cancelled): a binary
  // search of the cancelled positions, so that reading one order back costs the same anywhere in the seed.
  #listedBefore(position: number): number {
    let low = 0;
    let high = this.#cancelledPositions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#cancelledPositions[middle]! < position) low = middle + 1;
      else high = middle;
    }
    return position - low;
  }
}
