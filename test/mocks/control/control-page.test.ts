// The control page (GET /__mock/) in real headless Chromium, driven by roles and names as a tester
// would: the seed, a scenario, a fault, the journal as calls come, coverage, sessions, a reset, and
// no error in the console. The browser is the one the browser test uses; nothing is downloaded.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../core/scenario-files.js';
import type { ServerOptions } from '../../../mocks/server/server.js';
import { launchChromium } from '../../support/headless-browser.mjs';
import { operationNames } from '../../../core/routes.js';
import { servedResponseCount } from '../../support/document-figures.js';
import { authorized, startServer } from '../../support/support.js';
import { projectRoot } from '../../support/cli-support.js';

/** Where the test keeps its screenshot: an artifact of the run (docs/control-page.png is a copy of one). */
const screenshotPath = join(projectRoot, 'artifacts', 'browser', 'control-page.png');

let browser: Browser;
let page: Page;
let mock: Awaited<ReturnType<typeof startServer>>;
let consoleErrors: string[];

beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function open(options: ServerOptions = {}): Promise<void> {
  mock = await startServer({ scenarios: await loadScenarios(), ...options });
  await page.goto(`${mock.origin}/__mock/`);
}

beforeEach(async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
});

afterEach(async () => {
  await page.context().close();
  await mock?.close();
});

const table = (name: string) => page.getByRole('table', { name });
const rows = (name: string) => table(name).locator('tbody tr');
const orderIds = () => rows('Orders').locator('td:first-child').allTextContents();
const orderStatus = (id: string) => table('Orders').locator(`tr[data-order-id="${id}"] td:last-child`);

