// A recorded call on a path near a documented one (a HAR's, the proxy's): which route it is near, and
// the step that judges and replays it by the tolerance `near-path-refusals`.
import { isAcceptedKey, type KeyChoice } from '../../core/authorization.js';
import { nearPathStatuses } from '../../core/compare.js';
import { pathSegments, routes, routesAtPath, templateSegments, type Route } from '../../core/routes.js';
import type { ContractStep } from '../../core/scenario.js';

/** The documented route a path is near, and how it differs from it. */
export interface NearRoute {
  route: Route;
  /** What makes it near: `a trailing slash`, `a second slash`, `another case`, joined with `and`. */
  kind: string;
}

// The route table's paths in lower case: the fixed segments are lower case already, but a new one need not be.
const lowered = routes.map((route) => ({ route, segments: templateSegments(route.path.toLowerCase()) }));

/**
 * The route a path below the base URL is near, when it names none itself: the same path but for a
 * trailing slash, a slash twice, or the case of its fixed segments (what the mock answers as no
 * operation's, and exploration and scenario `near-paths-without-key` call near). Dot segments never
 * reach here: a URL's parser resolves them (`/store/./orders` is `/store/orders`), as a browser does
 * before sending.
 * @example
 * nearRouteOf('GET', '/store/orders/') // { route: <listOrders>, kind: 'a trailing slash' }
 * nearRouteOf('GET', '/store/orders') // undefined: the path of an operation
 */
export function nearRouteOf(method: string, path: string): NearRoute | undefined {
  const segments = pathSegments(path);
  if (routesAtPath(segments).length > 0) return undefined;
  const kinds: string[] = [];
  const trimmed = [...segments];
  while (trimmed.length > 1 && trimmed.at(-1) === '') trimmed.pop();
  if (trimmed.length < segments.length) kinds.push('a trailing slash');
  const joined = trimmed.filter((segment) => segment !== '');
  if (joined.length < trimmed.length) kinds.push('a second slash');
  const exactly = (part: string, index: number) => part.startsWith('{') || part === joined[index];
  const caseless = (part: string, index: number) => part.startsWith('{') || part === joined[index]!.toLowerCase();
  for (const same of [exactly, caseless]) {
    const found = lowered.find(
      ({ route, segments: template }) =>
        route.method === method && template.length === joined.length && template.every(same),
    );
    if (found !== undefined)
      return { route: found.route, kind: [...kinds, ...(same === caseless ? ['another case'] : [])].join(' and ') };
  }
  return undefined;
}

/**
 * The step that judges and replays a call on a near path without an accepted key: what the mock
 * answers there (401 without a key, 404 with one) and what the tolerance `near-path-refusals` adds, a
 * redirect or any 4xx, never a 2xx (every request requires authentication, specification §5). With an
 * accepted key, undefined: the specification says nothing of a path it does not define but its
 * authentication, so nothing there can be held against the deployment (spec gap 47).
 * @example
 * nearPathStep({ method: 'GET', path: '/store/orders/', key: 'none' })?.expect.status // [301, 302, 307, 308, 400, 401, 403, 404, 405]
 */
export function nearPathStep(call: { method: string; path: string; key: KeyChoice }): ContractStep | undefined {
  if (isAcceptedKey(call.key) || nearRouteOf(call.method, call.path) === undefined) return undefined;
  return {
    name: '',
    request: { method: call.method as Route['method'], path: call.path, key: call.key },
    expect: { status: nearPathStatuses(call.method, call.path) },
  };
}
