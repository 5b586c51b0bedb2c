// A frontend team on msw 3 (issue 55): a fresh project on Node 24 (msw 3 needs Node 22.12 or later,
// the suite runs on 20; the project the Node 24 files share, node24Projects) installs msw 3.0.5,
// vitest 5, vite 8 (with the other files' tools), then the packed kit with no flag, and
// uses the kit's mock through each of msw 3's ways: setupServer and defineNetwork in vitest, and in a
// Vite app on the msw/vite plugin (virtual:msw's network, the kit's startNetworkMock, setupWorker
// through startBrowserMock, and defineNetwork over msw/browser's sources) in headless Chromium. The
// docs' msw 3 blocks are the files it runs.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderMock } from '../../mocks/adapters/msw.js';
import { type Exit, startCommand } from '../support/cli-support.js';
import type { ConsumerProject } from '../support/consumer-project.js';
import { launchChromium } from '../support/headless-browser.mjs';
import { nodeBinary } from '../support/node-binaries.js';
import { sharedProject } from '../support/shared-project.js';
import { expectCleanInstalls, msw3Stack, node24Projects, supportMatrix, typeScriptProject } from './support-matrix.js';
import { authorized, type LocalServer, serveDirectory } from '../support/support.js';
import { documentBlocks, namedFile } from './doc-blocks.js';

let project: ConsumerProject;
/** The shared project's folder, where its node_modules is; this file works in a folder of its own in it. */
let root: string;
let browser: Promise<Browser> | undefined;
let site: LocalServer | undefined;

/** The docs' blocks of one msw 3 kind, as the files they name. */
async function docFiles(kind: 'vitest-file-msw3' | 'vite-app-msw3'): Promise<{ name: string; code: string }[]> {
  const blocks = (await documentBlocks()).filter((block) => block.mark?.kind === kind);
  return blocks.map((block) => ({ name: namedFile(block)!, code: block.code }));
}

async function writeFiles(folder: string, files: { name: string; code: string }[]): Promise<void> {
  for (const file of files) {
    await mkdir(dirname(join(folder, file.name)), { recursive: true });
    await writeFile(join(folder, file.name), file.code);
  }
}

