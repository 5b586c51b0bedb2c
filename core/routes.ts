import { routes, v2Routes } from '../spec/generated/contract.js';

export { routes, v2Routes };

/**
 * One operation of the interface, generated from `spec/openapi.yaml` (v1, `routes`) or
 * `spec/openapi-v2.yaml` (v2, `v2Routes`); `base` says which major's base path it is below.
 * @example
 * const cancel: Route = routeOf('cancelOrder');
 */
export type Route = (typeof routes)[number] | (typeof v2Routes)[number];

/**
 * Every operation of both majors, v1's first: what the mock serves. The harness's walkers read
 * `routes` (v1's) until they judge v2, and name v2's operations as not verified (`unjudgedRoutes`).
 * @example
 * majorRoutes.map((route) => `${route.base}${route.path}`) // ['/v1/store/orders', ..., '/v2/store/orders']
 */
export const majorRoutes: readonly Route[] = [...routes, ...v2Routes];

/**
 * The base paths of the majors, in the order of the document's versions: `/v1`, `/v2`.
 * @example
 * basePaths // ['/v1', '/v2']
 */
export const basePaths: readonly string[] = [...new Set(majorRoutes.map((route) => route.base))];

/**
 * A path as pacts, the guard and the model write it (v1's below its base path, another major's with
 * its base: `/v2/store/orders`) split into its major's base and the path below it.
 * @example
 * majorOf('/v2/store/orders') // { base: '/v2', path: '/store/orders' }
 * majorOf('/store/orders/3') // { base: '/v1', path: '/store/orders/3' }
 */
export function majorOf(path: string): { base: string; path: string } {
  for (const base of basePaths)
    if (base !== '/v1' && path.startsWith(`${base}/`)) return { base, path: path.slice(base.length) };
  return { base: '/v1', path };
}

/**
 * The spec's operationId, or the kit's own name where the spec gives none (`readPet`).
 * @example
 * const name: OperationName = 'cancelOrder';
 */
export type OperationName = Route['operation'];

export type DocumentedResponse = Route['responses'][number];

/**
 * Every operation the mock serves, both majors (v1's first): what the journal's filters, faults and the
 * control plane take.
 * @example operationNames // ['listOrders', 'cancelOrder', 'readPet', 'listOrdersV2']
 */
export const operationNames: readonly OperationName[] = majorRoutes.map((route) => route.operation);

/** @example routeOf('cancelOrder').path // '/store/orders/{orderId}' */
export function routeOf(operation: OperationName): Route {
  return majorRoutes.find((route) => route.operation === operation)!;
}

export interface RouteMatch {
  route: Route;
  /** As it stands in the path, not decoded. */
  parameter?: string;
}

export function templateSegments(template: string): readonly string[] {
  return template.split('/').slice(1);
}

export function pathSegments(path: string): readonly string[] {
  let end = path.indexOf('?');
  const fragment = path.indexOf('#');
  if (fragment !== -1 && (end === -1 || fragment < end)) end = fragment;
  const segments = (end === -1 ? path : path.slice(0, end)).split('/');
  segments.shift();
  return segments;
}

/** The parameter's text (not decoded), `''` for a template without one, or undefined for no fit. */
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

const templates = majorRoutes.map((route) => ({ route, segments: templateSegments(route.path) }));

/**
 * The routes at a path below a major's base path (`/v1` unless given), whatever their method: what a
 * 405 lists as allowed.
 * @example
 * routesAtPath(pathSegments('/store/orders'), '/v2').map(({ route }) => route.operation) // ['listOrdersV2']
 */
export function routesAtPath(segments: readonly string[], base = '/v1'): { route: Route; parameter: string }[] {
  const matches: { route: Route; parameter: string }[] = [];
  for (const template of templates) {
    if (template.route.base !== base) continue;
    const parameter = matchSegments(template.segments, segments);
    if (parameter !== undefined) matches.push({ route: template.route, parameter });
  }
  return matches;
}

/**
 * The operation a request is for, by its method and its path below a major's base path (`/v1` unless given).
 * @example
 * matchRoute('DELETE', '/store/orders/3') // { route: <cancelOrder>, parameter: '3' }
 * matchRoute('GET', '/store/orders', '/v2') // { route: <listOrdersV2> }
 * matchRoute('POST', '/store/orders') // undefined
 */
export function matchRoute(method: string, path: string, base = '/v1'): RouteMatch | undefined {
  const segments = pathSegments(path);
  for (const { route, segments: template } of templates) {
    if (route.method !== method || route.base !== base) continue;
    const parameter = matchSegments(template, segments);
    if (parameter === undefined) continue;
    return route.parameter === null ? { route } : { route, parameter };
  }
  return undefined;
}

export function operationOf(method: string, path: string): OperationName | undefined {
  return matchRoute(method, path)?.route.operation;
}

export function pathOf(route: Route, parameter?: string | number | bigint): string {
  if (route.parameter === null) return route.path;
  return route.path.replace(`{${route.parameter.name}}`, encodeURIComponent(String(parameter ?? '')));
}

export function documentedResponse(route: Route, status: number): DocumentedResponse | undefined {
  return route.responses.find((response) => response.status === status);
}

const componentReference = '#/components/schemas/';

/**
 * The name a documented response's body schema goes by in a scenario step (`Order[]`, `Error`, `Pet`),
 * read from the document's schema: a component reference, or an array of one; undefined for none.
 * @example
 * schemaNameOf(documentedResponse(routeOf('listOrders'), 200)!) // 'Order[]'
 */
export function schemaNameOf(response: DocumentedResponse): string | undefined {
  const schema = response.schema as { $ref?: unknown; type?: unknown; items?: { $ref?: unknown } } | null;
  if (schema === null) return undefined;
  const named = (reference: unknown) =>
    typeof reference === 'string' && reference.startsWith(componentReference)
      ? reference.slice(componentReference.length)
      : undefined;
  if (schema.type === 'array') {
    const item = named(schema.items?.$ref);
    return item === undefined ? undefined : `${item}[]`;
  }
  return named(schema.$ref);
}

/**
 * The operation that lists the store: the one without a path parameter whose 200 is a list of Orders.
 * The harness reads it after a call that may change the store, and the preflight calls it first;
 * the route table decides which operation it is, so a renamed or moved list needs no edit here.
 * @example
 * storeListing().path // '/store/orders'
 */
export function storeListing(): Route {
  const listing = routes.find((route) => {
    const listed = documentedResponse(route, 200);
    return route.parameter === null && listed !== undefined && schemaNameOf(listed) === 'Order[]';
  });
  // The document is the kit's own and checked by its tests: a document without a list is a build error.
  if (listing === undefined) throw new Error('the document has no operation that lists the Orders');
  return listing;
}

// RFC 9110, 9.2.1: the methods a client asks no change of state with.
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Whether a call is of a documented operation whose method may change the store (any method RFC 9110
 * does not call safe): the harness reads the store's list after it.
 * @example
 * mayChangeTheStore('DELETE', '/store/orders/3') // true
 * mayChangeTheStore('GET', '/store/orders') // false
 */
export function mayChangeTheStore(method: string, path: string): boolean {
  return !isSafeMethod(method) && matchRoute(method, path) !== undefined;
}

/**
 * Whether RFC 9110 calls a method safe (9.2.1): a call with it asks for no change of state, so two
 * equal answers to it in a row show that nothing changed between them.
 * @example
 * isSafeMethod('GET') // true
 * isSafeMethod('DELETE') // false
 */
export function isSafeMethod(method: string): boolean {
  return safeMethods.has(method);
}
