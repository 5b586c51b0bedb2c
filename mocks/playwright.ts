import { test as base, expect, type BrowserContext, type TestInfo } from '@playwright/test';
import type { NetworkFixture } from '@msw/playwright';
import type { AnyHandler, RequestHandler } from 'msw';
import { createControlClient, type ControlClient } from './control-client.js';
import { MockUsageError } from './errors.js';
import { networkError, replyToResponse } from './reply.js';
import type { MockedResponseEvent, OrderMock, OrderMockOptions } from './order-mock.js';
import { OrderCoverageReporter, coverageAttachment } from './playwright-reporter.js';

/** The options of the kit's Playwright fixtures: set them in the config's `use`, a project's, or with `test.use()`. */
export interface OrderMockTestOptions {
  /** The scenario each test starts from, for example `test.use({ scenario: 'cancel-shipped-order' })`; null: the seed. Default: null. */
  scenario: string | null;
  /**
   * Where the mock runs: `'in-page'`, a fresh mock in the test's process answering the page's calls
   * through @msw/playwright, or `'server'`, a session of its own on a shared `petstore-mock`
   * (`mockServer`). Default: `'in-page'`.
   */
  mockMode: 'in-page' | 'server';
  /** The address of the shared `petstore-mock` in server mode. Default: the `PETSTORE_MOCK_URL` environment variable. */
  mockServer: string | undefined;
  /** The server's `--control-key`, if it was started with one. Default: none. */
  mockControlKey: string | undefined;
  /** The in-page mock's options (a seed, faults, settings, ...); `scenario` is the option above. Default: none. */
  mockOptions: Omit<OrderMockOptions, 'scenario'>;
}

/** The kit's Playwright fixtures, beside Playwright's own. */
export interface OrderMockFixtures {
  /**
   * The test's mock, in either mode, behind one asynchronous interface (the control client's): arrange
   * orders and faults, read the journal and the coverage. Each test has its own, from its scenario.
   * @example
   * test('refuses a shipped order', async ({ page, mock }) => {
   *   await page.goto('/');
   *   // ...
   *   expect(await mock.requests({ operation: 'cancelOrder', status: 409 })).toHaveLength(1);
   * });
   */
  mock: ControlClient;
  /** In-page mode only: the mock itself, for `collection()` and the other synchronous controls. */
  orderMock: OrderMock;
  /** In-page mode only: @msw/playwright's network fixture, to put handlers of your own in front with `network.use()`. */
  network: NetworkFixture;
}

/** What the automatic fixture set up for a test: the control in either mode, and the in-page parts. */
interface MockRun {
  control: ControlClient;
  orderMock?: OrderMock;
  network?: NetworkFixture;
}

const inPageOnly = (name: string) =>
  new MockUsageError(
    'in_page_only',
    `${name} is the in-page mock's; this test runs on a petstore-mock session (mockMode: 'server'): use the mock fixture.`,
  );

async function networkFixtureFor(context: BrowserContext, mock: OrderMock): Promise<NetworkFixture> {
  let defineNetworkFixture: typeof import('@msw/playwright').defineNetworkFixture;
  try {
    ({ defineNetworkFixture } = await import('@msw/playwright'));
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new MockUsageError(
      'missing_msw_playwright',
      "The in-page mock needs @msw/playwright: npm install --save-dev @msw/playwright (or set mockMode: 'server').",
    );
  }
  const network = defineNetworkFixture({ context, handlers: mock.handlers });
  await network.enable();
  return network;
}

/** The in-page mock behind the control client's interface: its control plane, called without a socket. */
function inPageControl(mock: OrderMock, baseUrl: string | undefined): ControlClient {
  return createControlClient({
    baseUrl: baseUrl ?? 'http://localhost',
    fetch: async (input, init) => {
      const answer = await mock.handle(new Request(input, init));
      if (answer === undefined || answer === networkError) throw new TypeError('the in-page mock gave no answer');
      return replyToResponse(answer);
    },
  });
}

/** The in-page mode's mock, its control, and @msw/playwright's network with the mock's handlers. */
async function inPageRun(context: BrowserContext, options: OrderMockOptions): Promise<MockRun> {
  // Loaded at the first in-page test, not with the entry: the store and the validators are most of the kit's weight.
  const { createOrderMock } = await import('./order-mock.js');
  const orderMock = createOrderMock(options);
  const { RequestHandler } = await import('msw');
  const network = journaledNetwork(await networkFixtureFor(context, orderMock), orderMock, RequestHandler);
  return { orderMock, control: inPageControl(orderMock, options.baseUrl), network };
}

/** A session name no other test of the run shares: the worker, the test, its repeat and its retry. */
function sessionNameOf(testInfo: TestInfo): string {
  const name = `pw-${testInfo.workerIndex}-${testInfo.testId}-${testInfo.repeatEachIndex}-${testInfo.retry}`;
  return name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 128);
}