/** An exit's output for a failure's message, vitest's colours taken out. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of an ANSI colour code, on purpose
const printed = (exit: Exit) => (exit.stdout + exit.stderr).replace(/\u001b\[\d+m/g, '');

beforeAll(async () => {
  // The Node 24 frontend project the Node 24 files share (node24Projects), made once a run: it installs
  // msw3Stack, exactly the versions the issue names (npm would otherwise pick msw 2 for the kit's peer
  // range), with the other files' tools, then the kit last and with no flag, as a team already on msw 3
  // adds it: its peer range must take msw 3.
  const shared = await sharedProject(node24Projects.frontend, {
    node: await nodeBinary(supportMatrix.node24.nodeVersion),
    workspace: 'msw3',
  });
  project = shared.project;
  root = shared.root;
  expectCleanInstalls({ definition: node24Projects.frontend, installs: shared.installs }, msw3Stack);
}, 600_000);

afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
  await site?.close();
  if (project) await rm(project.folder, { recursive: true, force: true });
});

describe('a project on msw 3.0.5 and Node 24', () => {
  it('installs the kit beside msw 3 and keeps msw 3', async () => {
    const installed = JSON.parse(await readFile(join(root, 'node_modules/msw/package.json'), 'utf8'));
    expect(installed.version).toBe('3.0.5');
    expect(project.node.version).toMatch(/^24\./);
  });

  it("runs the docs' defineNetwork file, a setupServer file with server.use, and the README's file: journal and coverage", async () => {
    const files = await docFiles('vitest-file-msw3');
    expect(files.map((file) => file.name)).toEqual(['network.test.ts']);
    const readme = (await documentBlocks()).find((block) => namedFile(block) === 'orders.test.ts')!;
    await writeFiles(project.folder, [
      ...files,
      { name: 'orders.test.ts', code: readme.code },
      { name: 'server.test.ts', code: serverTestFile },
    ]);
    const exit = await project.exec('npx', ['vitest', 'run'], { timeout: 120_000 });
    expect(printed(exit)).toMatch(/Test Files\s+3 passed \(3\)\n\s+Tests\s+7 passed \(7\)/);
    expect(exit.code).toBe(0);
  }, 180_000);

  it("type-checks the docs' msw 3 files and the kit's declarations against msw 3's types (TypeScript 7)", async () => {
    await writeFiles(project.folder, [
      ...(await docFiles('vite-app-msw3')).map((file) => ({ ...file, name: join('web', file.name) })),
      { name: 'tsconfig.json', code: JSON.stringify(typeCheckConfig, null, 2) },
      { name: 'kit-types.ts', code: kitTypesFile },
    ]);
    // The Node 24 cell's TypeScript 7, made once a run: the same check as TypeScript 5.9.3's, at a
    // third of its CPU (docs/decisions/suite-time.md). 5.9.3 still checks the example suites against
    // msw 3 in msw3-frontend.test.ts.
    const tsc = await typeScriptProject({
      node: project.node,
      version: supportMatrix.node24.typescript,
      workspace: 'msw3',
    });
    expect((await project.exec('node', [tsc, '--version'])).stdout.trim()).toBe(
      `Version ${supportMatrix.node24.typescript}`,
    );
    const exit = await project.exec('node', [tsc, '-p', 'tsconfig.json'], { timeout: 120_000 });
    // skipLibCheck off: the kit's declarations must name only what msw 3 exports (msw 2's
    // UnhandledRequestStrategy is gone), and observe() must take msw 3's emitters as they are typed.
    expect(exit.code, printed(exit)).toBe(0);
  }, 180_000);

  it("serves a handlers file written against msw 3 beside the kit's, in petstore-mock (msw's getResponse)", async () => {
    await writeFile(join(project.folder, 'handlers.mjs'), handlersFile);
    const mock = await startCommand('npx', ['petstore-mock', '--handlers', 'handlers.mjs', '--port', '0'], {
      cwd: project.folder,
      env: project.env,
    });
    try {
      expect(await (await fetch(`${mock.baseUrl}/store/inventory`)).json()).toEqual({ dogs: 3 });
      const cancel = await fetch(`${mock.baseUrl}/store/orders/1`, { method: 'DELETE', headers: authorized });
      expect(cancel.status).toBe(204);
    } finally {
      await mock.stop();
    }
  });
});

describe('a Vite app on the msw/vite plugin, in Chromium', () => {
  beforeAll(async () => {
    const web = join(project.folder, 'web');
    await writeFiles(web, [...(await docFiles('vite-app-msw3')), ...appFiles]);
    // A development build: the docs guard the mock with import.meta.env.DEV, as an app should.
    const exit = await project.exec('env', ['NODE_ENV=development', 'npx', 'vite', 'build', '--mode', 'development'], {
      cwd: web,
    });
    expect(exit.code, printed(exit)).toBe(0);
    site = await serveDirectory(join(web, 'dist'));
    browser = launchChromium();
  }, 180_000);

  for (const via of ['network', 'kit', 'worker', 'define'] as const) {
    it(`answers the page's fetches from the kit's mock and journals them (${wayNames[via]})`, async () => {
      const context = await (await browser!).newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${site!.origin}/?via=${via}&scenario=cancel-shipped-order`);
        await page.waitForFunction(() => (globalThis as { mockReady?: boolean }).mockReady === true);
        const answers = await cancelBoth(page);
        expect(answers).toEqual({ refused: 409, code: 'order_already_shipped', cancelled: 204 });
        expect(await overriddenList(page)).toEqual([]);
        // The override's answer reaches the journal through the network's events, after the fetch.
        await expect
          .poll(() => journal(page))
          .toEqual([
            { method: 'DELETE', path: '/v1/store/orders/3', operation: 'cancelOrder', status: 409 },
            { method: 'DELETE', path: '/v1/store/orders/1', operation: 'cancelOrder', status: 204 },
            { method: 'GET', path: '/v1/store/orders', operation: 'listOrders', status: 200 },
          ]);
        expect(await seenStatuses(page)).toEqual({ cancelOrder: [204, 409], listOrders: [200] });
        // A request no handler answers: virtual:msw's network warns (its own onUnhandledFrame), while
        // startBrowserMock's 'bypass' reaches msw 3 under its new name and keeps the console quiet.
        expect(await unhandledWarnings(page)).toHaveLength(via === 'worker' ? 0 : 1);
        if (via === 'kit') expect(await stopped(page)).toEqual({ readyState: 0, status: 404 });
      } finally {
        await context.close();
      }
    });
  }
});

const wayNames = {
  network: "virtual:msw's network with createOrderMock",
  kit: 'startNetworkMock on virtual:msw',
  worker: "startBrowserMock's setupWorker",
  define: "defineNetwork over msw/browser's sources",
};

type Shared = { orderMock: OrderMock };

/** Cancels the shipped order 3, then the pending order 1, from the page. */
function cancelBoth(page: Page) {
  return page.evaluate(async () => {
    const headers = { authorization: 'Bearer petstore-dev-key' };
    const refused = await fetch('/v1/store/orders/3', { method: 'DELETE', headers });
    const cancelled = await fetch('/v1/store/orders/1', { method: 'DELETE', headers });
    const { code } = (await refused.json()) as { code: string };
    return { refused: refused.status, code, cancelled: cancelled.status };
  });
}

