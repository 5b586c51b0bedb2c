// The kit under msw 2.15's defineNetwork (msw/experimental, the way msw 3 builds setupServer on): the
// kit's handlers answer, observe() journals a handler put in front with network.use(), and coverage
// counts both. msw 3 runs the same in test/package/msw3.test.ts, on Node 24.
import { http, HttpResponse } from 'msw';
import { defineNetwork } from 'msw/experimental';
import { defaultNetworkOptions } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UnhandledRequests } from '../../mocks/adapters/browser.js';
import { createOrderMock } from '../../mocks/adapters/msw.js';

const key = { authorization: 'Bearer petstore-dev-key' };
const mock = createOrderMock({ scenario: 'cancel-shipped-order' });
const network = defineNetwork({ ...defaultNetworkOptions, handlers: mock.handlers });
let disconnect: () => void;

beforeAll(() => {
  disconnect = mock.observe(network);
  return network.enable();
});
beforeEach(() => {
  mock.reset();
  network.resetHandlers();
});
afterAll(() => {
  disconnect();
  return network.disable();
});

describe("msw 2.15's defineNetwork with the kit's handlers", () => {
  it('answers from the kit: the 409 of a shipped order, the 204 of a pending one, journaled and covered', async () => {
    const refused = await fetch('https://api.example.com/v1/store/orders/3', { method: 'DELETE', headers: key });
    const cancelled = await fetch('https://api.example.com/v1/store/orders/1', { method: 'DELETE', headers: key });
    expect([refused.status, cancelled.status]).toEqual([409, 204]);
    expect(mock.requests().map((call) => [call.operation, call.status])).toEqual([
      ['cancelOrder', 409],
      ['cancelOrder', 204],
    ]);
    const cancel = mock.coverage().operations.find((operation) => operation.operation === 'cancelOrder')!;
    expect(cancel.responses.filter((response) => response.seen > 0).map((response) => response.status)).toEqual([
      204, 409,
    ]);
  });

  it("journals the answer of a handler put in front of the kit's with network.use()", async () => {
    network.use(http.get('*/v1/store/orders', () => HttpResponse.json([])));
    expect(await (await fetch('https://api.example.com/v1/store/orders', { headers: key })).json()).toEqual([]);
    expect(mock.requests().map((call) => [call.operation, call.status])).toEqual([['listOrders', 200]]);
  });

  it("types startBrowserMock's onUnhandledRequest as msw 2's strategy, its (request, print) callback included", () => {
    const strategies: UnhandledRequests[] = [
      'bypass',
      'warn',
      (request, print) => void (request.url && print.warning()),
    ];
    expect(strategies).toHaveLength(3);
  });
});
