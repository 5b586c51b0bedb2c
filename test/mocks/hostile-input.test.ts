// The mock under hostile input: a body that would cost seconds to convert or overflow the stack is
// refused as it comes, at constant work per byte, and no such request holds up another session.
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { createOrderMock } from '../../mocks/index.js';
import { storedOrdersBody } from '../../mocks/store/order-seed.js';
import { replyToResponse, type Reply } from '../../mocks/base/reply.js';
import { allowAt } from '../support/document-figures.js';
import { expectError, jsonOf, startServer } from '../support/support.js';

type Started = Awaited<ReturnType<typeof startServer>>;
let mock: Started | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const outOfRange = {
  code: 'number_out_of_range',
  message: 'Invalid JSON body: a number of more than 19 digits is out of range (an int64 has at most 19 digits).',
  status: 400,
};
const tooDeep = {
  code: 'invalid_json',
  message:
    'Invalid JSON body: arrays and objects are nested more than 32 levels deep (the control plane reads at most 32).',
  status: 400,
};

/** A response read from a raw socket: the head, and the body once Content-Length bytes of it came. */
function firstResponse(socket: Socket): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1]);
      if (text.length - end - 4 >= length) resolve({ head: text.slice(0, end), body: text.slice(end + 4) });
    });
    socket.on('error', reject);
  });
}

/**
 * Starts a control-plane PUT that declares a body of `declared` bytes and sends only `start` of it:
 * the rest never comes, so an answer can only have been made from what came.
 */
async function sendStartOf(origin: string, start: string, declared: number) {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const answer = firstResponse(socket);
  socket.write(`PUT /__mock/orders HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n${start}`);
  return { socket, answer };
}

describe('bodies the control plane refuses as they come', () => {
  it('refuses an integer longer than any int64 before the rest of its 30 MB body comes', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const { socket, answer } = await sendStartOf(mock.origin, `[{"id": ${'9'.repeat(65_536)}`, 30_000_010);
    const { head, body } = await answer;
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(body)).toEqual(outOfRange);
    socket.destroy();
    expect(await jsonOf(await mock.control('/orders'))).toEqual([expect.objectContaining({ id: 1 })]);
  });

  it('refuses nesting deeper than 32 levels before the rest of the body comes', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const { socket, answer } = await sendStartOf(mock.origin, '['.repeat(10_000), 20_000);
    const { head, body } = await answer;
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(body)).toEqual(tooDeep);
    socket.destroy();
  });

  it("answers another session's request while a hostile body is still coming", async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const { socket, answer } = await sendStartOf(mock.origin, `[{"id": ${'9'.repeat(1_000)}`, 30_000_010);
    const other = await mock.withKey('/store/orders', { headers: { 'x-mock-session': 'other' } });
    expect(other.status).toBe(200);
    expect(await jsonOf(other)).toEqual([expect.objectContaining({ id: 1 })]);
    expect(JSON.parse((await answer).body)).toEqual(outOfRange);
    socket.destroy();
  });

  it('accepts the largest int64 and the deepest body the bounds allow', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const put = await mock.control('/orders', { method: 'PUT', body: '[{"id": 9223372036854775807}]' });
    expect(put.status).toBe(204);
    const deep = `${'['.repeat(31)}{"id": 1}${']'.repeat(31)}`;
    await expectError(await mock.control('/orders', { method: 'PUT', body: deep }), 400, 'invalid_orders');
  });

  it('refuses the same bodies with the same records in process', async () => {
    const inProcess = createOrderMock({ seed: [{ id: 1 }] });
    const put = async (body: string) =>
      replyToResponse(
        (await inProcess.handle(new Request('http://localhost/__mock/orders', { method: 'PUT', body }))) as Reply,
      );
    await expectError(await put(`[{"id": ${'1'.repeat(100_000)}}]`), 400, outOfRange.code, outOfRange.message);
    await expectError(await put(`${'['.repeat(10_000)}${']'.repeat(10_000)}`), 400, tooDeep.code, tooDeep.message);
    expect(await inProcess.orders()).toEqual([expect.objectContaining({ id: 1n })]);
  });
});

