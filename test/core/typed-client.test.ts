// The field's typed client, exact: openapi-fetch over the types of petstore-contract-kit/openapi (every
// int64 a bigint) with exactFetch, against the mock in-process (setupServer) and standalone, with two
// orders whose ids a float64 cannot tell apart. And the kit's own public types, as they stand.
import { setupServer } from 'msw/node';
import createClient from 'openapi-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { OrderClient } from '../../contracts/client.js';
import type { Order as PackageOrder, OrderCollection, OrderMock, WireOrder } from '../../mocks/index.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import type { Scenario } from '../../core/scenario.js';
import { exactFetch, int64AsBigint, parseJson, type ExactOrder } from '../../core/exact.js';
import type { components, operations, paths } from '../../core/openapi.js';
import { authorized, startServer } from '../support/support.js';

const twins = [{ id: 9007199254740993n }, { id: 9007199254740992n }, { id: 3, status: 'shipped' }];

describe("the kit's public types", () => {
  it('say bigint where the kit gives bigint', () => {
    expectTypeOf<Awaited<ReturnType<OrderMock['orders']>>[number]['id']>().toEqualTypeOf<bigint>();
    expectTypeOf<Awaited<ReturnType<OrderCollection['findFirst']>>>()
      .exclude<undefined>()
      .toHaveProperty('id')
      .toEqualTypeOf<bigint>();
    expectTypeOf<Awaited<ReturnType<OrderClient['listOrders']>>[number]['id']>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<PackageOrder['id']>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<PackageOrder>().toEqualTypeOf<ExactOrder>();
    expectTypeOf<WireOrder['id']>().toEqualTypeOf<number | undefined>();
    // A scenario's orders as loaded: exact integers, a bigint beyond 2^53.
    expectTypeOf<NonNullable<Scenario['state']>['params']['orders'][number]['id']>().toEqualTypeOf<number | bigint>();
  });

  it('give the generated types with every int64 a bigint, the orderId parameter too', () => {
    expectTypeOf<components['schemas']['Order']['id']>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<components['schemas']['Order']['petId']>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<components['schemas']['Order']['quantity']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<paths['/store/orders/{orderId}']['delete']['parameters']['path']['orderId']>().toEqualTypeOf<bigint>();
  });

  it('give the pet an open object, and its read a name', () => {
    expectTypeOf<components['schemas']['Pet']>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<paths['/pets/{petId}']['get']>().toEqualTypeOf<operations['readPet']>();
  });
});

describe('exactFetch', () => {
  it('reads every int64 of a documented body as a bigint, small ids too', () => {
    const orders = parseJson('[{"id":1,"petId":9223372036854775807,"quantity":2},{"id":9007199254740993}]');
    expect(int64AsBigint(orders, { type: 'array', items: { $ref: '#/components/schemas/Order' } })).toEqual([
      { id: 1n, petId: 9223372036854775807n, quantity: 2 },
      { id: 9007199254740993n },
    ]);
  });
});

function typedClient(baseUrl: string) {
  return createClient<paths>({ baseUrl, fetch: exactFetch, headers: authorized });
}

/** Lists, cancels the first order listed, and tells what the store holds then: the flow that went wrong with JSON.parse. */
async function cancelFirstListed(client: ReturnType<typeof typedClient>, mock: OrderMock) {
  const { data: orders } = await client.GET('/store/orders');
  const first = orders![0]!.id!;
  const { response } = await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: first } } });
  const statuses = (await mock.orders()).map((order) => [order.id, order.status]);
  return { listed: orders!.map((order) => order.id), first, status: response.status, statuses };
}

const expectedFlow = {
  listed: [9007199254740993n, 9007199254740992n, 3n],
  first: 9007199254740993n,
  status: 204,
  statuses: [
    [9007199254740993n, 'cancelled'],
    [9007199254740992n, 'pending'],
    [3n, 'shipped'],
  ],
};

describe('openapi-fetch with exactFetch, in process', () => {
  const mock = createOrderMock({ seed: twins });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mock.reset());
  afterAll(() => server.close());
  const client = typedClient('https://api.example.com/v1');

  it('lists both ids exactly and cancels the order it meant, leaving the other pending', async () => {
    expect(await cancelFirstListed(client, mock)).toEqual(expectedFlow);
  });

  it('gets the 409 of a shipped order as an Error record, or as nothing when the mock sends none', async () => {
    const withRecord = await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: 3n } } });
    expect(withRecord.response.status).toBe(409);
    expect(withRecord.error).toMatchObject({ code: 'order_already_shipped', status: 409 });
    mock.changeSettings({ conflictBody: 'none' });
    const bare = await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: 3n } } });
    expect(bare.response.status).toBe(409);
    expect(bare.error).toBeUndefined();
  });

  it("keeps a response's copy exact, and leaves HEAD and the control page's HTML as they came", async () => {
    const listed = await exactFetch('https://api.example.com/v1/store/orders', { headers: authorized });
    expect(listed.url).toBe('https://api.example.com/v1/store/orders');
    expect(await listed.clone().json()).toEqual([{ id: 9007199254740993n }, { id: 9007199254740992n }, { id: 3n }]);
    const head = await exactFetch('https://api.example.com/v1/store/orders', { method: 'HEAD', headers: authorized });
    expect(head.headers.get('content-length')).not.toBe('0');
    const page = await exactFetch('https://api.example.com/__mock/');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toMatch(/^<!doctype html>/);
  });

  it('reads the pet as an open object', async () => {
    const { data } = await client.GET('/pets/{petId}', { params: { path: { petId: '7' } } });
    expect(data).toEqual({ id: 7 });
  });
});

describe('openapi-fetch with exactFetch, standalone', () => {
  let standalone: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    standalone = await startServer({ seed: twins });
  });
  afterAll(() => standalone.close());

  it('lists both ids exactly and cancels the order it meant, leaving the other pending', async () => {
    expect(await cancelFirstListed(typedClient(`${standalone.origin}/v1`), standalone.server.mock)).toEqual(
      expectedFlow,
    );
  });
});

describe('openapi-fetch without exactFetch (what docs/frontend.md warns of)', () => {
  it('lists the two ids as one number, and a cancel of that number cancels the other order, with a 204', async () => {
    const standalone = await startServer({ seed: twins });
    try {
      const client = createClient<paths>({ baseUrl: `${standalone.origin}/v1`, headers: authorized });
      const { data } = await client.GET('/store/orders');
      const ids = (data as unknown as { id: number }[]).map((order) => order.id);
      expect(ids[0]).toBe(ids[1]);
      const refused = await fetch(`${standalone.origin}/v1/store/orders/${ids[0]}`, {
        method: 'DELETE',
        headers: authorized,
      });
      // 9007199254740992 is in the store: it is cancelled. The hint is for an id no order has.
      expect(refused.status).toBe(204);
    } finally {
      await standalone.close();
    }
  });
});
