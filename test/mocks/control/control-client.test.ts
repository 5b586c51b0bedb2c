// createControlClient, petstore-contract-kit/control: the standalone server's control plane from a
// test or a fixture, with the in-process mock's types and errors.
import { afterEach, describe, expect, it } from 'vitest';
import { createControlClient } from '../../../mocks/control-client.js';
import { MockError } from '../../../mocks/errors.js';
import { authorized, listenLocally, startServer } from '../../support/support.js';

let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function started(options: Parameters<typeof startServer>[0] = {}) {
  server = await startServer(options);
  return server;
}

describe('createControlClient', () => {
  it('loads a scenario into its own session, which the session headers reach', async () => {
    const { origin, api } = await started();
    const control = createControlClient({ baseUrl: `${origin}/v1`, session: 'test-1' });
    expect(await control.loadScenario('cancel-shipped-order')).toEqual({
      scenario: 'cancel-shipped-order',
      seeded: true,
      orders: 2,
      faults: 0,
    });
    expect(control.sessionHeaders).toEqual({ 'X-Mock-Session': 'test-1' });
    const cancel = await api('/store/orders/3', {
      method: 'DELETE',
      headers: { ...authorized, ...control.sessionHeaders },
    });
    expect(cancel.status).toBe(409);
    expect((await api('/store/orders/3', { method: 'DELETE', headers: authorized })).status).toBe(409);
    expect((await control.orders()).map((order) => [order.id, order.status])).toEqual([
      [1n, 'pending'],
      [3n, 'shipped'],
    ]);
    expect(await control.requests()).toMatchObject([{ operation: 'cancelOrder', status: 409, session: 'test-1' }]);
    expect((await control.forSession(null).requests()).map((entry) => entry.session)).toEqual([null]);
  });

  it('ends its session, after which the server no longer lists it', async () => {
    const { origin } = await started();
    const control = createControlClient({ baseUrl: origin, session: 'short-lived' });
    await control.reset();
    expect((await control.sessions()).map((session) => session.name)).toEqual(['short-lived']);
    await control.endSession();
    expect(await control.sessions()).toEqual([]);
  });

  it('refuses to end the default session, which never ends', async () => {
    const { origin } = await started();
    await expect(createControlClient({ baseUrl: origin }).endSession()).rejects.toThrow(
      'endSession: this client controls the default session, which never ends; name a session.',
    );
  });

  it('replaces and reads orders with ids beyond 2^53 exactly', async () => {
    const { origin } = await started();
    const control = createControlClient({ baseUrl: origin });
    await control.replaceOrders([
      { id: 9007199254740993n, petId: 9223372036854775807n },
      { id: 9007199254740992n, status: 'shipped' },
    ]);
    expect(await control.orders()).toEqual([
      { id: 9007199254740993n, petId: 9223372036854775807n, status: 'pending' },
      { id: 9007199254740992n, status: 'shipped' },
    ]);
  });

  it("rejects with the mock's own MockError: code, status, message", async () => {
    const { origin } = await started();
    const error = await createControlClient({ baseUrl: origin })
      .loadScenario('nope')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockError);
    expect(error).toMatchObject({ code: 'unknown_scenario', status: 404 });
    expect((error as MockError).message).toMatch(/^Unknown scenario "nope"; known: cancel-cancelled-order, /);
  });

  it('carries the violations of a refused replacement, and nothing changes', async () => {
    const { origin } = await started();
    const control = createControlClient({ baseUrl: origin });
    const error = (await control.replaceOrders([{ id: 'one' }]).catch((caught: unknown) => caught)) as MockError;
    expect(error).toMatchObject({ code: 'invalid_orders', status: 400 });
    expect(error.violations).toEqual([expect.objectContaining({ path: '/0/id' })]);
    expect(await control.orders()).toHaveLength(5);
  });

  it('adds, lists, removes and clears faults, and they act on the API', async () => {
    const { origin, withKey } = await started();
    const control = createControlClient({ baseUrl: origin });
    const [first] = await control.addFaults([
      { operation: 'listOrders', status: 503 },
      { operation: 'cancelOrder', status: 500 },
    ]);
    expect((await withKey('/store/orders')).status).toBe(503);
    await control.removeFault(first!.id);
    expect((await control.faults()).map((fault) => fault.operation)).toEqual(['cancelOrder']);
    await control.clearFaults();
    expect(await control.faults()).toEqual([]);
    expect((await withKey('/store/orders')).status).toBe(200);
  });

  it('filters the journal on the server, and by a RegExp path here', async () => {
    const { origin, withKey } = await started();
    const control = createControlClient({ baseUrl: origin });
    await withKey('/store/orders/1', { method: 'DELETE' });
    await withKey('/store/orders/3', { method: 'DELETE' });
    await withKey('/store/orders');
    expect((await control.requests({ operation: 'cancelOrder', status: 409 })).map((entry) => entry.path)).toEqual([
      '/v1/store/orders/3',
    ]);
    expect((await control.requests({ path: /\/orders\/\d+$/ })).map((entry) => entry.status)).toEqual([204, 409]);
    expect((await control.coverage()).covered).toBe(3);
    await control.clearRequests();
    expect(await control.requests()).toEqual([]);
  });

  it('changes the settings until the next reset', async () => {
    const { origin } = await started();
    const control = createControlClient({ baseUrl: origin });
    expect(await control.changeSettings({ conflictBody: 'none' })).toEqual({ conflictBody: 'none' });
    await control.reset();
    expect(await control.settings()).toEqual({ conflictBody: 'error' });
  });

  it('sends the control key, and says when it is missing', async () => {
    const { origin } = await started({ controlKey: 'secret' });
    await expect(createControlClient({ baseUrl: origin }).orders()).rejects.toMatchObject({
      code: 'missing_control_key',
      status: 401,
    });
    expect(await createControlClient({ baseUrl: origin, controlKey: 'secret' }).orders()).toHaveLength(5);
  });

  it('says when nothing answers at the address', async () => {
    const closed = await listenLocally();
    const { port } = closed;
    await closed.close();
    await expect(createControlClient({ baseUrl: `http://127.0.0.1:${port}` }).orders()).rejects.toThrow(
      `Could not reach petstore-mock at http://127.0.0.1:${port}: fetch failed`,
    );
  });

  it('says when something else answers with a success, a page for every path as a dev server does', async () => {
    const other = await listenLocally((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>'),
    );
    const { port } = other;
    const control = createControlClient({ baseUrl: `http://127.0.0.1:${port}` });
    try {
      await expect(control.orders()).rejects.toThrow(
        `GET http://127.0.0.1:${port}/__mock/orders answered 200 text/html, not as petstore-mock answers: is the mock running there?`,
      );
      await expect(control.reset()).rejects.toThrow(
        `POST http://127.0.0.1:${port}/__mock/reset answered 200 text/html, not as petstore-mock answers: is the mock running there?`,
      );
    } finally {
      await other.close();
    }
  });

  it('says when something else than the mock answers', async () => {
    const other = await listenLocally((_request, response) => response.writeHead(404).end('Not Found'));
    const { port } = other;
    try {
      await expect(createControlClient({ baseUrl: `http://127.0.0.1:${port}` }).reset()).rejects.toThrow(
        `POST http://127.0.0.1:${port}/__mock/reset answered 404 without an Error record of petstore-mock: is the mock running there?`,
      );
    } finally {
      await other.close();
    }
  });
});
