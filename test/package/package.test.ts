import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../core/scenario-files.js';
import { installVersion, optionalDependencies } from '../../verify/base/optional-dependencies.js';
import { v2Walks } from '../../verify/provider/v2-list.js';
import { type Exit, projectRoot, runToExit, scratchFolder, startCommand } from '../support/cli-support.js';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/headless-browser.mjs';
import { packedKit } from '../support/shared-project.js';
import { contractScenarios } from '../support/document-figures.js';
import { authorized, serveDirectory } from '../support/support.js';
import { type DocBlock, documentBlocks, namedFile, where } from './doc-blocks.js';
import { docFrames } from './doc-frames.js';
import { forMsw } from './msw-majors.js';
import { curlScript, curlStatuses } from './shell-blocks.js';

const run = promisify(execFile);
const install = (directory: string, packages: string[]) =>
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages], { cwd: directory });
const mebibytes = async (directory: string) =>
  Number((await run('du', ['-sk', join(directory, 'node_modules')])).stdout.split('\t')[0]) / 1024;
let consumer: string;
let mswAlone: string;
const weight = { kitAndMsw: 0, msw: 0 };
/** The files of the tarball the consumer installs, as the tarball lists them. */
let packedFiles: string[];
/** One headless Chromium for the file, launched on first use; each test opens its own page. */
let browser: Promise<Browser> | undefined;
const chromium = () => (browser ??= launchChromium());

// What a frontend team does: npm pack, then install the tarball beside msw in a project of its own.
// Beside it, a project with msw alone, to weigh what the kit adds.
beforeAll(async () => {
  consumer = await scratchFolder('petstore-consumer-');
  mswAlone = await scratchFolder('petstore-msw-alone-');
  // The run's one tarball, which the support matrix's cells install too (packed once a run).
  const tarball = await packedKit();
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  packedFiles = stdout
    .split('\n')
    .filter((entry) => entry !== '')
    .map((entry) => entry.replace(/^package\//, ''));
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await writeFile(join(mswAlone, 'package.json'), JSON.stringify({ name: 'msw-alone', private: true, type: 'module' }));
  // The README's vitest project: a folder of its own inside the consumer's, which finds the kit and msw
  // in the consumer's node_modules. Its tools (vitest, openapi-fetch) are the versions this project
  // pins, linked rather than installed again: what is under test is the kit as installed.
  const vitestProject = join(consumer, 'vitest-project');
  await mkdir(join(vitestProject, 'node_modules'), { recursive: true });
  await writeFile(
    join(vitestProject, 'package.json'),
    JSON.stringify({ name: 'frontend-tests', private: true, type: 'module' }),
  );
  for (const tool of ['vitest', 'openapi-fetch'])
    await symlink(join(projectRoot, 'node_modules', tool), join(vitestProject, 'node_modules', tool), 'dir');
  await Promise.all([install(consumer, [tarball, 'msw@2.15.0']), install(mswAlone, ['msw@2.15.0'])]);
  weight.kitAndMsw = await mebibytes(consumer);
  weight.msw = await mebibytes(mswAlone);
}, 240_000);

/**
 * A file of the consumer's project bundled for the browser, as its text. esbuild fails to resolve
 * node:fs and the like for the browser platform: a bundle proves there are none.
 */
async function bundleForBrowser(file: string, options: { minify?: boolean } = {}): Promise<string> {
  const result = await build({
    entryPoints: [join(consumer, file)],
    bundle: true,
    minify: options.minify ?? false,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    absWorkingDir: consumer,
  });
  return result.outputFiles[0]!.text;
}

/** The docs' blocks of one kind (README.md and docs/*.md, in file order). */
const blocksMarked = async (kind: NonNullable<DocBlock['mark']>['kind']) =>
  (await documentBlocks()).filter((block) => block.mark?.kind === kind);

afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
  await rm(consumer, { recursive: true, force: true });
  await rm(mswAlone, { recursive: true, force: true });
});

