// The kit under MSW's setupServer keeps MSW's own rules: an unmocked request reaches
// onUnhandledRequest, and a handler put in front of the kit's with server.use() is journaled.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrderMock } from '../../mocks/adapters/msw.js';
import type { OrderMock } from '../../mocks/adapters/order-mock.js';

const key = { authorization: 'Bearer petstore-dev-key' };
const unhandled: string[] = [];
const server = setupServer();
let mock: OrderMock;

beforeAll(() => server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) }));
afterEach(() => {
  unhandled.length = 0;
  server.resetHandlers();
});
afterAll(() => server.close());

function install(options: Parameters<typeof createOrderMock>[0] = {}): OrderMock {
  mock = createOrderMock(options);
  server.resetHandlers(...mock.handlers);
  return mock;
}

describe("onUnhandledRequest with the kit's handlers", () => {
  it('is called for a request outside /v1, which the kit leaves alone', async () => {
    install();
    await fetch('https://api.example.com/v3/store/orders', { headers: key }).catch(() => undefined);
    expect(unhandled).toEqual(['https://api.example.com/v3/store/orders']);
    expect(mock.requests()).toEqual([]);
  });

  it('is not called for the API below /v1 on any origin, nor for the control plane', async () => {
    install();
    expect((await fetch('https://staging.example.com/v1/store/orders', { headers: key })).status).toBe(200);
    expect((await fetch('https://api.example.com/v1/nothing/here')).status).toBe(401);
    expect((await fetch('https://api.example.com/__mock/orders')).status).toBe(200);
    expect(unhandled).toEqual([]);
  });

  it('is called for /v1 on another origin than the baseUrl the mock answers', async () => {
    install({ baseUrl: 'https://staging.example.com/v1' });
    await fetch('https://api.example.com/v1/store/orders', { headers: key }).catch(() => undefined);
    expect(unhandled).toEqual(['https://api.example.com/v1/store/orders']);
  });

  it("fails the fetch under 'error', as MSW does without the kit", async () => {
    const strict = setupServer(...createOrderMock().handlers);
    server.close();
    strict.listen({ onUnhandledRequest: 'error' });
    try {
      await expect(fetch('https://api.example.com/v3/store/orders', { headers: key })).rejects.toThrow();
      expect((await fetch('https://api.example.com/v1/store/orders', { headers: key })).status).toBe(200);
    } finally {
      strict.close();
      server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) });
    }
  });

  it("leaves a request outside /v1 to the mock's handlers option, after the kit's", async () => {
    install({ handlers: [http.get('https://auth.example.com/token', () => HttpResponse.json({ token: 't' }))] });
    expect(await (await fetch('https://auth.example.com/token')).json()).toEqual({ token: 't' });
    expect(unhandled).toEqual([]);
  });
});

describe('mock.observe(server): handlers in front of the kit', () => {
  it('journals a call an override answers, with its operation and status', async () => {
    install().observe(server);
    server.use(
      http.get('*/v1/store/orders', () => HttpResponse.json({ code: 'x', message: 'x', status: 500 }, { status: 500 })),
    );
    await fetch('https://api.example.com/v1/store/orders', { headers: key });
    expect(mock.requests()).toMatchObject([
      {
        method: 'GET',
        path: '/v1/store/orders',
        operation: 'listOrders',
        status: 500,
        authorization: 'valid',
        session: null,
      },
    ]);
  });

  it('counts an override in coverage', async () => {
    install().observe(server);
    server.use(http.delete('*/v1/store/orders/:id', () => new HttpResponse(null, { status: 404 })));
    await fetch('https://api.example.com/v1/store/orders/1', { method: 'DELETE', headers: key });
    const cancel = mock.coverage().operations.find((operation) => operation.operation === 'cancelOrder');
    expect(cancel?.responses.find((response) => response.status === 404)?.seen).toBe(1);
    expect(mock.coverage().covered).toBe(1);
  });

  it('journals what the kit answers once, observed or not', async () => {
    install().observe(server);
    await fetch('https://api.example.com/v1/store/orders/3', { method: 'DELETE', headers: key });
    // A handler that returns nothing hands the request on to the next one: the kit's.
    server.use(http.get('*/v1/store/orders', () => undefined));
    await fetch('https://api.example.com/v1/store/orders', { headers: key });
    expect(mock.requests().map((entry) => [entry.operation, entry.status])).toEqual([
      ['cancelOrder', 409],
      ['listOrders', 200],
    ]);
  });

  // MSW reports no response for a dropped connection; docs/frontend.md says to use a fault for one instead.
  it('cannot journal a dropped connection an override makes, and a network fault is journaled', async () => {
    install().observe(server);
    server.use(http.get('*/v1/store/orders', () => HttpResponse.error()));
    await expect(fetch('https://api.example.com/v1/store/orders', { headers: key })).rejects.toThrow();
    server.resetHandlers(...mock.handlers);
    mock.addFaults({ operation: 'listOrders', network: true, times: 1 });
    await expect(fetch('https://api.example.com/v1/store/orders', { headers: key })).rejects.toThrow();
    expect(mock.requests()).toMatchObject([{ operation: 'listOrders', status: 'network' }]);
  });

  it('journals an override in the session its X-Mock-Session header names', async () => {
    install().observe(server);
    server.use(http.get('*/v1/store/orders', () => HttpResponse.json([])));
    await fetch('https://api.example.com/v1/store/orders', { headers: { 'x-mock-session': 'tab-2' } });
    expect(mock.requests()).toEqual([]);
    expect(mock.session('tab-2').requests()).toMatchObject([
      { operation: 'listOrders', status: 200, authorization: 'none', session: 'tab-2' },
    ]);
  });

  it('journals nothing outside the API, whoever answers', async () => {
    install().observe(server);
    server.use(http.get('https://api.example.com/v3/store/orders', () => HttpResponse.json([])));
    await fetch('https://api.example.com/v3/store/orders');
    expect(mock.requests()).toEqual([]);
  });

  it('connects a server once however often it is asked, and stops when disconnected', async () => {
    install();
    const disconnect = mock.observe(server);
    expect(mock.observe(server)).toBe(disconnect);
    server.use(http.get('*/v1/store/orders', () => HttpResponse.json([])));
    await fetch('https://api.example.com/v1/store/orders', { headers: key });
    disconnect();
    await fetch('https://api.example.com/v1/store/orders', { headers: key });
    expect(mock.requests()).toHaveLength(1);
  });

  it('journals each of 1,500 calls at once exactly once', async () => {
    install().observe(server);
    await Promise.all(
      Array.from({ length: 1500 }, () => fetch('https://api.example.com/v1/store/orders', { headers: key })),
    );
    const list = mock.coverage().operations.find((operation) => operation.operation === 'listOrders');
    expect(list?.responses.find((response) => response.status === 200)?.seen).toBe(1500);
  });

  it("does not take another mock's answer on the same server for an override", async () => {
    const first = createOrderMock();
    const second = createOrderMock();
    server.resetHandlers(...first.handlers, ...second.handlers);
    first.observe(server);
    second.observe(server);
    await fetch('https://api.example.com/v1/store/orders/3', { method: 'DELETE', headers: key });
    expect(first.requests().map((entry) => entry.status)).toEqual([409]);
    expect(second.requests()).toEqual([]);
  });

  it('sees no override when not connected', async () => {
    install();
    server.use(http.get('*/v1/store/orders', () => HttpResponse.json([])));
    await fetch('https://api.example.com/v1/store/orders', { headers: key });
    expect(mock.requests()).toEqual([]);
  });
});

