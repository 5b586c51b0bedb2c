import type { OrderStatus } from '../provider-state.js';
import type { StoredOrder } from '../records.js';
import type { OperationDefinition, StoreEvidence } from './definition.js';
import { documentedOrder } from './one-order.js';
import { cursorAfter, readCursor } from './order-cursor.js';

const nothing: StoreEvidence = { kind: 'nothing' };

/**
 * `GET /v2/store/orders` (beta): the store's orders in ascending order of id, cancelled ones included,
 * each with its status; `status` keeps one status, `limit` (1 to 100, 20 by default: the route table
 * gives it) bounds a page, `cursor` (a page's `nextCursor`) starts after the last id that page gave.
 * A cursor the mock did not write for this filter is the 400 `invalid_cursor`. A page shows part of
 * the store, so its answer proves nothing of the whole (spec gap 51).
 * @example
 * listOrdersV2Definition.title?.(undefined) // 'list a page of the orders'
 */
export const listOrdersV2Definition: OperationDefinition = {
  mock({ store, parameters }) {
    const { status, limit, cursor } = parameters.query as { status?: OrderStatus; limit: number; cursor?: string };
    const after = cursor === undefined ? undefined : readCursor(cursor, status);
    if (cursor !== undefined && after === undefined)
      return {
        kind: 'refused',
        code: 'invalid_cursor',
        message: `The cursor ${JSON.stringify(cursor)} is not one this server gave for ${status === undefined ? 'the unfiltered list' : `status ${status}`}.`,
      };
    // The limit + 1 first orders after the cursor, found by the store's index: a page reads the orders it
    // shows and the ones its filter skips, not the store (bench/RESULTS.md, "v2's list in a big store").
    const kept: Readonly<StoredOrder>[] = [];
    store.eachOrderById({ after, status }, (order) => kept.push(order) <= limit);
    const page = kept.slice(0, limit);
    const last = page.at(-1);
    return {
      kind: 'json',
      status: 200,
      body: {
        orders: page.map((order) => ({ ...documentedOrder(order), status: order.status })),
        nextCursor: kept.length > limit && last !== undefined ? cursorAfter(last.id, status) : null,
      },
    };
  },
  title: () => 'list a page of the orders',
  evidence: () => nothing,
};
