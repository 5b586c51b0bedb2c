// An operation whose answer tells a cancelled order from one the store does not hold (a ship's 409 for a
// cancelled order, where the cancel answers 404 for both): its evidence may say `cancelled`, so the
// consumer pact states a cancelled order and a recording infers one, and `statusWhenCancelled` gives the
// status a handler's answer is held to. Before, a definition could not say it (`HeldAs` has no
// cancelled: the fixture did not type-check), so the mock's own 409 was refused from a pact as against
// the contract and the proxy judged an honest 409 a violation; and a cancelled order was always held to
// an absent one's 404. The kit is built here on a route table and a registry with the ship
// (test/support/with-routes.ts).
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderHistory } from '../../core/compare.js';
import type { createOrderMock } from '../../mocks/adapters/order-mock.js';
import type { ExchangeToRecord, recordableCall } from '../../verify/recorder/recorded-call.js';
import type { RecordedState } from '../../verify/recorder/recorded-state.js';
import type { JudgedCalls, judgeSteps } from '../../verify/recorder/step-judging.js';
import { withShipRoute } from '../support/ship-order-definition.js';
import { removeBuiltRoutes, withRoutes } from '../support/with-routes.js';

interface Kit {
  createOrderMock: typeof createOrderMock;
  recordableCall: typeof recordableCall;
  judgeSteps: typeof judgeSteps;
  RecordedState: typeof RecordedState;
  ProviderHistory: typeof ProviderHistory;
}

let kit: Kit;
const server = setupServer();
const base = 'http://localhost/v1';
const withKey = { authorization: 'Bearer petstore-dev-key' };

beforeAll(async () => {
  kit = await withRoutes<Kit>(
    withShipRoute,
    {
      createOrderMock: 'mocks/adapters/order-mock.ts',
      recordableCall: 'verify/recorder/recorded-call.ts',
      judgeSteps: 'verify/recorder/step-judging.ts',
      RecordedState: 'verify/recorder/recorded-state.ts',
      ProviderHistory: 'core/compare.ts',
    },
    { definitions: { shipOrder: 'test/support/ship-order-definition.ts#shipOrderDefinition' } },
  );
  server.listen({ onUnhandledRequest: 'error' });
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await removeBuiltRoutes();
});

describe('evidence of a cancelled order', () => {
  it('goes into the consumer pact as a cancelled order, not refused as against the contract', async () => {
    const mock = kit.createOrderMock({ baseUrl: base });
    const cancel = await mock.handle(new Request(`${base}/store/orders/2`, { method: 'DELETE', headers: withKey }));
    const ship = await mock.handle(new Request(`${base}/store/orders/2/ship`, { method: 'POST', headers: withKey }));
    expect([cancel, ship]).toMatchObject([{ status: 204 }, { status: 409 }]);
    const { document, findings } = await mock.pactDocument({ consumer: 'web-app' });
    expect(findings).toEqual([]);
    const shipped = (document.interactions as { description: string; providerStates: unknown }[]).find(
      (interaction) => interaction.description === 'POST /store/orders/2/ship 409 (with the key)',
    );
    expect(shipped?.providerStates).toEqual([
      { name: 'the store holds orders', params: { orders: [{ id: 2n, status: 'cancelled' }] } },
    ]);
  });

  it('holds a 409 a handler in front answered for a cancelled order as the contract requires, not as the 404 of an absent one', async () => {
    const mock = kit.createOrderMock({ baseUrl: base });
    server.use(...mock.handlers);
    const stop = mock.observe(server);
    await fetch(`${base}/store/orders/2`, { method: 'DELETE', headers: withKey });
    server.use(
      http.post(`${base}/store/orders/2/ship`, () =>
        HttpResponse.json({ code: 'order_cancelled', message: 'Cancelled.', status: 409 }, { status: 409 }),
      ),
    );
    expect((await fetch(`${base}/store/orders/2/ship`, { method: 'POST', headers: withKey })).status).toBe(409);
    const { findings } = await mock.pactDocument({ consumer: 'web-app' });
    stop();
    expect(findings).toEqual([]);
  });

  it('states the whole order a 200 shows, so that a verifier finds every field the pact expects', async () => {
    const mock = kit.createOrderMock({ baseUrl: base });
    const ship = await mock.handle(new Request(`${base}/store/orders/1/ship`, { method: 'POST', headers: withKey }));
    expect(ship).toMatchObject({ status: 200 });
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    const [interaction] = document.interactions as { providerStates: { params: { orders: object[] } }[] }[];
    expect(interaction!.providerStates[0]!.params.orders).toEqual([
      { id: 1n, petId: 101, quantity: 1, shipDate: '2026-12-01T09:00:00Z', complete: false, status: 'pending' },
    ]);
  });

  it('ships through the store: a shipped order is then refused a cancel, a cancelled one refused a ship', async () => {
    const mock = kit.createOrderMock({ baseUrl: base });
    const call = async (method: string, path: string) =>
      (await mock.handle(new Request(`${base}${path}`, { method, headers: withKey })))!;
    const answers = [
      await call('POST', '/store/orders/1/ship'),
      await call('DELETE', '/store/orders/1'),
      await call('POST', '/store/orders/1/ship'),
      await call('DELETE', '/store/orders/2'),
      await call('POST', '/store/orders/2/ship'),
      await call('POST', '/store/orders/99/ship'),
    ];
    expect(answers).toMatchObject([
      { status: 200 },
      { status: 409 },
      { status: 200 },
      { status: 204 },
      { status: 409 },
      { status: 404 },
    ]);
    expect((await mock.orders()).find((order) => order.id === 1n)?.status).toBe('shipped');
  });

  it('makes a recording infer a cancelled order, and the honest 409 agrees with the contract', async () => {
    const exchange: ExchangeToRecord = {
      method: 'POST',
      operationPath: '/store/orders/2/ship',
      authorization: 'Bearer petstore-dev-key',
      status: 409,
      observed: {
        status: 409,
        headers: new Headers({ 'content-type': 'application/json' }),
        text: '{"code":"order_cancelled","message":"Cancelled.","status":409}',
      },
      findings: [],
      startedAt: 1,
      endedAt: 2,
    };
    const call = kit.recordableCall(exchange, 1, undefined)!;
    const state = new kit.RecordedState();
    state.observe({
      ...call,
      status: 409,
      body: { code: 'order_cancelled' },
      step: call.title,
      startedAt: 1,
      endedAt: 2,
    });
    expect(state.orders()).toEqual([{ id: 2n, status: 'cancelled' }]);
    const recording: JudgedCalls = {
      file: 'cancelled.yaml',
      calls: [{ call, judgement: undefined }],
      state,
      judgedIn: undefined,
      model: undefined,
      history: new kit.ProviderHistory(),
      touched: new Set(),
      orderLines: new WeakMap(),
    };
    const [step] = await kit.judgeSteps(recording);
    expect(step!.step.expect.status).toBe(409);
    expect(step!.disagreements).toEqual([]);
  });
});
