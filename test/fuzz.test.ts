// Property-based fuzzing of the standalone server's whole HTTP surface, control plane included, with
// fast-check. Seeded and bounded: FUZZ_SEED replays a run (fast-check prints the seed and the path of
// a failure), FUZZ_RUNS sets how many sequences of requests one run sends.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledScenarios } from '../mocks/generated/scenarios.js';
import { parseJson } from '../mocks/json.js';
import { createServer, type MockServer } from '../mocks/server.js';
import { sendRaw, type Exchange, type Observed } from './support.js';

const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const numRuns = Number(process.env.FUZZ_RUNS ?? 300);

// Ids at the int64 edges and beyond 2^53, read exactly; one of each status.
const seedOrders = parseJson(
  '[{"id":1,"petId":101,"quantity":1},{"id":2,"status":"shipped"},{"id":9007199254740993},{"id":9223372036854775807},{"id":-9223372036854775808,"status":"cancelled"}]',
) as unknown[];

const ids = fc.oneof(
  fc.constantFrom('1', '2', '3', '9007199254740993', '9007199254740992', '9223372036854775807', '9223372036854775808', '-9223372036854775808',
    '-9223372036854775809', '18446744073709551616', '0', '-0', '+1', '01', '1e3', '1.0', '0x1', '%201', '%31', '%2D1', '%ZZ', '%00', '%E2%82%AC', '', 'null', '1;2', '..'),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.stringMatching(/^[A-Za-z0-9%._~+-]{1,12}$/),
);
const sessionNames = fc.constantFrom(undefined, 'a', 'b', 'two words', '', 'x'.repeat(129), 'ü');
const authorization = fc.constantFrom(undefined, 'Bearer petstore-dev-key', 'Bearer wrong', 'bearer petstore-dev-key', 'Bearer', 'Basic cGV0', 'Bearer petstore-dev-key extra', '');
const jsonBodies = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('', '{', 'null', '[]', '[{"id":1},{"id":1}]', '[{"id":9223372036854775808}]', '[{"id":3,"status":"lost"}]', '[{"id":7,"petId":-1,"quantity":2}]',
    '{"state":"the store holds orders","params":{"orders":[{"id":8}]}}', '{"state":"the store holds orders","action":"teardown"}', '{"state":"other"}',
    '{"operation":"listOrders","status":503,"times":1}', '{"status":99}', '[{"delay":{"min":5,"max":1}}]', '{"network":true,"operation":"cancelOrder"}'),
);
const paths = fc.oneof(
  ids.map((id) => `/v1/store/orders/${id}`),
  ids.map((id) => `/v1/pets/${id}`),
  fc.constantFrom('/v1/store/orders', '/v1/store/orders/', '/v1/store', '/v1/', '/v1', '/', '/v2/store/orders', '/v1/store/orders?x=1', '/v1//store/orders',
    '/__mock/orders', '/__mock/reset', '/__mock/faults', '/__mock/sessions', '/__mock/sessions/a', '/__mock/sessions/zzz', '/__mock/provider-state',
    '/__mock/scenarios/cancel-shipped-order', '/__mock/scenarios/list-orders-unavailable', '/__mock/scenarios/nope', '/__mock/%ZZ', '/__mock/', '*'),
  fc.stringMatching(/^\/[\x21-\x7e]{0,30}$/),
);
const methods = fc.constantFrom('GET', 'GET', 'DELETE', 'DELETE', 'HEAD', 'POST', 'PUT', 'PATCH', 'OPTIONS', 'TRACE');

// Anything at all: any method on any path, with any headers and body.
const wildExchanges: fc.Arbitrary<Exchange & { session?: string }> = fc
  .record({ method: methods, path: paths, authorization, session: sessionNames, body: fc.option(jsonBodies, { nil: undefined }), contentType: fc.constantFrom(undefined, 'application/json', 'text/plain') })
  .map(({ method, path, authorization: auth, session, body, contentType }) => {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth;
    if (session !== undefined) headers['x-mock-session'] = session;
    if (contentType !== undefined) headers['content-type'] = contentType;
    return { method, path, headers, session, ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}) };
  });

// Calls of the interface as a client makes them, mostly well formed, on the orders the store holds: these
// are what change the store, so the store invariants get exercised often rather than by luck.
const seededIds = fc.constantFrom('1', '2', '3', '9007199254740993', '9223372036854775807', '-9223372036854775808', '42');
const clientExchanges: fc.Arbitrary<Exchange & { session?: string }> = fc
  .record({
    call: fc.constantFrom('list', 'cancel', 'cancel', 'pet'),
    id: seededIds,
    authorization: fc.oneof({ arbitrary: fc.constant('Bearer petstore-dev-key'), weight: 8 }, { arbitrary: authorization, weight: 2 }),
    session: fc.constantFrom(undefined, undefined, 'a', 'b'),
  })
  .map(({ call, id, authorization: auth, session }) => {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth;
    if (session !== undefined) headers['x-mock-session'] = session;
    const request = call === 'list' ? { method: 'GET', path: '/v1/store/orders' } : call === 'cancel' ? { method: 'DELETE', path: `/v1/store/orders/${id}` } : { method: 'GET', path: `/v1/pets/${id}` };
    return { ...request, headers, session };
  });

