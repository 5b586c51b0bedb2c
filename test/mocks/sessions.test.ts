import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledScenarios } from '../../mocks/generated/scenarios.js';
import { SessionRegistry } from '../../mocks/session/sessions.js';
import { cliPath, runToExit, startCommand } from '../support/cli-support.js';
import { authorized, expectError, inProcessBase, jsonOf, startServer, useInProcessMock } from '../support/support.js';

type Started = Awaited<ReturnType<typeof startServer>>;
let mock: Started;

const seed = [{ id: 1 }, { id: 2 }, { id: 3, status: 'shipped' }];
const as = (session: string) => ({ ...authorized, 'x-mock-session': session });
const listed = async (session?: string) =>
  (
    (await jsonOf(
      await mock.withKey('/store/orders', { headers: session === undefined ? {} : { 'x-mock-session': session } }),
    )) as { id: number }[]
  ).map((order) => order.id);
const cancel = (id: number, session?: string) =>
  mock.withKey(`/store/orders/${id}`, {
    method: 'DELETE',
    headers: session === undefined ? {} : { 'x-mock-session': session },
  });

describe('an ended session', () => {
  afterEach(() => mock.close());

  it('stays ended when a call of it that was in flight finishes', async () => {
    const waiting: (() => void)[] = [];
    let delayed = 0;
    mock = await startServer({
      seed,
      sleep: () => {
        delayed++;
        return new Promise((resolve) => waiting.push(resolve));
      },
    });
    const fault = await mock.control('/faults', {
      method: 'POST',
      headers: { 'x-mock-session': 's1' },
      body: JSON.stringify({ operation: 'cancelOrder', delay: 500 }),
    });
    expect(fault.status).toBe(201);
    const inFlight = cancel(1, 's1');
    await expect.poll(() => delayed).toBe(1);
    expect((await mock.control('/sessions/s1', { method: 'DELETE' })).status).toBe(204);
    for (const resume of waiting) resume();
    expect((await inFlight).status).toBe(204);
    expect(await jsonOf(await mock.control('/sessions'))).toEqual([]);
    expect(await jsonOf(await mock.control('/requests'))).toEqual([]);
  });
});

