// The judge of a pact's interaction: the specification, and the model seeded with the interaction's
// provider state. The model is a mock of the kit's (mocks/pipeline/interface-model.ts), which is
// made above this room: it is given, so that the pact room never imports the mock that writes pacts.
import type { KeyChoice } from '../../core/authorization.js';
import type { ObservedResponse } from '../../core/checks.js';
import { ProviderHistory, type ModelAnswer } from '../../core/compare.js';
import type { Finding } from '../../core/finding.js';
import { judgeCall } from '../../core/judge.js';
import { sendsCursor } from '../../core/page-findings.js';
import { majorOf } from '../../core/routes.js';
import type { StoredOrder } from '../store/order-seed.js';

/** A pact's interaction as the judge sees it: the call, the orders its provider state holds, and the answer it expects. */
export interface InteractionToJudge {
  method: string;
  /** The path below v1's base path (`/store/orders`), or with another major's base (`/v2/store/orders`). */
  path: string;
  /** The query string as sent, without its `?`, if there is one: the model answers the call with it. */
  query?: string | undefined;
  key: KeyChoice;
  /** The orders of its provider state; undefined when it sets none (then only the specification judges it). */
  orders: readonly unknown[] | undefined;
  response: ObservedResponse;
}

/** What the judge asks of the model: its store, and its answer to the interaction's call. */
export interface JudgingModel {
  orders(): Promise<StoredOrder[]>;
  call(method: string, path: string, key: KeyChoice | undefined): Promise<ModelAnswer | undefined>;
}

/** The judge a pact is written with: `judgeInteraction` (mocks/pipeline/judge-interaction.ts) in the kit. */
export type InteractionJudge = (interaction: InteractionToJudge) => Promise<Finding[]>;

/**
 * What the one judge finds in an interaction of a pact: its answer against the specification, and,
 * where it sets the orders of its provider state, against the model seeded with them. A consumer's
 * pact is judged by it before it is written (`mock.pact()`) and before a provider is held to it
 * (`petstore-verify --pact`). The model is
 * seeded by the caller (`seeded`): the kit's mock makes it, and the pact room makes no mock.
 * @example
 * await judgeWithModel({ method: 'DELETE', path: '/store/orders/1', key: 'valid', orders: [{ id: 1, status: 'pending' }], response: { status: 409, headers: new Headers(), text: '' } }, (orders) => InterfaceModel.seeded(orders))
 * // [{ code: 'status-unexpected', path: 'status', expected: 'status 204', actual: 'status 409' }]
 */
export async function judgeWithModel(
  interaction: InteractionToJudge,
  seeded: (orders: readonly unknown[]) => Promise<JudgingModel>,
): Promise<Finding[]> {
  // Each major's call against its own document: v2's page is no v1 call (which would find nothing).
  const call = { method: interaction.method, ...majorOf(interaction.path), query: interaction.query ?? '' };
  const observed = interaction.response;
  // Orders the model cannot hold are no state it can judge in: the specification's check says why. A
  // cursor is the provider's to write (spec gap 54): what follows it is no state's, so the document alone judges it.
  const model =
    interaction.orders === undefined || sendsCursor(interaction.query)
      ? undefined
      : await seeded(interaction.orders).catch(() => undefined);
  if (model === undefined) return judgeCall({ call, observed }).findings;
  const before = await model.orders();
  const query = interaction.query === undefined ? '' : `?${interaction.query}`;
  const answer = await model.call(call.method, `${interaction.path}${query}`, interaction.key);
  const after = await model.orders();
  return judgeCall({
    call,
    observed,
    ...(answer !== undefined && { model: { answer, before, after, history: new ProviderHistory() } }),
  }).findings;
}
