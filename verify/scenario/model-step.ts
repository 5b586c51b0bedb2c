// A model's answer to a call as the scenario step that replays it: what exploration saves and the proxy records.
import type { KeyChoice } from '../../core/authorization.js';
import type { StoredOrder } from '../../mocks/store/order-store.js';
import type { BodySchemaName, ContractStep } from '../../core/scenario.js';
import { documentedResponse, routeOf, schemaNameOf, type OperationName, type Route } from '../../core/routes.js';
import { acceptedStatuses } from '../../core/compare.js';
import type { ModelAnswer } from '../../core/compare.js';

/**
 * The body a step expects for an operation's status: none for a 204, the documented schema (by the
 * name the document gives it), or an Error record that may be absent where the specification shows
 * no body (the 409).
 */
export function bodySchemaOf(operation: OperationName, status: number): ContractStep['expect']['body'] {
  const documented = documentedResponse(routeOf(operation), status);
  if (status === 204) return 'none';
  if (documented === undefined) return undefined;
  if (documented.schema === null) return { schema: 'Error', optional: true };
  return { schema: (schemaNameOf(documented) ?? 'Error') as BodySchemaName };
}

/** The scenario step that replays a call: its request, and what the model answered (with the tolerances). */
export function stepOf(
  call: { method: string; path: string; key: KeyChoice },
  answer: ModelAnswer,
  before: StoredOrder[],
  after: StoredOrder[],
): ContractStep {
  const statuses = acceptedStatuses(answer, before, call.path);
  const body = bodySchemaOf(answer.operation, answer.status);
  const expect: ContractStep['expect'] = {
    status: statuses.length === 1 ? statuses[0]! : statuses,
    ...(body !== undefined && { body }),
  };
  const documented = documentedResponse(routeOf(answer.operation), answer.status);
  // A response documented as a list of orders is expected to list what the model's store holds.
  if (documented !== undefined && schemaNameOf(documented) === 'Order[]') {
    expect.listed = after.filter((order) => order.status !== 'cancelled').map((order) => order.id);
    const cancelled = after.filter((order) => order.status === 'cancelled').map((order) => order.id);
    if (cancelled.length > 0) expect.advisory = { notListed: cancelled };
  }
  // The headers the document names for the response (the deprecated pet read's Deprecation and Sunset).
  const headers = documented?.headers ?? [];
  if (headers.length > 0) expect.headers = [...headers];
  return {
    name: '',
    request: {
      method: call.method as Route['method'],
      path: call.path,
      ...(call.key !== 'valid' && { key: call.key }),
    },
    expect,
  };
}
