import type { Finding } from '../../core/finding.js';
import { judgeWithModel, type InteractionToJudge } from '../pact/interaction-judge.js';
import { InterfaceModel } from './interface-model.js';

/**
 * What the one judge finds in an interaction of a pact: its answer against the specification, and,
 * where it sets the orders of its provider state, against the kit's mock seeded with them
 * (`InterfaceModel`). A consumer's pact is judged by it before it is written (`mock.pact()`) and
 * before a provider is held to it (`petstore-verify --pact`).
 * @example
 * await judgeInteraction({ method: 'DELETE', path: '/store/orders/1', key: 'valid', orders: [{ id: 1, status: 'pending' }], response: { status: 409, headers: new Headers(), text: '' } })
 * // [{ code: 'status-unexpected', path: 'status', expected: 'status 204', actual: 'status 409' }]
 */
export function judgeInteraction(interaction: InteractionToJudge): Promise<Finding[]> {
  return judgeWithModel(interaction, (orders) => InterfaceModel.seeded(orders));
}
