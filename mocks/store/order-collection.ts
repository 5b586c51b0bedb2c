// The store's records as @msw/data holds them: the types the store and its position hint share, apart
// so that the hint (order-positions.ts) needs nothing of the store itself.
import type { Collection } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { OrderInput } from '../../core/provider-state.js';
import type { StoredOrder } from './order-seed.js';

/** The Standard Schema of the store's records. */
export type OrderSchema = StandardSchemaV1<OrderInput, StoredOrder>;

/** A store's orders as an `@msw/data` collection (`await mock.collection()`). */
export type OrderCollection = Collection<OrderSchema>;

/** One record of an `OrderCollection`. */
export type OrderRecord = ReturnType<OrderCollection['all']>[number];
