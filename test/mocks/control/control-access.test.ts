// The standalone server's control plane, tried as a hostile web page would: another site in the
// developer's browser (an Origin that is not loopback) and DNS rebinding (a Host that is not this
// machine's) are refused with 403 and change nothing; curl, the harness and a local dev app keep working.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { createControlAccess } from '../../../mocks/control/control-access.js';
import { createOrderMock } from '../../../mocks/adapters/order-mock.js';
import type { ServerOptions } from '../../../mocks/server/server.js';
import { authorized, sendRaw, startServer, type Exchange, type Observed } from '../../support/support.js';
import { answerThroughMsw } from '../../support/through-msw.js';

let mock: Awaited<ReturnType<typeof startServer>>;

async function start(options: ServerOptions = {}): Promise<void> {
  mock = await startServer(options);
}
afterEach(async () => {
  await mock.close();
});

const send = (exchange: Exchange) => sendRaw(mock.origin, exchange);

function answered(observed: Observed): Exclude<Observed, 'connection dropped'> {
  if (observed === 'connection dropped') throw new Error('the connection was dropped');
  return observed;
}

/** What a refused request must leave as it was: the session's orders, faults and journal. */
async function everything(): Promise<string[]> {
  return Promise.all(['/orders', '/faults', '/requests'].map(async (path) => (await mock.control(path)).text()));
}

/** Cancels order 1 and adds a fault, so that a reset, a fault or a replacement would show. */
async function arrange(): Promise<void> {
  expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
  const added = await mock.control('/faults', {
    method: 'POST',
    body: JSON.stringify({ operation: 'readPet', status: 503 }),
  });
  expect(added.status).toBe(201);
}

const evil = 'https://evil.example';