describe('sessions over HTTP (X-Mock-Session)', () => {
  beforeEach(async () => {
    mock = await startServer({ seed, scenarios: bundledScenarios });
  });
  afterEach(() => mock.close());

  it('gives each session its own store, created from the seed on first use', async () => {
    expect((await cancel(1, 'a')).status).toBe(204);
    expect(await listed('a')).toEqual([2, 3]);
    expect(await listed('b')).toEqual([1, 2, 3]);
    expect(await listed()).toEqual([1, 2, 3]);
    expect((await cancel(1, 'b')).status).toBe(204);
    expect((await cancel(1, 'a')).status).toBe(404);
  });

  it('a control read does not start a session, nor keep one from going idle', async () => {
    const read = await mock.control('/orders', { headers: { 'x-mock-session': 'watched' } });
    expect(read.status).toBe(200);
    expect(((await jsonOf(read)) as unknown[]).length).toBe(3);
    expect(await (await mock.control('/requests', { headers: { 'x-mock-session': 'watched' } })).json()).toEqual([]);
    expect(await (await mock.control('/sessions')).json()).toEqual([]);
    expect((await cancel(1, 'watched')).status).toBe(204);
    expect((await mock.control('/sessions/watched', { method: 'DELETE' })).status).toBe(204);
    await mock.control('/orders', { headers: { 'x-mock-session': 'watched' } });
    expect(await (await mock.control('/sessions')).json()).toEqual([]);
  });

  it('applies the control plane to the session in the header only', async () => {
    const put = await mock.control('/orders', {
      method: 'PUT',
      headers: { 'x-mock-session': 'a' },
      body: JSON.stringify([{ id: 9 }]),
    });
    expect(put.status).toBe(204);
    expect(await listed('a')).toEqual([9]);
    expect(await listed()).toEqual([1, 2, 3]);
    await mock.control('/scenarios/cancel-shipped-order', { method: 'POST', headers: { 'x-mock-session': 'b' } });
    expect(await listed('b')).toEqual([1, 3]);
    expect(await listed('a')).toEqual([9]);
    expect((await mock.control('/reset', { method: 'POST', headers: { 'x-mock-session': 'a' } })).status).toBe(204);
    expect(await listed('a')).toEqual([1, 2, 3]);
    expect(await listed('b')).toEqual([1, 3]);
  });

  it('keeps faults to their session', async () => {
    await mock.control('/faults', {
      method: 'POST',
      headers: { 'x-mock-session': 'a' },
      body: JSON.stringify({ operation: 'listOrders', status: 503 }),
    });
    await expectError(await mock.api('/store/orders', { headers: as('a') }), 503, 'injected_fault');
    expect((await mock.api('/store/orders', { headers: as('b') })).status).toBe(200);
    expect((await mock.withKey('/store/orders')).status).toBe(200);
    expect(await jsonOf(await mock.control('/faults'))).toEqual([]);
  });

  it('lists the sessions in use and ends one with DELETE /__mock/sessions/NAME', async () => {
    await cancel(1, 'job-1');
    await listed('job-2');
    expect(
      ((await jsonOf(await mock.control('/sessions'))) as { name: string }[]).map((session) => session.name),
    ).toEqual(['job-1', 'job-2']);
    expect((await mock.control('/sessions/job-1', { method: 'DELETE' })).status).toBe(204);
    expect(
      ((await jsonOf(await mock.control('/sessions'))) as { name: string }[]).map((session) => session.name),
    ).toEqual(['job-2']);
    expect(await listed('job-1')).toEqual([1, 2, 3]);
    await expectError(
      await mock.control('/sessions/never-used', { method: 'DELETE' }),
      404,
      'unknown_session',
      'No session "never-used" is in use.',
    );
  });

  it('refuses a malformed session name with 400 invalid_session, on the API and the control plane', async () => {
    for (const name of ['two words', 'x'.repeat(129), '.', '..', '.hidden', 'a/b', 'job:17', 'caf%C3%A9']) {
      await expectError(
        await mock.api('/store/orders', { headers: as(name) }),
        400,
        'invalid_session',
        "Invalid X-Mock-Session header: a session name is 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'.",
      );
      await expectError(await mock.control('/orders', { headers: { 'x-mock-session': name } }), 400, 'invalid_session');
    }
    expect(await jsonOf(await mock.control('/sessions'))).toEqual([]);
  });

  it('journals a call refused for its session name in no session', async () => {
    await mock.api('/store/orders', { headers: as('..') });
    await mock.api('/store/orders/1', { method: 'DELETE', headers: as('two words') });
    expect(await jsonOf(await mock.control('/requests'))).toEqual([]);
    expect(await jsonOf(await mock.control('/sessions'))).toEqual([]);
  });

  it('ends a session whose name has dots, underscores and dashes over HTTP', async () => {
    expect(await listed('release_1.2-rc')).toEqual([1, 2, 3]);
    expect((await mock.control('/sessions/release_1.2-rc', { method: 'DELETE' })).status).toBe(204);
    expect(await jsonOf(await mock.control('/sessions'))).toEqual([]);
  });

  it('keeps parallel clients of different sessions apart', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `parallel-${index}`);
    const statuses = await Promise.all(names.map((name) => cancel(1, name).then((response) => response.status)));
    expect(statuses).toEqual(names.map(() => 204));
    for (const name of names) expect(await listed(name)).toEqual([2, 3]);
    expect(await listed()).toEqual([1, 2, 3]);
  });
});

