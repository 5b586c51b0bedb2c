import type { OperationDefinition, StoreEvidence } from './definition.js';

const nothing: StoreEvidence = { kind: 'nothing' };

/**
 * `GET /store/orders`: every order that is not cancelled, documented fields only; its 200 shows the
 * store's orders as listed.
 * @example
 * listOrdersDefinition.title?.(undefined) // 'list the orders'
 */
export const listOrdersDefinition: OperationDefinition = {
  mock: ({ store }) => ({ kind: 'encoded-json', status: 200, parts: store.listBody() }),
  title: () => 'list the orders',
  evidence: ({ status, body }) => (status === 200 && Array.isArray(body) ? { kind: 'listed', orders: body } : nothing),
};