describe('budgets', () => {
  it('refuses faults past 100 in force in a session with 409, adding none, and counts each session apart', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const post = (body: unknown, session = 'a') =>
      mock!.control('/faults', { method: 'POST', headers: { 'x-mock-session': session }, body: JSON.stringify(body) });
    const batch = (count: number) => Array.from({ length: count }, () => ({ operation: 'readPet', delay: 1 }));
    expect((await post(batch(60))).status).toBe(201);
    await expectError(
      await post(batch(41)),
      409,
      'fault_limit_reached',
      'Cannot add 41 faults: 60 are in force and a session holds at most 100. Remove some with DELETE /__mock/faults/{id}, or all with DELETE /__mock/faults.',
    );
    const inForce = await mock.control('/faults', { headers: { 'x-mock-session': 'a' } });
    expect(((await jsonOf(inForce)) as unknown[]).length).toBe(60);
    expect((await post(batch(40))).status).toBe(201);
    expect((await post(batch(100), 'b')).status).toBe(201);
  });

  it('refuses a replacement that would bring all sessions past --max-orders with 409, changing nothing', async () => {
    mock = await startServer({ seed: [{ id: 1 }, { id: 2 }], maxOrders: 10 });
    const put = (count: number, session: string) =>
      mock!.control('/orders', {
        method: 'PUT',
        headers: { 'x-mock-session': session },
        body: JSON.stringify(Array.from({ length: count }, (_, index) => ({ id: index + 1 }))),
      });
    expect((await put(6, 'a')).status).toBe(204);
    await expectError(
      await put(3, 'b'),
      409,
      'order_limit_reached',
      'Cannot hold 3 orders here: the other sessions hold 8 and the mock holds at most 10 orders in all. End sessions with DELETE /__mock/sessions/{name}, or start the mock with a larger --max-orders.',
    );
    expect(await jsonOf(await mock.control('/orders', { headers: { 'x-mock-session': 'b' } }))).toEqual([
      expect.objectContaining({ id: 1 }),
      expect.objectContaining({ id: 2 }),
    ]);
    expect((await put(2, 'b')).status).toBe(204);
    expect((await mock.control('/sessions/a', { method: 'DELETE' })).status).toBe(204);
    expect((await put(8, 'b')).status).toBe(204);
  });

  it('takes a replacement that shrinks a store even when the sessions are over the budget', async () => {
    mock = await startServer({ seed: [{ id: 1 }, { id: 2 }, { id: 3 }], maxOrders: 8 });
    for (const session of ['a', 'b', 'c'])
      await mock.withKey('/store/orders', { headers: { 'x-mock-session': session } });
    const put = (body: string, session?: string) =>
      mock!.control('/orders', {
        method: 'PUT',
        body,
        headers: session === undefined ? {} : { 'x-mock-session': session },
      });
    expect((await put('[]', 'a')).status).toBe(204);
    expect((await put('[{"id": 7}]')).status).toBe(204);
    const six = JSON.stringify([1, 2, 3, 4, 5, 6].map((id) => ({ id })));
    await expectError(await put(six, 'b'), 409, 'order_limit_reached');
  });

  it('writes the stored orders in slices, with turns of the event loop between them', async () => {
    const orders = Array.from({ length: 5 }, (_, index) => ({ id: BigInt(index + 1), status: 'pending' as const }));
    const events: string[] = [];
    setImmediate(() => events.push('another request'));
    const parts = await storedOrdersBody(orders.length, (start, end) => orders.slice(start, end), 2);
    events.push('body written');
    expect(events).toEqual(['another request', 'body written']);
    expect(parts).toHaveLength(3);
    expect(JSON.parse(Buffer.concat(parts).toString())).toEqual(
      orders.map((order) => ({ id: Number(order.id), status: 'pending' })),
    );
  });
});