/** The server mode's control client for this test's own session (not started yet). */
function serverControl(
  options: { server: string | undefined; controlKey: string | undefined },
  testInfo: TestInfo,
): ControlClient {
  const server = options.server ?? process.env.PETSTORE_MOCK_URL;
  if (server === undefined || server === '')
    throw new MockUsageError(
      'missing_mock_server',
      "mockMode 'server' needs the address of a petstore-mock: set mockServer, or PETSTORE_MOCK_URL.",
    );
  return createControlClient({
    baseUrl: server,
    session: sessionNameOf(testInfo),
    ...(options.controlKey !== undefined && { controlKey: options.controlKey }),
  });
}

/**
 * MSW's handlers as the test puts them in front of the in-page mock's (`network.use()`), each
 * journaled when it answers a call of the API: @msw/playwright reports no answer in its events.
 */
function journaledNetwork(
  network: NetworkFixture,
  mock: OrderMock,
  requestHandler: abstract new (...args: never[]) => RequestHandler,
): NetworkFixture {
  let report: ((event: MockedResponseEvent) => void) | undefined;
  mock.observe({ events: { on: (_event, listener) => void (report = listener), removeListener: () => {} } });
  const journaled = (handler: AnyHandler): AnyHandler =>
    handler instanceof requestHandler
      ? (Object.create(handler, {
          run: {
            async value(this: RequestHandler, args: Parameters<RequestHandler['run']>[0]) {
              const result = await handler.run.call(this, args);
              if (result?.response !== undefined)
                report?.({ request: args.request, requestId: `override-${args.requestId}`, response: result.response });
              return result;
            },
          },
        }) as RequestHandler)
      : handler;
  return new Proxy(network, {
    get(target, property, receiver) {
      if (property === 'use') return (...handlers: AnyHandler[]) => target.use(...handlers.map(journaled));
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Playwright's `test`, with a stateful order mock for every test: in the page (`mockMode: 'in-page'`,
 * the default, through @msw/playwright) or on a shared `petstore-mock` in a session of its own
 * (`mockMode: 'server'`). Each test starts from its `scenario`; its coverage is attached to its
 * result, for the kit's reporter (this entry's default export) to merge over the whole run.
 * @example
 * import { expect, test } from 'petstore-contract-kit/playwright';
 *
 * test.use({ scenario: 'cancel-shipped-order' });
 *
 * test('says a shipped order cannot be cancelled', async ({ page, mock }) => {
 *   await page.goto('/');
 *   await page.getByRole('button', { name: 'Cancel order 3' }).click();
 *   await expect(page.getByText('has already shipped')).toBeVisible();
 *   expect(await mock.requests({ operation: 'cancelOrder', status: 409 })).toHaveLength(1);
 * });
 */
export const test = base.extend<OrderMockTestOptions & OrderMockFixtures & { orderMockRun: MockRun }>({
  scenario: [null, { option: true }],
  mockMode: ['in-page', { option: true }],
  mockServer: [undefined, { option: true }],
  mockControlKey: [undefined, { option: true }],
  mockOptions: [{}, { option: true }],
  orderMockRun: [
    async (
      { context, extraHTTPHeaders, scenario, mockMode, mockServer, mockControlKey, mockOptions },
      use,
      testInfo,
    ) => {
      const run: MockRun =
        mockMode === 'server'
          ? { control: serverControl({ server: mockServer, controlKey: mockControlKey }, testInfo) }
          : await inPageRun(context, { ...mockOptions, scenario });
      try {
        if (mockMode === 'server') {
          // Either call starts the session on the server; it is ended below even if this fails.
          if (scenario === null) await run.control.reset();
          else await run.control.loadScenario(scenario);
          // Added to the headers the config or test asks for, not in their place.
          await context.setExtraHTTPHeaders({ ...extraHTTPHeaders, ...run.control.sessionHeaders });
        }
        await use(run);
        await testInfo.attach(coverageAttachment, {
          body: JSON.stringify(await run.control.coverage()),
          contentType: 'application/json',
        });
      } finally {
        await run.network?.disable();
        if (mockMode === 'server') await run.control.endSession().catch(() => {});
      }
    },
    { auto: true },
  ],
  mock: async ({ orderMockRun }, use) => use(orderMockRun.control),
  orderMock: async ({ orderMockRun }, use) => {
    if (orderMockRun.orderMock === undefined) throw inPageOnly('orderMock');
    await use(orderMockRun.orderMock);
  },
  network: async ({ orderMockRun }, use) => {
    if (orderMockRun.network === undefined) throw inPageOnly('network');
    await use(orderMockRun.network);
  },
});

export { expect, OrderCoverageReporter };
export type { OrderCoverageOptions } from './playwright-reporter.js';
export default OrderCoverageReporter;
