import type { JsonValue } from '../../core/parse-json.js';

/**
 * A request's query as one text to compare, whatever wrote it: a pact's `request.query` (V3 and V4 a
 * map of name to values, V2 a string) or the query string a request came with (`?` or not). Pairs are
 * decoded and ordered by name, a name's values kept in their order: Pact's verifier sends a V4 map's
 * names in an order of its own, and `limit=2&status=placed` is the same query as `status=placed&limit=2`.
 * No query, an empty one and an empty map are all `''`.
 * @example
 * pactQueryKey({ status: ['placed'], limit: ['2'] }) // 'limit=2&status=placed'
 * pactQueryKey('?status=placed&limit=2') // 'limit=2&status=placed'
 */
export function pactQueryKey(query: JsonValue | undefined): string {
  const pairs: [string, string][] = [];
  if (typeof query === 'string') {
    for (const [name, value] of new URLSearchParams(query)) pairs.push([name, value]);
  } else if (query !== null && typeof query === 'object' && !Array.isArray(query)) {
    for (const [name, values] of Object.entries(query))
      for (const value of Array.isArray(values) ? values : [values]) pairs.push([name, String(value)]);
  }
  const ordered = pairs
    .map((pair, index) => ({ pair, index }))
    .sort((one, other) =>
      one.pair[0] < other.pair[0] ? -1 : one.pair[0] > other.pair[0] ? 1 : one.index - other.index,
    )
    .map(({ pair }) => pair);
  return new URLSearchParams(ordered).toString();
}