/** Sends a raw request and reads until the server closes the connection. */
function exchange(origin: string, request: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('request targets and user handlers', () => {
  it('answers a request target that is no URL with 400 and keeps serving', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    for (const target of ['http://[/', 'http://exa%mple/', 'http://a:99999/']) {
      const reply = await exchange(mock.origin, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(reply, target).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    }
    expect((await mock.withKey('/store/orders')).status).toBe(200);
  });

  it("leaves a body under /__mock that no control route reads to the user's handler", async () => {
    mock = await startServer({
      handlers: [http.post('*/__mock/custom', async ({ request }) => HttpResponse.text(await request.text()))],
    });
    const body = `{"n": ${'1'.repeat(40)}}`;
    const response = await mock.control('/custom', { method: 'POST', body });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  it('answers CONNECT itself when user handlers are installed (Fetch cannot carry it)', async () => {
    mock = await startServer({ handlers: [http.get('*/v1/store/inventory', () => HttpResponse.json({}))] });
    const reply = await exchange(
      mock.origin,
      'CONNECT /v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer petstore-dev-key\r\n\r\n',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  });
});

describe('CONNECT', () => {
  it('answers CONNECT to a path of the interface with 405 and Allow, and journals it', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const reply = await exchange(
      mock.origin,
      'CONNECT /v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer petstore-dev-key\r\n\r\n',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(reply.toLowerCase()).toContain(`\r\nallow: ${allowAt('/store/orders')}\r\n`.toLowerCase());
    expect(JSON.parse(reply.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'method_not_allowed', status: 405 });
    const journal = (await jsonOf(await mock.control('/requests'))) as { method: string; status: number }[];
    expect(journal.map((entry) => [entry.method, entry.status])).toEqual([['CONNECT', 405]]);
  });

  it('answers CONNECT to a host and port with 400: the mock is no proxy', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const reply = await exchange(mock.origin, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(reply.split('\r\n\r\n')[1]!)).toEqual({
      code: 'invalid_request',
      message: 'CONNECT asks for a tunnel to another host: the mock is the server, not a proxy.',
      status: 400,
    });
    expect((await mock.withKey('/store/orders')).status).toBe(200);
  });
});

/**
 * Sends raw bytes from clients that keep their side open (half-open allowed), and resolves with what
 * each got once the server has ended its answer; the clients stay open until `release()`.
 */
async function heldOpen(origin: string, request: string, clients = 1) {
  const { hostname, port } = new URL(origin);
  const sockets: Socket[] = [];
  const replies = await Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<string>((resolve, reject) => {
          const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true }, () =>
            socket.write(request),
          );
          sockets.push(socket);
          let text = '';
          socket.on('data', (chunk) => (text += chunk));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        }),
    ),
  );
  const release = () => {
    for (const socket of sockets) socket.destroy();
  };
  return { replies, release };
}

/** This process's open file descriptors (Linux): a socket the server still holds is one more. */
const descriptors = () => readdirSync('/proc/self/fd').length;

describe('sockets the server ends for good', () => {
  it.each([
    ['a CONNECT to a host', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
    ['a CONNECT to a path', 'CONNECT /v1/store/orders HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a malformed request', 'GARBAGE\r\n\r\n'],
  ])('closes its side after answering %s, though the clients keep theirs open', async (_what, request) => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const before = descriptors();
    const held = await heldOpen(mock.origin, request, 50);
    try {
      for (const reply of held.replies) expect(reply).toMatch(/^HTTP\/1\.1 4\d\d /);
      // 50 for the clients, 100 if the server held its side too: the middle leaves room for the process's own.
      await expect.poll(descriptors).toBeLessThan(before + 75);
    } finally {
      held.release();
    }
  });

  it('answers a pipelined cancel before the malformed request after it, and applies it once', async () => {
    mock = await startServer({ seed: [{ id: 1 }, { id: 2 }] });
    const held = await heldOpen(
      mock.origin,
      'DELETE /v1/store/orders/2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer petstore-dev-key\r\n\r\nGARBAGE\r\n\r\n',
    );
    held.release();
    expect(held.replies[0]!.match(/^HTTP\/1\.1 \d{3}/gm)).toEqual(['HTTP/1.1 204', 'HTTP/1.1 400']);
    const journal = (await jsonOf(await mock.control('/requests'))) as { path: string; status: number }[];
    expect(journal.map((entry) => [entry.path, entry.status])).toEqual([['/v1/store/orders/2', 204]]);
  });
});

