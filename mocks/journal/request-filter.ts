import { operationNames } from '../../core/routes.js';
import { MockOptionError } from '../base/errors.js';
import type { OperationName } from '../../core/routes.js';

/**
 * Which calls to pick out of a journal: every field given must match.
 * @example
 * mock.requests({ operation: 'cancelOrder', status: 204 })
 * mock.requests({ method: 'DELETE', path: /^\/v1\/store\/orders\/3$/ })
 */
export interface RequestFilter {
  operation?: OperationName | null;
  status?: number | 'network';
  method?: string;
  path?: string | RegExp;
}

const filterFields = ['operation', 'status', 'method', 'path'];

const shown = (value: unknown): string =>
  value instanceof RegExp || typeof value === 'bigint' ? String(value) : (JSON.stringify(value) ?? String(value));

// What is wrong with one field of a filter, or undefined when it is one the journal can match.
function fieldProblem(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (name === 'operation' && value !== null && !operationNames.includes(value as never))
    return `operation must be one of ${operationNames.join(', ')} or null (calls that are no operation), not ${shown(value)}`;
  if (
    name === 'status' &&
    value !== 'network' &&
    !(Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599)
  )
    return `status must be an HTTP status (100 to 599) or 'network', not ${shown(value)}`;
  if (name === 'method' && typeof value !== 'string') return `method must be a string, not ${shown(value)}`;
  if (name === 'path' && typeof value !== 'string' && !(value instanceof RegExp))
    return `path must be a string or a RegExp, not ${shown(value)}`;
  return undefined;
}

/**
 * A filter of the journal (`mock.requests(filter)`, a pact's `filter`), checked: undefined is every
 * call; anything but an object of the known fields, each of its type, throws `MockOptionError`
 * (`invalid_option`) naming what is wrong, where a raw `TypeError` would otherwise come from deep inside.
 * @example
 * checkedFilter({ operation: 'cancelOrder', status: 409 }, 'mock.requests()') // the same filter
 * checkedFilter(null, 'mock.requests()') // throws invalid_option: "mock.requests(): the filter must be an object ..."
 */
export function checkedFilter(filter: unknown, where: string): RequestFilter {
  if (filter === undefined) return {};
  const refused = (problem: string) => new MockOptionError('invalid_option', `${where}: ${problem}`);
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter) || filter instanceof RegExp)
    throw refused(
      `the filter must be an object such as { operation: 'cancelOrder', status: 409 }, or left out, not ${shown(filter)}`,
    );
  for (const [name, value] of Object.entries(filter)) {
    if (!filterFields.includes(name))
      throw refused(`the filter has no field ${JSON.stringify(name)}; its fields are ${filterFields.join(', ')}`);
    const problem = fieldProblem(name, value);
    if (problem !== undefined) throw refused(`the filter's ${problem}`);
  }
  return filter as RequestFilter;
}
