// What the document cannot say about an operation, said once per operation, keyed by the document's
// operation names: a missing definition fails the type check. So far: what an answer of the operation
// proves about the store it was given in, which a consumer's pact states as its provider state and a
// recording infers its starting state from, and how a recorded call of it is titled.
import { parseInt64 } from './int64.js';
import type { JsonValue } from './parse-json.js';
import type { OrderStatus } from './provider-state.js';
import type { OperationName } from './routes.js';

/** How a store held an order an answer names: with a status, or not at all. */
export type HeldAs = Exclude<OrderStatus, 'cancelled'> | 'absent';

/**
 * What one answer proves about the store it was given in: the orders a list showed (as listed, in
 * order), how the store held the order a call named, or nothing.
 * @example
 * { kind: 'held', id: 3n, as: 'shipped' } // a cancel of order 3 refused with 409
 */
export type StoreEvidence =
  | { kind: 'listed'; orders: readonly JsonValue[] }
  | { kind: 'held'; id: bigint; as: HeldAs }
  | { kind: 'nothing' };

/** An answer as the evidence is read from it: its status, its body read exactly, the path parameter as written. */
export interface AnswerToRead {
  status: number;
  body: JsonValue | undefined;
  /** The path parameter as it stands in the path (not decoded); undefined for an operation without one. */
  parameter?: string | undefined;
}

/** What the kit knows of one operation beyond its document. */
export interface OperationDefinition {
  /** What an answer with the key proves about the store it was given in. */
  evidence(answer: AnswerToRead): StoreEvidence;
  /** For an operation on one order: the status its answer has when the store holds that order so. */
  statusWhenHeld?: (as: HeldAs) => number | undefined;
  /** What a call does, in a recorded step's title: `cancel order 3`; `parameter` as written in the path. */
  title(parameter: string | undefined): string;
}

const nothing: StoreEvidence = { kind: 'nothing' };

function decoded(parameter: string): string {
  try {
    return decodeURIComponent(parameter);
  } catch {
    return parameter;
  }
}

/** How each status of a cancel shows the order was held: the one fact behind a cancel's evidence. */
const cancelShows: Readonly<Record<number, HeldAs>> = { 204: 'pending', 409: 'shipped', 404: 'absent' };

/**
 * Every operation's definition. A cancel's 404 shows the order absent (a cancelled order is refused
 * as one the store does not hold, spec gap 4).
 * @example
 * operationDefinitions.cancelOrder.evidence({ status: 409, body: undefined, parameter: '3' }) // { kind: 'held', id: 3n, as: 'shipped' }
 * operationDefinitions.listOrders.evidence({ status: 200, body: [{ id: 1 }] }) // { kind: 'listed', orders: [{ id: 1 }] }
 */
export const operationDefinitions: Readonly<Record<OperationName, OperationDefinition>> = {
  listOrders: {
    title: () => 'list the orders',
    evidence: ({ status, body }) =>
      status === 200 && Array.isArray(body) ? { kind: 'listed', orders: body } : nothing,
  },
  cancelOrder: {
    title: (parameter) => `cancel order ${parameter ?? ''}`.trim(),
    evidence({ status, parameter }) {
      const as = cancelShows[status];
      const id = parameter === undefined ? undefined : parseInt64(decoded(parameter));
      return as === undefined || id === undefined ? nothing : { kind: 'held', id, as };
    },
    statusWhenHeld: (as) => {
      const found = Object.entries(cancelShows).find(([, shown]) => shown === as);
      return found === undefined ? undefined : Number(found[0]);
    },
  },
  readPet: { title: (parameter) => `read pet ${parameter ?? ''}`.trim(), evidence: () => nothing },
};

/**
 * The status an operation's answer has when the store holds the order it names as `as` (a cancelled
 * order as an absent one); undefined for an operation on no one order.
 * @example
 * statusShowing('cancelOrder', 'shipped') // 409
 */
export function statusShowing(operation: OperationName, as: OrderStatus | 'absent'): number | undefined {
  return operationDefinitions[operation].statusWhenHeld?.(as === 'cancelled' ? 'absent' : as);
}
