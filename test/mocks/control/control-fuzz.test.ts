// A seeded, bounded fuzz of the control plane over HTTP (fast-check): hostile bodies (deep nesting,
// numbers of many digits, fault lists past the caps, random JSON and text), random query filters and
// session headers. Every answer is below 500; every refusal is an Error record whose status matches;
// a refused request changes no session's orders, faults or journal. FUZZ_SEED and FUZZ_RUNS replay or
// widen a run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNames } from '../../../core/routes.js';
import { bundledScenarios } from '../../../mocks/generated/scenarios.js';
import { createServer, type MockServer } from '../../../mocks/server/server.js';
import { sendRaw, type Exchange } from '../../support/support.js';

const seed = Number(process.env.FUZZ_SEED ?? 20261124);
const numRuns = Number(process.env.FUZZ_RUNS ?? 400);

const sessions = [undefined, 'a', 'b'] as const;
const sessionHeaders = fc.constantFrom<string | undefined>(
  undefined,
  'a',
  'b',
  '..',
  '.',
  'two words',
  '',
  'x'.repeat(129),
  'a/b',
);

const deepBody = fc.integer({ min: 33, max: 400 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);
const longNumber = fc
  .tuple(fc.integer({ min: 20, max: 300 }), fc.constantFrom('[{"id": ', '{"operation": "listOrders", "times": ', ''))
  .map(([digits, start]) => `${start}${'7'.repeat(digits)}${start === '' ? '' : start.startsWith('[') ? '}]' : '}'}`);
const faultRecords = fc.record(
  {
    operation: fc.constantFrom<string | number>(...operationNames, '*', 'nope', 3),
    status: fc.oneof(fc.integer({ min: 0, max: 700 }), fc.constant('503')),
    delay: fc.oneof(
      fc.integer({ min: -5, max: 70_000 }),
      fc.record({ min: fc.integer({ min: -1, max: 70_000 }), max: fc.integer({ min: -1, max: 70_000 }) }),
      fc.constant('slow'),
    ),
    times: fc.integer({ min: -1, max: 5 }),
    network: fc.boolean(),
  },
  { requiredKeys: [] },
);
const faultLists = fc.array(faultRecords, { minLength: 0, maxLength: 130 }).map((faults) => JSON.stringify(faults));
const orderLists = fc
  .array(
    fc.record(
      {
        id: fc.oneof(fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), fc.constant('1')),
        petId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n }),
        quantity: fc.integer({ min: -2, max: 5 }),
        status: fc.constantFrom('pending', 'shipped', 'cancelled', 'lost'),
        shipDate: fc.constantFrom('2026-12-01T09:00:00Z', 'tomorrow'),
        extra: fc.string(),
      },
      { requiredKeys: ['id'] },
    ),
    { maxLength: 20 },
  )
  .map((orders) => JSON.stringify(orders, (_, value) => (typeof value === 'bigint' ? `#${value}#` : value)))
  .map((text) => text.replace(/"#(-?\d+)#"/g, '$1'));
const bodies = fc.oneof(
  deepBody,
  longNumber,
  faultLists,
  orderLists,
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '{', 'null', '{"state":"the store holds orders","params":{"orders":[{"id":8}]}}'),
);
const filterQueries = fc
  .array(
    fc.tuple(
      fc.constantFrom('operation', 'status', 'method', 'path', 'colour'),
      fc.constantFrom('cancelOrder', 'cancelorder', 'null', '204', '2000', 'network', 'GET', '/v1/store/orders', ''),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));