describe('the control page', () => {
  it("shows the seed's orders, each with its status", async () => {
    await open();
    await expect.poll(orderIds).toEqual(['1', '2', '3', '4', '5']);
    await expect.poll(() => orderStatus('3').textContent()).toBe('shipped');
    expect(consoleErrors).toEqual([]);
  });

  it('loads a scenario and shows its orders, ids beyond 2^53 exact, with its description', async () => {
    await open();
    await expect.poll(orderIds).toHaveLength(5);
    await page.getByLabel('Scenario', { exact: true }).selectOption('cancel-order-beyond-2-53');
    await expect
      .poll(() => page.locator('#scenario-description').textContent())
      .toBe('Ids beyond 2^53 are exact - 9007199254740993 and 9007199254740992 are two orders.');
    await page.getByRole('button', { name: 'Load' }).click();
    await expect.poll(orderIds).toEqual(['9007199254740993', '9007199254740992']);
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Loaded scenario cancel-order-beyond-2-53: 2 orders, 0 faults.');
    expect(consoleErrors).toEqual([]);
  });

  it('refreshes the orders when the store changes, without reloading', async () => {
    await open();
    await expect.poll(() => orderStatus('1').textContent()).toBe('pending');
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
    await expect.poll(() => orderStatus('1').textContent(), { timeout: 20_000 }).toBe('cancelled');
  });

  it('adds a fault, shows it in force, and the API answers with it', async () => {
    await open();
    // "every operation", then one option per operation of the route table
    await expect.poll(() => page.getByLabel('Operation').locator('option').count()).toBe(1 + operationNames.length);
    await page.getByLabel('Operation').selectOption('listOrders');
    await page.getByLabel('Status').fill('503');
    await page.getByLabel('Times').fill('2');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await expect.poll(() => rows('Faults').count()).toBe(1);
    expect(await rows('Faults').locator('td').allTextContents()).toEqual([
      '1',
      'listOrders',
      'status 503',
      '2',
      '0',
      '0',
      'Remove',
    ]);
    expect((await mock.withKey('/store/orders')).status).toBe(503);
    await page.getByRole('button', { name: 'Remove fault 1' }).click();
    await expect.poll(() => rows('Faults').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it("shows the control plane's 400 beside the form for a fault it refuses", async () => {
    await open();
    await page.getByLabel('Status').fill('200');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Invalid fault: \/status must be >= 400/);
    expect(await rows('Faults').count()).toBe(0);
  });

  it('shows a refused fault once, as a refusal, and no success message beside it', async () => {
    await open();
    await page.getByLabel('Status').fill('503');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Added fault 1.');
    await page.getByLabel('Status').fill('200');
    await page.getByRole('button', { name: 'Add fault' }).click();
    const refusal = 'Invalid fault: /status must be >= 400.';
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(refusal);
    expect(await page.getByRole('status').textContent()).toBe('');
    expect(await page.getByText(refusal).count()).toBe(1);
    // The error colour of the page's style sheet, not the status line's green.
    expect(await page.getByRole('alert').evaluate((shown) => getComputedStyle(shown).color)).toBe('rgb(164, 14, 38)');
    expect(await rows('Faults').count()).toBe(1);
  });

  it('says an action that failed in the status line as a failure, not in the colour of a success', async () => {
    await open();
    await expect.poll(orderIds).toHaveLength(5);
    await mock.close();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^The mock does not answer/);
    expect(await page.getByRole('status').evaluate((shown) => getComputedStyle(shown).color)).toBe('rgb(164, 14, 38)');
  });

  it('shows each call in the journal as it happens, newest first, and the coverage', async () => {
    await open();
    await expect
      .poll(() => page.locator('#coverage-summary').textContent())
      .toBe(`0 of ${servedResponseCount} documented responses seen.`);
    await mock.withKey('/store/orders');
    await mock.withKey('/store/orders/3', { method: 'DELETE' });
    await fetch(`${mock.origin}/v2/store/orders?limit=1`, { headers: authorized });
    await expect.poll(() => rows('Journal').count(), { timeout: 20_000 }).toBe(3);
    const journal = (row: number) => rows('Journal').nth(row).locator('td').allTextContents();
    // v2's list with the document's marker beside its name (spec gap 53), the cancel with none
    expect((await journal(0)).slice(1)).toEqual(['GET', '/v2/store/orders', '200', 'listOrdersV2 (beta)', 'default']);
    expect((await journal(1)).slice(1)).toEqual(['DELETE', '/v1/store/orders/3', '409', 'cancelOrder', 'default']);
    // listOrders 200, cancelOrder 409 and listOrdersV2 200 seen
    const seen = 3;
    await expect
      .poll(() => page.locator('#coverage-summary').textContent())
      .toBe(`${seen} of ${servedResponseCount} documented responses seen.`);
    const never = await rows('Coverage').filter({ hasText: 'never seen' }).count();
    expect(never).toBe(servedResponseCount - seen);
    const coverage = (operation: string, status: string) =>
      rows('Coverage').filter({ hasText: operation }).filter({ hasText: status }).locator('td').allTextContents();
    expect(await coverage('listOrdersV2', '200')).toEqual(['listOrdersV2 (beta)', 'GET /v2/store/orders', '200', '1']);
    expect(await coverage('cancelOrder', '409')).toEqual([
      'cancelOrder',
      'DELETE /v1/store/orders/{orderId}',
      '409',
      '1',
    ]);
    expect(await page.content()).not.toContain('petstore-dev-key');
    await page.screenshot({ path: screenshotPath, fullPage: true });
  });

  it('acts on the session chosen in the picker', async () => {
    await open();
    await mock.withKey('/store/orders/1', { method: 'DELETE', headers: { ...authorized, 'x-mock-session': 'job-7' } });
    await expect
      .poll(() => page.getByLabel('Session').locator('option').allTextContents(), { timeout: 20_000 })
      .toEqual(['default', 'job-7']);
    await page.getByLabel('Session').selectOption('job-7');
    await expect.poll(() => orderStatus('1').textContent()).toBe('cancelled');
    await expect.poll(() => rows('Journal').count()).toBe(1);
    await page.getByLabel('Session').selectOption('');
    await expect.poll(() => orderStatus('1').textContent()).toBe('pending');
  });

  it('goes back to the default session when the chosen one is ended, and does not start it again', async () => {
    await open();
    await mock.withKey('/store/orders', { headers: { ...authorized, 'x-mock-session': 'job-8' } });
    await expect
      .poll(() => page.getByLabel('Session').locator('option').allTextContents(), { timeout: 20_000 })
      .toContain('job-8');
    await page.getByLabel('Session').selectOption('job-8');
    expect((await mock.control('/sessions/job-8', { method: 'DELETE' })).status).toBe(204);
    await expect.poll(() => page.getByLabel('Session').inputValue(), { timeout: 20_000 }).toBe('');
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Session job-8 ended; showing the default session.');
    expect(await (await mock.control('/sessions')).json()).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('resets the store, the faults and the journal', async () => {
    await open();
    await mock.withKey('/store/orders/1', { method: 'DELETE' });
    await expect.poll(() => orderStatus('1').textContent(), { timeout: 20_000 }).toBe('cancelled');
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => orderStatus('1').textContent()).toBe('pending');
    await expect.poll(() => rows('Journal').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('asks for the control key of a server started with one, and works with it', async () => {
    await open({ controlKey: 'control-secret' });
    await expect.poll(() => page.getByLabel('Control key').isVisible()).toBe(true);
    expect(await rows('Orders').count()).toBe(0);
    await page.getByLabel('Control key').fill('control-secret');
    await page.getByRole('button', { name: 'Use key' }).click();
    await expect.poll(orderIds).toEqual(['1', '2', '3', '4', '5']);
    // One refused call, then nothing asked until the key came: the console holds that one 401.
    expect(consoleErrors).toEqual([
      'Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);
  });

  it('is usable by keyboard: Tab reaches every control, in order', async () => {
    await open();
    await expect.poll(orderIds).toHaveLength(5);
    const reached: string[] = [];
    for (let step = 0; step < 9; step++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || ''));
    }
    expect(reached).toEqual([
      'session',
      'reset',
      'scenario',
      'Load',
      'fault-operation',
      'fault-status',
      'fault-delay',
      'fault-network',
      'fault-times',
    ]);
  });
});
