/**
 * `petstore-contract-kit/json`: exact JSON for int64 and `exactFetch`, safe in the browser.
 * @example
 * import { parseJson, stringifyJson } from 'petstore-contract-kit/json';
 * parseJson('[{"id":9007199254740993}]') // [{ id: 9007199254740993n }]
 * stringifyJson({ id: 9007199254740993n }) // '{"id":9007199254740993}'
 */
export { parseJson, type JsonValue } from './parse-json.js';
export { stringifyJson } from './stringify-json.js';
export { int64Maximum, int64Minimum, parseInt64 } from './int64.js';
export { exactFetch, int64AsBigint } from './exact-fetch.js';
export type { ExactOrder, WireOrder, ErrorRecord } from './records.js';
