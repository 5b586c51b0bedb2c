// Your own MSW handlers beside the kit's, on the standalone server: createServer({ handlers }) and
// petstore-mock --handlers FILE. They are asked first, through the one pipeline: the same CORS,
// sessions, journal and logging as the kit's own routes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, projectRoot, runToExit, startCommand } from '../support/cli-support.js';
import { authorized, expectError, jsonOf, startServer } from '../support/support.js';

const fixture = (name: string) => fileURLToPath(new URL(`../support/fixtures/${name}`, import.meta.url));

describe('createServer({ handlers })', () => {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("serves a handler of its own beside the kit's operations", async () => {
    server = await startServer({ handlers: [http.get('*/v1/store/inventory', () => HttpResponse.json({ dogs: 3 }))] });
    const inventory = await server.api('/store/inventory');
    expect(inventory.status).toBe(200);
    expect(await inventory.json()).toEqual({ dogs: 3 });
    expect((await server.withKey('/store/orders')).status).toBe(200);
  });

  it("asks the user's handlers before the kit's, for the kit's own paths too", async () => {
    server = await startServer({ handlers: [http.get('*/v1/store/orders', () => HttpResponse.json([{ id: 42 }]))] });
    expect(await (await server.api('/store/orders')).json()).toEqual([{ id: 42 }]);
    expect((await server.withKey('/store/orders/3', { method: 'DELETE' })).status).toBe(409);
  });

  it("adds the CORS headers to what the user's handlers answer", async () => {
    server = await startServer({ handlers: [http.get('*/health', () => new HttpResponse('ok'))] });
    const health = await fetch(`${server.origin}/health`, { headers: { origin: 'http://app.test' } });
    expect(health.headers.get('access-control-allow-origin')).toBe('*');
    expect(await health.text()).toBe('ok');
  });

  it("journals the calls under /v1 that the user's handlers answer, in the session they name", async () => {
    server = await startServer({ handlers: [http.get('*/v1/store/orders', () => HttpResponse.json([]))] });
    await server.api('/store/orders', { headers: { 'x-mock-session': 'mine' } });
    const entries = (await jsonOf(
      await server.control('/requests', { headers: { 'x-mock-session': 'mine' } }),
    )) as Record<string, unknown>[];
    expect(entries).toMatchObject([
      {
        method: 'GET',
        path: '/v1/store/orders',
        operation: 'listOrders',
        status: 200,
        session: 'mine',
        authorization: 'none',
      },
    ]);
  });

  it("logs the calls the user's handlers answer, one line each", async () => {
    const lines: string[] = [];
    server = await startServer({
      handlers: [http.get('*/v1/store/inventory', () => HttpResponse.json({}))],
      log: (line) => lines.push(line),
    });
    await server.api('/store/inventory');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/v1\/store\/inventory 200 [\d.]+ms$/);
  });

  it("answers 500 naming the user's handler when it throws, and keeps serving", async () => {
    server = await startServer({
      handlers: [
        http.get('*/v1/store/inventory', () => {
          throw new Error('inventory is not ready');
        }),
      ],
    });
    await expectError(
      await server.api('/store/inventory'),
      500,
      'internal_error',
      'A handler of yours (the handlers option) threw: inventory is not ready',
    );
    expect((await server.withKey('/store/orders')).status).toBe(200);
  });

  it('gives a function of the mock the mock itself, so that its handlers can read the store', async () => {
    server = await startServer({
      seed: [{ id: 1 }, { id: 2 }],
      handlers: (mock) => [
        http.get('*/v1/store/count', async () => HttpResponse.json({ orders: (await mock.orders()).length })),
      ],
    });
    await server.withKey('/store/orders/1', { method: 'DELETE' });
    expect(await (await server.api('/store/count')).json()).toEqual({ orders: 2 });
  });

  it("reads a request body the user's handler did not, for the kit's control plane", async () => {
    server = await startServer({
      handlers: [http.put('*/__mock/elsewhere', () => new HttpResponse(null, { status: 204 }))],
    });
    const put = await server.control('/orders', { method: 'PUT', body: '[{"id":9007199254740993}]' });
    expect(put.status).toBe(204);
    expect(await server.storedOrders()).toEqual([{ id: 9007199254740993n, status: 'pending' }]);
  });
});

describe('petstore-mock --handlers FILE', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(projectRoot, '.handlers-test-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const cli = (args: string[]) => runToExit(process.execPath, [cliPath, '--port', '0', ...args]);

  it('serves the handlers of an ES module whose default export is an array', async () => {
    const mock = await startCommand(process.execPath, [cliPath, '--port', '0', '--handlers', fixture('handlers.mjs')]);
    try {
      expect(await (await fetch(`${mock.baseUrl}/store/inventory`)).json()).toEqual({ dogs: 3 });
      expect((await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized })).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  it('serves the handlers of a CommonJS file whose default export is a function of the mock', async () => {
    const mock = await startCommand(process.execPath, [
      cliPath,
      '--port',
      '0',
      '--handlers',
      fixture('handlers-of-mock.cjs'),
    ]);
    try {
      expect(await (await fetch(`${mock.baseUrl}/store/count`)).json()).toEqual({ orders: 5 });
    } finally {
      await mock.stop();
    }
  });

  it('exits 2 naming a file that does not exist', async () => {
    const exit = await cli(['--handlers', 'no-such-handlers.mjs']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe('petstore-mock: --handlers no-such-handlers.mjs: no such file (see --help)\n');
  });

  it('exits 2 naming a file that does not load, and why', async () => {
    const file = join(directory, 'broken.mjs');
    await writeFile(file, 'export default [;\n');
    const exit = await cli(['--handlers', file]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(
      new RegExp(`^petstore-mock: --handlers ${file}: cannot load it: .+ \\(see --help\\)\\n$`),
    );
  });

  it('exits 2 naming a file whose default export is not handlers', async () => {
    const file = join(directory, 'number.mjs');
    await writeFile(file, 'export default 42;\n');
    const exit = await cli(['--handlers', file]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      `petstore-mock: --handlers ${file}: its default export must be an array of MSW handlers, got number (see --help)\n`,
    );
  });

  it('exits 2 naming a file whose array holds something that is not a handler', async () => {
    const file = join(directory, 'strings.mjs');
    await writeFile(file, "export default ['GET /v1/store/inventory'];\n");
    const exit = await cli(['--handlers', file]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      `petstore-mock: --handlers ${file}: its default export[0] is not an MSW handler (made with msw's http or graphql), got string (see --help)\n`,
    );
  });

  it('exits 2 naming a file without a default export', async () => {
    const file = join(directory, 'named.mjs');
    await writeFile(file, 'export const handlers = [];\n');
    const exit = await cli(['--handlers', file]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      `petstore-mock: --handlers ${file}: it has no default export (export default [handlers], or module.exports = [handlers]) (see --help)\n`,
    );
  });

  it('exits 2 naming a file whose function returns something that is not handlers', async () => {
    const file = join(directory, 'function.mjs');
    await writeFile(file, 'export default () => ({});\n');
    const exit = await cli(['--handlers', file]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      `petstore-mock: --handlers ${file}: what its default export returns must be an array of MSW handlers, got an object (see --help)\n`,
    );
  });
});