describe("a frontend team's install", () => {
  // 28.0 MiB measured on 2026-11-26, 30.2 MiB on 2026-11-29: 18.2 MiB of it is es-toolkit, which the store's
  // @msw/data depends on (9 MiB before it was one); the 2.2 MiB between them is the kit's own files (v2, compat,
  // the harness's rooms: its tarball unpacks to 4.7 MB in 721 files). The bound is there to catch a heavy
  // dependency (Pact's native core, Prism), which none of the kit's growth is.
  it('adds at most 32 MiB to node_modules over msw alone: no Pact, no Prism, no fast-check', async () => {
    console.log(
      `install weight: kit + msw ${weight.kitAndMsw.toFixed(1)} MiB, msw alone ${weight.msw.toFixed(1)} MiB, the kit adds ${(weight.kitAndMsw - weight.msw).toFixed(1)} MiB`,
    );
    expect(weight.kitAndMsw - weight.msw).toBeLessThanOrEqual(32);
    // npm ls names the absent optional peers too (as empty entries): ask the folder instead.
    for (const { name } of Object.values(optionalDependencies))
      expect(existsSync(join(consumer, 'node_modules', name)), name).toBe(false);
  });

  it("declares the harness's heavy dependencies as optional peers, as the kit loads them", async () => {
    const packageJson = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    for (const { name, range } of Object.values(optionalDependencies)) {
      expect(packageJson.peerDependencies[name]).toBe(range);
      expect(packageJson.peerDependenciesMeta[name]).toEqual({ optional: true });
    }
  });

  it('runs the vitest files of the README and docs/frontend.md as they stand, the journal and the collection included', async () => {
    // The README holds the short example; docs/frontend.md the typed client and the collection.
    // The docs are msw 3's; this project has msw 2, so the blocks take msw 2's names (msw-majors.ts).
    const files = (await blocksMarked('vitest-file')).map((block) => ({
      name: namedFile(block)!,
      code: forMsw(2, block.code),
    }));
    expect(files.map((file) => file.name)).toEqual(['orders.test.ts', 'typed-client.test.ts', 'arrange.test.ts']);
    const project = join(consumer, 'vitest-project');
    for (const file of files) await writeFile(join(project, file.name), file.code);
    const exit = await runToExit(
      process.execPath,
      [join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project],
      { cwd: project, timeout: 90_000 },
    );
    // vitest colours its summary even into a pipe: compare the text without the colour codes.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of an ANSI colour code, on purpose
    expect((exit.stdout + exit.stderr).replace(/\u001b\[\d+m/g, '')).toMatch(
      /Test Files\s+3 passed \(3\)\n\s+Tests\s+6 passed \(6\)/,
    );
    expect(exit.code).toBe(0);
  }, 180_000);

  it("writes one pact from docs/frontend.md's whole-suite pattern, two test files in two workers", async () => {
    const files = (await blocksMarked('vitest-suite')).map((block) => ({
      name: namedFile(block)!,
      code: forMsw(2, block.code),
    }));
    expect(files.map((file) => file.name)).toEqual([
      'vitest.config.ts',
      'test/fresh-pacts.ts',
      'test/order-mock.ts',
      'test/cancel.test.ts',
      'test/list.test.ts',
    ]);
    const project = join(consumer, 'team-suite');
    await mkdir(join(project, 'test'), { recursive: true });
    await mkdir(join(project, 'node_modules'));
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'team-suite', private: true, type: 'module' }),
    );
    await symlink(join(projectRoot, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
    for (const file of files) await writeFile(join(project, file.name), file.code);
    const pactFile = join(project, 'pacts', 'web-app-petstore-order-interface.json');
    const pactAfterARun = async (flags: string[]) => {
      const exit = await runToExit(
        process.execPath,
        [join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...flags],
        { cwd: project, timeout: 90_000 },
      );
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of an ANSI colour code, on purpose
      expect((exit.stdout + exit.stderr).replace(/\u001b\[\d+m/g, '')).toMatch(
        /Test Files\s+2 passed \(2\)\n\s+Tests\s+4 passed \(4\)/,
      );
      expect(exit.code).toBe(0);
      const text = await readFile(pactFile, 'utf8');
      const pact = JSON.parse(text) as { interactions: { description: string }[]; metadata: Record<string, unknown> };
      expect(pact.metadata['petstore-contract-kit']).toEqual({ leftOut: 'none' });
      return { text, descriptions: pact.interactions.map((interaction) => interaction.description) };
    };
    const first = await pactAfterARun(['--maxWorkers', '2']);
    expect(first.descriptions).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
      'GET /store/orders 200 (with the key)',
      'GET /store/orders 200 (with the key) #2',
    ]);
    // The next run starts from no pact, its files and tests in another order on one worker: the same
    // interactions, not twice as many, and the same bytes.
    const shuffled = await pactAfterARun(['--maxWorkers', '1', '--sequence.shuffle', '--sequence.seed', '7']);
    expect(shuffled.text).toBe(first.text);
  }, 200_000);

  it("types the README example in a CommonJS TypeScript project too (one copy of msw's types)", async () => {
    const project = join(consumer, 'commonjs');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'commonjs', private: true, type: 'commonjs' }),
    );
    await writeFile(
      join(project, 'example.ts'),
      `import { setupServer } from 'msw/node';
import { createOrderMock, type OrderCollection, type OrderMock } from 'petstore-contract-kit/msw';
import { createServer } from 'petstore-contract-kit/server';
import type { RunReport } from 'petstore-contract-kit/verify';
const mock: OrderMock = createOrderMock({ seed: [{ id: 1, petId: 7 }, { id: 2, status: 'shipped' }] });
const server = setupServer(...mock.handlers);
const entries: number = mock.requests({ operation: 'cancelOrder', status: 204 }).length;
const arranged = mock.collection().then((orders: OrderCollection) => orders.create({ id: 3n, petId: 9n, status: 'shipped' }));
const petId: Promise<bigint | undefined> = arranged.then((order) => order.petId);
export { server, entries, petId, createServer, type RunReport };
`,
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          skipLibCheck: true,
          types: [],
        },
        files: ['example.ts'],
      }),
    );
    const tsc = await runToExit(
      process.execPath,
      [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      { cwd: project },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    // And it runs: Node 20.19 and later require() the kit's ES modules (and @msw/data's), the collection included.
    await writeFile(
      join(project, 'run.cjs'),
      `const { setupServer } = require('msw/node');
const { createOrderMock } = require('petstore-contract-kit/msw');
const mock = createOrderMock({ seed: [{ id: 2 }] });
const server = setupServer(...mock.handlers);
server.listen();
mock.collection()
  .then((orders) => orders.update((q) => q.where({ id: 2n }), { data(order) { order.status = 'shipped'; } }))
  .then(() => fetch('https://api.example.com/v1/store/orders/2', { method: 'DELETE', headers: { authorization: 'Bearer petstore-dev-key' } }))
  .then((response) => { console.log(response.status, mock.requests().length); server.close(); });
`,
    );
    const ran = await runToExit(process.execPath, ['run.cjs'], { cwd: project });
    expect(ran.stdout).toBe('409 1\n');
  });

  it("runs the mock in a page, the journal and the coverage included (MSW's worker, headless Chromium)", async () => {
    const site = join(consumer, 'site');
    await mkdir(site);
    await copyFile(join(consumer, 'node_modules/msw/lib/mockServiceWorker.js'), join(site, 'mockServiceWorker.js'));
    await writeFile(
      join(consumer, 'page.js'),
      `import { http, HttpResponse } from 'msw';
import { startBrowserMock } from 'petstore-contract-kit/browser';
const unhandled = [];
const mock = await startBrowserMock({
  scenario: 'cancel-shipped-order',
  onUnhandledRequest: (request) => void unhandled.push(new URL(request.url).pathname),
});
const headers = { authorization: 'Bearer petstore-dev-key' };
const statuses = [];
for (const id of [3, 1, 1]) statuses.push((await fetch('/v1/store/orders/' + id, { method: 'DELETE', headers })).status);
const cancels = mock.requests({ operation: 'cancelOrder' }).map((entry) => [entry.path, entry.status]);
const covered = mock.coverage().operations.find((operation) => operation.operation === 'cancelOrder').responses.filter((response) => response.seen > 0).map((response) => response.status);
await fetch('/v3/store/orders', { headers }).catch(() => undefined);
mock.worker.use(http.get('*/v1/store/orders', () => HttpResponse.json([], { status: 200 })));
const overridden = await (await fetch('/v1/store/orders', { headers })).json();
const lists = mock.requests({ operation: 'listOrders' }).map((entry) => entry.status);
await mock.reset();
const afterReset = (await mock.orders()).map((order) => order.status);
// A second mock on the worker already running (as beside msw-storybook-addon): no second worker.start().
const second = await startBrowserMock({ worker: mock.worker, scenario: 'cancel-unknown-order' });
const secondList = (await (await fetch('/v1/store/orders', { headers })).json()).map((order) => order.id);
second.stop();
const afterSecond = await (await fetch('/v1/store/orders', { headers })).json();
// The worker's owner resets it as before: the page's override goes, the first mock's own handlers stay.
mock.worker.resetHandlers();
const afterResetHandlers = (await (await fetch('/v1/store/orders', { headers })).json()).map((order) => order.id);
document.body.dataset.result = JSON.stringify({ statuses, cancels, covered, unhandled, overridden, lists, afterReset, secondList, afterSecond, afterResetHandlers });
`,
    );
    await build({
      entryPoints: [join(consumer, 'page.js')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outfile: join(site, 'page.js'),
      logLevel: 'silent',
      absWorkingDir: consumer,
    });
    await writeFile(
      join(site, 'index.html'),
      '<!doctype html><html><body><script type="module" src="/page.js"></script></body></html>',
    );
    const server = await serveDirectory(site);
    const page = await (await chromium()).newPage();
    try {
      const warnings: string[] = [];
      page.on('console', (message) => /\[MSW\]/.test(message.text()) && warnings.push(message.text()));
      await page.goto(`${server.origin}/`);
      await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 20_000 });
      const result = JSON.parse((await page.evaluate(() => document.body.dataset.result))!) as unknown;
      expect(result).toEqual({
        statuses: [409, 204, 404],
        cancels: [
          ['/v1/store/orders/3', 409],
          ['/v1/store/orders/1', 204],
          ['/v1/store/orders/1', 404],
        ],
        covered: [204, 404, 409],
        // MSW's own safety net sees the unmocked call; the kit's handlers let it through
        unhandled: expect.arrayContaining(['/v3/store/orders']),
        // a handler put in front of the kit's with worker.use() is journaled
        overridden: [],
        lists: [200],
        // reset goes back to the scenario the mock started from
        afterReset: ['pending', 'shipped'],
        secondList: [1],
        // the second mock's stop() takes its own handlers off and leaves the page's override in place
        afterSecond: [],
        afterResetHandlers: [1, 3],
      });
      expect(warnings).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  }, 60_000);
});

