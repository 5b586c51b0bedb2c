import { isAcceptedKey, type KeyChoice } from '../../core/authorization.js';
import { toInt64 } from '../../core/int64.js';
import type { JsonValue } from '../../core/parse-json.js';
import { orderInputViolations, type OrderInput } from '../../core/provider-state.js';
import { orderFields } from '../../core/records.js';
import { operationDefinitions, type ShownAs } from '../../core/operation-definitions.js';
import { matchRoute } from '../../core/routes.js';
import { decodedSegment } from '../../core/compare.js';

/** One call as the recorder saw it: what the state can be inferred from. */
export interface StateEvidence {
  method: string;
  /** The operation's path below the base URL. */
  path: string;
  /** The major's base path, `/v1` unless given. */
  base?: string | undefined;
  key: KeyChoice;
  /** The upstream's status (0 when none came). */
  status: number;
  /** The body read exactly, when it was JSON. */
  body: JsonValue | undefined;
  /** The step's name, to say where an inference came from. */
  step: string;
  /** When the request came and its answer ended: a 204 tells more than a refusal only of a cancel at the same time. */
  startedAt: number;
  endedAt: number;
}

/** An order added to the state, or given its status, from what an answer implies rather than from a list. */
export interface InferredOrder {
  id: bigint;
  status: 'pending' | 'shipped' | 'cancelled';
  /** Whether the first list held it (then only its status is inferred). */
  listed: boolean;
  /** The step whose answer implies it. */
  because: string;
}

/** What a field of a listed order could not keep, and why. */
export interface DroppedField {
  id: bigint | undefined;
  field: string;
  reason: string;
}

type Outcome = { status: ShownAs; because: string; startedAt: number; endedAt: number };

/**
 * The provider state a recording starts from: the one the proxy set (`known`), else inferred from the
 * traffic and nothing else: the orders
 * of the first list seen with an accepted key, each field as listed (the Order fields a provider state
 * takes); an order's status from the first cancel of it with an accepted key (204: it was pending;
 * 409: shipped; 404: absent); and the orders never listed whose cancel implies they were there, unless
 * the first list was answered before that cancel was sent and did not hold them: a list returns all
 * orders and no operation adds one, so such a cancel is judged against an absent order.
 */
export class RecordedState {
  /** The state the proxy set before the first step: then nothing is inferred. */
  readonly #known: OrderInput[] | undefined;
  #listed: OrderInput[] | undefined;
  /**
   * When the first list's answer ended, and its orders' ids: it returns all orders (its whole body was
   * read) and no operation adds one, so an order it did not hold cannot be there after it.
   */
  #complete: { endedAt: number; ids: Set<bigint> } | undefined;
  readonly #dropped: DroppedField[] = [];
  /** What the accepted cancels of each id imply of it, in the order the ids came. */
  readonly #outcomes = new Map<bigint, Outcome>();
  /** The orders as last made, until something changes them; a listed order given a status, made once. */
  #orders: OrderInput[] | undefined;
  readonly #withStatus = new Map<bigint, OrderInput>();

  constructor(known?: readonly OrderInput[]) {
    if (known !== undefined) this.#known = [...known];
  }

