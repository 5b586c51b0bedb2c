import { test as base, expect, type BrowserContext, type TestInfo } from '@playwright/test';
import { createControlClient, type ControlClient } from '../control/control-client.js';
import { MockUsageError, MockOptionError } from '../base/errors.js';
import { networkError, replyToResponse } from '../base/reply.js';
import type { OrderMock, OrderMockOptions } from './order-mock.js';
import { createPageNetwork, type OrderMockNetwork } from './playwright-network.js';
import { OrderCoverageReporter, coverageAttachment, pactAttachment } from './playwright-reporter.js';
import type { PactSelection } from '../pact/pact-file.js';
import { stringifyJson } from '../../core/stringify-json.js';

/** The options of the kit's Playwright fixtures, set in the config's `use` or with `test.use()`. */
export interface OrderMockTestOptions {
  /** The scenario each test starts from; null starts from the seed. Default: null. */
  scenario: string | null;
  /** `'in-page'` (the page's requests routed to a mock in the test's process) or `'server'` (a session on a shared `petstore-mock`). Default: `'in-page'`. */
  mockMode: 'in-page' | 'server';
  /** The shared `petstore-mock`'s address in server mode. Default: `PETSTORE_MOCK_URL`. */
  mockServer: string | undefined;
  mockControlKey: string | undefined;
  /** The in-page mock's options, but the scenario. Default: none. */
  mockOptions: Omit<OrderMockOptions, 'scenario'>;
  /**
   * Who the consumer pact is between: each test's pact goes to the kit's reporter, which writes one
   * pact for the whole run (every test, worker and mode). Default: none, no pact.
   * @example
   * use: { pact: { consumer: 'web-app' } }
   */
  pact: PactSelection | undefined;
}

export interface OrderMockFixtures {
  /**
   * The test's own mock, in either mode, behind the control client's interface.
   * @example
   * test('refuses a shipped order', async ({ page, mock }) => {
   *   await page.goto('/');
   *   // ...
   *   expect(await mock.requests({ operation: 'cancelOrder', status: 409 })).toHaveLength(1);
   * });
   */
  mock: ControlClient;
  /** In-page mode only: the mock itself. */
  orderMock: OrderMock;
  /** In-page mode only: the page's network, for MSW handlers of your own in front of the kit's (`network.use`). */
  network: OrderMockNetwork;
}

interface MockRun {
  control: ControlClient;
  orderMock?: OrderMock;
  network?: OrderMockNetwork;
}

const inPageOnly = (name: string) =>
  new MockUsageError(
    'in_page_only',
    `This test needs mockMode 'in-page': ${name} is the in-page mock's, and this project runs on a petstore-mock session (mockMode 'server'); run it in an in-page project, or use the mock fixture.`,
  );

/** The in-page mock's control plane, called without a socket, behind the control client's interface. */
function inPageControl(mock: OrderMock, baseUrl: string | undefined): ControlClient {
  return createControlClient({
    baseUrl: baseUrl ?? 'http://localhost',
    fetch: async (input, init) => {
      const answer = await mock.handle(new Request(input, init));
      if (answer === undefined || answer === networkError)
        throw new MockOptionError('no_answer', 'the in-page mock gave no answer');
      return replyToResponse(answer);
    },
  });
}

async function inPageRun(context: BrowserContext, options: OrderMockOptions): Promise<MockRun> {
  // Loaded at the first in-page test, not with the entry: the store and validators are most of the kit's weight.
  const { createOrderMock } = await import('./order-mock.js');
  const orderMock = createOrderMock(options);
  // msw 2 or 3, whichever the project has: both export these three alike.
  const { getResponse, isCommonAssetRequest, RequestHandler } = await import('msw');
  const network = createPageNetwork(context, orderMock, { getResponse, isCommonAssetRequest, RequestHandler });
  await network.enable();
  return { orderMock, control: inPageControl(orderMock, options.baseUrl), network };
}

/** A session name no other test of the run shares. */
function sessionNameOf(testInfo: TestInfo): string {
  const name = `pw-${testInfo.workerIndex}-${testInfo.testId}-${testInfo.repeatEachIndex}-${testInfo.retry}`;
  return name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 128);
}

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
 * Playwright's `test`, with a stateful order mock for every test, in the page or on a shared server.
 * Each test's coverage, and its consumer pact when the `pact` option names a consumer, are attached
 * to its result, for the kit's reporter to merge.
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
  pact: [undefined, { option: true }],
  orderMockRun: [
    async (
      { context, extraHTTPHeaders, scenario, mockMode, mockServer, mockControlKey, mockOptions, pact },
      use,
      testInfo,
    ) => {
      const run: MockRun =
        mockMode === 'server'
          ? { control: serverControl({ server: mockServer, controlKey: mockControlKey }, testInfo) }
          : await inPageRun(context, { ...mockOptions, scenario });
      try {
        if (mockMode === 'server') {
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
        // Judged here, so that a call the contract does not allow fails the test that made it.
        if (pact !== undefined)
          await testInfo.attach(pactAttachment, {
            body: stringifyJson(await run.control.fetchPact(pact)),
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
export type { OrderMockNetwork } from './playwright-network.js';
export type { OrderCoverageOptions } from './playwright-reporter.js';
export default OrderCoverageReporter;