const exchanges = fc.oneof({ arbitrary: clientExchanges, weight: 1 }, { arbitrary: wildExchanges, weight: 1 });

interface ErrorRecord {
  code: string;
  message: string;
  status: number;
}

function isErrorRecord(body: string, status: number): boolean {
  try {
    const record = JSON.parse(body) as ErrorRecord;
    return typeof record.code === 'string' && typeof record.message === 'string' && record.status === status;
  } catch {
    return false;
  }
}

// Calls that may change a session's store: a cancel that succeeded, and control calls that succeeded.
function mayChangeStore(exchange: Exchange, answer: Observed): 'cancel' | 'control' | undefined {
  if (answer === 'connection dropped' || answer.status >= 300) return undefined;
  if (exchange.method === 'DELETE' && exchange.path.startsWith('/v1/store/orders/') && answer.status === 204) return 'cancel';
  if (exchange.path.startsWith('/__mock/') && exchange.method !== 'GET' && exchange.method !== 'HEAD' && exchange.method !== 'OPTIONS') return 'control';
  return undefined;
}

describe('fuzzing the HTTP surface', () => {
  let server: MockServer;
  let origin: string;

  beforeAll(async () => {
    server = createServer({ seed: seedOrders, scenarios: bundledScenarios, sessions: { limit: 10 } });
    origin = await server.listen(0, '127.0.0.1');
  });
  afterAll(() => server.close());

  const snapshot = async (session: string | undefined) =>
    sendRaw(origin, { method: 'GET', path: '/__mock/orders', headers: session === undefined ? {} : { 'x-mock-session': session } });

  it(`keeps its invariants over ${numRuns} random request sequences (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchanges, { minLength: 1, maxLength: 6 }), async (sequence) => {
        await sendRaw(origin, { method: 'POST', path: '/__mock/reset' });
        for (const exchange of sequence) {
          const before = await snapshot(exchange.session);
          const answer = await sendRaw(origin, exchange);
          // A fault the sequence itself installed may drop a connection or answer 5xx, as asked; clear faults at once
          // so that every other answer is the mock's own.
          const installedFault = exchange.path === '/__mock/faults' && exchange.method === 'POST' && answer !== 'connection dropped' && answer.status === 201;
          const loadedFaults = exchange.path.startsWith('/__mock/scenarios/') && answer !== 'connection dropped' && answer.status === 200;
          if (installedFault || loadedFaults) {
            await sendRaw(origin, { method: 'DELETE', path: '/__mock/faults', headers: exchange.session === undefined ? {} : { 'x-mock-session': exchange.session } });
          }
          expect(answer, `${exchange.method} ${exchange.path}`).not.toBe('connection dropped');
          if (answer === 'connection dropped') return;
          expect(answer.status, `${exchange.method} ${exchange.path}: ${answer.body}`).toBeLessThan(500);
          if (answer.status >= 400 && exchange.method !== 'HEAD') {
            expect(answer.headers['content-type'], `${exchange.method} ${exchange.path}`).toBe('application/json');
            expect(isErrorRecord(answer.body, answer.status), `${exchange.method} ${exchange.path}: ${answer.body}`).toBe(true);
          }
          const after = await snapshot(exchange.session);
          const change = mayChangeStore(exchange, answer);
          if (change === undefined) {
            expect(after, `${exchange.method} ${exchange.path} changed the store`).toEqual(before);
          } else if (change === 'cancel' && before !== 'connection dropped' && after !== 'connection dropped') {
            const id = exchange.path.slice('/v1/store/orders/'.length);
            const statuses = (text: string) => new Map((JSON.parse(text.replace(/"id":(-?\d+)/g, '"id":"$1"')) as { id: string; status: string }[]).map((order) => [order.id, order.status]));
            const was = statuses(before.body);
            const now = statuses(after.body);
            const changed = [...now].filter(([orderId, status]) => was.get(orderId) !== status);
            expect(changed, `${exchange.method} ${exchange.path}`).toEqual([[BigInt(id).toString(), 'cancelled']]);
            expect(was.get(BigInt(id).toString())).toBe('pending');
          }
        }
      }),
      { seed, numRuns, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: false },
    );
    const alive = await sendRaw(origin, { method: 'GET', path: '/v1/store/orders', headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(alive !== 'connection dropped' && alive.status).toBe(200);
  }, 60_000);
});
