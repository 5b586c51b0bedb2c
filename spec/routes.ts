import { routes } from './generated/contract.js';

export { routes };

/**
 * One operation of the interface as the route table holds it, generated from `spec/openapi.yaml`:
 * `operation` (its name), `method`, `path` (a template below the base URL), `parameter` (the one path
 * parameter, or null), `deprecated`, and `responses` (each documented `status`, its JSON `schema` or
 * null when no body is documented, and the `headers` it documents).
 */
export type Route = (typeof routes)[number];

/**
 * The name of an operation: the spec's operationId, or the kit's where the spec gives none (`readPet`).
 * @example
 * const name: OperationName = 'cancelOrder';
 */
export type OperationName = Route['operation'];

/** A documented response of an operation. */
export type DocumentedResponse = Route['responses'][number];

/**
 * Every operation's name, in the document's order.
 * @example
 * operationNames // ['listOrders', 'cancelOrder', 'readPet']
 */
export const operationNames: readonly OperationName[] = routes.map((route) => route.operation);

/**
 * The route of an operation, by name.
 * @example
 * routeOf('cancelOrder').path // '/store/orders/{orderId}'
 */
export function routeOf(operation: OperationName): Route {
  return routes.find((route) => route.operation === operation)!;
}

/** A request matched to the route table: the route, and the path parameter's text when the route has one. */
export interface RouteMatch {
  route: Route;
  /** The path parameter as it stands in the path (not decoded), or undefined for a route without one. */
  parameter?: string;
}

const templates = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));

/**
 * The operation a request is for, by its method and its path below the base URL (a query is ignored),
 * or undefined when it is none. A path parameter matches one non-empty segment.
 * @example
 * matchRoute('DELETE', '/store/orders/3') // { route: <cancelOrder>, parameter: '3' }
 * matchRoute('POST', '/store/orders') // undefined
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const query = path.search(/[?#]/);
  const segments = (query === -1 ? path : path.slice(0, query)).split('/');
  // segments[0] is the empty string before the leading slash.
  for (const { route, segments: template } of templates) {
    if (route.method !== method || template.length !== segments.length - 1) continue;
    let parameter: string | undefined;
    let index = 0;
    for (; index < template.length; index++) {
      const part = template[index]!;
      const segment = segments[index + 1]!;
      if (part.startsWith('{')) {
        if (segment === '') break;
        parameter = segment;
      } else if (part !== segment) break;
    }
    if (index === template.length) return parameter === undefined ? { route } : { route, parameter };
  }
  return undefined;
}

/**
 * The name of the operation a request is for, or undefined.
 * @example
 * operationOf('DELETE', '/store/orders/3') // 'cancelOrder'
 */
export function operationOf(method: string, path: string): OperationName | undefined {
  return matchRoute(method, path)?.route.operation;
}

/**
 * The path of a call of an operation, its parameter filled in (percent-encoded).
 * @example
 * pathOf(routeOf('cancelOrder'), 9007199254740993n) // '/store/orders/9007199254740993'
 */
export function pathOf(route: Route, parameter?: string | number | bigint): string {
  if (route.parameter === null) return route.path;
  return route.path.replace(`{${route.parameter.name}}`, encodeURIComponent(String(parameter ?? '')));
}

/**
 * The documented response of an operation with this status, or undefined when the status is undocumented.
 * @example
 * documentedResponse(routeOf('cancelOrder'), 409) // { status: 409, schema: null, headers: [] }
 */
export function documentedResponse(route: Route, status: number): DocumentedResponse | undefined {
  return route.responses.find((response) => response.status === status);
}
