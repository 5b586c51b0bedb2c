// One mock, both majors over one store (issue 56): v2's list at /v2 beside v1, through MSW's handlers
// and the node:http server alike, its parameters judged (spec gaps 50 and 51), its calls journaled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderClient, OrderApiError } from '../../contracts/client.js';
import createClient from 'openapi-fetch';
import { exactFetch } from '../../core/exact-fetch.js';
import type { v2Paths } from '../../core/openapi.js';
import { operationNames } from '../../core/routes.js';
import type { JsonValue } from '../../core/parse-json.js';
import { authorized, expectError, inProcessBase, jsonOf, startServer, useInProcessMock } from '../support/support.js';

const v1 = inProcessBase;
const v2 = inProcessBase.replace(/\/v1$/, '/v2');
const seed = [
  { id: 9007199254740993n, status: 'pending' as const },
  { id: 1, status: 'pending' as const },
  { id: 3, status: 'shipped' as const },
  { id: 2, status: 'pending' as const },
];

type Page = { orders: { id: bigint | number; status: string }[]; nextCursor: string | null };

describe("v2's list through MSW's handlers, over the store v1 changes", () => {
  const mock = useInProcessMock({ seed });
  const page = async (query: string) =>
    (await jsonOf(await fetch(`${v2}/store/orders${query}`, { headers: authorized }))) as unknown as Page;

  it('shows an order cancelled through v1 as cancelled', async () => {
    expect((await fetch(`${v1}/store/orders/2`, { method: 'DELETE', headers: authorized })).status).toBe(204);
    expect((await page('?status=cancelled')).orders).toEqual([{ id: 2, status: 'cancelled' }]);
  });

  it('pages every order once in ascending order of id, the id past 2^53 exact', async () => {
    const ids: (bigint | number)[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const next: Page = await page(`?limit=1${cursor === '' ? '' : `&cursor=${cursor}`}`);
      ids.push(...next.orders.map((order) => order.id));
      cursor = next.nextCursor;
    }
    expect(ids).toEqual([1, 2, 3, 9007199254740993n]);
  });

  it("answers a limit past its bounds with the document's 400 Error", async () => {
    await expectError(
      await fetch(`${v2}/store/orders?limit=101`, { headers: authorized }),
      400,
      'invalid_parameter',
      'The query parameter limit must be <= 100; got "101".',
    );
  });

  it('answers a status that is none with 400 invalid_parameter', async () => {
    await expectError(
      await fetch(`${v2}/store/orders?status=lost`, { headers: authorized }),
      400,
      'invalid_parameter',
      'The query parameter status must be one of "pending", "shipped", "cancelled"; got "lost".',
    );
  });

  it('answers a cursor it did not give with 400 invalid_cursor', async () => {
    await expectError(
      await fetch(`${v2}/store/orders?cursor=abc`, { headers: authorized }),
      400,
      'invalid_cursor',
      'The cursor "abc" is not one this server gave for the unfiltered list.',
    );
  });

  it('answers 401 before it reads any parameter', async () => {
    await expectError(await fetch(`${v2}/store/orders?limit=0`), 401, 'missing_api_key');
  });

  it('answers a limit written with a leading zero with 400, naming its one form (spec gap 58)', async () => {
    await expectError(
      await fetch(`${v2}/store/orders?limit=01`, { headers: authorized }),
      400,
      'invalid_parameter',
      'The query parameter limit must be an integer written as 1, without leading zeros or -0; got "01".',
    );
  });

  it('answers a status whose bytes are not UTF-8 with 400, showing it as it was sent', async () => {
    await expectError(
      await fetch(`${v2}/store/orders?status=%FF`, { headers: authorized }),
      400,
      'invalid_parameter',
      'The query parameter status must be UTF-8 once percent-decoded; got "%FF".',
    );
  });

  it('answers with a fault before it reads the parameters, as before it checks the key', async () => {
    mock().addFaults({ operation: 'listOrdersV2', status: 503, times: 1 });
    await expectError(await fetch(`${v2}/store/orders?limit=101`, { headers: authorized }), 503, 'injected_fault');
  });

  it("keeps v1's list as it was, a query string ignored", async () => {
    const plain = await (await fetch(`${v1}/store/orders`, { headers: authorized })).text();
    const queried = await (await fetch(`${v1}/store/orders?status=shipped&limit=1`, { headers: authorized })).text();
    expect({ queried, orders: (JSON.parse(plain) as unknown[]).length }).toEqual({ queried: plain, orders: 4 });
  });

  it("leaves a path below /v2 that is none of v2's to MSW's unhandled rule: v2 has no cancel", async () => {
    await expect(fetch(`${v2}/store/orders/1`, { method: 'DELETE', headers: authorized })).rejects.toThrow();
  });

  it("answers another method at v2's list with 405 and its Allow", async () => {
    const answer = await fetch(`${v2}/store/orders`, { method: 'POST', headers: authorized });
    expect({ status: answer.status, allow: answer.headers.get('allow') }).toEqual({
      status: 405,
      allow: 'GET, HEAD, OPTIONS',
    });
  });

  it('journals a v2 call with its operation and its query', async () => {
    await page('?status=pending&limit=2');
    expect(mock().requests({ operation: 'listOrdersV2' })).toMatchObject([
      { method: 'GET', path: '/v2/store/orders', query: 'status=pending&limit=2', status: 200 },
    ]);
  });

  it("marks a beta operation's journal entry with the document's marker, and a stable one's with none", async () => {
    await page('?limit=1');
    await fetch(`${v1}/store/orders`, { headers: authorized });
    expect(
      mock()
        .requests()
        .map((entry) => [entry.operation, entry.stability]),
    ).toEqual([
      ['listOrdersV2', 'beta'],
      ['listOrders', undefined],
    ]);
    expect(
      mock()
        .requests()
        .map((entry) => 'stability' in entry),
    ).toEqual([true, false]);
  });

  it("writes a v2 call into the consumer pact with its base path, its query and the page's orders as its state", async () => {
    await page('?status=pending&limit=5');
    const { document, leftOut } = await mock().pactDocument({ consumer: 'web-app' });
    const [interaction] = document.interactions as JsonValue[];
    expect({ leftOut, interaction }).toEqual({
      leftOut: [],
      interaction: {
        description: 'GET /v2/store/orders?status=pending&limit=5 200 (with the key)',
        type: 'Synchronous/HTTP',
        providerStates: [
          {
            name: 'the store holds orders',
            params: {
              orders: [
                { id: 1, status: 'pending' },
                { id: 2, status: 'pending' },
                { id: 9007199254740993n, status: 'pending' },
              ],
            },
          },
        ],
        request: {
          method: 'GET',
          path: '/v2/store/orders',
          query: { status: ['pending'], limit: ['5'] },
          headers: { Authorization: ['Bearer petstore-dev-key'] },
          matchingRules: { header: { Authorization: expect.any(Object) } },
        },
        response: expect.objectContaining({
          status: 200,
          // The whole filtered store in the page: its nextCursor null, stated as it is.
          body: {
            content: {
              orders: [
                { id: 1, status: 'pending' },
                { id: 2, status: 'pending' },
                { id: 9007199254740993n, status: 'pending' },
              ],
              nextCursor: null,
            },
            contentType: 'application/json',
            encoded: false,
          },
        }),
        pending: false,
      },
    });
  });

  it("matches a page's orders by the list's rules, and its null cursor as it is", async () => {
    await page('?status=pending&limit=5');
    const { document } = await mock().pactDocument({ consumer: 'web-app' });
    const [interaction] = document.interactions as {
      response: { matchingRules: { body: Record<string, JsonValue> } };
    }[];
    const rules = interaction!.response.matchingRules.body;
    expect(Object.keys(rules)).toEqual(['$.orders']);
    expect(rules['$.orders']).toMatchObject({ matchers: [{ match: 'arrayContains' }] });
  });

  it('pairs two v2 calls on one path that differ by their query alone as two interactions', async () => {
    await page('?status=pending&limit=5');
    await page('?status=shipped&limit=5');
    const { document } = await mock().pactDocument({ consumer: 'web-app' });
    expect(
      (document.interactions as { request: { query: JsonValue }; providerStates: JsonValue }[]).map(
        (interaction) => interaction.request.query,
      ),
    ).toEqual([
      { status: ['pending'], limit: ['5'] },
      { status: ['shipped'], limit: ['5'] },
    ]);
  });

  it('leaves out a page with a next cursor and a call that sends a cursor, naming each', async () => {
    const first = await page('?limit=1');
    await page(`?limit=1&cursor=${first.nextCursor}`);
    const { document, leftOut } = await mock().pactDocument({ consumer: 'web-app' });
    expect({ interactions: (document.interactions as unknown[]).length, leftOut }).toEqual({
      interactions: 0,
      leftOut: [
        { call: 'GET /v2/store/orders?limit=1 200', reason: 'next-cursor' },
        { call: `GET /v2/store/orders?limit=1&cursor=${first.nextCursor} 200`, reason: 'cursor' },
      ],
    });
  });

  it('writes a v1 call with a query string with its query, apart from the same call without one', async () => {
    await fetch(`${v1}/store/orders?status=pending`, { headers: authorized });
    await fetch(`${v1}/store/orders`, { headers: authorized });
    const { document, leftOut } = await mock().pactDocument({ consumer: 'web-app' });
    expect({
      requests: (document.interactions as { request: { path: string; query?: JsonValue } }[]).map(
        ({ request }) => `${request.path} ${JSON.stringify(request.query)}`,
      ),
      leftOut,
    }).toEqual({
      requests: ['/v1/store/orders {"status":["pending"]}', '/v1/store/orders undefined'],
      leftOut: [],
    });
  });

  it("reads v2's pages through the typed client, its query sent, every id a bigint", async () => {
    const client = createOrderClient({ baseUrl: v1, apiKey: 'petstore-dev-key' });
    const first = (await client.listOrdersV2({ status: 'pending', limit: 2 })) as unknown as Page;
    const second = (await client.listOrdersV2({ status: 'pending', cursor: first.nextCursor! })) as unknown as Page;
    expect([...first.orders, ...second.orders]).toEqual([
      { id: 1n, status: 'pending' },
      { id: 2n, status: 'pending' },
      { id: 9007199254740993n, status: 'pending' },
    ]);
  });

  it('reads a v2 page through openapi-fetch with exactFetch, its query typed, its ids bigints', async () => {
    const client = createClient<v2Paths>({ baseUrl: v2, fetch: exactFetch });
    const { data } = await client.GET('/store/orders', {
      params: { query: { status: 'pending', limit: 10 } },
      headers: authorized,
    });
    expect(data?.orders.map((order) => order.id)).toEqual([1n, 2n, 9007199254740993n]);
  });

  it("rejects a bad parameter through the typed client with the mock's Error record", async () => {
    const client = createOrderClient({ baseUrl: v1, apiKey: 'petstore-dev-key' });
    const failure = await client.listOrdersV2({ limit: 0 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OrderApiError);
    expect((failure as OrderApiError).record).toEqual({
      code: 'invalid_parameter',
      message: 'The query parameter limit must be >= 1; got "0".',
      status: 400,
    });
  });

  it('takes a fault for v2 by its operation name', async () => {
    mock().addFaults({ operation: 'listOrdersV2', status: 503, times: 1 });
    expect((await fetch(`${v2}/store/orders`, { headers: authorized })).status).toBe(503);
    expect(operationNames).toContain('listOrdersV2');
  });
});

describe("v2's list on the standalone server", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({ seed });
  });
  afterAll(() => server.close());

  it('answers a status whose bytes are not UTF-8 with 400, showing it as it was sent', async () => {
    await expectError(
      await fetch(`${server.origin}/v2/store/orders?status=%C3%28&limit=2`, { headers: authorized }),
      400,
      'invalid_parameter',
      'The query parameter status must be UTF-8 once percent-decoded; got "%C3%28".',
    );
  });

  it("answers a path below /v2 that is none of v2's with 404, as any path outside the API", async () => {
    await expectError(
      await fetch(`${server.origin}/v2/store/orders/1`, { method: 'DELETE', headers: authorized }),
      404,
      'not_found',
      'No operation at DELETE /v2/store/orders/1.',
    );
  });

  it('answers at /v2 as the in-process mock does', async () => {
    const response = await fetch(`${server.origin}/v2/store/orders?limit=2&status=pending`, { headers: authorized });
    expect(response.status).toBe(200);
    const body = (await jsonOf(response)) as Record<string, JsonValue>;
    expect(body.orders).toEqual([
      { id: 1, status: 'pending' },
      { id: 2, status: 'pending' },
    ]);
    expect(typeof body.nextCursor).toBe('string');
  });
});
