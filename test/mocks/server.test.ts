import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAgainstSpec } from '../../core/checks.js';
import { allowAt } from '../support/document-figures.js';
import { authorized, expectError, jsonOf, sendRaw, startServer } from '../support/support.js';

let mock: Awaited<ReturnType<typeof startServer>>;
beforeEach(async () => {
  mock = await startServer();
});
afterEach(async () => {
  await mock.close();
});

const seedIds = [1, 2, 3, 4, 5];

describe('authentication', () => {
  it('answers a call without a key with 401, an Error record and WWW-Authenticate: Bearer', async () => {
    const response = await mock.api('/store/orders');
    await expectError(
      response,
      401,
      'missing_api_key',
      'Missing API key: send it as "Authorization: Bearer <API_KEY>".',
    );
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
  });

  it('answers a wrong key with 401 and error="invalid_token"', async () => {
    const response = await mock.api('/store/orders', { headers: { authorization: 'Bearer wrong-key' } });
    await expectError(response, 401, 'invalid_api_key', 'Invalid API key.');
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="petstore", error="invalid_token", error_description="The API key is not valid"',
    );
  });

  it('treats another scheme as no key', async () => {
    const response = await mock.api('/store/orders', { headers: { authorization: 'Basic cGV0c3RvcmUtZGV2LWtleQ==' } });
    await expectError(response, 401, 'missing_api_key');
  });

  it.each([
    'Bearer ',
    'Bearer petstore-dev-key extra',
    'Bearer petstore-dev-ke',
    'Bearer petstore-dev-keyy',
    'Bearer  ',
  ])('refuses the malformed or near-miss credentials %j with 401 invalid_api_key', async (credentials) => {
    await expectError(
      await mock.api('/store/orders', { headers: { authorization: credentials } }),
      401,
      'invalid_api_key',
    );
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme name written %s', async (scheme) => {
    const response = await mock.api('/store/orders', { headers: { authorization: `${scheme} petstore-dev-key` } });
    expect(response.status).toBe(200);
  });

  it('checks the key before looking the order up: no key on a shipped, an unknown and a malformed id all give 401', async () => {
    for (const id of ['3', '999', 'abc']) {
      await expectError(await mock.api(`/store/orders/${id}`, { method: 'DELETE' }), 401, 'missing_api_key');
    }
    expect(await mock.storedOrders()).toHaveLength(5);
  });

  it('needs a key for the deprecated pet read too', async () => {
    await expectError(await mock.api('/pets/7'), 401, 'missing_api_key');
  });

  it('needs a key before saying a path or a method is unknown', async () => {
    await expectError(await mock.api('/store/nothing'), 401, 'missing_api_key');
    await expectError(await mock.api('/store/orders', { method: 'POST' }), 401, 'missing_api_key');
  });

  it('accepts only the configured keys when keys are given', async () => {
    const custom = await startServer({ apiKeys: ['key-one', 'key-two'] });
    try {
      expect((await custom.api('/store/orders', { headers: { authorization: 'Bearer key-two' } })).status).toBe(200);
      expect((await custom.api('/store/orders', { headers: { authorization: 'Bearer key-one' } })).status).toBe(200);
      await expectError(await custom.withKey('/store/orders'), 401, 'invalid_api_key');
    } finally {
      await custom.close();
    }
  });
});