const paths = fc.oneof(
  fc.constantFrom(
    '/__mock/orders',
    '/__mock/reset',
    '/__mock/faults',
    '/__mock/faults/1',
    '/__mock/faults/999',
    '/__mock/faults/x',
    '/__mock/coverage',
    '/__mock/sessions',
    '/__mock/sessions/zzz',
    '/__mock/sessions/..',
    '/__mock/provider-state',
    '/__mock/scenarios/cancel-shipped-order',
    '/__mock/scenarios/nope',
    '/__mock/ORDERS',
    '/__mock//orders',
  ),
  filterQueries.map((query) => `/__mock/requests${query}`),
);
const wildExchanges: fc.Arbitrary<Exchange> = fc
  .record({
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
    path: paths,
    session: sessionHeaders,
    body: fc.option(bodies, { nil: undefined }),
    contentType: fc.constantFrom(undefined, 'application/json', 'text/plain'),
  })
  .map(({ method, path, session, body, contentType }) => {
    const headers: Record<string, string> = {};
    if (session !== undefined) headers['x-mock-session'] = session;
    if (contentType !== undefined) headers['content-type'] = contentType;
    return { method, path, headers, ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}) };
  });

// Faults a session takes, many at a time: they pile up to the cap of faults in force.
const validFaults = fc
  .array(
    fc.record({
      operation: fc.constantFrom(...operationNames),
      status: fc.integer({ min: 500, max: 504 }),
    }),
    { minLength: 1, maxLength: 100 },
  )
  .map((faults) => JSON.stringify(faults));
// Well-aimed calls that change a session: faults, orders, provider states, with a session header.
const aimedExchanges: fc.Arbitrary<Exchange> = fc
  .record({
    target: fc.constantFrom(
      { method: 'POST', path: '/__mock/faults' },
      { method: 'PUT', path: '/__mock/orders' },
      { method: 'POST', path: '/__mock/provider-state' },
    ),
    session: sessionHeaders,
    faults: validFaults,
    orders: orderLists,
  })
  .map(({ target, session, faults, orders }) => ({
    ...target,
    headers: session === undefined ? {} : { 'x-mock-session': session },
    body:
      target.path === '/__mock/faults'
        ? faults
        : target.path === '/__mock/orders'
          ? orders
          : `{"state":"the store holds orders","params":{"orders":${orders}}}`,
  }));
const controlExchanges = fc.oneof(wildExchanges, aimedExchanges);

function errorRecordOf(body: string): { code: unknown; message: unknown; status: unknown } | undefined {
  try {
    return JSON.parse(body) as { code: unknown; message: unknown; status: unknown };
  } catch {
    return undefined;
  }
}

describe('fuzzing the control plane', () => {
  let server: MockServer;
  let origin: string;

  beforeAll(async () => {
    server = createServer({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }], scenarios: bundledScenarios });
    origin = await server.listen(0, '127.0.0.1');
    // The named sessions exist from the start: a refused request must not be what creates one.
    server.mock.session('a');
    server.mock.session('b');
  });
  afterAll(() => server.close());

  // Every session's orders, faults and journal, as the mock holds them.
  const state = async () =>
    Promise.all(
      sessions.map(async (name) => {
        const session = name === undefined ? server.mock : server.mock.session(name);
        return { orders: await session.orders(), faults: session.faults(), journal: session.requests() };
      }),
    );

  it(`answers ${numRuns} hostile control requests below 500, refusing with Error records and changing nothing (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(controlExchanges, async (exchange) => {
        const before = await state();
        const answer = await sendRaw(origin, exchange);
        const request = `${exchange.method} ${exchange.path} ${exchange.body?.slice(0, 80) ?? ''}`;
        expect(answer, request).not.toBe('connection dropped');
        if (answer === 'connection dropped') return;
        expect(answer.status, `${request}: ${answer.body}`).toBeLessThan(500);
        if (answer.status < 400) return;
        if (exchange.method !== 'HEAD') {
          const record = errorRecordOf(answer.body);
          expect(record?.status, `${request}: ${answer.body}`).toBe(answer.status);
          expect(typeof record?.code === 'string' && typeof record.message === 'string', request).toBe(true);
          expect(String(record?.message).length, request).toBeGreaterThan(10);
        }
        expect(await state(), `${request} changed a session`).toEqual(before);
      }),
      { seed, numRuns },
    );
  }, 120_000);
});
