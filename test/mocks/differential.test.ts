// Two adapters over the mock's one pipeline: the standalone server hands a Node request to it directly
// (directly: no Fetch Request is built), and MSW's handlers do in-process and in the browser. The
// two must answer identically, byte for byte: this file sends the same requests, in the same order, to
// a server that goes straight to the pipeline and one that goes through MSW's `getResponse`:
// generated sequences first (fast-check; FAST_PATH_SEED replays a run, FAST_PATH_RUNS widens it),
// then fixed edges kept as regressions.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { loadScenarios } from '../../core/scenario-files.js';
import type { Scenario } from '../../core/scenario.js';
import { createServer, type MockServer } from '../../mocks/server/server.js';
import { authorizationHeader } from '../../core/authorization.js';
import { bundledScenarios } from '../../mocks/generated/scenarios.js';
import { exchanges, seedOrders } from '../support/arbitraries.js';
import { sendRaw as send, type Exchange, type Observed } from '../support/support.js';
import { answerThroughMsw } from '../support/through-msw.js';

const key = authorizationHeader('valid');
const seed = Number(process.env.FAST_PATH_SEED ?? 20261123);
const numRuns = Number(process.env.FAST_PATH_RUNS ?? 250);

// Requests at the edges of the direct way: what it takes, what it must hand to the handlers, and what both must refuse alike.
const edges: Exchange[] = [
  { method: 'GET', path: '/v1/store/orders', headers: key },
  { method: 'GET', path: '/v1/store/orders?page=2', headers: key },
  { method: 'GET', path: '/v1/store/orders/', headers: key },
  { method: 'GET', path: '/v1/store/orders//', headers: key },
  { method: 'HEAD', path: '/v1/store/orders', headers: key },
  {
    method: 'OPTIONS',
    path: '/v1/store/orders',
    headers: { origin: 'http://app.test', 'access-control-request-method': 'DELETE' },
  },
  { method: 'POST', path: '/v1/store/orders', headers: key, body: '{}' },
  { method: 'GET', path: '/v1/store/orders', headers: { authorization: 'bearer petstore-dev-key' } },
  { method: 'GET', path: '/v1/store/orders', headers: { authorization: 'Bearer  petstore-dev-key' } },
  {
    method: 'GET',
    path: '/v1/store/orders',
    headers: { authorization: ['Bearer petstore-dev-key', 'Bearer other'] as unknown as string },
  },
  { method: 'GET', path: '/v1/store/orders', headers: { authorization: 'Basic cGV0OnN0b3Jl' } },
  { method: 'GET', path: '/v1/store/orders', headers: { ...key, 'x-mock-session': 'edge' } },
  { method: 'GET', path: '/v1/store/orders', headers: { ...key, 'x-mock-session': 'two words' } },
  { method: 'GET', path: '/v1/store/orders', headers: { ...key, 'x-mock-session': ['a', 'b'] } },
  { method: 'DELETE', path: '/v1/store/orders/2', headers: { ...key, 'x-mock-session': 'edge' } },
  { method: 'DELETE', path: '/v1/store/orders/%32', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/%ZZ', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/+1', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/-0', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/0001', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/1.0', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/9223372036854775808', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/-9223372036854775808', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/1/', headers: key },
  {
    method: 'DELETE',
    path: '/v1/store/orders/1',
    headers: { ...key, 'content-type': 'application/json', 'content-length': '14' },
    body: '{"why":"test"}',
  },
  { method: 'DELETE', path: '/v1/store/orders/1', headers: { ...key, 'transfer-encoding': 'chunked' }, body: '{}' },
  { method: 'DELETE', path: '/v1/store/orders/1', headers: {} },
  { method: 'DELETE', path: '/v1/store/orders/1', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/1', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/3', headers: key },
  { method: 'GET', path: '/v1/pets/7', headers: key },
  { method: 'GET', path: '/v1/pets/x', headers: key },
  { method: 'GET', path: '/v1/pets/7', headers: {} },
  { method: 'GET', path: '/v1/pets/', headers: key },
  { method: 'GET', path: '/v1/nothing', headers: key },
  { method: 'GET', path: '/v1/nothing', headers: {} },
  { method: 'GET', path: 'http://petstore.test/v1/store/orders', headers: key },
  { method: 'GET', path: '/v1/store/orders#fragment', headers: key },
  { method: 'GET', path: '/__mock/orders' },
  { method: 'GET', path: '/__mock/orders', headers: { 'if-none-match': 'W/"s0.0"' } },
  { method: 'GET', path: '/__mock/orders', headers: { 'if-none-match': '*' } },
  { method: 'GET', path: '/__mock/' },
  { method: 'HEAD', path: '/__mock/' },
  { method: 'GET', path: '/__mock' },
  { method: 'GET', path: '/__mock/scenarios' },
  { method: 'POST', path: '/__mock/reset', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' } },
  { method: 'POST', path: '/__mock/reset', headers: { origin: 'http://localhost:5173' } },
  { method: 'GET', path: '/__mock/requests', headers: { host: 'evil.example' } },
  {
    method: 'OPTIONS',
    path: '/__mock/orders',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
  },
  // Found by the generated comparison: URL parsing removes dot segments before MSW matches a path.
  { method: 'DELETE', path: '/v1/store/orders/.', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/..', headers: key },
  { method: 'GET', path: '/v1/pets/..', headers: key },
  { method: 'GET', path: '/v1/pets/.', headers: key },
  // Dot segments as written (spec gap 32): both refuse the path the client wrote, never the one URL parsing resolves.
  { method: 'DELETE', path: '/v1/pets/%2e%2e/store/orders/5', headers: key },
  { method: 'DELETE', path: '/v1/pets/../store/orders/5', headers: key },
  { method: 'DELETE', path: '/v1/pets/.%2E/store/orders/2', headers: key },
  { method: 'DELETE', path: '/v1/pets/%2E./store/orders/2', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/./5', headers: key },
  { method: 'DELETE', path: '/v1/store/orders/%2e/5', headers: {} },
  { method: 'DELETE', path: 'http://petstore.test/v1/pets/%2E%2E/store/orders/5', headers: key },
  { method: 'DELETE', path: '/x/../v1/store/orders/5', headers: key },
  { method: 'DELETE', path: '/__mock/../v1/store/orders/5', headers: key },
  { method: 'POST', path: '/v1/../__mock/reset', headers: key },
  { method: 'HEAD', path: '/v1/pets/./7', headers: key },
  { method: 'DELETE', path: '/v1/store/orders\\5', headers: key },
  { method: 'DELETE', path: '/v1\\store\\orders\\5', headers: key },
  {
    method: 'OPTIONS',
    path: '/v1/store/./orders',
    headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' },
  },
];

// The servers compared share one clock that moves only between exchanges, so that a session's idle
// time (in the body of GET /__mock/sessions and the Content-Length of its HEAD) and the Retry-After
// of a refused session are the same on both: they are compared like everything else.
let clock = 0;
const sessionClock = { now: () => clock };
/** Moves the shared clock by an exchange's worth: 40 s, so that a session idle for a few exchanges expires. */
const tick = () => (clock += 40_000);

/**
 * An answer with the random part of its entity tag (each mock's own, so that a restarted server never
 * reuses a tag) named alike: the rest of the tag, the session's store and its version, is compared.
 */
function withoutMockTag(observed: Observed): Observed {
  if (observed === 'connection dropped' || typeof observed.headers.etag !== 'string') return observed;
  return {
    ...observed,
    headers: { ...observed.headers, etag: observed.headers.etag.replace(/^W\/"[a-z0-9]+\./, 'W/"mock.') },
  };
}

describe('the pipeline directly and through the MSW handlers', () => {
  let fast: MockServer;
  let handlers: MockServer;
  let origins: [string, string];
  let scenarios: Scenario[];
  let fastCalls: MockInstance;

  beforeAll(async () => {
    scenarios = await loadScenarios();
    fast = createServer({ scenarios, sessions: sessionClock });
    handlers = answerThroughMsw(createServer({ scenarios, sessions: sessionClock }));
    origins = [await fast.listen(0, '127.0.0.1'), await handlers.listen(0, '127.0.0.1')];
    fastCalls = vi.spyOn(fast.mock, 'handle');
  });
  afterAll(async () => {
    await fast.close();
    await handlers.close();
  });

  async function both(exchange: Exchange): Promise<void> {
    tick();
    const [viaFastPath, viaHandlers] = (await Promise.all(origins.map((origin) => send(origin, exchange)))).map(
      withoutMockTag,
    );
    expect(viaFastPath, `${exchange.method} ${exchange.path} ${JSON.stringify(exchange.headers)}`).toEqual(viaHandlers);
  }

  it(`answer ${numRuns} generated request sequences identically (seed ${seed})`, async () => {
    const generated = [
      createServer({
        seed: seedOrders,
        scenarios: bundledScenarios,
        sessions: { limit: 5, idleTimeout: 150_000, ...sessionClock },
      }),
      answerThroughMsw(
        createServer({
          seed: seedOrders,
          scenarios: bundledScenarios,
          sessions: { limit: 5, idleTimeout: 150_000, ...sessionClock },
        }),
      ),
    ];
    const generatedOrigins = await Promise.all(generated.map((server) => server.listen(0, '127.0.0.1')));
    const spy = vi.spyOn(generated[0]!.mock, 'handle');
    const compare = async (exchange: Exchange) => {
      tick();
      const [viaFastPath, viaHandlers] = (
        await Promise.all(generatedOrigins.map((origin) => send(origin, exchange)))
      ).map(withoutMockTag);
      expect(viaFastPath, `${exchange.method} ${exchange.path} ${JSON.stringify(exchange.headers)}`).toEqual(
        viaHandlers,
      );
    };
    let sent = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(exchanges, { minLength: 1, maxLength: 8 }), async (sequence) => {
          for (const origin of generatedOrigins) await send(origin, { method: 'POST', path: '/__mock/reset' });
          for (const exchange of sequence) {
            await compare(exchange);
            sent++;
            // A fault the sequence installed could wait up to a minute: clear faults after every control call.
            if (exchange.path.startsWith('/__mock/')) {
              for (const origin of generatedOrigins)
                await send(origin, {
                  method: 'DELETE',
                  path: '/__mock/faults',
                  headers: exchange.session === undefined ? {} : { 'x-mock-session': exchange.session },
                });
            }
          }
        }),
        { seed, numRuns },
      );
      // Every call of the direct server went straight to the pipeline (resets and fault clearing too).
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(sent);
    } finally {
      await Promise.all(generated.map((server) => server.close()));
    }
  }, 60_000);

  it('answer every step of every scenario identically, faults included', async () => {
    for (const scenario of scenarios) {
      await both({ method: 'POST', path: `/__mock/scenarios/${scenario.name}` });
      for (const step of scenario.steps) {
        await both({
          method: step.request.method,
          path: `/v1${step.request.path}`,
          headers: authorizationHeader(step.request.key),
        });
      }
      await both({ method: 'GET', path: '/__mock/orders' });
    }
  });

  it('answer the edge cases identically, from the default seed', async () => {
    await both({ method: 'POST', path: '/__mock/reset' });
    fastCalls.mockClear();
    for (const exchange of edges) await both(exchange);
    // Every call went straight to the pipeline, with its method and target as sent.
    expect(fastCalls.mock.calls.map(([request]) => `${request.method} ${new URL(request.url).pathname}`)).toEqual(
      edges.map((exchange) => `${exchange.method} ${new URL(exchange.path, 'http://x').pathname}`),
    );
  });

  it('answer identically under injected faults of every kind', async () => {
    await both({ method: 'POST', path: '/__mock/reset' });
    const faults = [
      { operation: 'listOrders', status: 503, times: 1, code: 'down', message: 'Down.' },
      { operation: 'cancelOrder', after: 1, times: 1, network: true },
      { operation: 'readPet', probability: 0.5, seed: 9, status: 500 },
      { operation: '*', delay: { min: 1, max: 5 }, times: 3 },
    ];
    await both({ method: 'POST', path: '/__mock/faults', body: JSON.stringify(faults) });
    for (const exchange of [...edges, ...edges]) await both(exchange);
    await both({ method: 'GET', path: '/__mock/faults' });
  });
});
