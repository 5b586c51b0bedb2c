import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrderMock, MockError, type OrderMock } from '../../mocks/adapters/msw.js';
import { loadScenarios } from '../../core/scenario-files.js';
import { authorized, expectError, startServer } from '../support/support.js';

// What no mock handler answers reaches this one, so nothing leaves the machine and a test can see it.
const fallthrough = http.all('*', () => new Response('not mocked', { status: 418 }));
const server = setupServer();
const passthroughTo = (origin: string) => http.all(`${origin}/*`, () => passthrough());
let mock: OrderMock;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  mock = createOrderMock();
  server.resetHandlers(...mock.handlers, fallthrough);
});

const production = 'https://production.invalid/v1';
const staging = 'https://staging.example.com/v1';

describe('createOrderMock with setupServer', () => {
  it('answers the production and the staging base address alike', async () => {
    for (const base of [production, staging]) {
      const response = await fetch(`${base}/store/orders`, { headers: authorized });
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(5);
    }
  });

  it('shares one store across base addresses: a cancel on staging shows on production', async () => {
    expect((await fetch(`${staging}/store/orders/1`, { method: 'DELETE', headers: authorized })).status).toBe(204);
    await expectError(
      await fetch(`${production}/store/orders/1`, { method: 'DELETE', headers: authorized }),
      404,
      'order_not_found',
    );
  });

  it('gives 204, 409, 404 and 401 in-process', async () => {
    expect((await fetch(`${production}/store/orders/2`, { method: 'DELETE', headers: authorized })).status).toBe(204);
    await expectError(
      await fetch(`${production}/store/orders/4`, { method: 'DELETE', headers: authorized }),
      409,
      'order_already_shipped',
    );
    await expectError(
      await fetch(`${production}/store/orders/404`, { method: 'DELETE', headers: authorized }),
      404,
      'order_not_found',
    );
    await expectError(await fetch(`${production}/store/orders`), 401, 'missing_api_key');
  });

  it('narrows to one base URL with baseUrl, leaving other origins to other handlers', async () => {
    const narrowed = createOrderMock({ baseUrl: `${staging}/` });
    server.resetHandlers(...narrowed.handlers, fallthrough);
    expect((await fetch(`${staging}/store/orders`, { headers: authorized })).status).toBe(200);
    expect((await fetch(`${production}/store/orders`, { headers: authorized })).status).toBe(418);
    expect((await fetch('https://staging.example.com/__mock/orders')).status).toBe(200);
    expect((await fetch('https://production.invalid/__mock/orders')).status).toBe(418);
  });

  it('leaves requests outside /v1 and /__mock to other handlers', async () => {
    expect((await fetch('https://cdn.example.com/assets/app.js')).status).toBe(418);
  });

  it('exposes the store controls: replaceOrders, orders and reset', async () => {
    await mock.replaceOrders([{ id: 9007199254740993n, status: 'shipped' }, { id: 2 }]);
    expect(await mock.orders()).toEqual([
      { id: 9007199254740993n, status: 'shipped' },
      { id: 2n, status: 'pending' },
    ]);
    expect(await (await fetch(`${production}/store/orders`, { headers: authorized })).text()).toBe(
      '[{"id":9007199254740993},{"id":2}]',
    );
    await mock.reset();
    expect(await mock.orders()).toHaveLength(5);
  });

  it('answers orders() with the seed, and with a replacement as soon as it is asked', async () => {
    const fresh = createOrderMock({ seed: [{ id: 7, status: 'shipped' }] });
    expect(await fresh.orders()).toEqual([{ id: 7n, status: 'shipped' }]);
    void fresh.replaceOrders([{ id: 8 }]);
    expect(await fresh.orders()).toEqual([{ id: 8n, status: 'pending' }]);
  });

  it('is the controls of its default session, with its pipeline and handlers beside', async () => {
    // A plain object: the controls of its default session, and what only the mock has; no session internals.
    expect(Object.keys(mock).sort()).toEqual([
      'addFaults',
      'changeSettings',
      'clearFaults',
      'clearPact',
      'clearRequests',
      'collection',
      'coverage',
      'dropsConnectionsInAnySession',
      'faults',
      'handle',
      'handlers',
      'loadScenario',
      'observe',
      'orders',
      'pact',
      'pactDocument',
      'removeFault',
      'replaceOrders',
      'requests',
      'reset',
      'scenarios',
      'session',
      'sessions',
      'settings',
      'store',
      'testStarted',
    ]);
    for (const internal of ['answer', 'recordCall', 'applyFaults', 'dropsConnections', 'firstRoundingHint'])
      expect(internal in mock, internal).toBe(false);
    const named = mock.session('a');
    await named.replaceOrders([{ id: 1 }]);
    expect(await named.orders()).toHaveLength(1);
    expect(await mock.orders()).toHaveLength(5);
  });

  it('rejects bad orders from replaceOrders with a MockError and changes nothing', async () => {
    const rejection = mock.replaceOrders([{ id: 1, status: 'lost' }]);
    await expect(rejection).rejects.toBeInstanceOf(MockError);
    await expect(rejection).rejects.toMatchObject({ code: 'invalid_orders', status: 400 });
    expect(await mock.orders()).toHaveLength(5);
  });

  it('loads a scenario by name, as a method and through the control plane', async () => {
    mock = createOrderMock({ scenarios: await loadScenarios() });
    server.resetHandlers(...mock.handlers, fallthrough);
    await mock.loadScenario('cancel-shipped-order');
    expect((await mock.orders()).map((order) => [order.id, order.status])).toEqual([
      [1n, 'pending'],
      [3n, 'shipped'],
    ]);
    await expectError(
      await fetch(`${production}/store/orders/3`, { method: 'DELETE', headers: authorized }),
      409,
      'order_already_shipped',
    );
    const loaded = await fetch('https://production.invalid/__mock/scenarios/cancel-order-beyond-2-53', {
      method: 'POST',
    });
    expect(await loaded.text()).toBe('{"scenario":"cancel-order-beyond-2-53","seeded":true,"orders":2,"faults":0}');
    const refusal = mock.loadScenario('nope');
    await expect(refusal).rejects.toBeInstanceOf(MockError);
    await expect(refusal).rejects.toMatchObject({
      code: 'unknown_scenario',
      message: expect.stringMatching(/^Unknown scenario "nope"; known: cancel-cancelled-order, /),
    });
    expect(await mock.orders()).toHaveLength(2);
  });

  it('answers the control plane in-process too', async () => {
    const response = await fetch('http://localhost/__mock/orders', {
      method: 'PUT',
      body: '[{"id": 1, "status": "shipped"}]',
    });
    expect(response.status).toBe(204);
    expect(await mock.orders()).toEqual([{ id: 1n, status: 'shipped' }]);
  });

  it('refuses an invalid seed, an invalid key and a sunset before the deprecation when created', () => {
    expect(() => createOrderMock({ seed: [{ id: 'one' }] })).toThrow('Invalid orders: /0/id must be integer.');
    expect(() => createOrderMock({ apiKeys: ['has space'] })).toThrow(TypeError);
    expect(() => createOrderMock({ apiKeys: [] })).toThrow('At least one API key is required.');
    expect(() =>
      createOrderMock({ petDeprecation: '2027-01-01T00:00:00Z', petSunset: '2026-01-01T00:00:00Z' }),
    ).toThrow('the pet sunset date must not be earlier than its deprecation date');
    expect(() => createOrderMock({ petSunset: 'someday' })).toThrow('petSunset is not a date: "someday".');
  });

  it('answers exactly as the standalone server does, request for request', async () => {
    const http = await startServer();
    // Narrowed, so that the requests to the standalone server on 127.0.0.1 pass through to it.
    const inProcessMock = createOrderMock({ baseUrl: production });
    server.resetHandlers(...inProcessMock.handlers, passthroughTo(http.origin));
    const steps: [string, string, Record<string, string>][] = [
      ['GET', '/v1/store/orders', authorized],
      ['DELETE', '/v1/store/orders/1', authorized],
      ['DELETE', '/v1/store/orders/1', authorized],
      ['DELETE', '/v1/store/orders/3', authorized],
      ['DELETE', '/v1/store/orders/abc', authorized],
      ['GET', '/v1/store/orders', authorized],
      ['GET', '/v1/store/orders', { authorization: 'Bearer nope' }],
      ['POST', '/v1/store/orders', authorized],
      ['GET', '/v1/pets/3', authorized],
      ['GET', '/v1/elsewhere', authorized],
      ['GET', '/__mock/orders', {}],
    ];
    try {
      for (const [method, path, headers] of steps) {
        const inProcess = await fetch(`https://production.invalid${path}`, { method, headers });
        expect(inProcess.headers.get('access-control-allow-origin'), 'answered in-process').toBeNull();
        const overHttp = await fetch(`${http.origin}${path}`, { method, headers });
        // The API lets any origin read it; the control plane names only an allowed origin (none here).
        expect(overHttp.headers.get('access-control-allow-origin'), 'answered over HTTP').toBe(
          path.startsWith('/__mock/') ? null : '*',
        );
        const summary = async (response: Response) => ({
          status: response.status,
          type: response.headers.get('content-type'),
          allow: response.headers.get('allow'),
          authenticate: response.headers.get('www-authenticate'),
          sunset: response.headers.get('sunset'),
          body: await response.text(),
        });
        expect(await summary(overHttp), `${method} ${path}`).toEqual(await summary(inProcess));
      }
    } finally {
      await http.close();
    }
  });
});
