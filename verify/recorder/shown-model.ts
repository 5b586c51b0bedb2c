import { isAcceptedKey } from '../../core/authorization.js';
import { jsonBody, type Finding, type ObservedResponse } from '../../core/checks.js';
import { cancelledOrderId, type ProviderHistory } from '../../core/compare.js';
import { toInt64 } from '../../core/int64.js';
import type { OrderInput } from '../../core/provider-state.js';
import { isSafeMethod, pathSegments, templateSegments } from '../../core/routes.js';
import type { StoredOrder } from '../../mocks/store/order-store.js';
import { InterfaceModel } from '../../mocks/pipeline/interface-model.js';
import { nearRouteOf } from '../scenario/near-path-step.js';
import type { RecordableCall } from './recorded-call.js';

/**
 * The store as the deployment showed it, once one of its answers left the contract's model: the calls
 * after that answer are judged against what the deployment showed, so one cause is one finding, on the
 * step that caused it (spec gap 47). The contract's model goes on beside it: the saved file's steps
 * expect what the contract requires from the saved state, which is what an honest provider answers on
 * replay. What an answer shows: a list whose whole body is held, the orders it lists that the model did
 * not hold (they exist, pending unless a later answer says otherwise) and those it leaves out (gone); a
 * DELETE answered 2xx on a near path without a key, a cancel that may have been applied, decided by the
 * next answer about that order (a list that holds it or not, a cancel answered 204 or not), as an aborted
 * cancel is by the race rules.
 * @example
 * const shown = await ShownModel.after(model, call, { found, history }); // undefined while the answers showed nothing the model lacks
 * await shown?.model.call('DELETE', '/store/orders/9', 'valid'); // 204 for the order a list showed
 */
export class ShownModel {
  /** The model seeded with what the deployment showed, answering the calls after it. */
  readonly model: InterfaceModel;
  /**
   * Orders cancelled in the model that an answer may show were not: `near`, a near DELETE answered 2xx
   * (the next list or cancel of it decides); `gone`, a list left it out (a cancel answered 204 shows it
   * was there, as when that cancel ran at once with the list; listed again, it came back: order-relisted).
   */
  readonly #undecided: Map<bigint, 'near' | 'gone'>;

  private constructor(model: InterfaceModel, undecided: Map<bigint, 'near' | 'gone'>) {
    this.model = model;
    this.#undecided = undecided;
  }

  /**
   * What the deployment showed after `call`, judged with `found`: this shown store (or, when none yet, the
   * contract model's, which the call has changed already) with what the answer shows; undefined when it
   * shows nothing the store does not hold and there is no shown store yet.
   */
  static async after(
    current: ShownModel | InterfaceModel,
    call: RecordableCall,
    { found, history }: { found: readonly Finding[]; history: ProviderHistory },
  ): Promise<ShownModel | undefined> {
    const shown = current instanceof ShownModel ? current : undefined;
    // A v2 page shows nothing the shown store takes in yet (spec gap 62).
    if (call.v2 !== undefined) return shown;
    const appeared = listedUnknown(call, found);
    const nearCancel = nearCancelled(call);
    const gone = found.some(({ code }) => code === 'order-listed');
    const listed = (shown !== undefined && shown.#undecided.size > 0) || gone ? listedIds(call) : undefined;
    if (appeared.length === 0 && nearCancel === undefined && listed === undefined) return shown;
    // Read only when the answer shows something: a copy of thousands of orders.
    const stored = await (shown?.model ?? (current as InterfaceModel)).orders();
    const next =
      shown !== undefined && appeared.length === 0
        ? shown
        : new ShownModel(
            await InterfaceModel.seeded([...stored.map(seedOf), ...appeared.map((id) => ({ id }))]),
            new Map(shown === undefined ? [] : shown.#undecided),
          );
    if (listed !== undefined) {
      // A list whose whole body is held decides what a near DELETE did: listed, the order was not cancelled.
      for (const [id, why] of next.#undecided) {
        if (why !== 'near') continue;
        next.#undecided.delete(id);
        if (listed.has(id)) await next.model.setStatus(id, 'pending');
      }
      // An order it left out is gone (cancelled by a call the HAR does not hold, or one in flight).
      for (const order of stored)
        if (gone && order.status !== 'cancelled' && !listed.has(order.id)) {
          await next.#mayBeCancelled(order.id, 'gone');
          history.left.add(order.id);
        }
    }
    if (nearCancel !== undefined && stored.some((order) => order.id === nearCancel && order.status !== 'cancelled'))
      await next.#mayBeCancelled(nearCancel, 'near');
    return next;
  }

  async #mayBeCancelled(id: bigint, why: 'near' | 'gone'): Promise<void> {
    await this.model.setStatus(id, 'cancelled');
    this.#undecided.set(id, why);
  }

  /**
   * Before the model answers `call`: a cancel with an accepted key of an order a near DELETE may have
   * cancelled decides it (a 204 shows it was still pending).
   */
  async before(call: RecordableCall): Promise<void> {
    const id = isAcceptedKey(call.key) ? cancelledOrderId(call.method, call.path) : undefined;
    if (id === undefined || !this.#undecided.delete(id)) return;
    if (call.exchange.status === 204) await this.model.setStatus(id, 'pending');
  }
}

// The ids of a list's whole body, or undefined for a call that is no list answered with one.
function listedIds(call: RecordableCall): Set<bigint> | undefined {
  const observed: ObservedResponse | undefined = call.exchange.observed;
  if (call.near !== undefined || !isSafeMethod(call.method) || observed === undefined || observed.bodyUnknown === true)
    return undefined;
  const body = jsonBody(observed);
  if (!Array.isArray(body)) return undefined;
  return new Set(
    body.flatMap((entry) => {
      const id = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? toInt64(entry.id) : undefined;
      return id === undefined ? [] : [id];
    }),
  );
}

// The orders a list showed that the model did not hold (its findings `order-unknown`).
function listedUnknown(call: RecordableCall, found: readonly Finding[]): bigint[] {
  if (!found.some(({ code }) => code === 'order-unknown')) return [];
  const body = call.exchange.observed === undefined ? undefined : jsonBody(call.exchange.observed);
  if (!Array.isArray(body)) return [];
  return found.flatMap(({ code, path }) => {
    const entry = code === 'order-unknown' ? body[Number(path.split('/')[1])] : undefined;
    const id =
      entry !== undefined && entry !== null && typeof entry === 'object' && !Array.isArray(entry)
        ? toInt64(entry.id)
        : undefined;
    return id === undefined ? [] : [id];
  });
}

// The order a DELETE on a path near the cancel's names, when the deployment answered it 2xx (it may have cancelled it).
function nearCancelled(call: RecordableCall): bigint | undefined {
  const { status } = call.exchange;
  if (call.near === undefined || status < 200 || status > 299) return undefined;
  const near = nearRouteOf(call.method, call.path);
  if (near === undefined) return undefined;
  const template = templateSegments(near.route.path);
  const index = template.findIndex((segment) => segment.startsWith('{'));
  const segment = pathSegments(call.path).filter((part) => part !== '')[index];
  if (index === -1 || segment === undefined) return undefined;
  return cancelledOrderId(near.route.method, near.route.path.replace(/\{[^}]+\}/, segment));
}

// A stored order as a seed takes it: its fields that are set, and its status.
function seedOf(order: StoredOrder): OrderInput {
  return Object.fromEntries(Object.entries(order).filter(([, value]) => value !== undefined)) as OrderInput;
}