describe('scenarios without options', () => {
  it('loads a scenario the kit ships with no scenarios option', async () => {
    const loaded = await createOrderMock().loadScenario('cancel-shipped-order');
    expect(loaded).toEqual({ scenario: 'cancel-shipped-order', seeded: true, orders: 2, faults: 0 });
  });

  it('lists the shipped scenarios', () => {
    expect(
      createOrderMock()
        .scenarios()
        .map((scenario) => scenario.name),
    ).toContain('cancel-shipped-order');
  });

  it('starts from the scenario it is created with, in every session', async () => {
    const scenarioMock = createOrderMock({ scenario: 'cancel-shipped-order' });
    const statuses = async (controls: { orders(): Promise<{ id: bigint; status: string }[]> }) =>
      (await controls.orders()).map((order) => `${order.id}:${order.status}`);
    expect(await statuses(scenarioMock)).toEqual(['1:pending', '3:shipped']);
    expect(await statuses(scenarioMock.session('other'))).toEqual(['1:pending', '3:shipped']);
  });

  it('returns to that scenario on reset, not to the default seed', async () => {
    const scenarioMock = createOrderMock({ scenario: 'cancel-shipped-order' });
    const answer = await scenarioMock.handle(
      new Request('http://localhost/v1/store/orders/1', { method: 'DELETE', headers: key }),
    );
    expect(answer).toMatchObject({ status: 204 });
    await scenarioMock.reset();
    expect((await scenarioMock.orders()).map((order) => order.status)).toEqual(['pending', 'shipped']);
  });

  it("puts the scenario's step faults in force, and back in force on reset", async () => {
    const scenarioMock = createOrderMock({ scenario: 'list-orders-unavailable' });
    const withoutIds = () => scenarioMock.faults().map(({ id: _id, ...fault }) => fault);
    const faults = withoutIds();
    expect(faults).toMatchObject([{ operation: 'listOrders', status: 503, after: 0, times: 1 }]);
    await scenarioMock.reset();
    expect(withoutIds()).toEqual(faults);
  });

  it('refuses a scenario it does not know, listing the known ones', () => {
    expect(() => createOrderMock({ scenario: 'nope' })).toThrow(
      /^Unknown scenario "nope"; known: cancel-cancelled-order, /,
    );
  });

  it('refuses a seed beside a scenario with orders of its own', () => {
    expect(() => createOrderMock({ scenario: 'cancel-shipped-order', seed: [{ id: 1 }] })).toThrow(
      'seed and scenario cannot be used together: scenario cancel-shipped-order has orders of its own',
    );
  });

  it('takes only the scenarios it is given, when given', async () => {
    const own = createOrderMock({ scenarios: [{ name: 'mine', state: { params: { orders: [{ id: 9 }] } } }] });
    expect(own.scenarios().map((scenario) => scenario.name)).toEqual(['mine']);
    await expect(own.loadScenario('cancel-shipped-order')).rejects.toThrow(
      'Unknown scenario "cancel-shipped-order"; known: mine.',
    );
  });
});