describe('GET /v1/store/orders', () => {
  it('returns the seeded orders as a JSON array of Order records with only the documented fields', async () => {
    const response = await mock.withKey('/store/orders');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const orders = (await jsonOf(response)) as Record<string, unknown>[];
    expect(orders.map((order) => order.id)).toEqual(seedIds);
    for (const order of orders) expect(Object.keys(order)).toEqual(['id', 'petId', 'quantity', 'shipDate', 'complete']);
    expect(orders[0]).toEqual({ id: 1, petId: 101, quantity: 1, shipDate: '2026-12-01T09:00:00Z', complete: false });
  });

  it('ignores query parameters (the operation takes none)', async () => {
    const orders = (await jsonOf(await mock.withKey('/store/orders?status=pending&limit=1'))) as unknown[];
    expect(orders).toHaveLength(5);
  });

  it('answers HEAD with the headers of GET, its Content-Length included, and no body', async () => {
    const get = await mock.withKey('/store/orders');
    const length = Buffer.byteLength(await get.text());
    expect(get.headers.get('content-length')).toBe(String(length));
    const response = await mock.withKey('/store/orders', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-length')).toBe(String(length));
    expect(await response.text()).toBe('');
    const pet = await mock.withKey('/pets/7', { method: 'HEAD' });
    expect(pet.headers.get('content-length')).toBe('8');
  });

  it('returns an empty array when the store is empty', async () => {
    await mock.control('/orders', { method: 'PUT', body: '[]' });
    expect(await (await mock.withKey('/store/orders')).text()).toBe('[]');
  });

  it('answers 404 for a path with an empty segment, after the key check, and cancels nothing', async () => {
    await expectError(await mock.withKey('/store/orders/'), 404, 'not_found', 'No operation at GET /v1/store/orders/.');
    await expectError(await mock.withKey('/store//orders/1', { method: 'DELETE' }), 404, 'not_found');
    await expectError(await mock.api('/store/orders/'), 401, 'missing_api_key');
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
  });

  it('keeps a quantity beyond 2^53 exact (quantity has no format, so any integer)', async () => {
    await mock.control('/orders', { method: 'PUT', body: '[{"id": 1, "quantity": 9007199254740993}]' });
    expect(await (await mock.withKey('/store/orders')).text()).toBe('[{"id":1,"quantity":9007199254740993}]');
  });

  it('omits fields an order does not have instead of inventing them', async () => {
    await mock.control('/orders', { method: 'PUT', body: '[{"id": 10}, {"id": 11, "complete": true}]' });
    expect(await (await mock.withKey('/store/orders')).text()).toBe('[{"id":10},{"id":11,"complete":true}]');
  });
});

describe('DELETE /v1/store/orders/{orderId}', () => {
  it('cancels a pending order with 204 and no body, and the order leaves the list', async () => {
    const response = await mock.withKey('/store/orders/1', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    const listed = (await jsonOf(await mock.withKey('/store/orders'))) as { id: number }[];
    expect(listed.map((order) => order.id)).toEqual([2, 3, 4, 5]);
    expect(await mock.storedOrders()).toContainEqual(expect.objectContaining({ id: 1, status: 'cancelled' }));
  });

  it('refuses a shipped order with 409 and an Error record, and the order stays shipped and listed', async () => {
    await expectError(
      await mock.withKey('/store/orders/3', { method: 'DELETE' }),
      409,
      'order_already_shipped',
      'Order 3 has already shipped and cannot be cancelled.',
    );
    expect(await mock.storedOrders()).toContainEqual(expect.objectContaining({ id: 3, status: 'shipped' }));
    expect(((await jsonOf(await mock.withKey('/store/orders'))) as { id: number }[]).map((order) => order.id)).toEqual(
      seedIds,
    );
  });

  it('answers an unknown order with 404 and an Error record', async () => {
    await expectError(
      await mock.withKey('/store/orders/999', { method: 'DELETE' }),
      404,
      'order_not_found',
      'Order 999 not found.',
    );
  });

  it('answers a second cancel of the same order with 404: a cancelled order is gone', async () => {
    expect((await mock.withKey('/store/orders/2', { method: 'DELETE' })).status).toBe(204);
    await expectError(
      await mock.withKey('/store/orders/2', { method: 'DELETE' }),
      404,
      'order_not_found',
      'Order 2 not found.',
    );
  });

  it.each([
    ['abc', '"abc"'],
    ['1.5', '"1.5"'],
    ['9223372036854775808', '"9223372036854775808"'],
    ['-9223372036854775809', '"-9223372036854775809"'],
    ['+1', '"+1"'],
    ['1e3', '"1e3"'],
    ['0x10', '"0x10"'],
    ['%20', '" "'],
  ])('answers the id %s, which is not an int64, with 404 and a message saying what an id is', async (id, shown) => {
    await expectError(
      await mock.withKey(`/store/orders/${id}`, { method: 'DELETE' }),
      404,
      'order_not_found',
      `Order ${shown} not found: an order id is an integer from -9223372036854775808 to 9223372036854775807.`,
    );
    expect(
      ((await mock.storedOrders()) as { status: string }[]).filter((order) => order.status === 'pending'),
    ).toHaveLength(3);
  });

  it('answers a path that is not valid percent-encoding with 404, never a 5xx', async () => {
    for (const path of ['/store/orders/%ZZ', '/store/orders/%C3%28', '/store/orders/%']) {
      await expectError(
        await mock.withKey(path, { method: 'DELETE' }),
        404,
        'not_found',
        /not valid percent-encoded UTF-8/,
      );
    }
  });

  it('reads an id with leading zeros as the number it denotes', async () => {
    expect((await mock.withKey('/store/orders/0002', { method: 'DELETE' })).status).toBe(204);
    expect(await mock.storedOrders()).toContainEqual(expect.objectContaining({ id: 2, status: 'cancelled' }));
  });

  it('decodes a percent-encoded id', async () => {
    expect((await mock.withKey('/store/orders/%31', { method: 'DELETE' })).status).toBe(204);
  });

  it('keeps ids beyond 2^53 exact: 9007199254740993 is not 9007199254740992', async () => {
    await mock.control('/orders', {
      method: 'PUT',
      body: '[{"id": 9007199254740993, "petId": 9007199254740995}, {"id": 9007199254740992, "status": "shipped"}]',
    });
    expect(await (await mock.withKey('/store/orders')).text()).toBe(
      '[{"id":9007199254740993,"petId":9007199254740995},{"id":9007199254740992}]',
    );
    expect((await mock.withKey('/store/orders/9007199254740993', { method: 'DELETE' })).status).toBe(204);
    await expectError(
      await mock.withKey('/store/orders/9007199254740992', { method: 'DELETE' }),
      409,
      'order_already_shipped',
    );
    expect(await (await mock.control('/orders')).text()).toBe(
      '[{"id":9007199254740993,"petId":9007199254740995,"status":"cancelled"},{"id":9007199254740992,"status":"shipped"}]',
    );
  });

  it('handles the ends of the int64 range', async () => {
    await mock.control('/orders', {
      method: 'PUT',
      body: '[{"id": 9223372036854775807}, {"id": -9223372036854775808}, {"id": 0}]',
    });
    for (const id of ['9223372036854775807', '-9223372036854775808', '0']) {
      expect((await mock.withKey(`/store/orders/${id}`, { method: 'DELETE' })).status).toBe(204);
    }
  });

  it('lets exactly one of 50 concurrent cancels of one pending order succeed', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => mock.withKey('/store/orders/1', { method: 'DELETE' })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(49);
  });
});

describe('GET /v1/pets/{petId} (deprecated)', () => {
  it('returns a minimal pet with Deprecation (RFC 9745) and Sunset (RFC 8594) headers', async () => {
    const response = await mock.withKey('/pets/7');
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({ id: 7 });
    expect(response.headers.get('deprecation')).toBe('@1767225600');
    expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 23:59:59 GMT');
  });

  it('sends Deprecation and Sunset on HEAD too', async () => {
    const head = await mock.withKey('/pets/7', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('deprecation')).toBe('@1767225600');
    expect(head.headers.get('sunset')).toBe('Wed, 30 Jun 2027 23:59:59 GMT');
  });

  it('answers a pet read without a key with a 401 that sends neither Deprecation nor Sunset', async () => {
    const refused = await mock.api('/pets/7');
    await expectError(refused.clone(), 401, 'missing_api_key');
    expect(refused.headers.get('deprecation')).toBeNull();
    expect(refused.headers.get('sunset')).toBeNull();
  });

  it('answers a pet read a fault refuses with its status and neither Deprecation nor Sunset', async () => {
    const fault = { operation: 'readPet', status: 503, times: 1 };
    expect((await mock.control('/faults', { method: 'POST', body: JSON.stringify(fault) })).status).toBe(201);
    const refused = await mock.withKey('/pets/7');
    await expectError(refused.clone(), 503, 'injected_fault');
    expect(refused.headers.get('deprecation')).toBeNull();
    expect(refused.headers.get('sunset')).toBeNull();
  });

  it('announces configured dates', async () => {
    const configured = await startServer({
      petDeprecation: '2025-05-01T00:00:00Z',
      petSunset: new Date('2026-12-31T00:00:00Z'),
    });
    try {
      const response = await configured.withKey('/pets/9223372036854775807');
      expect(await response.text()).toBe('{"id":9223372036854775807}');
      expect(response.headers.get('deprecation')).toBe('@1746057600');
      expect(response.headers.get('sunset')).toBe('Thu, 31 Dec 2026 00:00:00 GMT');
    } finally {
      await configured.close();
    }
  });

  it('answers a pet id that is not an int64 with 200 and the id as a string (only 200 and 401 are documented), announcing the deprecation', async () => {
    const response = await mock.withKey('/pets/rex');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"id":"rex"}');
    expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 23:59:59 GMT');
    expect(
      checkAgainstSpec('GET', '/pets/rex', {
        status: response.status,
        headers: response.headers,
        text: '{"id":"rex"}',
      }),
    ).toEqual([]);
  });
});

