/**
 * `petstore-contract-kit/openapi`: the spec's types with every int64 a `bigint`, for openapi-fetch with `exactFetch`.
 * @example
 * import type { paths, components } from 'petstore-contract-kit/openapi';
 * type Order = components['schemas']['Order']; // { id?: bigint; petId?: bigint; quantity?: number; ... }
 */
export type { components, operations, paths } from '../spec/generated/openapi-exact-types.js';

/**
 * v2's types (`spec/openapi-v2.yaml`, beta), every int64 a `bigint`: for a client created with
 * `createClient<v2Paths>({ baseUrl: '.../v2', fetch: exactFetch })`.
 * @example
 * import type { v2Paths, v2Components } from 'petstore-contract-kit/openapi';
 * type Page = v2Components['schemas']['OrderPage']; // { orders: ...; nextCursor: string | null }
 */
export type {
  components as v2Components,
  operations as v2Operations,
  paths as v2Paths,
} from '../spec/generated/openapi-v2-exact-types.js';