/** Puts a handler of the page's in front of the kit's (`use`), and lists through it. */
function overriddenList(page: Page) {
  return page.evaluate(async () => {
    type Page = { network: { use(...handlers: unknown[]): void }; mswApi: typeof import('msw') };
    const { network, mswApi } = globalThis as unknown as Page;
    network.use(mswApi.http.get('*/v1/store/orders', () => mswApi.HttpResponse.json([])));
    const response = await fetch('/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } });
    return response.json();
  });
}

/**
 * MSW's warnings of unhandled requests while the page fetches one: a marker logged after the fetch
 * (MSW warns before the request goes on) tells when every warning of it has arrived.
 */
async function unhandledWarnings(page: Page): Promise<string[]> {
  const messages: string[] = [];
  const marker = `fetched ${Math.random()}`;
  const seen = new Promise<void>((resolve) =>
    page.on('console', (message) => {
      messages.push(message.text());
      if (message.text() === marker) resolve();
    }),
  );
  await page.evaluate(async (text) => {
    await fetch('/api/health'); // no handler's, and no asset MSW lets by silently
    console.log(text);
  }, marker);
  await seen;
  return messages.filter((text) => /without a matching request handler:\s+• GET \S*\/api\/health/.test(text));
}

/** startNetworkMock's stop(): the network it enabled is disabled, and the API reaches the static server. */
function stopped(page: Page) {
  return page.evaluate(async () => {
    type Page = { orderMock: { stop(): Promise<void> }; network: { readyState: number } };
    const { orderMock, network } = globalThis as unknown as Page;
    await orderMock.stop();
    const response = await fetch('/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } });
    return { readyState: network.readyState, status: response.status };
  });
}

function journal(page: Page) {
  return page.evaluate(() =>
    (globalThis as unknown as Shared).orderMock
      .requests()
      .map(({ method, path, operation, status }) => ({ method, path, operation, status })),
  );
}

/** The statuses coverage saw, by operation, for the operations seen. */
function seenStatuses(page: Page) {
  return page.evaluate(() => {
    const seen = (globalThis as unknown as Shared).orderMock
      .coverage()
      .operations.map(({ operation, responses }) => [
        operation,
        responses.filter((response) => response.seen > 0).map((response) => response.status),
      ]);
    return Object.fromEntries(seen.filter(([, statuses]) => statuses!.length > 0));
  });
}

/** The docs' handlers file (docs/frontend.md, "Your own handlers"), run under msw 3. */
const handlersFile = `import { http, HttpResponse } from 'msw';

export default [http.get('*/v1/store/inventory', () => HttpResponse.json({ dogs: 3 }))];
`;

/** setupServer under msw 3: the kit's handlers, one of the test's in front (server.use), observed. */
const serverTestFile = `// server.test.ts
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createOrderMock } from 'petstore-contract-kit/msw';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

const mock = createOrderMock({ scenario: 'cancel-shipped-order' });
const server = setupServer(...mock.handlers);
mock.observe(server);
const key = { authorization: 'Bearer petstore-dev-key' };

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => {
  mock.reset();
  server.resetHandlers();
});
afterAll(() => server.close());

it('answers from the kit and journals an answer of the test in front of it', async () => {
  expect((await fetch('https://api.example.com/v1/store/orders/3', { method: 'DELETE', headers: key })).status).toBe(409);
  server.use(http.delete('*/v1/store/orders/:id', () => new HttpResponse(null, { status: 204 })));
  expect((await fetch('https://api.example.com/v1/store/orders/3', { method: 'DELETE', headers: key })).status).toBe(204);
  expect(mock.requests().map((call) => [call.operation, call.status])).toEqual([['cancelOrder', 409], ['cancelOrder', 204]]);
  const cancel = mock.coverage().operations.find((operation) => operation.operation === 'cancelOrder')!;
  expect(cancel.responses.filter((response) => response.seen > 0).map((response) => response.status)).toEqual([204, 409]);
});

it('fails a call no handler answers, with msw 3\\'s onUnhandledFrame', async () => {
  await expect(fetch('https://api.example.com/v3/store/orders', { headers: key })).rejects.toThrow();
  expect(mock.requests()).toEqual([]);
});
`;

/**
 * The kit's public types used as a team on msw 3 would: what `observe`, `startNetworkMock` and
 * `startBrowserMock` take must accept msw 3's objects, checked by tsc rather than by a cast.
 */
const kitTypesFile = `// kit-types.ts
import type { SetupServer } from 'msw/node';
import type { SetupWorker } from 'msw/browser';
import { defineNetwork } from 'msw/experimental';
import { defaultNetworkOptions } from 'msw/node';
import type { network as viteNetwork } from 'virtual:msw';
import { type BrowserMockOptions, type MswNetwork, type UnhandledRequests } from 'petstore-contract-kit/browser';
import { createOrderMock, type MswEvents } from 'petstore-contract-kit/msw';

const mock = createOrderMock();
const network = defineNetwork({ ...defaultNetworkOptions, handlers: mock.handlers });
export const sources: MswEvents[] = [network, {} as SetupServer, {} as SetupWorker, {} as typeof viteNetwork];
export const networks: MswNetwork[] = [network, {} as typeof viteNetwork];
export const strategies: UnhandledRequests[] = ['bypass', 'error', ({ defaults }) => defaults.warn()];
export const options: BrowserMockOptions = { worker: {} as SetupWorker, onUnhandledRequest: 'warn' };
`;

const typeCheckConfig = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'preserve',
    moduleResolution: 'bundler',
    lib: ['es2023', 'dom', 'dom.iterable'],
    types: ['vite/client', 'msw/vite/client'],
    skipLibCheck: false,
    allowImportingTsExtensions: true,
  },
  files: [
    'kit-types.ts',
    'network.test.ts',
    'web/vite.config.ts',
    'web/src/main.ts',
    'web/src/with-kit.ts',
    'web/src/define-network.ts',
  ],
};

/** The test's own part of the app: a page that picks the way (?via=) and says when the mock is ready. */
const appFiles = [
  {
    name: 'index.html',
    code: '<!doctype html>\n<html><head><meta charset="utf-8"><title>msw 3</title></head>\n<body><script type="module" src="/src/entry.ts"></script></body></html>\n',
  },
  {
    name: 'src/entry.ts',
    code: `import { http, HttpResponse } from 'msw';

const via = new URLSearchParams(location.search).get('via');
if (via === 'network') await import('./main.ts');
else if (via === 'kit') await import('./with-kit.ts');
else if (via === 'worker') await import('./worker.ts');
else if (via === 'define') await import('./define-network.ts');
else throw new Error(\`no such way: \${via}\`);
Object.assign(globalThis, { mswApi: { http, HttpResponse }, mockReady: true });
`,
  },
  {
    // setupWorker under msw 3, through the kit's browser entry; the plugin serves the worker script.
    name: 'src/worker.ts',
    code: `import { startBrowserMock } from 'petstore-contract-kit/browser';

const mock = await startBrowserMock({ scenario: new URLSearchParams(location.search).get('scenario') });
Object.assign(globalThis, { orderMock: mock, network: mock.worker });
`,
  },
];