describe('a control request from another site', () => {
  beforeEach(async () => {
    await start();
    await arrange();
  });

  it('a text/plain POST /__mock/reset is refused with 403 forbidden_origin and resets nothing', async () => {
    const before = await everything();
    const observed = answered(
      await send({
        method: 'POST',
        path: '/__mock/reset',
        headers: { origin: evil, 'content-type': 'text/plain' },
        body: '',
      }),
    );
    expect(observed.status).toBe(403);
    expect(JSON.parse(observed.body)).toEqual({
      code: 'forbidden_origin',
      message:
        "Origin https://evil.example may not use the control plane: only loopback origins (http://localhost:*, http://127.0.0.1:*, http://[::1]:*), the server's own, and those given with --control-origin may.",
      status: 403,
    });
    expect(observed.headers['access-control-allow-origin']).toBeUndefined();
    expect(await everything()).toEqual(before);
  });

  it('a form-encoded POST /__mock/faults is refused and adds no fault', async () => {
    const before = await everything();
    const observed = answered(
      await send({
        method: 'POST',
        path: '/__mock/faults',
        headers: { origin: evil, 'content-type': 'application/x-www-form-urlencoded' },
        body: '{"operation":"listOrders","status":503}',
      }),
    );
    expect(observed.status).toBe(403);
    expect(JSON.parse(observed.body).code).toBe('forbidden_origin');
    expect(await everything()).toEqual(before);
  });

  it('the preflight of PUT /__mock/orders is refused and allows no origin', async () => {
    const before = await everything();
    const observed = answered(
      await send({
        method: 'OPTIONS',
        path: '/__mock/orders',
        headers: {
          origin: evil,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type',
        },
      }),
    );
    expect(observed.status).toBe(403);
    expect(observed.headers['access-control-allow-origin']).toBeUndefined();
    expect(observed.headers['access-control-allow-methods']).toBeUndefined();
    expect(observed.headers.vary).toBe('Origin');
    expect(await everything()).toEqual(before);
  });

  it('a read of the journal is refused and names no origin', async () => {
    const observed = answered(await send({ method: 'GET', path: '/__mock/requests', headers: { origin: evil } }));
    expect(observed.status).toBe(403);
    expect(observed.headers['access-control-allow-origin']).toBeUndefined();
    expect(observed.body).not.toContain('cancelOrder');
  });

  it('an opaque origin (Origin: null, a sandboxed frame or a file) is refused', async () => {
    const before = await everything();
    const observed = answered(await send({ method: 'POST', path: '/__mock/reset', headers: { origin: 'null' } }));
    expect(observed.status).toBe(403);
    expect(await everything()).toEqual(before);
  });

  it('a look-alike of a loopback origin is refused', async () => {
    const before = await everything();
    for (const origin of [
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example:4010',
      'http://evil.example#localhost',
    ]) {
      const observed = answered(await send({ method: 'POST', path: '/__mock/reset', headers: { origin } }));
      expect(observed.status, origin).toBe(403);
    }
    expect(await everything()).toEqual(before);
  });

  it("your handlers under /__mock are guarded like the kit's control routes", async () => {
    await mock.close();
    let wiped = 0;
    await start({
      handlers: [
        http.post('*/__mock/wipe', () => {
          wiped++;
          return new HttpResponse(null, { status: 204 });
        }),
      ],
    });
    const refused = answered(
      await send({ method: 'POST', path: '/__mock/wipe', headers: { origin: evil, 'content-type': 'text/plain' } }),
    );
    expect(refused.status).toBe(403);
    expect(wiped).toBe(0);
    expect(answered(await send({ method: 'POST', path: '/__mock/wipe' })).status).toBe(204);
    expect(wiped).toBe(1);
  });

  it('the order API keeps its CORS for a frontend on any origin', async () => {
    const observed = answered(
      await send({ method: 'GET', path: '/v1/store/orders', headers: { origin: evil, ...authorized } }),
    );
    expect(observed.status).toBe(200);
    expect(observed.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('a control request through DNS rebinding', () => {
  beforeEach(async () => {
    await start();
    await arrange();
  });

  it('a Host that is not this machine is refused with 403 forbidden_host and resets nothing', async () => {
    const before = await everything();
    const observed = answered(
      await send({ method: 'POST', path: '/__mock/reset', headers: { host: 'evil.example:4010' } }),
    );
    expect(observed.status).toBe(403);
    expect(JSON.parse(observed.body)).toEqual({
      code: 'forbidden_host',
      message:
        'The control plane answers only to this machine\'s names (localhost, 127.0.0.1, [::1], or the address the server is bound to), not to Host "evil.example:4010".',
      status: 403,
    });
    expect(await everything()).toEqual(before);
  });

  it('the journal is not read under a hostile Host', async () => {
    const observed = answered(
      await send({ method: 'GET', path: '/__mock/requests', headers: { host: 'evil.example' } }),
    );
    expect(observed.status).toBe(403);
    expect(observed.body).not.toContain('cancelOrder');
  });

  it('the page is not served under a hostile Host', async () => {
    const observed = answered(
      await send({ method: 'GET', path: '/__mock/', headers: { host: 'rebind.evil.example' } }),
    );
    expect(observed.status).toBe(403);
  });

  it('a Host that is no host name is refused', async () => {
    const before = await everything();
    const observed = answered(await send({ method: 'POST', path: '/__mock/reset', headers: { host: 'a b' } }));
    expect(observed.status).toBe(403);
    expect(await everything()).toEqual(before);
  });

  it('a hostile page under its own name (Host and Origin alike) gets no Access-Control-Allow-Origin', async () => {
    for (const method of ['GET', 'OPTIONS']) {
      const observed = answered(
        await send({
          method,
          path: '/__mock/faults',
          headers: {
            host: 'evil.example:8080',
            origin: 'http://evil.example:8080',
            'access-control-request-method': 'GET',
          },
        }),
      );
      expect(observed.status, method).toBe(403);
      expect(observed.headers['access-control-allow-origin'], method).toBeUndefined();
    }
  });
});

describe('a control request from this machine', () => {
  beforeEach(async () => {
    await start();
  });

  it('curl and the harness (no Origin) reset the store', async () => {
    await arrange();
    const observed = answered(await send({ method: 'POST', path: '/__mock/reset' }));
    expect(observed.status).toBe(204);
    expect(await (await mock.control('/faults')).json()).toEqual([]);
  });

  it('a dev app on a loopback origin is allowed, and its origin is named back', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'http://app.localhost:5173',
    ]) {
      const observed = answered(await send({ method: 'POST', path: '/__mock/reset', headers: { origin } }));
      expect(observed.status, origin).toBe(204);
      expect(observed.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(observed.headers.vary, origin).toBe('Origin');
    }
  });

  it('the preflight of a loopback origin allows the method', async () => {
    const observed = answered(
      await send({
        method: 'OPTIONS',
        path: '/__mock/orders',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
      }),
    );
    expect(observed.status).toBe(204);
    expect(observed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(observed.headers['access-control-allow-methods']).toBe('GET, PUT, HEAD, OPTIONS');
  });

  it('a Host of localhost or 127.0.0.1 with any port is served', async () => {
    for (const host of ['localhost:4010', '127.0.0.1', 'LOCALHOST:1']) {
      const observed = answered(await send({ method: 'GET', path: '/__mock/faults', headers: { host } }));
      expect(observed.status, host).toBe(200);
    }
  });

  it('the page itself, same-origin, may change the mock', async () => {
    const own = new URL(mock.origin);
    const observed = answered(
      await send({ method: 'POST', path: '/__mock/reset', headers: { origin: mock.origin, host: own.host } }),
    );
    expect(observed.status).toBe(204);
  });
});

describe('--control-origin', () => {
  it('lets a page of that origin call the control plane, and only that one', async () => {
    await start({ controlOrigins: ['https://app.test:8443'] });
    const allowed = answered(
      await send({ method: 'POST', path: '/__mock/reset', headers: { origin: 'https://app.test:8443' } }),
    );
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.test:8443');
    await arrange();
    const before = await everything();
    const otherPort = answered(
      await send({ method: 'POST', path: '/__mock/reset', headers: { origin: 'https://app.test:9443' } }),
    );
    expect(otherPort.status).toBe(403);
    expect(await everything()).toEqual(before);
  });

  it('refuses a value that is not an origin', () => {
    expect(() => createControlAccess({ origins: ['https://app.test/path'] })).toThrow(
      '"https://app.test/path" is not an origin: write it as http(s)://host[:port], for example https://app.test:8443',
    );
  });
});

describe('--control-key', () => {
  beforeEach(async () => {
    await start({ controlKey: 'control-secret' });
  });

  it('a control request without the key is 401 missing_control_key and changes nothing', async () => {
    const observed = answered(await send({ method: 'POST', path: '/__mock/reset' }));
    expect(observed.status).toBe(401);
    expect(JSON.parse(observed.body).code).toBe('missing_control_key');
    expect(observed.headers['www-authenticate']).toBe('Bearer realm="petstore-mock control plane"');
  });

  it('the API key is not the control key', async () => {
    const observed = answered(await send({ method: 'GET', path: '/__mock/orders', headers: authorized }));
    expect(observed.status).toBe(401);
    expect(JSON.parse(observed.body)).toEqual({
      code: 'invalid_control_key',
      message: 'Invalid control key: it is not the one the server was started with (--control-key).',
      status: 401,
    });
  });

  it('the key opens the control plane', async () => {
    const observed = answered(
      await send({ method: 'POST', path: '/__mock/reset', headers: { authorization: 'Bearer control-secret' } }),
    );
    expect(observed.status).toBe(204);
  });

  it('the page and the preflights need no key', async () => {
    expect(answered(await send({ method: 'GET', path: '/__mock/' })).status).toBe(200);
    const preflight = answered(
      await send({
        method: 'OPTIONS',
        path: '/__mock/orders',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
      }),
    );
    expect(preflight.status).toBe(204);
  });

  it('the order API still takes its own key', async () => {
    expect((await mock.withKey('/store/orders')).status).toBe(200);
  });
});

describe('the guard', () => {
  it('stands on the MSW adapter of the server too (answering through MSW)', async () => {
    await start();
    answerThroughMsw(mock.server);
    const origin = answered(await send({ method: 'POST', path: '/__mock/reset', headers: { origin: evil } }));
    expect(origin.status).toBe(403);
    const host = answered(await send({ method: 'GET', path: '/__mock/requests', headers: { host: 'evil.example' } }));
    expect(host.status).toBe(403);
  });

  it('takes the address the server is bound to as one of its names', () => {
    const access = createControlAccess();
    const at = (host: string) => access.refusal({ headers: new Headers({ host }) })?.code;
    expect(at('192.168.1.5:4010')).toBe('forbidden_host');
    access.addHosts(['192.168.1.5', 'fe80::1']);
    expect(at('192.168.1.5:4010')).toBeUndefined();
    expect(at('[fe80::1]:4010')).toBeUndefined();
    expect(at('192.168.1.6:4010')).toBe('forbidden_host');
  });

  it('is not set in process: the control plane is reached only by the code that runs the mock', async () => {
    const inProcess = createOrderMock();
    const answer = await inProcess.handle(
      new Request('https://api.example.com/__mock/reset', { method: 'POST', headers: { origin: evil } }),
    );
    expect(answer).toMatchObject({ status: 204 });
  });
});
