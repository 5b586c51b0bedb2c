import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, jsonOf, startServer } from '../../support/support.js';
import { loadScenarios } from '../../../core/scenario-files.js';

let mock: Awaited<ReturnType<typeof startServer>>;
beforeEach(async () => {
  mock = await startServer();
});
afterEach(async () => {
  await mock.close();
});

const put = (body: string) =>
  mock.control('/orders', { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
const stateChange = (body: unknown) =>
  mock.control('/provider-state', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('GET /__mock/orders', () => {
  it('lists every order with its status and needs no key', async () => {
    const response = await mock.control('/orders');
    expect(response.status).toBe(200);
    const orders = (await jsonOf(response)) as { id: number; status: string }[];
    expect(orders.map(({ id, status }) => [id, status])).toEqual([
      [1, 'pending'],
      [2, 'pending'],
      [3, 'shipped'],
      [4, 'shipped'],
      [5, 'pending'],
    ]);
  });
});

describe('PUT /__mock/orders', () => {
  it('replaces the store (status defaulting to pending) and answers 204', async () => {
    const response = await put(
      '[{"id": 7, "petId": 70}, {"id": 8, "status": "shipped"}, {"id": 9, "status": "cancelled"}]',
    );
    expect(response.status).toBe(204);
    expect(await mock.storedOrders()).toEqual([
      { id: 7, petId: 70, status: 'pending' },
      { id: 8, status: 'shipped' },
      { id: 9, status: 'cancelled' },
    ]);
    expect(await (await mock.withKey('/store/orders')).text()).toBe('[{"id":7,"petId":70},{"id":8}]');
  });

  it('accepts a JSON body sent as curl -d sends it (form content type)', async () => {
    const response = await mock.control('/orders', {
      method: 'PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '[{"id": 1}]',
    });
    expect(response.status).toBe(204);
  });

  it.each([
    ['invalid JSON', '[{"id": 1', 'invalid_json', /^Invalid JSON body: /],
    ['an empty body', '', 'invalid_json', /^Invalid JSON body: /],
    ['a duplicate key', '[{"id": 1, "id": 2}]', 'invalid_json', /Duplicate key 'id'/],
    ['an object instead of an array', '{"id": 1}', 'invalid_orders', 'Invalid orders: the body must be array.'],
    ['an order without an id', '[{"petId": 1}]', 'invalid_orders', 'Invalid orders: /0/id is required.'],
    ['an id as a string', '[{"id": "1"}]', 'invalid_orders', 'Invalid orders: /0/id must be integer.'],
    [
      'a fractional quantity',
      '[{"id": 1, "quantity": 1.5}]',
      'invalid_orders',
      'Invalid orders: /0/quantity must be integer.',
    ],
    [
      'a shipDate that is not a date-time',
      '[{"id": 1, "shipDate": "tomorrow"}]',
      'invalid_orders',
      'Invalid orders: /0/shipDate must match format "date-time".',
    ],
    [
      'complete as a string',
      '[{"id": 1, "complete": "yes"}]',
      'invalid_orders',
      'Invalid orders: /0/complete must be boolean.',
    ],
    [
      'an unknown status',
      '[{"id": 1, "status": "lost"}]',
      'invalid_orders',
      'Invalid orders: /0/status must be one of "pending", "shipped", "cancelled".',
    ],
    [
      'an unknown field',
      '[{"id": 1, "shipdate": "2026-01-01T00:00:00Z"}]',
      'invalid_orders',
      'Invalid orders: /0/shipdate is not a field of this record.',
    ],
    [
      'a __proto__ field',
      '[{"id": 1, "__proto__": {"status": "shipped"}}]',
      'invalid_orders',
      'Invalid orders: /0/__proto__ is not a field of this record.',
    ],
    [
      'an id beyond int64',
      '[{"id": 9223372036854775808}]',
      'invalid_orders',
      'Invalid orders: /0/id must be an integer from -9223372036854775808 to 9223372036854775807, written exactly.',
    ],
    [
      'a petId below int64',
      '[{"id": 1, "petId": -9223372036854775809}]',
      'invalid_orders',
      'Invalid orders: /0/petId must be an integer from -9223372036854775808 to 9223372036854775807, written exactly.',
    ],
    [
      'an id written with an exponent beyond 2^53',
      '[{"id": 1e19}]',
      'invalid_orders',
      'Invalid orders: /0/id must be an integer from -9223372036854775808 to 9223372036854775807, written exactly.',
    ],
    [
      'a duplicate id',
      '[{"id": 9007199254740993}, {"id": 9007199254740993}]',
      'duplicate_order_id',
      'Invalid orders: id 9007199254740993 appears more than once.',
    ],
  ])('refuses %s with 400 and leaves the store unchanged', async (_, body, code, message) => {
    const before = await mock.storedOrders();
    await expectError(await put(body), 400, code, message);
    expect(await mock.storedOrders()).toEqual(before);
  });

  it('reports every violation with its JSON path', async () => {
    const body = await expectError(
      await put('[{"id": "x", "quantity": 1.5}, {"id": 2, "status": "gone"}]'),
      400,
      'invalid_orders',
      'Invalid orders: /0/id must be integer (and 2 more).',
    );
    expect(body.violations).toEqual([
      { path: '/0/id', message: 'must be integer' },
      { path: '/0/quantity', message: 'must be integer' },
      { path: '/1/status', message: 'must be one of "pending", "shipped", "cancelled"' },
    ]);
  });

  it('refuses a body over the limit with 413 and leaves the store unchanged', async () => {
    const small = await startServer({ bodyLimit: 64 });
    try {
      const orders = JSON.stringify(Array.from({ length: 20 }, (_, index) => ({ id: index })));
      await expectError(
        await small.control('/orders', { method: 'PUT', body: orders }),
        413,
        'payload_too_large',
        'Request body too large: the limit is 64 bytes.',
      );
      expect(await small.storedOrders()).toHaveLength(5);
      expect((await small.control('/orders', { method: 'PUT', body: '[{"id": 1}]' })).status).toBe(204);
    } finally {
      await small.close();
    }
  });
});

describe('POST /__mock/reset', () => {
  it('returns the store to the seed the server started with, cancelled orders included', async () => {
    await mock.withKey('/store/orders/1', { method: 'DELETE' });
    await put('[{"id": 42}]');
    expect((await mock.control('/reset', { method: 'POST' })).status).toBe(204);
    expect(((await mock.storedOrders()) as { status: string }[]).map((order) => order.status)).toEqual([
      'pending',
      'pending',
      'shipped',
      'shipped',
      'pending',
    ]);
  });
});

describe('POST /__mock/provider-state', () => {
  const orders = [{ id: 7, status: 'shipped' }, { id: 8 }];

  it('seeds the store for "the store holds orders" and answers 200 with a JSON object', async () => {
    const response = await stateChange({ state: 'the store holds orders', params: { orders }, action: 'setup' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await jsonOf(response)).toEqual({ state: 'the store holds orders', action: 'setup', orders: 2 });
    expect(await mock.storedOrders()).toEqual([
      { id: 7, status: 'shipped' },
      { id: 8, status: 'pending' },
    ]);
  });

  it('treats a change without an action as setup', async () => {
    expect((await stateChange({ state: 'the store holds orders', params: { orders } })).status).toBe(200);
    expect(await mock.storedOrders()).toHaveLength(2);
  });

  it('returns the store to its seed on teardown', async () => {
    await stateChange({ state: 'the store holds orders', params: { orders } });
    const response = await stateChange({ state: 'the store holds orders', action: 'teardown' });
    expect(await jsonOf(response)).toEqual({ state: 'the store holds orders', action: 'teardown', orders: 5 });
  });

  it('keeps int64 ids exact in params', async () => {
    await stateChange(
      '{"state": "the store holds orders", "params": {"orders": [{"id": 9223372036854775807, "status": "shipped"}]}}',
    );
    await expectError(
      await mock.withKey('/store/orders/9223372036854775807', { method: 'DELETE' }),
      409,
      'order_already_shipped',
    );
  });

  it.each([
    [
      'an unknown state',
      { state: 'the store is empty' },
      'unknown_provider_state',
      'Unknown provider state "the store is empty": the only state is "the store holds orders".',
    ],
    ['no state', { params: { orders } }, 'invalid_request', 'Invalid provider state change: /state is required.'],
    [
      'an unknown action',
      { state: 'the store holds orders', action: 'destroy', params: { orders } },
      'invalid_request',
      'Invalid provider state change: /action must be one of "setup", "teardown".',
    ],
    [
      'setup without orders',
      { state: 'the store holds orders', params: {} },
      'invalid_request',
      'Invalid provider state change: /params/orders is required for setup.',
    ],
    [
      'an invalid order',
      { state: 'the store holds orders', params: { orders: [{ id: 'seven' }] } },
      'invalid_orders',
      'Invalid orders: /params/orders/0/id must be integer.',
    ],
    [
      'a body that is not an object',
      ['the store holds orders'],
      'invalid_request',
      'Invalid provider state change: the body must be object.',
    ],
    ['invalid JSON', '{"state":', 'invalid_json', /^Invalid JSON body: /],
  ])('refuses %s with 400 and leaves the store unchanged', async (_, body, code, message) => {
    const before = await mock.storedOrders();
    await expectError(await stateChange(body), 400, code, message);
    expect(await mock.storedOrders()).toEqual(before);
  });
});

describe('the control plane', () => {
  it('answers an unknown control path with a 404 Error record', async () => {
    await expectError(await mock.control('/sessionz'), 404, 'not_found', 'No operation at GET /__mock/sessionz.');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await mock.control('/reset', { method: 'GET' });
    await expectError(response, 405, 'method_not_allowed', 'Method GET is not allowed on /__mock/reset: use POST.');
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('is absent with control: false (--no-control): its paths are unknown and the store cannot be changed', async () => {
    const closed = await startServer({ control: false });
    try {
      await expectError(await closed.control('/orders'), 404, 'not_found', 'No operation at GET /__mock/orders.');
      await expectError(await closed.control('/orders', { method: 'PUT', body: '[]' }), 404, 'not_found');
      expect(((await jsonOf(await closed.withKey('/store/orders'))) as unknown[]).length).toBe(5);
    } finally {
      await closed.close();
    }
  });
});

describe('POST /__mock/scenarios/{name}', () => {
  let withScenarios: Awaited<ReturnType<typeof startServer>>;
  beforeEach(async () => {
    withScenarios = await startServer({ scenarios: await loadScenarios() });
  });
  afterEach(async () => {
    await withScenarios.close();
  });

  it("sets the scenario's provider state, ids beyond 2^53 exact, and says so", async () => {
    const response = await withScenarios.control('/scenarios/cancel-order-beyond-2-53', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"scenario":"cancel-order-beyond-2-53","seeded":true,"orders":2,"faults":0}');
    expect(await (await withScenarios.withKey('/store/orders')).text()).toBe(
      '[{"id":9007199254740993,"petId":9223372036854775807,"quantity":1},{"id":9007199254740992,"petId":-9223372036854775808,"quantity":1}]',
    );
  });

  it('then answers as the scenario expects: 409 for its shipped order', async () => {
    await withScenarios.control('/scenarios/cancel-shipped-order', { method: 'POST' });
    await expectError(
      await withScenarios.withKey('/store/orders/3', { method: 'DELETE' }),
      409,
      'order_already_shipped',
    );
  });

  it('leaves the store as it is for a scenario without a provider state', async () => {
    const response = await withScenarios.control('/scenarios/list-without-key', { method: 'POST' });
    expect(await response.text()).toBe('{"scenario":"list-without-key","seeded":false,"orders":5,"faults":0}');
  });

  it('refuses an unknown scenario with 404 unknown_scenario, listing the known ones, store unchanged', async () => {
    const before = await withScenarios.storedOrders();
    await expectError(
      await withScenarios.control('/scenarios/no-such-thing', { method: 'POST' }),
      404,
      'unknown_scenario',
      /^Unknown scenario "no-such-thing"; known: cancel-cancelled-order, .*, read-pet-without-key\.$/,
    );
    expect(await withScenarios.storedOrders()).toEqual(before);
  });

  it('refuses a GET with 405 and Allow: POST, OPTIONS', async () => {
    const response = await withScenarios.control('/scenarios/cancel-shipped-order');
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    await expectError(response, 405, 'method_not_allowed');
  });

  it("knows the kit's scenarios when the server was given none", async () => {
    const loaded = await mock.control('/scenarios/cancel-shipped-order', { method: 'POST' });
    expect(loaded.status).toBe(200);
    expect(await loaded.json()).toEqual({ scenario: 'cancel-shipped-order', seeded: true, orders: 2, faults: 0 });
  });

  it('knows no scenario when the server was given an empty list', async () => {
    const withNone = await startServer({ scenarios: [] });
    try {
      await expectError(
        await withNone.control('/scenarios/cancel-shipped-order', { method: 'POST' }),
        404,
        'unknown_scenario',
        'Unknown scenario "cancel-shipped-order"; known: none.',
      );
    } finally {
      await withNone.close();
    }
  });
});

describe('GET /__mock/scenarios', () => {
  it('lists the scenarios the server knows, by name, with what each shows', async () => {
    const withScenarios = await startServer({ scenarios: await loadScenarios() });
    try {
      const response = await withScenarios.control('/scenarios');
      expect(response.status).toBe(200);
      const listed = (await response.json()) as { name: string }[];
      expect(listed.map(({ name }) => name)).toEqual((await loadScenarios()).map(({ name }) => name));
      expect(listed.find(({ name }) => name === 'cancel-shipped-order')).toEqual({
        name: 'cancel-shipped-order',
        description: 'A shipped order cannot be cancelled; the refusal is 409 and the order stays listed.',
        orders: 2,
        faults: 0,
      });
      expect(listed.find(({ name }) => name === 'list-orders-unavailable')).toMatchObject({ faults: 1 });
      expect(listed.find(({ name }) => name === 'list-without-key')).toMatchObject({ orders: null });
    } finally {
      await withScenarios.close();
    }
  });

  it("lists the kit's scenarios for a server given none", async () => {
    const names = ((await (await mock.control('/scenarios')).json()) as { name: string }[]).map(
      (scenario) => scenario.name,
    );
    expect(names).toEqual((await loadScenarios()).map((scenario) => scenario.name));
  });

  it('is an empty list for a server given an empty list', async () => {
    const withNone = await startServer({ scenarios: [] });
    try {
      expect(await (await withNone.control('/scenarios')).json()).toEqual([]);
    } finally {
      await withNone.close();
    }
  });
});

describe('the ETag of GET /__mock/orders', () => {
  const tagged = async (tag?: string) =>
    mock.control('/orders', tag === undefined ? {} : { headers: { 'if-none-match': tag } });

  it('answers 304 without a body while the orders have not changed', async () => {
    const tag = (await tagged()).headers.get('etag')!;
    expect(tag).toMatch(/^W\/".+"$/);
    const again = await tagged(tag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
  });

  it('changes with a cancel, and the new list is sent', async () => {
    const tag = (await tagged()).headers.get('etag')!;
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
    const after = await tagged(tag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(((await jsonOf(after)) as { status: string }[])[0]!.status).toBe('cancelled');
  });

  it('changes with a write through the collection', async () => {
    const tag = (await tagged()).headers.get('etag')!;
    const orders = await mock.server.mock.collection();
    await orders.update((query) => query.where({ id: 2n }), {
      data(order) {
        order.status = 'shipped';
      },
    });
    const after = await tagged(tag);
    expect(after.status).toBe(200);
    expect(((await jsonOf(after)) as { status: string }[])[1]!.status).toBe('shipped');
  });

  it('changes with a reset and a replacement', async () => {
    const first = (await tagged()).headers.get('etag')!;
    await mock.control('/orders', { method: 'PUT', body: '[{"id": 1}]' });
    const second = (await tagged(first)).headers.get('etag')!;
    expect(second).not.toBe(first);
    await mock.control('/reset', { method: 'POST' });
    expect((await tagged(second)).status).toBe(200);
  });

  it("differs from server to server: a restarted mock never answers 304 to an older one's tag", async () => {
    const tag = (await tagged()).headers.get('etag')!;
    const restarted = await startServer();
    try {
      const fresh = await restarted.control('/orders', { headers: { 'if-none-match': tag } });
      expect(fresh.status).toBe(200);
    } finally {
      await restarted.close();
    }
  });

  it('differs from session to session', async () => {
    const tag = (await tagged()).headers.get('etag')!;
    const other = await mock.control('/orders', { headers: { 'x-mock-session': 'other', 'if-none-match': tag } });
    expect(other.status).toBe(200);
  });
});

describe('GET /__mock/', () => {
  it('is the control page: one HTML document that loads nothing from elsewhere', async () => {
    const response = await mock.control('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+='; style-src 'sha256-[A-Za-z0-9+/]+='; connect-src 'self';/,
    );
    expect(policy).toContain("frame-ancestors 'none'");
    const page = await response.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/\b(?:src|href)="(?!data:)/);
    expect(page).not.toMatch(/https?:\/\//);
  });

  it('is where /__mock leads (308)', async () => {
    const response = await mock.control('', { redirect: 'manual' });
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/__mock/');
  });

  it('is off with the rest of the control plane (--no-control)', async () => {
    const closed = await startServer({ control: false });
    try {
      await expectError(await closed.control('/'), 404, 'not_found', 'No operation at GET /__mock/.');
    } finally {
      await closed.close();
    }
  });
});

describe('the 409 of a shipped order, with a body or without (GET and PUT /__mock/settings)', () => {
  const putSettings = (body: string, headers: Record<string, string> = {}) =>
    mock.control('/settings', { method: 'PUT', body, headers });

  it('is an Error record by default', async () => {
    expect(await (await mock.control('/settings')).json()).toEqual({ conflictBody: 'error' });
    await expectError(await mock.withKey('/store/orders/3', { method: 'DELETE' }), 409, 'order_already_shipped');
  });

  it('comes without a body once conflictBody is none, and a pending order still cancels', async () => {
    const changed = await putSettings('{"conflictBody": "none"}');
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ conflictBody: 'none' });
    const refused = await mock.withKey('/store/orders/3', { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toBeNull();
    expect(await refused.text()).toBe('');
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
    await expectError(await mock.withKey('/store/orders/1', { method: 'DELETE' }), 404, 'order_not_found');
  });

  it('is set per session, and a reset brings the start-up setting back', async () => {
    await putSettings('{"conflictBody": "none"}', { 'x-mock-session': 'bare' });
    const bare = await mock.withKey('/store/orders/3', { method: 'DELETE', headers: { 'x-mock-session': 'bare' } });
    expect(await bare.text()).toBe('');
    await expectError(await mock.withKey('/store/orders/3', { method: 'DELETE' }), 409, 'order_already_shipped');
    await mock.control('/reset', { method: 'POST', headers: { 'x-mock-session': 'bare' } });
    expect(await (await mock.control('/settings', { headers: { 'x-mock-session': 'bare' } })).json()).toEqual({
      conflictBody: 'error',
    });
  });

  it('starts without a body with conflictBody: none (--conflict-body none)', async () => {
    const bare = await startServer({ conflictBody: 'none' });
    try {
      expect(await (await bare.withKey('/store/orders/3', { method: 'DELETE' })).text()).toBe('');
      await bare.control('/reset', { method: 'POST' });
      expect(await (await bare.control('/settings')).json()).toEqual({ conflictBody: 'none' });
    } finally {
      await bare.close();
    }
  });

  it('refuses an unknown setting or value with 400 and changes nothing', async () => {
    await expectError(
      await putSettings('{"conflictBody": "empty", "speed": 1}'),
      400,
      'invalid_request',
      'Invalid settings: /conflictBody must be "error" or "none"; /speed is not a setting (the settings: conflictBody).',
    );
    await expectError(await putSettings('[]'), 400, 'invalid_request');
    await expectError(await putSettings('{'), 400, 'invalid_json');
    expect(await (await mock.control('/settings')).json()).toEqual({ conflictBody: 'error' });
  });
});
