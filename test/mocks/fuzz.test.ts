// Property-based fuzzing of the standalone server's whole HTTP surface, control plane included, with
// fast-check. Seeded and bounded: FUZZ_SEED replays a run (fast-check prints the seed and the path of
// a failure), FUZZ_RUNS sets how many sequences of requests one run sends.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type MockServer } from '../../mocks/server/server.js';
import { bundledScenarios } from '../../mocks/generated/scenarios.js';
import { matchRoute } from '../../core/routes.js';
import { exchanges, seedOrders } from '../support/arbitraries.js';
import { sendRaw, type Exchange, type Observed } from '../support/support.js';

const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const numRuns = Number(process.env.FUZZ_RUNS ?? 300);

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

// The order a call cancels when it succeeds (the route table's cancelOrder), its id decoded.
function cancelledId(exchange: Exchange): string | undefined {
  const match = exchange.path.startsWith('/v1/')
    ? matchRoute(exchange.method, exchange.path.slice('/v1'.length))
    : undefined;
  return match?.route.operation === 'cancelOrder' && match.parameter !== undefined
    ? decodeURIComponent(match.parameter)
    : undefined;
}

// Calls that may change a session's store: a cancel that succeeded, and control calls that succeeded.
function mayChangeStore(exchange: Exchange, answer: Observed): 'cancel' | 'control' | undefined {
  if (answer === 'connection dropped' || answer.status >= 300) return undefined;
  if (cancelledId(exchange) !== undefined && answer.status === 204) return 'cancel';
  if (
    exchange.path.startsWith('/__mock/') &&
    exchange.method !== 'GET' &&
    exchange.method !== 'HEAD' &&
    exchange.method !== 'OPTIONS'
  )
    return 'control';
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

  // The session's orders as the control plane lists them. Without the entity tag: a session that a call
  // starts gets a store of its own, with a tag of its own, holding what the fresh state it was read from held.
  const snapshot = async (session: string | undefined) => {
    const answer = await sendRaw(origin, {
      method: 'GET',
      path: '/__mock/orders',
      headers: session === undefined ? {} : { 'x-mock-session': session },
    });
    if (answer === 'connection dropped') return answer;
    const { etag: _etag, ...headers } = answer.headers;
    return { ...answer, headers };
  };

  it(`keeps its invariants over ${numRuns} random request sequences (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchanges, { minLength: 1, maxLength: 6 }), async (sequence) => {
        await sendRaw(origin, { method: 'POST', path: '/__mock/reset' });
        for (const exchange of sequence) {
          const before = await snapshot(exchange.session);
          const answer = await sendRaw(origin, exchange);
          // A fault the sequence itself installed may drop a connection or answer 5xx, as asked; clear faults at once
          // so that every other answer is the mock's own.
          const installedFault =
            exchange.path === '/__mock/faults' &&
            exchange.method === 'POST' &&
            answer !== 'connection dropped' &&
            answer.status === 201;
          const loadedFaults =
            exchange.path.startsWith('/__mock/scenarios/') && answer !== 'connection dropped' && answer.status === 200;
          if (installedFault || loadedFaults) {
            await sendRaw(origin, {
              method: 'DELETE',
              path: '/__mock/faults',
              headers: exchange.session === undefined ? {} : { 'x-mock-session': exchange.session },
            });
          }
          expect(answer, `${exchange.method} ${exchange.path}`).not.toBe('connection dropped');
          if (answer === 'connection dropped') return;
          expect(answer.status, `${exchange.method} ${exchange.path}: ${answer.body}`).toBeLessThan(500);
          if (answer.status >= 400 && exchange.method !== 'HEAD') {
            expect(answer.headers['content-type'], `${exchange.method} ${exchange.path}`).toBe('application/json');
            expect(
              isErrorRecord(answer.body, answer.status),
              `${exchange.method} ${exchange.path}: ${answer.body}`,
            ).toBe(true);
          }
          const after = await snapshot(exchange.session);
          const change = mayChangeStore(exchange, answer);
          if (change === undefined) {
            expect(after, `${exchange.method} ${exchange.path} changed the store`).toEqual(before);
          } else if (change === 'cancel' && before !== 'connection dropped' && after !== 'connection dropped') {
            const id = cancelledId(exchange)!;
            const statuses = (text: string) =>
              new Map(
                (JSON.parse(text.replace(/"id":(-?\d+)/g, '"id":"$1"')) as { id: string; status: string }[]).map(
                  (order) => [order.id, order.status],
                ),
              );
            const was = statuses(before.body);
            const now = statuses(after.body);
            const changed = [...now].filter(([orderId, status]) => was.get(orderId) !== status);
            expect(changed, `${exchange.method} ${exchange.path}`).toEqual([[BigInt(id).toString(), 'cancelled']]);
            expect(was.get(BigInt(id).toString())).toBe('pending');
          }
        }
      }),
      { seed, numRuns },
    );
    const alive = await sendRaw(origin, {
      method: 'GET',
      path: '/v1/store/orders',
      headers: { authorization: 'Bearer petstore-dev-key' },
    });
    expect(alive !== 'connection dropped' && alive.status).toBe(200);
  }, 180_000);
});
