// createControlClient, petstore-contract-kit/control: the standalone server's control plane from a
// test or a fixture, with the in-process mock's types and errors.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import {
  createControlClient,
  defaultControlTimeout,
  type ControlClient,
} from '../../../mocks/control/control-client.js';
import { MockError } from '../../../mocks/base/errors.js';
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

/** A clock whose timers fire only when the test says: the timeout is tested without waiting for it. */
function manualClock() {
  const timers = new Map<number, { callback: () => void; milliseconds: number }>();
  let last = 0;
  return {
    clock: {
      setTimeout: (callback: () => void, milliseconds: number) => {
        timers.set(++last, { callback, milliseconds });
        return last;
      },
      clearTimeout: (handle: unknown) => void timers.delete(handle as number),
    },
    delays: () => [...timers.values()].map((timer) => timer.milliseconds),
    fireAll() {
      for (const [handle, timer] of timers) {
        timers.delete(handle);
        timer.callback();
      }
    },
  };
}

/** A promise and the function that resolves it, for a condition another party makes true. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('createControlClient: bounded and strict', () => {
  const held: ServerResponse[] = [];
  afterEach(() => {
    for (const response of held.splice(0)) response.destroy();
  });

  it(`waits at most ${defaultControlTimeout} ms by default (30 s), and its timeout option sets another`, async () => {
    const arrived = signal();
    const silent = await listenLocally((_request, response) => {
      held.push(response);
      arrived.resolve();
    });
    const { clock, delays, fireAll } = manualClock();
    try {
      const call = createControlClient({ baseUrl: silent.origin, clock }).orders();
      await arrived.promise;
      expect(delays()).toEqual([30_000]);
      fireAll();
      const error = await call.catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'mock_unreachable',
        message: `petstore-mock at ${silent.origin} did not answer GET ${silent.origin}/__mock/orders within 30000 ms (the control client's timeout option)`,
      });
      const other = manualClock();
      const second = createControlClient({ baseUrl: silent.origin, clock: other.clock, timeout: 2_500 }).reset();
      expect(other.delays()).toEqual([2_500]);
      other.fireAll();
      await expect(second).rejects.toMatchObject({ code: 'mock_unreachable' });
    } finally {
      await silent.close();
    }
  });

  it('bounds the whole exchange, body included: a server that sends a byte now and then is not the mock', async () => {
    const trickle = await listenLocally((_request, response) => {
      held.push(response);
      // The head and one byte; the next would come 20 s later, and the one after, and so on.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
    });
    const { clock, fireAll } = manualClock();
    const headArrived = signal();
    const control = createControlClient({
      baseUrl: trickle.origin,
      clock,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        headArrived.resolve();
        return response;
      },
    });
    try {
      const call = control.orders();
      await headArrived.promise;
      await new Promise((resolve) => setImmediate(resolve)); // the client has the head: its microtasks ran
      fireAll();
      await expect(call).rejects.toMatchObject({
        code: 'not_the_mock',
        message: `GET ${trickle.origin}/__mock/orders answered 200 but did not finish its answer within 30000 ms (the control client's timeout option): is the mock running there?`,
      });
    } finally {
      await trickle.close();
    }
  });

  it('times out on the real clock too', async () => {
    const silent = await listenLocally((_request, response) => void held.push(response));
    try {
      await expect(createControlClient({ baseUrl: silent.origin, timeout: 1 }).coverage()).rejects.toMatchObject({
        code: 'mock_unreachable',
      });
    } finally {
      await silent.close();
    }
  });

  it('says when an answer breaks off midway, with the same code', async () => {
    const cut = await listenLocally((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('[{"id":1', () => response.destroy());
    });
    try {
      await expect(createControlClient({ baseUrl: cut.origin }).orders()).rejects.toMatchObject({
        code: 'not_the_mock',
        message: expect.stringMatching(
          new RegExp(
            `^GET ${cut.origin}/__mock/orders answered 200 but its answer broke off \\(.+\\): is the mock running there\\?$`,
          ),
        ),
      });
    } finally {
      await cut.close();
    }
  });

  // Each read or change that answers JSON, and what a server that is not the mock might send instead.
  const calls: [string, (control: ControlClient) => Promise<unknown>, string][] = [
    ['orders', (control) => control.orders(), 'a list of orders'],
    ['replaced orders', (control) => control.loadScenario('cancel-shipped-order'), 'a loaded scenario'],
    ['scenarios', (control) => control.scenarios(), 'a list of scenarios'],
    ['settings', (control) => control.settings(), 'the settings'],
    ['changed settings', (control) => control.changeSettings({ conflictBody: 'none' }), 'the settings'],
    ['added faults', (control) => control.addFaults({ operation: 'listOrders', status: 503 }), 'a list of faults'],
    ['faults', (control) => control.faults(), 'a list of faults'],
    ['requests', (control) => control.requests(), 'a list of journal entries'],
    ['coverage', (control) => control.coverage(), 'a coverage'],
    ['sessions', (control) => control.sessions(), 'a list of sessions'],
  ];
  const wrongBodies = [
    '{"orders":[]}',
    '[{"id":"1","status":"pending"}]',
    '[{"id":1.5,"status":"pending"}]',
    '[{"id":1,"status":"lost"}]',
    '[null]',
    'null',
    '"ok"',
    '{"conflictBody":"maybe","scenario":1,"operations":{}}',
  ];

  it.each(calls)(
    'checks the shape of %s before using it: JSON of another shape is not the mock',
    async (_what, call, shape) => {
      let body = '';
      const other = await listenLocally((_request, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(body),
      );
      try {
        for (body of wrongBodies) {
          const error = await call(createControlClient({ baseUrl: other.origin })).then(
            (value) =>
              new Error(
                `resolved with ${JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? String(item) : item))}`,
              ),
            (caught: unknown) => caught,
          );
          expect(error, body).toMatchObject({
            code: 'not_the_mock',
            message: expect.stringMatching(
              new RegExp(`answered JSON that is not ${shape}: is petstore-mock running there\\?$`),
            ),
          });
        }
      } finally {
        await other.close();
      }
    },
  );

  it('reads every documented answer of the real mock as it is', async () => {
    const { origin } = await started();
    const control = createControlClient({ baseUrl: origin, session: 'shapes' });
    for (const [what, call] of calls) await expect(call(control), what).resolves.toBeDefined();
  });

  it.each([
    [{ timeout: 0 }, 'timeout must be a number of milliseconds above 0 and at most 2147483647, not 0'],
    [{ timeout: -1 }, 'not -1'],
    [{ timeout: Number.NaN }, 'not NaN'],
    [{ timeout: 2 ** 31 }, 'not 2147483648'],
    [{ timeout: '5000' as unknown as number }, 'not 5000'],
    [
      { baseUrl: 'localhost:4010' },
      'baseUrl must be an http(s) URL such as http://127.0.0.1:4010, not "localhost:4010"',
    ],
    [{ baseUrl: '' }, 'not ""'],
  ])('refuses %j with invalid_option', (options, message) => {
    const creating = () => createControlClient({ baseUrl: 'http://127.0.0.1:4010', ...options });
    expect(creating).toThrow(message);
    expect(creating).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });
});
