import { pathSegments, routesAtPath, type OperationName, type Route } from '../../core/routes.js';
import { MockError } from '../base/errors.js';
import type { Reply } from '../base/reply.js';

// How the pipeline answers a path and a method before any operation: which methods a path allows
// (GET brings HEAD, and OPTIONS is always allowed), the 405 and the 204 to OPTIONS, and whether a path decodes.

const methodsWithGet = (methods: readonly string[]) => (methods.includes('GET') ? [...methods, 'HEAD'] : [...methods]);

/**
 * Whether a path's percent-encoding is valid UTF-8.
 * @example
 * decodable('/store/orders/%E2%82%AC') // true
 * decodable('/store/orders/%FF') // false
 */
export function decodable(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Why a path that does not decode names no resource. */
export const notDecodable = 'the path is not valid percent-encoded UTF-8';

// Browser-safe: the mock's pipeline runs in a service worker too, where no Buffer is.
function encodedLength(body: Reply['body']): number {
  if (body === null) return 0;
  if (typeof body === 'string') return new TextEncoder().encode(body).byteLength;
  return body.reduce((total, part) => total + part.byteLength, 0);
}

/**
 * The answer to HEAD: what GET would answer, without the content, with the same Content-Length
 * (RFC 9110 §9.3.2, §8.6).
 * @example
 * headReply({ status: 200, headers: {}, body: '[]' }) // { status: 200, headers: { 'content-length': '2' }, body: null }
 */
export function headReply(reply: Reply): Reply {
  return {
    status: reply.status,
    headers: { ...reply.headers, 'content-length': String(encodedLength(reply.body)) },
    body: null,
  };
}

/**
 * The 204 answer to OPTIONS, with the methods the path allows.
 * @example
 * options204('GET, HEAD, OPTIONS') // { status: 204, headers: { allow: 'GET, HEAD, OPTIONS' }, body: null }
 */
export function options204(allow: string): Reply {
  return { status: 204, headers: { allow }, body: null };
}

/**
 * The 405 for a method a path does not allow, naming the ones it does.
 * @example
 * methodNotAllowed('PUT', '/v1/store/orders', ['GET', 'HEAD'], 'GET, HEAD, OPTIONS').status // 405
 */
export function methodNotAllowed(
  method: string,
  pathname: string,
  methods: readonly string[],
  allow: string,
): MockError {
  return new MockError(
    'method_not_allowed',
    `Method ${method} is not allowed on ${pathname}: use ${methods.join(' or ')}.`,
    {
      headers: { allow },
    },
  );
}

/**
 * The methods a path allows, given its routes' methods: GET brings HEAD; `allow` adds OPTIONS.
 * @example
 * allowedMethods(['GET']) // { methods: ['GET', 'HEAD'], allow: 'GET, HEAD, OPTIONS' }
 */
export function allowedMethods(methods: readonly string[]): { methods: string[]; allow: string } {
  const allowed = methodsWithGet(methods);
  return { methods: allowed, allow: [...allowed, 'OPTIONS'].join(', ') };
}

/**
 * The candidate whose route has this method.
 * @example
 * routeFor(routesAtPath(['store', 'orders', '3']), 'DELETE')?.route.operation // 'cancelOrder'
 */
export function routeFor<Match extends { route: Route }>(
  candidates: readonly Match[],
  method: string,
): Match | undefined {
  for (const candidate of candidates) if (candidate.route.method === method) return candidate;
  return undefined;
}

/**
 * The operation of a method and a path below the base URL, or null.
 * @example
 * operationAt('DELETE', '/store/orders/3') // 'cancelOrder'
 */
export function operationAt(method: string, path: string): OperationName | null {
  return routesAtPath(pathSegments(path)).find(({ route }) => route.method === method)?.route.operation ?? null;
}
