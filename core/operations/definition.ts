// What one operation's definition is: everything the kit knows of an operation that its document
// cannot say. Each operation has one, in a file of this folder, registered in core/operation-definitions.ts.
import type { JsonValue } from '../parse-json.js';
import type { OrderStatus } from '../provider-state.js';
import type { StoredOrder } from '../records.js';
import type { ParameterValues } from '../request-parameters.js';

/** How a store held an order an answer names: with a status, or not at all. */
export type HeldAs = Exclude<OrderStatus, 'cancelled'> | 'absent';

/**
 * What an answer can show of the order it names: how the store held it, or, for an operation whose
 * answer tells a cancelled order from one the store does not hold (a ship's 409), that it was cancelled.
 * @example
 * const shown: ShownAs = 'cancelled';
 */
export type ShownAs = HeldAs | 'cancelled';

/**
 * What one answer proves about the store it was given in: the orders a list showed (as listed, in
 * order), how the store held the order a call named, or nothing.
 * @example
 * { kind: 'held', id: 3n, as: 'shipped' } // a cancel of order 3 refused with 409
 */
export type StoreEvidence =
  | { kind: 'listed'; orders: readonly JsonValue[] }
  | { kind: 'held'; id: bigint; as: ShownAs }
  | { kind: 'nothing' };

/** An answer as the evidence is read from it: its status, its body read exactly, the path parameter as written. */
export interface AnswerToRead {
  status: number;
  body: JsonValue | undefined;
  /** The path parameter as it stands in the path (not decoded); undefined for an operation without one. */
  parameter?: string | undefined;
}

/**
 * One order as an operation's behaviour sees it in the store.
 * @example
 * const order: HeldOrder = { id: 3n, status: 'shipped' };
 */
export interface HeldOrder {
  readonly id: bigint;
  readonly status: OrderStatus;
}

/**
 * What an operation's mock behaviour may ask of the store the mock gives it (mocks/session/operations.ts
 * provides it over the mock's `OrderStore`).
 * @example
 * const outcome = await store.cancel(3n); // 'shipped'
 */
export interface StoreOfOperations {
  /** The body of the list of the orders not cancelled, as UTF-8 JSON parts. */
  listBody(): readonly Uint8Array[];
  /**
   * The orders whose id is greater than `after` (every one when undefined) and whose status is `status`
   * (any when undefined), in ascending order of id, each given to `visit` as the store holds it (not a
   * copy: `visit` reads, never changes it) until `visit` returns false: v2's list reads a page of them,
   * and the store reads no other order than those and the ones the filter skips.
   */
  eachOrderById(
    from: { after?: bigint | undefined; status?: OrderStatus | undefined },
    visit: (order: Readonly<StoredOrder>) => boolean,
  ): void;
  /** A copy of the order with this id, whatever its status, with every field it was given. */
  find(id: bigint): StoredOrder | undefined;
  /** Cancels a pending order: what the store found (an order cancelled before counts as absent). */
  cancel(id: bigint): Promise<'cancelled' | 'shipped' | 'absent'>;
  /**
   * Moves the order to `to` if its status is one of `from`, one write at a time: the status it found
   * (the order unchanged unless it is one of `from`), or `absent`. How an operation other than the
   * cancel changes the store (a ship: `{ from: ['pending'], to: 'shipped' }`).
   */
  change(id: bigint, move: { from: readonly OrderStatus[]; to: OrderStatus }): Promise<OrderStatus | 'absent'>;
  /** The orders a client that parsed its id as a float64 would send as `sent`; none when `sent` is stored. */
  ordersWithSameFloat64(sent: bigint): Promise<readonly HeldOrder[]>;
}

/**
 * Whether the 409 of a cancel of a shipped order has an Error record or no body: the specification shows
 * no body for it, so a client must handle both.
 * @example
 * const conflictBody: ConflictBody = 'none';
 */
export type ConflictBody = 'error' | 'none';

/**
 * What a behaviour is given: the session's store, the mock's settings, and the call's query and header
 * parameters as read by core/request-parameters.ts. The key and the parameters were checked before: a
 * behaviour sees only values that keep their schemas.
 * @example
 * const outcome = await operationDefinitions.cancelOrder.mock(context, '3');
 */
export interface OperationContext {
  store: StoreOfOperations;
  /** The call's query and header parameters its route declares, each read as its schema's type (gap 50). */
  parameters: ParameterValues;
  conflictBody: ConflictBody;
  petDeprecation: Date;
  petSunset: Date;
}

/**
 * The codes of the Error records an operation's behaviour refuses with (each one of the mock's
 * `errorStatuses`, which gives its status).
 * @example
 * const code: RefusalCode = 'order_not_found';
 */
export type RefusalCode = 'order_not_found' | 'order_already_shipped' | 'invalid_cursor';

/**
 * What an operation's behaviour answers, before the mock makes it a reply: a JSON body (bigints written
 * exactly), a JSON body already encoded, no body, or a refusal with an Error record.
 * @example
 * const outcome: MockOutcome = { kind: 'refused', code: 'order_not_found', message: 'Order 42 not found.' };
 */
export type MockOutcome =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'encoded-json'; status: number; parts: readonly Uint8Array[] }
  | { kind: 'empty'; status: number }
  | { kind: 'refused'; code: RefusalCode; message: string; probablyMeant?: bigint };

/**
 * What kinds of order id exploration aims an operation on one order at: a pending, shipped or cancelled
 * order of the store, an id the store does not hold, or the neighbour of a stored id beyond 2^53.
 * @example
 * const target: OrderTarget = 'neighbour';
 */
export type OrderTarget = 'pending' | 'shipped' | 'cancelled' | 'unknown' | 'neighbour';

/**
 * What the kit knows of one operation beyond its document.
 * @example
 * const definition: OperationDefinition = operationDefinitions.cancelOrder;
 */
export interface OperationDefinition {
  /** The mock's behaviour: the answer to a call with an accepted key, its path parameter decoded ('' for none). */
  mock(context: OperationContext, parameter: string): MockOutcome | Promise<MockOutcome>;
  /** What an answer with the key proves about the store it was given in. */
  evidence(answer: AnswerToRead): StoreEvidence;
  /** For an operation on one order: the status its answer has when the store holds that order so. */
  statusWhenHeld?: (as: HeldAs) => number | undefined;
  /**
   * For an operation on one order whose answer tells a cancelled order from one the store does not
   * hold: that answer's status (with `cancelled` in its evidence). Without it, a cancelled order is
   * answered as an absent one (spec gap 4), and `statusWhenHeld('absent')` gives the status.
   */
  statusWhenCancelled?: number;
  /**
   * What a call does, in a step's title (`list the orders`), with `parameter` as written in the path.
   * Without it, the title is read from the operation's name: `cancelOrder` with `3` is `cancel order 3`
   * (`titleOf` in core/operation-definitions.ts).
   */
  title?: (parameter: string | undefined) => string;
  /**
   * For an operation on one order (its path parameter an order id): the kinds of id exploration aims
   * it at, each with its weight among them. Without it, exploration sends any int64 as the parameter.
   */
  targets?: Readonly<Partial<Record<OrderTarget, number>>>;
  /**
   * For an operation that cancels the order it names: the statuses a provider may answer when that
   * order is already cancelled, where the model answers as for an absent one (tolerance
   * `cancelled-order-cancelled-again`).
   */
  cancels?: { againAccepts: readonly number[] };
}
