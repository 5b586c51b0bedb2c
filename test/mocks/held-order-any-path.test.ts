// A handler in front of the kit's answers a call on one order: the pact compares its status with how
// the mock's store held the order the call names. The order is the route's path parameter wherever it
// stands in the path; read as the path's last segment, an operation such as
// `POST /store/orders/{orderId}/ship` named no order, and a contradicting answer went into the pact as a
// provider state. Here the mock is built on a route table whose cancel is `DELETE /store/orders/{orderId}/cancel`.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { removeBuiltRoutes, withRoutes } from '../support/with-routes.js';

const base = 'https://api.example.com/v1';
const server = setupServer();
let mocks: { createOrderMock: typeof createOrderMock };

beforeAll(async () => {
  mocks = await withRoutes<typeof mocks>(
    (routes) =>
      routes.map((route) =>
        route.operation === 'cancelOrder' ? { ...route, path: '/store/orders/{orderId}/cancel' } : route,
      ),
    { createOrderMock: 'mocks/adapters/order-mock.ts' },
  );
  server.listen({ onUnhandledRequest: 'error' });
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await removeBuiltRoutes();
});

describe('the order a call names, for a handler in front of the kit', () => {
  it('is the path parameter, not the last segment: a 409 for a pending order is a finding', async () => {
    const mock = mocks.createOrderMock();
    server.use(...mock.handlers);
    const stop = mock.observe(server);
    server.use(http.delete(`${base}/store/orders/1/cancel`, () => new HttpResponse(null, { status: 409 })));
    const answer = await fetch(`${base}/store/orders/1/cancel`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer petstore-dev-key' },
    });
    expect(answer.status).toBe(409);
    const { findings } = await mock.pactDocument({ consumer: 'web-app' });
    stop();
    expect(findings).toMatchObject([
      {
        code: 'status-unexpected',
        expected: expect.stringContaining('status 204: the mock held order 1 as pending'),
        actual: 'status 409',
        interaction: 'DELETE /store/orders/1/cancel 409 (with the key)',
      },
    ]);
  });
});
