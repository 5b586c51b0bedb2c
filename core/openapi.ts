/**
 * `petstore-contract-kit/openapi`: the types openapi-typescript generates from `spec/openapi.yaml`,
 * with every int64 a `bigint` (the order `id` and `petId`, the `orderId` parameter), for
 * openapi-fetch's `createClient<paths>()` with `exactFetch`. Types only.
 * @example
 * import type { paths, components } from 'petstore-contract-kit/openapi';
 *
 * type Order = components['schemas']['Order']; // { id?: bigint; petId?: bigint; quantity?: number; ... }
 */
export type { components, operations, paths } from '../spec/generated/openapi-exact-types.js';
