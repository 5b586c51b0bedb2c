/**
 * `petstore-contract-kit/openapi`: the spec's types with every int64 a `bigint`, for openapi-fetch with `exactFetch`.
 * @example
 * import type { paths, components } from 'petstore-contract-kit/openapi';
 * type Order = components['schemas']['Order']; // { id?: bigint; petId?: bigint; quantity?: number; ... }
 */
export type { components, operations, paths } from '../spec/generated/openapi-exact-types.js';