describe('the installed package', () => {
  it("runs petstore-verify without the harness's dependencies only to say, in one line, what to install (exit 2)", async () => {
    const exit = await runToExit(
      'npx',
      [
        '--no-install',
        'petstore-verify',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--api-key',
        'k',
        '--state-url',
        'http://127.0.0.1:9/s',
      ],
      { cwd: consumer },
    );
    expect(exit.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'))).toEqual([
      'petstore-verify: this run needs @pact-foundation/pact-core (the pact suite) and @stoplight/prism-http (Prism, the second oracle; --no-prism does without it), which are not installed: npm install --save-dev @pact-foundation/pact-core@^19.2.0 @stoplight/prism-http@5.12.0 (see --help)',
    ]);
    expect(exit.code).toBe(2);
    const proxy = await runToExit(
      'npx',
      ['--no-install', 'petstore-verify', 'proxy', '--upstream', 'http://127.0.0.1:9/v1'],
      { cwd: consumer },
    );
    expect(proxy.stderr).toMatch(
      /petstore-verify: the proxy needs @stoplight\/prism-http .*which is not installed: npm install --save-dev @stoplight\/prism-http@5\.12\.0 \(see --help\)\n$/,
    );
    expect(proxy.code).toBe(2);
  });

  it('says in one line that exploring from the library needs fast-check, when it is not installed', async () => {
    await writeFile(
      join(consumer, 'explore.mjs'),
      `import { explore } from 'petstore-contract-kit/verify';
await explore({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', stateUrl: 'http://127.0.0.1:9/s', prism: false })
  .then(() => console.log('explored'), (error) => console.log(error.message));
`,
    );
    const ran = await runToExit(process.execPath, ['explore.mjs'], { cwd: consumer });
    expect(ran.stdout).toBe(
      'petstore-contract-kit needs fast-check (exploration from the library; the petstore-verify command carries it inside), which is not installed: npm install --save-dev fast-check@^4.10.2\n',
    );
  });

  it('ships the built code, the declarations and the spec, and no tests or sources', async () => {
    // The files of the very tarball the consumer installed, as the tarball lists them.
    const files = packedFiles;
    for (const file of [
      'dist/mocks/adapters/msw.js',
      'dist/mocks/adapters/msw.d.ts',
      'dist/mocks/index.d.ts',
      'dist/mocks/server/server.js',
      'dist/bin/petstore-mock.js',
      'dist/bin/petstore-verify.js',
      'dist/verify/index.js',
      'dist/verify/index.d.ts',
      'scenarios/scenario.schema.json',
      'scenarios/cancel-shipped-order.yaml',
      'contracts/pacts/petstore-order-client-petstore-order-interface.json',
      'dist/contracts/client.js',
      'dist/mocks/adapters/browser.js',
      'dist/mocks/adapters/browser.d.ts',
      'dist/core/routes.js',
      'dist/spec/generated/contract.js',
      'dist/mocks/adapters/msw.d.cts',
      'dist/verify/pact-child.js',
      'spec/openapi.yaml',
      'spec/openapi-v2.yaml',
      'README.md',
      'LICENSE',
    ]) {
      expect(files).toContain(file);
    }
    const sources = ['test/', 'mocks/', 'verify/', 'cli/', 'spec/', 'contracts/'];
    expect(
      files.filter(
        (file) =>
          sources.some((folder) => file.startsWith(folder)) &&
          file !== 'spec/openapi.yaml' &&
          file !== 'spec/openapi-v2.yaml' &&
          !file.startsWith('contracts/pacts/'),
      ),
    ).toEqual([]);
  });

  it("works in-process with setupServer from the consumer's own msw", async () => {
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
    expect(JSON.parse(exit.stdout)).toEqual({
      statuses: [204, 409, 404, 200, 401, 'order_already_shipped', '1,2'],
      orders: [
        ['1', 'pending'],
        ['2', 'shipped'],
      ],
    });
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

  it("runs npx petstore-verify against npx petstore-mock --scenario, and the proxy in front of it, once the provider's install line is run", async () => {
    await install(
      consumer,
      // The versions the install hint names on this Node (Node 20: pact-core 19, Prism 5.12), not the range,
      // of which npm would choose for itself.
      Object.values(optionalDependencies).map(({ name, install }) => `${name}@${installVersion(install)}`),
    );
    const mock = await startCommand(
      'npx',
      ['--no-install', 'petstore-mock', '--port', '0', '--scenario', 'cancel-shipped-order'],
      { cwd: consumer },
    );
    try {
      // The docs' petstore-verify commands against the mock (README, docs/harness.md, docs/providers.md),
      // each as written, the mock's address put for 127.0.0.1:4010, in a folder for the reports they write.
      const blocks = await blocksMarked('shell-verify');
      expect(blocks.length).toBeGreaterThan(0);
      const reports = join(consumer, 'verify-blocks');
      await mkdir(reports, { recursive: true });
      let strict: Exit | undefined;
      for (const block of blocks) {
        const script = join(reports, 'verify.sh');
        await writeFile(script, `set -e\n${block.code.replaceAll('127.0.0.1:4010', new URL(mock.origin).host)}`);
        const exit = await runToExit('bash', [script], { cwd: reports });
        // npm itself may warn about this machine's configuration; petstore-verify prints nothing on stderr.
        expect(
          exit.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn')),
          where(block),
        ).toEqual([]);
        expect(exit.stdout, where(block)).toMatch(/\nverdict: passed \(exit 0; /);
        expect(exit.code, where(block)).toBe(0);
        if (block.code.includes('--strict')) strict = exit;
      }
      const exit = strict!;
      expect(exit.stdout).toMatch(/\npact: \d+ passed, 0 failed \(interactions; \d+ checks, 0 violations, /);
      expect(exit.stdout).toMatch(
        new RegExp(
          // The scenarios, then v2's list: its walks, v1's list beside it, its refusals (verifyV2List).
          `\\nscenarios: ${(await contractScenarios()).length + v2Walks.length + 2} passed, 0 failed \\(scenarios; \\d+ checks, 0 violations, 0 warnings, `,
        ),
      );
      expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
      expect(exit.code).toBe(0);
      const proxy = await startCommand(
        'npx',
        ['--no-install', 'petstore-verify', 'proxy', '--upstream', mock.baseUrl, '--port', '0'],
        { cwd: consumer },
      );
      try {
        expect((await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized })).status).toBe(200);
      } finally {
        await proxy.stop();
      }
    } finally {
      await mock.stop();
    }
  }, 180_000);

  it('bundles petstore-contract-kit/browser for the browser: no Node built-in, every scenario inside', async () => {
    await writeFile(
      join(consumer, 'app.js'),
      `import { startBrowserMock, bundledScenarios } from 'petstore-contract-kit/browser';
export const names = bundledScenarios.map((scenario) => scenario.name);
export const start = () => startBrowserMock({ scenario: 'cancel-shipped-order' });
`,
    );
    const text = await bundleForBrowser('app.js');
    for (const name of (await loadScenarios()).map((scenario) => scenario.name)) expect(text).toContain(`"${name}"`);
    expect(text).toContain('9007199254740993n');
    expect(text).toContain('mockServiceWorker.js');
  });

  it('bundles petstore-contract-kit/json for the browser, and it reads and writes ids exactly in Chromium', async () => {
    await writeFile(
      join(consumer, 'json-page.js'),
      `import { parseJson, stringifyJson, int64AsBigint } from 'petstore-contract-kit/json';
const orders = parseJson('[{"id":9007199254740993,"petId":-9223372036854775808},{"id":9007199254740992}]');
const exact = int64AsBigint(JSON.parse('[{"id":1}]'), { type: 'array', items: { $ref: '#/components/schemas/Order' } });
document.body.dataset.result = JSON.stringify({
  ids: orders.map((order) => String(order.id)),
  types: [typeof orders[0].id, typeof exact[0].id],
  written: stringifyJson(orders[0]),
});
`,
    );
    const script = await bundleForBrowser('json-page.js', { minify: true });
    expect(script).not.toMatch(/node:/);
    const page = await (await chromium()).newPage();
    try {
      await page.setContent('<!doctype html><html><body></body></html>');
      await page.addScriptTag({ content: script, type: 'module' });
      await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 20_000 });
      expect(JSON.parse((await page.evaluate(() => document.body.dataset.result))!)).toEqual({
        ids: ['9007199254740993', '9007199254740992'],
        types: ['bigint', 'bigint'],
        written: '{"id":9007199254740993,"petId":-9223372036854775808}',
      });
    } finally {
      await page.close();
    }
  }, 60_000);

  it('bundles every entry a browser may import, the package root included, and each loads in Chromium', async () => {
    const entries = [
      'petstore-contract-kit',
      'petstore-contract-kit/msw',
      'petstore-contract-kit/browser',
      'petstore-contract-kit/json',
      'petstore-contract-kit/client',
      'petstore-contract-kit/openapi',
      'petstore-contract-kit/control',
      'petstore-contract-kit/storybook',
    ];
    await writeFile(
      join(consumer, 'entries-page.js'),
      `${entries.map((entry, index) => `import * as entry${index} from '${entry}';`).join('\n')}
const modules = [${entries.map((_, index) => `entry${index}`).join(', ')}];
const exported = Object.fromEntries(${JSON.stringify(entries)}.map((name, index) => [name, Object.keys(modules[index]).length]));
const root = modules[0];
let server;
try { root.createServer(); } catch (error) { server = error.message; }
const mock = root.createOrderMock({ scenario: 'cancel-shipped-order' });
const orders = (await mock.orders()).map((order) => String(order.id));
document.body.dataset.result = JSON.stringify({ exported, server, orders, scenarios: root.bundledScenarios.length });
`,
    );
    const script = await bundleForBrowser('entries-page.js');
    const page = await (await chromium()).newPage();
    try {
      const errors: string[] = [];
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      page.on('pageerror', (error) => errors.push(error.message));
      // A page of an origin (MSW reads localStorage at load, which about:blank refuses), served by Playwright's router.
      await page.route('http://entries.test/**', (route) =>
        route.request().url().endsWith('/entries.js')
          ? route.fulfill({ contentType: 'text/javascript', body: script })
          : route.fulfill({
              contentType: 'text/html',
              body: '<!doctype html><html><body><script type="module" src="/entries.js"></script></body></html>',
            }),
      );
      await page.goto('http://entries.test/');
      // An error at load is the failure to see: wait for the result or an error, whichever comes.
      await Promise.race([
        page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 20_000 }),
        new Promise((resolve) => page.on('pageerror', resolve)),
      ]);
      expect(errors).toEqual([]);
      const result = JSON.parse((await page.evaluate(() => document.body.dataset.result))!) as {
        exported: Record<string, number>;
      };
      expect(errors).toEqual([]);
      expect(result).toEqual({
        exported: expect.any(Object),
        server:
          'createServer needs Node.js and is not available in a browser: run `npx petstore-mock` beside the page, or start the mock in the page with startBrowserMock from petstore-contract-kit/browser.',
        orders: ['1', '3'],
        scenarios: (await loadScenarios()).length,
      });
      // every entry but the types-only one exports something
      expect(
        Object.entries(result.exported)
          .filter(([, count]) => count === 0)
          .map(([name]) => name),
      ).toEqual(['petstore-contract-kit/openapi']);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('bundles petstore-contract-kit/client for the browser small: no Ajv, not the whole OpenAPI document', async () => {
    await writeFile(
      join(consumer, 'client-app.js'),
      "export { createOrderClient, OrderApiError } from 'petstore-contract-kit/client';\n",
    );
    const text = await bundleForBrowser('client-app.js', { minify: true });
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
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          skipLibCheck: true,
          types: [],
        },
        files: ['typed.ts'],
      }),
    );
    const exit = await runToExit(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer });
    expect(exit.stdout + exit.stderr).toBe('');
    expect(exit.code).toBe(0);
  });

  // Every module block of the docs (Storybook's files, Playwright's, the handlers file) and every
  // fragment in its frame, type-checked in one tsc run against the installed kit and the tools the
  // docs install beside it (linked from this project's node_modules, the versions it pins).
  it('type-checks every module and fragment of the docs against the installed kit, in one tsc run', async () => {
    for (const tool of ['vitest', '@playwright/test', 'storybook', 'msw-storybook-addon', '@storybook/html-vite']) {
      const link = join(consumer, 'node_modules', tool);
      if (existsSync(link)) continue;
      await mkdir(join(link, '..'), { recursive: true });
      await symlink(join(projectRoot, 'node_modules', tool), link, 'dir');
    }
    const project = join(consumer, 'doc-types');
    const files = new Map<string, DocBlock>();
    for (const [index, block] of (await documentBlocks()).entries()) {
      const mark = block.mark;
      if (mark?.kind === 'module') {
        const name = namedFile(block) ?? `module-${index}.ts`;
        expect(files.has(name), `${where(block)}: ${name} twice`).toBe(false);
        files.set(name, block);
        await mkdir(join(project, name, '..'), { recursive: true });
        await writeFile(join(project, name), block.code);
      } else if (mark?.kind === 'fragment') {
        const name = `fragment-${index}.ts`;
        files.set(name, block);
        await mkdir(project, { recursive: true });
        await writeFile(join(project, name), `${docFrames[mark.frame]!.prelude}${block.code}`);
      }
    }
    expect(files.size).toBeGreaterThan(0);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'doc-types', private: true, type: 'module' }),
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          target: 'es2022',
          lib: ['es2022', 'dom', 'dom.iterable'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          skipLibCheck: true,
          allowJs: true,
          checkJs: true,
          types: [],
        },
        files: [...files.keys()],
      }),
    );
    const tsc = await runToExit(
      process.execPath,
      [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'],
      { cwd: project },
    );
    // Each error named by the block it is in, at the block's own line.
    const errors = (tsc.stdout + tsc.stderr)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const at = /^([^(]+)\((\d+),\d+\): (.*)$/.exec(line);
        const block = at && files.get(at[1]!);
        if (!at || !block) return line;
        const prelude =
          block.mark?.kind === 'fragment' ? docFrames[block.mark.frame]!.prelude.split('\n').length - 1 : 0;
        return `${block.file}:${block.line + Number(at[2]) - prelude}: ${at[3]}`;
      });
    expect(errors).toEqual([]);
    expect(tsc.code).toBe(0);
  }, 120_000);

  // The docs' shell blocks against one petstore-mock of the installed kit (its address for
  // 127.0.0.1:4010), each from the seed; curl reports each answer's status, and a line whose comment
  // starts with a status must get it. The mock serves the docs' handlers file too (--handlers).
  it('runs every shell block of the docs against one petstore-mock, each curl answering the status its comment says', async () => {
    const blocks = await blocksMarked('shell-mock');
    expect(blocks.length).toBeGreaterThan(0);
    const handlers = join(consumer, 'doc-handlers.mjs');
    const handlersBlock = (await blocksMarked('module')).find((block) => namedFile(block) === 'handlers.mjs');
    await writeFile(handlers, handlersBlock!.code);
    const mock = await startCommand('npx', ['--no-install', 'petstore-mock', '--port', '0', '--handlers', handlers], {
      cwd: consumer,
    });
    try {
      const address = new URL(mock.origin).host;
      for (const block of blocks) {
        expect((await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' })).status).toBe(204);
        const script = join(consumer, 'doc-block.sh');
        await writeFile(script, curlScript(block, address));
        const exit = await runToExit('bash', [script], { cwd: consumer });
        expect(exit.stderr, where(block)).toBe('');
        expect(exit.code, where(block)).toBe(0);
        const { answered, expected } = curlStatuses(block, exit.stdout);
        expect(answered, where(block)).toEqual(expected);
      }
      // docs/frontend.md's curl of the handlers file's endpoint, which asks for no key.
      const inventory = await fetch(`${mock.baseUrl}/store/inventory`);
      expect(await inventory.json()).toEqual({ dogs: 3 });
    } finally {
      await mock.stop();
    }
  });
});
