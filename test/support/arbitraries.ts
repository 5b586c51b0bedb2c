// Requests to generate, shared by the fuzz test and the differential test of the adapters (fast-check arbitraries):
// wild ones (any method on any path, with any headers and body) and client-like calls of the route
// table's operations on the orders the store holds, so the store invariants are exercised often.
import fc from 'fast-check';
import { parseJson } from '../../core/parse-json.js';
import { pathOf, routes } from '../../core/routes.js';
import type { Exchange } from './support.js';

/** A request, and the session it names (undefined: the default one). */
export type SessionExchange = Exchange & { session?: string };

/** The orders the fuzzed servers hold: ids at the int64 edges and beyond 2^53, read exactly; one of each status. */
export const seedOrders = parseJson(
  '[{"id":1,"petId":101,"quantity":1},{"id":2,"status":"shipped"},{"id":9007199254740993},{"id":9223372036854775807},{"id":-9223372036854775808,"status":"cancelled"}]',
) as unknown[];

const int64s = fc.oneof(
  fc.constantFrom(0n, -1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);
/** Orders as the store holds them: any int64 ids, each documented field present or not, quantities beyond 2^53 too, every status. */
export const storedOrders = fc.record(
  {
    id: int64s,
    petId: int64s,
    quantity: fc.oneof(fc.integer(), fc.constant(2n ** 60n), fc.constant(-0)),
    shipDate: fc.constantFrom('2026-12-01T09:00:00Z', '2026-12-01T09:00:00.123+05:30', '1985-04-12T23:20:50.52Z'),
    complete: fc.boolean(),
    status: fc.constantFrom('pending' as const, 'shipped' as const, 'cancelled' as const),
  },
  { requiredKeys: ['id', 'status'] },
);

const ids = fc.oneof(
  fc.constantFrom(
    '1',
    '2',
    '3',
    '9007199254740993',
    '9007199254740992',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
    '0',
    '-0',
    '+1',
    '01',
    '1e3',
    '1.0',
    '0x1',
    '%201',
    '%31',
    '%2D1',
    '%ZZ',
    '%00',
    '%E2%82%AC',
    '',
    'null',
    '1;2',
    '..',
    '.',
    '%2e',
    '~',
    '_',
    '-',
  ),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.stringMatching(/^[A-Za-z0-9%._~+-]{1,12}$/),
);
const sessionNames = fc.constantFrom(undefined, 'a', 'b', 'two words', '', 'x'.repeat(129), 'ü');
const authorization = fc.constantFrom(
  undefined,
  'Bearer petstore-dev-key',
  'Bearer wrong',
  'bearer petstore-dev-key',
  'Bearer',
  'Basic cGV0',
  'Bearer petstore-dev-key extra',
  '',
);
const jsonBodies = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '[{"id":1},{"id":1}]',
    '[{"id":9223372036854775808}]',
    '[{"id":3,"status":"lost"}]',
    '[{"id":7,"petId":-1,"quantity":2}]',
    '{"state":"the store holds orders","params":{"orders":[{"id":8}]}}',
    '{"state":"the store holds orders","action":"teardown"}',
    '{"state":"other"}',
    '{"operation":"listOrders","status":503,"times":1}',
    '{"status":99}',
    '[{"delay":{"min":5,"max":1}}]',
    '{"network":true,"operation":"cancelOrder"}',
  ),
);
// Every route's path with a generated parameter, plus paths near the interface and anywhere at all.
const paths = fc.oneof(
  ...routes.map((route) =>
    route.parameter === null
      ? fc.constant(`/v1${route.path}`)
      : ids.map((id) => `/v1${route.path.replace(/\{[^}]+\}/, id)}`),
  ),
  fc.constantFrom(
    '/v1/store/orders/',
    '/v1/store',
    '/v1/',
    '/v1',
    '/',
    '/v3/store/orders',
    '/v2/store/orders?limit=101',
    '/v1/store/orders?x=1',
    '/v1//store/orders',
    '/v1/store/./orders',
    '/v1/store/orders/1/..',
    '/v1/pets/',
    '/v1/pets/7/',
    '/v1/./pets/7',
    '/v1/store/orders/.',
    '/v1/pets/..',
    '/v1/store/orders/1?',
    '/v1/store/orders/1#x',
    '/__mock/orders',
    '/__mock/reset',
    '/__mock/faults',
    '/__mock/sessions',
    '/__mock/sessions/a',
    '/__mock/sessions/zzz',
    '/__mock/provider-state',
    '/__mock/scenarios/cancel-shipped-order',
    '/__mock/scenarios/list-orders-unavailable',
    '/__mock/scenarios/nope',
    '/__mock/%ZZ',
    '/__mock/',
    '*',
  ),
  fc.stringMatching(/^\/[\x21-\x7e]{0,30}$/),
  fc.stringMatching(/^\/v1\/[\x21-\x7e]{0,20}$/),
);
const methods = fc.constantFrom(
  ...new Set(routes.map((route) => route.method)),
  'GET',
  'DELETE',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'OPTIONS',
  'TRACE',
);

/** Anything at all: any method on any path, with any headers and body. */
export const wildExchanges: fc.Arbitrary<SessionExchange> = fc
  .record({
    method: methods,
    path: paths,
    authorization,
    session: sessionNames,
    body: fc.option(jsonBodies, { nil: undefined }),
    contentType: fc.constantFrom(undefined, 'application/json', 'text/plain'),
  })
  .map(({ method, path, authorization: auth, session, body, contentType }) => {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth;
    if (session !== undefined) headers['x-mock-session'] = session;
    if (contentType !== undefined) headers['content-type'] = contentType;
    return {
      method,
      path,
      headers,
      session,
      ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    };
  });

/** The ids the seed holds, and one it does not. */
const seededIds = fc.constantFrom(
  '1',
  '2',
  '3',
  '9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
  '42',
);

/**
 * Calls of the route table's operations as a client makes them, mostly well formed, on the orders the
 * store holds: calls that may change the store (any method but GET) come twice as often.
 */
export const clientExchanges: fc.Arbitrary<SessionExchange> = fc
  .record({
    route: fc.oneof(
      ...routes.map((route) => ({ arbitrary: fc.constant(route), weight: route.method === 'GET' ? 1 : 2 })),
    ),
    id: seededIds,
    authorization: fc.oneof(
      { arbitrary: fc.constant('Bearer petstore-dev-key'), weight: 8 },
      { arbitrary: authorization, weight: 2 },
    ),
    session: fc.constantFrom(undefined, undefined, 'a', 'b'),
  })
  .map(({ route, id, authorization: auth, session }) => {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth;
    if (session !== undefined) headers['x-mock-session'] = session;
    return { method: route.method, path: `/v1${pathOf(route, id)}`, headers, session };
  });

/** Half client-like calls, half wild requests. */
export const exchanges = fc.oneof({ arbitrary: clientExchanges, weight: 1 }, { arbitrary: wildExchanges, weight: 1 });