  observe(evidence: StateEvidence): void {
    if (this.#known !== undefined || !isAcceptedKey(evidence.key)) return;
    const match = matchRoute(evidence.method, evidence.path, evidence.base);
    if (match === undefined) return;
    // What the answer proves, as its operation's definition says: the orders listed, or how an order was held.
    const shown = operationDefinitions[match.route.operation].evidence({
      status: evidence.status,
      body: evidence.body,
      parameter: match.parameter,
    });
    if (shown.kind === 'listed') {
      if (this.#listed === undefined) {
        this.#listed = this.#listedOrders(shown.orders);
        this.#orders = undefined;
        // An entry with no int64 id is no order (the schema check says so): it shows none to exist.
        this.#complete = { endedAt: evidence.endedAt, ids: new Set(this.#listed.map((order) => toInt64(order.id)!)) };
      }
      return;
    }
    // The id as the contract writes it: another spelling (007) may be refused as no order's.
    if (shown.kind !== 'held' || String(shown.id) !== decodedSegment(match.parameter ?? '')) return;
    const { id, as: status } = shown;
    const known = this.#outcomes.get(id);
    // The first answer tells; but cancels of one order at once may end in any order, and only the one
    // that reached the pending order first is a 204 (the others 404 or 409): then the 204 tells.
    const atOnce = known !== undefined && known.startedAt < evidence.endedAt && evidence.startedAt < known.endedAt;
    if (known !== undefined && !(atOnce && status === 'pending')) return;
    // An order a complete list left out, named by a call sent after that list was answered: no answer
    // showed it exists, so it is not added; the model answers 404 on this very step (the contradiction).
    const complete = this.#complete;
    if (
      known === undefined &&
      complete !== undefined &&
      evidence.startedAt >= complete.endedAt &&
      !complete.ids.has(id)
    )
      return;
    const { startedAt, endedAt } = evidence;
    this.#outcomes.set(id, { status, because: evidence.step, startedAt, endedAt });
    this.#orders = undefined;
  }

  /**
   * The orders the recording's state holds: the first list's, then those inferred, in the order they
   * came. The same objects until something changes them (an order given a status is a new one).
   */
  orders(): OrderInput[] {
    if (this.#known !== undefined) return this.#known;
    this.#orders ??= this.#madeOrders();
    return this.#orders;
  }

  #madeOrders(): OrderInput[] {
    const listed = (this.#listed ?? []).map((order) => {
      const id = toInt64(order.id)!;
      const outcome = this.#outcomes.get(id);
      // A status the list gave stands: an answer that disagrees with it is judged against it.
      if (outcome === undefined || outcome.status === 'absent' || order.status !== undefined) return order;
      let given = this.#withStatus.get(id);
      if (given?.status !== outcome.status) {
        given = { ...order, status: outcome.status };
        this.#withStatus.set(id, given);
      }
      return given;
    });
    const listedIds = new Set(listed.map((order) => toInt64(order.id)!));
    const inferred = [...this.#outcomes]
      .filter(([id, outcome]) => outcome.status !== 'absent' && !listedIds.has(id))
      .map(([id, outcome]) => ({ id, status: outcome.status as Exclude<ShownAs, 'absent'> }));
    return [...listed, ...inferred];
  }

  /**
   * Whether the state tells whether order `id` was there for a call sent at `sentAt`: a known state does,
   * and so does one holding it; else only a complete list answered before then (no operation adds one).
   * An order it does not tell of is left out of the saved state, so a replay's call finds it absent.
   */
  tellsOf(id: bigint, sentAt: number): boolean {
    if (this.#known !== undefined) return true;
    if (this.orders().some((order) => toInt64(order.id) === id)) return true;
    return this.#complete !== undefined && sentAt >= this.#complete.endedAt;
  }

  /** The orders, or statuses, the state holds because an answer implies them. */
  inferred(): InferredOrder[] {
    const listed = new Map((this.#listed ?? []).map((order) => [toInt64(order.id)!, order]));
    return [...this.#outcomes].flatMap(([id, { status, because }]) =>
      status === 'absent' || listed.get(id)?.status !== undefined
        ? []
        : [{ id, status, listed: listed.has(id), because }],
    );
  }

  /** The fields of listed orders a provider state could not take (unknown fields, invalid values). */
  dropped(): DroppedField[] {
    return [...this.#dropped];
  }

  #listedOrders(body: readonly JsonValue[]): OrderInput[] {
    const orders: OrderInput[] = [];
    const seen = new Set<bigint>();
    for (const entry of body) {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
      const id = toInt64(entry.id);
      if (id === undefined || seen.has(id)) {
        this.#dropped.push({ id, field: 'id', reason: id === undefined ? 'not an int64' : 'listed twice' });
        continue;
      }
      seen.add(id);
      orders.push(this.#stateOrder(id, entry));
    }
    return orders;
  }

  // The Order fields as listed (and a listed status a provider state knows), less what a provider state refuses.
  #stateOrder(id: bigint, entry: { [key: string]: JsonValue }): OrderInput {
    const order: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(entry)) {
      const known = (orderFields as string[]).includes(field) || (field === 'status' && isStateStatus(value));
      if (known) order[field] = value;
      else
        this.#dropped.push({
          id,
          field,
          reason:
            field === 'status'
              ? `${JSON.stringify(value)} is no status a provider state takes (pending, shipped)`
              : 'no field of an Order a provider state takes',
        });
    }
    for (const { path, message } of orderInputViolations([order])) {
      const field = path.split('/')[2];
      if (field === undefined || field === 'id' || !(field in order)) continue;
      delete order[field];
      this.#dropped.push({ id, field, reason: message });
    }
    order.id = id;
    return order as OrderInput;
  }
}

function isStateStatus(value: unknown): boolean {
  return value === 'pending' || value === 'shipped';
}