describe('session bounds', () => {
  afterEach(() => mock.close());

  it('refuses a session beyond the limit with 503 session_limit_reached and Retry-After, until one ends', async () => {
    let now = 0;
    mock = await startServer({ seed, sessions: { limit: 2, idleTimeout: 60_000, now: () => now } });
    await listed('a');
    now = 10_500;
    await listed('b');
    now = 20_000;
    // 'a', the least recently used, expires at 60 s: 40 s from now.
    const refused = await mock.api('/store/orders', { headers: as('c') });
    expect(refused.headers.get('retry-after')).toBe('40');
    await expectError(
      refused,
      503,
      'session_limit_reached',
      /^Cannot start session "c": 2 sessions are in use and the limit is 2\. /,
    );
    expect(await listed('a')).toEqual([1, 2, 3]);
    await mock.control('/sessions/a', { method: 'DELETE' });
    expect(await listed('c')).toEqual([1, 2, 3]);
  });

  it('drops a session unused for the idle timeout: its name starts afresh from the seed, and its place is free', async () => {
    let now = 0;
    mock = await startServer({ seed, sessions: { limit: 1, idleTimeout: 150, now: () => now } });
    expect((await cancel(1, 'a')).status).toBe(204);
    now = 149;
    expect(await jsonOf(await mock.control('/sessions'))).toEqual([{ name: 'a', idle: 149 }]);
    await expectError(await mock.api('/store/orders', { headers: as('b') }), 503, 'session_limit_reached');
    now = 150;
    expect(await jsonOf(await mock.control('/sessions'))).toEqual([]);
    expect(await listed('b')).toEqual([1, 2, 3]);
    now = 300;
    expect(await listed('a')).toEqual([1, 2, 3]);
  });

  it('drops the least recently used idle sessions first, on its own clock', () => {
    let now = 0;
    const registry = new SessionRegistry(() => ({ created: now }), { limit: 2, idleTimeout: 100, now: () => now });
    const first = registry.resolve('first');
    now = 50;
    registry.resolve('second');
    now = 90;
    expect(registry.resolve('first')).toBe(first);
    now = 160;
    expect(registry.list()).toEqual([{ name: 'first', idle: 70 }]);
    expect(registry.resolve('third')).toEqual({ created: 160 });
    expect(() => registry.resolve('fourth')).toThrow(/limit is 2/);
  });

  // docs/frontend.md: a control read never starts a session, and sees the seed for a name not in use.
  const controlReads = ['/orders', '/requests', '/faults', '/settings', '/coverage', '/pact?consumer=web-app'];

  it.each([1, 0])(
    'answers every control read for an unused name at the limit (%i) from the seed, starting no session',
    async (limit) => {
      mock = await startServer({ seed, sessions: { limit, now: () => 0 } });
      if (limit > 0) expect((await cancel(1, 'a')).status).toBe(204);
      await expectError(await mock.api('/store/orders', { headers: as('b') }), 503, 'session_limit_reached');
      const inUse = await jsonOf(await mock.control('/sessions'));
      for (const path of controlReads) {
        const read = await mock.control(path, { headers: { 'x-mock-session': 'b' } });
        const text = await read.text();
        expect(read.status, `GET /__mock${path}: ${text}`).toBe(200);
        // The default session is still the seed, with nothing journaled: what an unused name must see.
        expect(text, path).toBe(await (await mock.control(path)).text());
      }
      expect(await jsonOf(await mock.control('/sessions'))).toEqual(inUse);
    },
  );

  it('refuses the header altogether with a limit of 0', async () => {
    mock = await startServer({ seed, sessions: { limit: 0 } });
    await expectError(await mock.api('/store/orders', { headers: as('a') }), 503, 'session_limit_reached');
    expect((await mock.withKey('/store/orders')).status).toBe(200);
  });
});

describe('sessions in-process', () => {
  const current = useInProcessMock({ seed, scenarios: bundledScenarios });
  const base = inProcessBase;

  it('controls a named session with mock.session(name), which requests with the header see', async () => {
    await current().session('test-a').loadScenario('cancel-shipped-order');
    const response = await fetch(`${base}/store/orders/3`, { method: 'DELETE', headers: as('test-a') });
    expect(response.status).toBe(409);
    expect((await fetch(`${base}/store/orders/3`, { method: 'DELETE', headers: authorized })).status).toBe(409);
    expect((await fetch(`${base}/store/orders/1`, { method: 'DELETE', headers: as('test-a') })).status).toBe(204);
    expect((await current().session('test-a').orders()).map((order) => [Number(order.id), order.status])).toEqual([
      [1, 'cancelled'],
      [3, 'shipped'],
    ]);
    expect((await current().orders()).map((order) => order.status)).toEqual(['pending', 'pending', 'shipped']);
    expect(
      current()
        .sessions()
        .map((session) => session.name),
    ).toEqual(['test-a']);
  });
});

describe('session flags', () => {
  it('bounds sessions with --max-sessions and --session-idle-timeout', async () => {
    const running = await startCommand(process.execPath, [
      cliPath,
      '--port',
      '0',
      '--max-sessions',
      '1',
      '--session-idle-timeout',
      '600',
    ]);
    try {
      // The process reads its own clock: Retry-After is 600 s less the whole seconds that pass between the two
      // requests, which this measures rather than bounds (on a loaded machine it may be a second or more).
      const sent = Date.now();
      expect((await fetch(`${running.baseUrl}/store/orders`, { headers: as('a') })).status).toBe(200);
      const refused = await fetch(`${running.baseUrl}/store/orders`, { headers: as('b') });
      const between = Date.now() - sent;
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(retryAfter).toBeGreaterThanOrEqual(600 - Math.ceil(between / 1000));
      await expectError(refused, 503, 'session_limit_reached');
    } finally {
      await running.stop();
    }
  });

  it('refuses a bad --max-sessions with exit 2', async () => {
    const exit = await runToExit(process.execPath, [cliPath, '--max-sessions', 'many']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      'petstore-mock: --max-sessions must be an integer from 0 to 100000, got "many" (see --help)\n',
    );
  });
});
