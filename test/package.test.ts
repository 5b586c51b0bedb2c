import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../spec/scenarios.js';
import { projectRoot, runToExit, startCommand } from './cli-support.js';
import { authorized } from './support.js';

const run = promisify(execFile);
let consumer: string;

// What a user does: npm pack, then install the tarball beside msw in a project of their own.
beforeAll(async () => {
  consumer = await mkdtemp(join(tmpdir(), 'petstore-consumer-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', consumer], { cwd: projectRoot });
  const { filename } = (JSON.parse(stdout) as { filename: string }[])[0]!;
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(consumer, filename), 'msw@2.15.0'], { cwd: consumer });
}, 180_000);

afterAll(async () => {
  await rm(consumer, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('ships the built code, the declarations and the spec, and no tests or sources', async () => {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: projectRoot });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
    for (const file of ['dist/mocks/msw.js', 'dist/mocks/msw.d.ts', 'dist/mocks/index.d.ts', 'dist/mocks/server.js', 'dist/bin/petstore-mock.js', 'dist/bin/petstore-verify.js', 'dist/verify/index.js', 'dist/verify/index.d.ts', 'scenarios/scenario.schema.json', 'scenarios/cancel-shipped-order.yaml', 'contracts/pacts/petstore-order-client-petstore-order-interface.json', 'dist/contracts/client.js', 'dist/mocks/browser.js', 'dist/mocks/browser.d.ts', 'dist/spec/routes.js', 'dist/spec/generated/contract.js', 'spec/openapi.yaml', 'README.md']) {
      expect(files).toContain(file);
    }
    const sources = ['test/', 'mocks/', 'verify/', 'cli/', 'spec/', 'contracts/'];
    expect(files.filter((file) => sources.some((folder) => file.startsWith(folder)) && file !== 'spec/openapi.yaml' && !file.startsWith('contracts/pacts/'))).toEqual([]);
  });

  it('works in-process with setupServer from the consumer\'s own msw', async () => {
    await writeFile(
      join(consumer, 'in-process.mjs'),
      `import { setupServer } from 'msw/node';
import { createOrderMock } from 'petstore-contract-kit/msw';
import { createOrderClient, OrderApiError } from 'petstore-contract-kit/client';
const mock = createOrderMock({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
const headers = { authorization: 'Bearer petstore-dev-key' };
const statuses = [];
for (const [method, path] of [['DELETE', '/store/orders/1'], ['DELETE', '/store/orders/2'], ['DELETE', '/store/orders/3'], ['GET', '/store/orders']]) {
  statuses.push((await fetch('https://api.example.com/v1' + path, { method, headers })).status);
}
statuses.push((await fetch('https://api.example.com/v1/store/orders')).status);
const client = createOrderClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'petstore-dev-key' });
await mock.reset();
statuses.push((await client.cancelOrder(2n).catch((error) => error instanceof OrderApiError && error.code)));
statuses.push((await client.listOrders()).map((order) => String(order.id)).join());
console.log(JSON.stringify({ statuses, orders: (await mock.orders()).map((order) => [String(order.id), order.status]) }));
server.close();
`,
    );
    const exit = await runToExit(process.execPath, ['in-process.mjs'], { cwd: consumer });
    expect(exit.stderr).toBe('');
    expect(JSON.parse(exit.stdout)).toEqual({ statuses: [204, 409, 404, 200, 401, 'order_already_shipped', '1,2'], orders: [['1', 'pending'], ['2', 'shipped']] });
  });

  it('runs as npx petstore-mock', async () => {
    const mock = await startCommand('npx', ['--no-install', 'petstore-mock', '--port', '0'], { cwd: consumer });
    try {
      const response = await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized });
      expect(((await response.json()) as unknown[]).length).toBe(5);
    } finally {
      // npx is signalled with the server (one process group), so its own exit is by signal; the
      // server's clean exit on SIGTERM is asserted in cli.test.ts.
      await mock.stop();
    }
  });

  it('runs npx petstore-verify against npx petstore-mock --scenario, and the proxy in front of it', async () => {
    const mock = await startCommand('npx', ['--no-install', 'petstore-mock', '--port', '0', '--scenario', 'cancel-shipped-order'], { cwd: consumer });
    try {
      const exit = await runToExit('npx', ['--no-install', 'petstore-verify', '--base-url', mock.baseUrl, '--api-key', 'petstore-dev-key', '--state-url', `${mock.origin}/__mock/provider-state`, '--strict'], { cwd: consumer });
      // npm itself may warn about this machine's configuration; petstore-verify prints nothing on stderr.
      expect(exit.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'))).toEqual([]);
      expect(exit.stdout).toMatch(/\npact: \d+ passed, 0 failed \(interactions; \d+ checks, 0 violations, /);
      expect(exit.stdout).toMatch(/\nscenarios: 21 passed, 0 failed \(scenarios; \d+ checks, 0 violations, 0 warnings, /);
      expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
      expect(exit.code).toBe(0);
      const proxy = await startCommand('npx', ['--no-install', 'petstore-verify', 'proxy', '--upstream', mock.baseUrl, '--port', '0'], { cwd: consumer });
      try {
        expect((await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized })).status).toBe(200);
      } finally {
        await proxy.stop();
      }
    } finally {
      await mock.stop();
    }
  });

  it('bundles petstore-contract-kit/browser for the browser: no Node built-in, every scenario inside', async () => {
    await writeFile(
      join(consumer, 'app.js'),
      `import { startBrowserMock, bundledScenarios } from 'petstore-contract-kit/browser';
export const names = bundledScenarios.map((scenario) => scenario.name);
export const start = () => startBrowserMock({ scenario: 'cancel-shipped-order' });
`,
    );
    // esbuild fails to resolve node:fs and the like for the browser platform: the bundle proves there are none.
    const result = await build({ entryPoints: [join(consumer, 'app.js')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', absWorkingDir: consumer });
    const text = result.outputFiles[0]!.text;
    for (const name of (await loadScenarios()).map((scenario) => scenario.name)) expect(text).toContain(`"${name}"`);
    expect(text).toContain('9007199254740993n');
    expect(text).toContain('mockServiceWorker.js');
  });

  it('bundles petstore-contract-kit/client for the browser small: no Ajv, not the whole OpenAPI document', async () => {
    await writeFile(join(consumer, 'client-app.js'), "export { createOrderClient, OrderApiError } from 'petstore-contract-kit/client';\n");
    const result = await build({ entryPoints: [join(consumer, 'client-app.js')], bundle: true, minify: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', absWorkingDir: consumer });
    const text = result.outputFiles[0]!.text;
    expect(text).not.toMatch(/ajv|strictSchema/i);
    expect(text).not.toContain('Pet Store Service - Order Interface');
    // lossless-json is most of it; the route table and the client are a few kilobytes.
    expect(text.length).toBeLessThan(40_000);
  });

  it('exports the server and the package root too, with types a TypeScript consumer compiles against', async () => {
    await writeFile(
      join(consumer, 'typed.ts'),
      `import { createServer, type MockServer } from 'petstore-contract-kit/server';
import { createOrderMock, type OrderMock, type StoredOrder } from 'petstore-contract-kit/msw';
import { openApiDocument, parseInt64, loadScenarios, type Scenario } from 'petstore-contract-kit';
import { verify, runVerification, checkAgainstSpec, createValidatingProxy, type SuiteResult, type RunReport } from 'petstore-contract-kit/verify';
const scenarios: Promise<Scenario[]> = loadScenarios({ names: ['list-shape'] });
const suite: Promise<SuiteResult> = scenarios.then((loaded) => verify({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', scenarios: loaded }));
const report: Promise<RunReport> = scenarios.then((loaded) => runVerification({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', suites: ['scenarios'], scenarios: loaded, version: '0' }));
const findings = checkAgainstSpec('GET', '/store/orders', { status: 200, headers: new Headers(), text: '[]' });
const proxy = createValidatingProxy({ upstream: 'http://127.0.0.1:1/v1' });
import { createOrderClient, OrderApiError, type ClientOrder } from 'petstore-contract-kit/client';
import { startBrowserMock, bundledScenarios, type BrowserMock, type FaultInput } from 'petstore-contract-kit/browser';
const outage: FaultInput = { operation: 'listOrders', status: 503, times: 1 };
const started: () => Promise<BrowserMock> = () => startBrowserMock({ scenario: bundledScenarios[0]?.name, faults: [outage] });
const client = createOrderClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' });
const orders: Promise<ClientOrder[]> = client.listOrders();
const refused: number | undefined = new OrderApiError(409, undefined).record?.status;
const server: MockServer = createServer({ seed: [{ id: 1 }] });
const mock: OrderMock = createOrderMock();
const first: Promise<StoredOrder | undefined> = mock.orders().then((stored) => stored[0]);
const id: Promise<bigint | undefined> = first.then((order) => order?.id);
const version: '1.0.0' = openApiDocument.info.version;
export { server, id, version, parseInt64, suite, report, findings, proxy, orders, refused, started };
`,
    );
    const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: [] }, files: ['typed.ts'] }),
    );
    const exit = await runToExit(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer });
    expect(exit.stdout + exit.stderr).toBe('');
    expect(exit.code).toBe(0);
  });
});