/** A raw answer read whole: its status, its header fields (names in lower case) and its body. */
function parseReply(reply: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = reply.split('\r\n\r\n');
  const [statusLine = '', ...fields] = head.split('\r\n');
  const headers = Object.fromEntries(
    fields.map((field) => [
      field.slice(0, field.indexOf(':')).toLowerCase(),
      field.slice(field.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** Sends one request with this method and target exactly as written (no URL parsing on the way), and the connection closes. */
function sendAsWritten(origin: string, method: string, target: string, fields: string[] = []) {
  const head = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...fields, 'Connection: close'].join('\r\n');
  return exchange(origin, `${head}\r\n\r\n`).then(parseReply);
}

const withKey = 'Authorization: Bearer petstore-dev-key';
const journalOf = async (started: Started) =>
  (await jsonOf(await started.control('/requests'))) as {
    method: string;
    path: string;
    operation: string | null;
    status: number;
    authorization: string;
  }[];

describe('paths URL parsing would rewrite, refused as written (spec gap 32)', () => {
  const seed = [{ id: 1 }, { id: 2 }, { id: 5 }];

  it.each([
    '/v1/pets/%2e%2e/store/orders/5',
    '/v1/pets/../store/orders/5',
    '/v1/pets/.%2E/store/orders/5',
    '/v1/pets/%2E./store/orders/5',
    '/v1/pets/%2E%2e/store/orders/5',
    '/v1/store/orders/./5',
    '/v1/store/orders/%2e/5',
    '/v1/store/./orders/5',
    '/v1/store/orders/x/../5',
  ])(
    'answers DELETE %s with 404 not_found and CORS, cancels nothing, and journals the path as written',
    async (target) => {
      mock = await startServer({ seed });
      const before = await mock.storedOrders();
      const reply = await sendAsWritten(mock.origin, 'DELETE', target, [withKey, 'Origin: http://app.test']);
      expect(reply.status).toBe(404);
      expect(reply.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(reply.body)).toEqual({
        code: 'not_found',
        message: `No operation at DELETE ${target}.`,
        status: 404,
      });
      expect(await mock.storedOrders()).toEqual(before);
      expect(await journalOf(mock)).toEqual([expect.objectContaining({ path: target, operation: null, status: 404 })]);
    },
  );

  it.each(['/v1/store/orders\\5', '/v1/pets\\..\\store/orders/5'])(
    'answers DELETE %s, whose backslashes URL parsing reads as slashes, with 404 not_found, and cancels nothing',
    async (target) => {
      mock = await startServer({ seed });
      const before = await mock.storedOrders();
      const reply = await sendAsWritten(mock.origin, 'DELETE', target, [withKey]);
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.body)).toEqual({
        code: 'not_found',
        message: `No operation at DELETE ${target}.`,
        status: 404,
      });
      expect(await mock.storedOrders()).toEqual(before);
      expect(await journalOf(mock)).toEqual([expect.objectContaining({ path: target, operation: null, status: 404 })]);
    },
  );

  it('answers DELETE /v1\\store\\orders\\5 as a path outside /v1, as written: 404, nothing cancelled, nothing journaled', async () => {
    mock = await startServer({ seed });
    const before = await mock.storedOrders();
    const reply = await sendAsWritten(mock.origin, 'DELETE', '/v1\\store\\orders\\5', [withKey]);
    expect(JSON.parse(reply.body)).toEqual({
      code: 'not_found',
      message: 'No operation at DELETE /v1\\store\\orders\\5.',
      status: 404,
    });
    expect(await mock.storedOrders()).toEqual(before);
    expect(await journalOf(mock)).toEqual([]);
  });

  it('checks the key first: a dot-segment path without a key is 401 missing_api_key, journaled as written', async () => {
    mock = await startServer({ seed });
    const reply = await sendAsWritten(mock.origin, 'DELETE', '/v1/pets/%2e%2e/store/orders/5');
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'missing_api_key', status: 401 });
    expect(await journalOf(mock)).toEqual([
      expect.objectContaining({ path: '/v1/pets/%2e%2e/store/orders/5', status: 401, authorization: 'none' }),
    ]);
  });

  it('answers a dot-segment path in absolute form alike, journaled with its path as written', async () => {
    mock = await startServer({ seed });
    const before = await mock.storedOrders();
    const reply = await sendAsWritten(mock.origin, 'DELETE', 'http://petstore.test/v1/pets/%2E%2E/store/orders/5', [
      withKey,
    ]);
    expect(JSON.parse(reply.body)).toEqual({
      code: 'not_found',
      message: 'No operation at DELETE /v1/pets/%2E%2E/store/orders/5.',
      status: 404,
    });
    expect(await mock.storedOrders()).toEqual(before);
    expect((await journalOf(mock)).map((entry) => entry.path)).toEqual(['/v1/pets/%2E%2E/store/orders/5']);
  });

  it('resolves no path from outside /v1 into it: /x/../v1/store/orders/5 is 404 and cancels nothing', async () => {
    mock = await startServer({ seed });
    const before = await mock.storedOrders();
    const reply = await sendAsWritten(mock.origin, 'DELETE', '/x/../v1/store/orders/5', [withKey]);
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({
      code: 'not_found',
      message: 'No operation at DELETE /x/../v1/store/orders/5.',
      status: 404,
    });
    expect(await mock.storedOrders()).toEqual(before);
    expect(await journalOf(mock)).toEqual([]);
  });

  it('resolves no path from the control plane into /v1: /__mock/../v1/store/orders/5 is 404 and cancels nothing', async () => {
    mock = await startServer({ seed });
    const before = await mock.storedOrders();
    const reply = await sendAsWritten(mock.origin, 'DELETE', '/__mock/../v1/store/orders/5', [withKey]);
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({
      code: 'not_found',
      message: 'No operation at DELETE /__mock/../v1/store/orders/5.',
      status: 404,
    });
    expect(await mock.storedOrders()).toEqual(before);
    expect(await journalOf(mock)).toEqual([]);
  });

  it('resolves no path from /v1 into the control plane: POST /v1/../__mock/reset is 404 and resets nothing', async () => {
    mock = await startServer({ seed });
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
    const reply = await sendAsWritten(mock.origin, 'POST', '/v1/../__mock/reset', [withKey]);
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({
      code: 'not_found',
      message: 'No operation at POST /v1/../__mock/reset.',
      status: 404,
    });
    expect(await mock.storedOrders()).toContainEqual(expect.objectContaining({ id: 1, status: 'cancelled' }));
    expect((await journalOf(mock)).map((entry) => [entry.path, entry.status])).toEqual([
      ['/v1/store/orders/1', 204],
      ['/v1/../__mock/reset', 404],
    ]);
  });
});

describe('an Expect the server does not know (spec gap 37)', () => {
  it('is answered as if it were not there: the key check first, an Error record, CORS, journaled', async () => {
    mock = await startServer({ seed: [{ id: 1 }] });
    const refused = await exchange(
      mock.origin,
      'GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nExpect: teapot\r\nConnection: close\r\n\r\n',
    );
    expect(refused).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(refused).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
    expect(JSON.parse(refused.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'missing_api_key', status: 401 });
    const listed = await exchange(
      mock.origin,
      'GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer petstore-dev-key\r\nExpect: teapot\r\nConnection: close\r\n\r\n',
    );
    expect(listed).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const journal = (await jsonOf(await mock.control('/requests'))) as { status: number }[];
    expect(journal.map((entry) => entry.status)).toEqual([401, 200]);
  });
});
