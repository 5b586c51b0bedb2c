// The in-page mock's route source (mocks/adapters/playwright-network.ts) on a context that only
// records what Playwright would be told: which requests are fulfilled, with what, aborted or let
// through, and what the journal keeps. The example suite (playwright-example.test.ts) runs it in
// Chromium, on msw 2 here and on msw 3 in msw3-frontend.test.ts.
import * as msw from 'msw';
import { HttpResponse, http, passthrough, ws } from 'msw';
import { describe, expect, it } from 'vitest';
import { MockUsageError } from '../../mocks/base/errors.js';
import { createOrderMock, type OrderMock } from '../../mocks/adapters/order-mock.js';
import { createPageNetwork, type RouteTarget } from '../../mocks/adapters/playwright-network.js';

type Outcome =
  | { kind: 'fulfilled'; status: number; headers: Record<string, string>; body: string | undefined }
  | { kind: 'aborted' }
  | { kind: 'fallback' };

type RouteHandler = (route: unknown, request: unknown) => Promise<void>;

/** A browser context that keeps the one route handler it is given, and a way to send it a request. */
function recordingContext() {
  const routes: { url: unknown; handler: RouteHandler }[] = [];
  const context = {
    route: async (url: unknown, handler: RouteHandler) => void routes.push({ url, handler }),
    unroute: async (url: unknown, handler: RouteHandler) => {
      const index = routes.findIndex((route) => route.url === url && route.handler === handler);
      if (index >= 0) routes.splice(index, 1);
    },
  };
  async function send(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Outcome> {
    let outcome: Outcome | undefined;
    const route = {
      fulfill: async (response: { status: number; headers: Record<string, string>; body?: Buffer }) => {
        outcome = { kind: 'fulfilled', ...response, body: response.body?.toString('utf8') };
      },
      abort: async () => void (outcome = { kind: 'aborted' }),
      fallback: async () => void (outcome = { kind: 'fallback' }),
    };
    const headers = init.headers ?? {};
    const request = {
      url: () => url,
      method: () => init.method ?? 'GET',
      allHeaders: async () => headers,
      headers: () => headers,
      postDataBuffer: () => (init.body === undefined ? null : Buffer.from(init.body)),
    };
    const [only] = routes;
    if (only === undefined) throw new Error('no route is set');
    await only.handler(route, request);
    if (outcome === undefined) throw new Error('the route was left unanswered');
    return outcome;
  }
  return { context: context as unknown as RouteTarget, routes, send };
}

const withKey = { authorization: 'Bearer petstore-dev-key' };

async function enabledNetwork(mock: OrderMock = createOrderMock({ scenario: 'cancel-shipped-order' })) {
  const recording = recordingContext();
  const network = createPageNetwork(recording.context, mock, msw);
  await network.enable();
  return { ...recording, network, mock };
}

describe("the in-page mock's route source", () => {
  it("fulfills the kit's answer as the pipeline gives it, and journals it once", async () => {
    const { send, mock } = await enabledNetwork();
    const outcome = await send('http://app.test/v1/store/orders/3', { method: 'DELETE', headers: withKey });
    expect(outcome).toMatchObject({ kind: 'fulfilled', status: 409 });
    expect(JSON.parse((outcome as { body: string }).body)).toMatchObject({ code: 'order_already_shipped' });
    expect((await mock.requests()).map((entry) => [entry.operation, entry.status])).toEqual([['cancelOrder', 409]]);
  });

  it('sends a request body to the pipeline', async () => {
    const { send, mock } = await enabledNetwork(createOrderMock());
    const outcome = await send('http://app.test/__mock/orders', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '[{"id": 9007199254740993, "petId": 1, "status": "pending"}]',
    });
    expect(outcome).toMatchObject({ kind: 'fulfilled', status: 204, body: undefined });
    expect((await mock.orders()).map((order) => order.id)).toEqual([9007199254740993n]);
  });

  it('aborts a request a fault drops', async () => {
    const { send } = await enabledNetwork(createOrderMock({ scenario: 'cancel-order-network-error' }));
    expect(await send('http://app.test/v1/store/orders/1', { method: 'DELETE', headers: withKey })).toEqual({
      kind: 'aborted',
    });
  });

  it("lets through what is not the mock's, and common assets without asking any handler", async () => {
    const { send, network } = await enabledNetwork();
    expect(await send('http://app.test/index.html')).toEqual({ kind: 'fallback' });
    let asked = 0;
    network.use(
      http.get('*', () => {
        asked++;
        return undefined;
      }),
    );
    expect(await send('http://app.test/assets/app.js')).toEqual({ kind: 'fallback' });
    expect(asked).toBe(0);
  });

  it("answers with a handler put in front, before the kit's, and journals its answer", async () => {
    const { send, network, mock } = await enabledNetwork();
    network.use(http.get('*/v1/store/orders', () => HttpResponse.json([])));
    const outcome = await send('http://app.test/v1/store/orders', { headers: withKey });
    expect(outcome).toEqual({
      kind: 'fulfilled',
      status: 200,
      headers: { 'content-length': '2', 'content-type': 'application/json' },
      body: '[]',
    });
    expect((await mock.requests()).map((entry) => [entry.operation, entry.status])).toEqual([['listOrders', 200]]);
  });

  it("resolves a handler's relative path against the page that asks (its Referer)", async () => {
    const { send, network } = await enabledNetwork();
    network.use(http.get('/health', () => HttpResponse.text('ok')));
    expect(await send('http://app.test/health', { headers: { referer: 'http://app.test/orders' } })).toMatchObject({
      kind: 'fulfilled',
      body: 'ok',
    });
    expect(await send('http://other.test/health', { headers: { referer: 'http://app.test/orders' } })).toEqual({
      kind: 'fallback',
    });
  });

  it("aborts for a handler's Response.error(), and lets a passthrough() go to the network", async () => {
    const { send, network, mock } = await enabledNetwork();
    network.use(
      http.get('*/v1/store/orders', () => Response.error()),
      http.delete('*/v1/store/orders/:id', () => passthrough()),
    );
    expect(await send('http://app.test/v1/store/orders', { headers: withKey })).toEqual({ kind: 'aborted' });
    expect(await send('http://app.test/v1/store/orders/3', { method: 'DELETE', headers: withKey })).toEqual({
      kind: 'fallback',
    });
    expect((await mock.requests()).map((entry) => [entry.operation, entry.status])).toEqual([
      ['listOrders', 'network'],
    ]);
  });

  it('puts the last handlers used first, resets and restores them as MSW does', async () => {
    const { send, network } = await enabledNetwork();
    const first = http.get('*/v1/store/orders', () => HttpResponse.text('first'));
    const once = http.get('*/v1/store/orders', () => HttpResponse.text('once'), { once: true });
    network.use(first);
    network.use(once);
    expect(network.listHandlers()).toEqual([once, first]);
    const bodies = async () =>
      ((await send('http://app.test/v1/store/orders', { headers: withKey })) as { body: string }).body;
    expect([await bodies(), await bodies()]).toEqual(['once', 'first']);
    network.restoreHandlers();
    expect(await bodies()).toBe('once');
    network.resetHandlers();
    expect(network.listHandlers()).toEqual([]);
    // The kit's answer again: the scenario's orders 1 and 3.
    expect(JSON.parse(await bodies()).map((order: { id: number }) => order.id)).toEqual([1, 3]);
  });

  it('refuses a WebSocket handler with unsupported_handler', async () => {
    const { network } = await enabledNetwork();
    let error: unknown;
    try {
      network.use(ws.link('ws://app.test/live').addEventListener('connection', () => {}));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MockUsageError);
    expect(error).toMatchObject({
      code: 'unsupported_handler',
      message:
        "network.use() takes MSW request handlers (http, graphql, sse): the in-page mock routes HTTP only. For a WebSocket handler, route it with Playwright's context.routeWebSocket() in the test.",
    });
    expect(network.listHandlers()).toEqual([]);
  });

  it('takes its one route off again when disabled', async () => {
    const { routes, network } = await enabledNetwork();
    expect(routes).toHaveLength(1);
    await network.disable();
    expect(routes).toEqual([]);
  });
});