describe('other paths and methods', () => {
  it('answers an unknown path under /v1 with a 404 Error record', async () => {
    await expectError(await mock.withKey('/store/order'), 404, 'not_found', 'No operation at GET /v1/store/order.');
  });

  it('matches paths case-sensitively: DELETE /v1/STORE/ORDERS/1 is 404 and cancels nothing', async () => {
    await expectError(
      await mock.withKey('/STORE/ORDERS/1', { method: 'DELETE' }),
      404,
      'not_found',
      'No operation at DELETE /v1/STORE/ORDERS/1.',
    );
    expect(((await jsonOf(await mock.withKey('/store/orders'))) as { id: number }[]).map((order) => order.id)).toEqual(
      seedIds,
    );
    expect(await jsonOf(await mock.control('/requests?method=DELETE'))).toMatchObject([
      { path: '/v1/STORE/ORDERS/1', operation: null, status: 404 },
    ]);
  });

  it('takes a target that begins with two slashes as a path outside /v1: 404, and no cancel', async () => {
    const observed = await sendRaw(mock.origin, { method: 'DELETE', path: '//v1/store/orders/1', headers: authorized });
    expect(observed).toMatchObject({ status: 404 });
    expect(((await jsonOf(await mock.withKey('/store/orders'))) as { id: number }[]).map((order) => order.id)).toEqual(
      seedIds,
    );
  });

  it('answers a path outside /v1 and /__mock with a 404 Error record', async () => {
    await expectError(
      await fetch(`${mock.origin}/v3/store/orders`, { headers: authorized }),
      404,
      'not_found',
      'No operation at GET /v3/store/orders.',
    );
  });

  it.each([
    ['POST', '/store/orders', allowAt('/store/orders')],
    ['DELETE', '/store/orders', allowAt('/store/orders')],
    ['PUT', '/store/orders/1', allowAt('/store/orders/1')],
    ['GET', '/store/orders/1', allowAt('/store/orders/1')],
    ['PATCH', '/pets/1', allowAt('/pets/1')],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const response = await mock.withKey(path, { method });
    await expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('answers TRACE, which Fetch cannot carry, with 405 and Allow too', async () => {
    const { request } = await import('node:http');
    const { status, allow, body } = await new Promise<{ status?: number; allow?: string; body: string }>(
      (resolve, reject) => {
        const outgoing = request(
          `${mock.origin}/v1/store/orders`,
          { method: 'TRACE', headers: authorized },
          (incoming) => {
            let text = '';
            incoming.on('data', (chunk) => (text += chunk));
            incoming.on('end', () =>
              resolve({ status: incoming.statusCode, allow: incoming.headers.allow, body: text }),
            );
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      },
    );
    expect(status).toBe(405);
    expect(allow).toBe(allowAt('/store/orders'));
    expect(JSON.parse(body)).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('answers a request Node cannot parse (a control character in a header) with a 400 Error record', async () => {
    const reply = await rawRequest(mock.origin, 'GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nX-Test: a\u0001b\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toContain('content-type: application/json');
    expect(JSON.parse(reply.split('\r\n\r\n')[1]!)).toEqual({
      code: 'invalid_request',
      message: 'Malformed HTTP request.',
      status: 400,
    });
  });

  it('answers headers over the limit with a 431 Error record', async () => {
    const reply = await rawRequest(
      mock.origin,
      `GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(reply.split('\r\n\r\n')[1]!)).toEqual({
      code: 'headers_too_large',
      message: 'Request headers too large.',
      status: 431,
    });
  });

  it('answers a CORS preflight without a key, allowing the route methods and the asked headers', async () => {
    const response = await mock.api('/store/orders/1', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe(allowAt('/store/orders/1'));
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization');
  });

  it('lets a browser read the error and deprecation headers (CORS exposes them)', async () => {
    const response = await mock.api('/store/orders');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'Allow, Deprecation, Sunset, WWW-Authenticate, ETag',
    );
  });
});

function rawRequest(origin: string, text: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text, 'latin1'));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
  });
}

describe('connections while a fault may drop one', () => {
  // A client sends an idempotent request again when a kept-alive connection drops before the answer,
  // which would heal the fault: while one is in force, in any session, no connection is kept.
  it('closes each connection after its answer, in every session, until the fault is spent', async () => {
    const server = await startServer();
    try {
      const connection = async () => (await server.withKey('/store/orders')).headers.get('connection');
      expect(await connection()).toBe('keep-alive');
      const added = await server.control('/faults', {
        method: 'POST',
        headers: { 'x-mock-session': 'other' },
        body: JSON.stringify({ operation: 'cancelOrder', network: true, times: 1 }),
      });
      expect(added.status).toBe(201);
      expect(await connection()).toBe('close');
      await expect(
        server.withKey('/store/orders/1', { method: 'DELETE', headers: { 'x-mock-session': 'other' } }),
      ).rejects.toThrow();
      expect(await connection()).toBe('keep-alive');
    } finally {
      await server.close();
    }
  });
});
