// The errors the mock throws at its user carry a code of mockUsageErrorCodes (mocks/base/errors.ts), each
// sent here through the public entry that throws it, with its message as it is.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitError } from '../../core/errors.js';
import { createControlClient } from '../../mocks/control/control-client.js';
import { MockOptionError, MockUsageError, mockUsageErrorCodes } from '../../mocks/base/errors.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { createServer } from '../../mocks/server/server.js';
import { KitTypeError } from '../../core/errors.js';
import { readSeedFile } from '../../mocks/store/seed-file.js';
import { withOrderMock } from '../../mocks/adapters/storybook.js';
import { projectRoot, runToExit } from '../support/cli-support.js';

async function thrown(action: () => unknown): Promise<MockUsageError> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(MockUsageError);
    expect(error).toBeInstanceOf(KitError);
    return error as MockUsageError;
  }
  throw new Error('nothing was thrown');
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

describe('the mock usage error codes', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'usage-errors-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('gives each code a one-line meaning', () => {
    for (const [code, meaning] of Object.entries(mockUsageErrorCodes)) {
      expect(code).toMatch(/^[a-z_]+$/);
      expect(meaning).not.toContain('\n');
    }
  });

  it('mock_unreachable: the control client where nothing listens', async () => {
    const closed = createHttpServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await thrown(() => createControlClient({ baseUrl: `http://127.0.0.1:${port}` }).orders());
    expect(error.code).toBe('mock_unreachable');
    expect(error.message).toBe(`Could not reach petstore-mock at http://127.0.0.1:${port}: fetch failed`);
  });

  it('not_the_mock: the control client against a server that is not the mock', async () => {
    const other = createHttpServer((request, response) =>
      request.url === '/__mock/orders'
        ? response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>')
        : response.writeHead(404).end('Not Found'),
    );
    const port = await listen(other);
    try {
      const control = createControlClient({ baseUrl: `http://127.0.0.1:${port}` });
      const page = await thrown(() => control.orders());
      expect(page.code).toBe('not_the_mock');
      expect(page.message).toBe(
        `GET http://127.0.0.1:${port}/__mock/orders answered 200 text/html, not as petstore-mock answers: is the mock running there?`,
      );
      const missing = await thrown(() => control.reset());
      expect(missing.code).toBe('not_the_mock');
      expect(missing.message).toBe(
        `POST http://127.0.0.1:${port}/__mock/reset answered 404 without an Error record of petstore-mock: is the mock running there?`,
      );
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('node_only: a function of the browser root that needs Node', async () => {
    const root = await import('../../mocks/index-browser.js');
    const error = await thrown(() => root.loadSeedFile('orders.yaml'));
    expect(error.code).toBe('node_only');
    expect(error.message).toBe(
      'loadSeedFile needs Node.js and is not available in a browser: pass the orders as the seed option.',
    );
  });

  it("no_msw_handlers: the standalone server's mock, asked for MSW handlers where MSW was never loaded", async () => {
    // A process of its own: in this one, another test file may have loaded the MSW adapter.
    const script = `
      const { createServer } = await import(${JSON.stringify(pathToFileURL(join(projectRoot, 'dist/mocks/server/server.js')).href)});
      try { createServer().mock.handlers; } catch (error) { console.log(error.code + ': ' + error.message); }`;
    const exit = await runToExit(process.execPath, ['--input-type=module', '-e', script]);
    expect(exit.stdout).toBe(
      'no_msw_handlers: This mock has no MSW handlers: the MSW adapter was not loaded. Import createOrderMock from petstore-contract-kit/msw (or the package root) for setupServer or setupWorker.\n',
    );
  });

  it('unreadable_seed_file: a seed file that is not there', async () => {
    const absent = join(directory, 'absent.yaml');
    const error = await thrown(() => readSeedFile(absent));
    expect(error.code).toBe('unreadable_seed_file');
    expect(error.message).toBe(`cannot read seed file ${absent}: ENOENT`);
  });

  it('invalid_seed_file: a seed file that is not JSON, or whose orders are invalid', async () => {
    const broken = join(directory, 'broken.json');
    await writeFile(broken, '{"orders": [');
    const syntax = await thrown(() => readSeedFile(broken));
    expect(syntax.code).toBe('invalid_seed_file');
    expect(syntax.message).toMatch(new RegExp(`^seed file ${broken.replace(/[\\.]/g, '\\$&')} is not valid JSON: `));
    const duplicate = join(directory, 'duplicate.json');
    await writeFile(duplicate, '[{"id": 1}, {"id": 1}]');
    const invalid = await thrown(() => readSeedFile(duplicate));
    expect(invalid.code).toBe('invalid_seed_file');
    expect(invalid.message).toBe(`seed file ${duplicate}: Invalid orders: id 1 appears more than once.`);
  });

  it('missing_storybook_worker: withOrderMock in a story without the addon', async () => {
    const error = await thrown(() => withOrderMock()({}));
    expect(error.code).toBe('missing_storybook_worker');
    expect(error.message).toBe(
      "withOrderMock needs msw-storybook-addon's worker in the story's context: add mswLoader() to the loaders of .storybook/preview (CSF 3), or addonMsw() to its addons (CSF Next).",
    );
  });
});

describe('docs/error-codes.md', () => {
  it('invalid_option: an option the mock cannot use, a TypeError with the code', () => {
    const attempts: [() => unknown, string][] = [
      [() => createOrderMock({ maxOrders: -1 }), 'maxOrders must be a whole number >= 0, not -1'],
      [() => createOrderMock({ apiKeys: [] }), 'At least one API key is required.'],
      [() => createServer({ sessions: { limit: 1.5 } }), 'the session limit must be a whole number >= 0, not 1.5'],
    ];
    for (const [attempt, message] of attempts) {
      let error: unknown;
      try {
        attempt();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MockOptionError);
      expect(error).toBeInstanceOf(KitTypeError);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ code: 'invalid_option', message });
    }
  });

  it('lists every code of mockUsageErrorCodes in a section of its own', async () => {
    const { readFile } = await import('node:fs/promises');
    const catalogue = await readFile(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
    const section = catalogue.split("## Errors thrown at the mock's user")[1]!.split('\n## ')[0]!;
    const documented = [...section.matchAll(/^- `([a-z_]+)`:/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(mockUsageErrorCodes).sort());
  });
});
