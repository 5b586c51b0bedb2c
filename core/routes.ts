import { routes } from '../spec/generated/contract.js';

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

/**
 * A path template split into its segments: literal text, or `{name}` for a parameter.
 * @example
 * templateSegments('/store/orders/{orderId}') // ['store', 'orders', '{orderId}']
 */
export function templateSegments(template: string): readonly string[] {
  return template.split('/').slice(1);
}

/**
 * The segments of a path (a query or fragment is ignored), to match against templates.
 * @example
 * pathSegments('/store/orders/3?x=1') // ['store', 'orders', '3']
 */
export function pathSegments(path: string): readonly string[] {
  const query = path.search(/[?#]/);
  return (query === -1 ? path : path.slice(0, query)).split('/').slice(1);
}

/**
 * Whether a path's segments fit a template's: literal segments equal (case-sensitive, RFC 3986), a
 * parameter one non-empty segment. Returns the parameter's text as it stands (not decoded), `''`
 * for a template without one, or undefined when the path does not fit.
 * @example
 * matchSegments(['store', 'orders', '{orderId}'], ['store', 'orders', '3']) // '3'
 * matchSegments(['store', 'orders'], ['store', 'orders']) // ''
 */
export function matchSegments(template: readonly string[], segments: readonly string[]): string | undefined {
  if (template.length !== segments.length) return undefined;
  let parameter = '';
  for (let index = 0; index < template.length; index++) {
    const part = template[index]!;
    const segment = segments[index]!;
    if (part.startsWith('{')) {
      if (segment === '') return undefined;
      parameter = segment;
    } else if (part !== segment) return undefined;
  }
  return parameter;
}

const templates = routes.map((route) => ({ route, segments: templateSegments(route.path) }));

/**
 * The routes whose path template a path fits, whatever their method (the methods a 405 allows), each
 * with its parameter's text as it stands in the path (`''` for a route without one).
 * @example
 * routesAtPath(pathSegments('/store/orders/3')) // [{ route: <cancelOrder>, parameter: '3' }]
 */
export function routesAtPath(segments: readonly string[]): { route: Route; parameter: string }[] {
  const matches: { route: Route; parameter: string }[] = [];
  for (const template of templates) {
    const parameter = matchSegments(template.segments, segments);
    if (parameter !== undefined) matches.push({ route: template.route, parameter });
  }
  return matches;
}

/**
 * The operation a request is for, by its method and its path below the base URL (a query is ignored),
 * or undefined when it is none. A path parameter matches one non-empty segment.
 * @example
 * matchRoute('DELETE', '/store/orders/3') // { route: <cancelOrder>, parameter: '3' }
 * matchRoute('POST', '/store/orders') // undefined
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const segments = pathSegments(path);
  for (const { route, segments: template } of templates) {
    if (route.method !== method) continue;
    const parameter = matchSegments(template, segments);
    if (parameter === undefined) continue;
    return route.parameter === null ? { route } : { route, parameter };
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
