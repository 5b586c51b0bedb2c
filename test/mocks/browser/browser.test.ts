// The example app (examples/web) in real headless Chromium, on the browser-mode mock (MSW's service
// worker). The browser is the one @sparticuz/chromium ships (or CHROMIUM_PATH's); nothing is downloaded.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build, createServer as createViteServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../support/headless-browser.mjs';
import { projectRoot } from '../../support/cli-support.js';

const configFile = join(projectRoot, 'examples', 'web', 'vite.config.ts');
/** Where the test keeps its screenshot: an artifact of the run, not in version control. */
const screenshotPath = join(projectRoot, 'artifacts', 'browser', 'orders-page.png');

let browser: Browser;
let site: PreviewServer;
let origin: string;
let outDir: string;
let page: Page;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'petstore-web-'));
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  site = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  origin = site.resolvedUrls!.local[0]!.replace(/\/$/, '');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.httpServer.close(() => resolve()) : resolve()));
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

beforeEach(async () => {
  // A fresh context each time: its own service worker registration, so each test starts with a fresh mock.
  const context = await browser.newContext();
  page = await context.newPage();
});

afterEach(async () => {
  await page.context().close();
});

async function open(query = ''): Promise<void> {
  await page.goto(`${origin}/${query}`);
}

const message = () => page.locator('#message');
const orderRow = (id: string) => page.locator(`#orders tr[data-order-id="${id}"]`);

describe('the example app in Chromium', () => {
  it('lists the orders, cancels a pending one, and shows the refusal for a shipped one', async () => {
    await open('?scenario=cancel-shipped-order');
    await expect.poll(() => page.locator('#scenario').textContent()).toBe('Mock scenario: cancel-shipped-order');
    await orderRow('1').waitFor();
    expect(
      await page
        .locator('#orders tbody tr')
        .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.orderId)),
    ).toEqual(['1', '3']);

    await page.getByRole('button', { name: 'Cancel order 1' }).click();
    await expect.poll(() => message().textContent()).toBe('Order 1 was cancelled.');
    await orderRow('1').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Cancel order 3' }).click();
    await expect
      .poll(() => message().textContent())
      .toBe('Order 3 has already shipped, so it can no longer be cancelled.');
    expect(await orderRow('3').isVisible()).toBe(true);

    await mkdir(join(screenshotPath, '..'), { recursive: true });
    await page.screenshot({ path: screenshotPath, fullPage: true });
    expect(existsSync(screenshotPath)).toBe(true);

    await page.getByRole('button', { name: 'Reload orders' }).click();
    await expect.poll(() => page.locator('#orders tbody tr').count()).toBe(1);
    expect(await orderRow('3').isVisible()).toBe(true);
  });

  it('keeps a cancellation across a page reload with persist', async () => {
    await open('?scenario=cancel-shipped-order&persist');
    await page.getByRole('button', { name: 'Cancel order 1' }).click();
    await expect.poll(() => message().textContent()).toBe('Order 1 was cancelled.');
    // Saved once the change is in place: wait for it rather than racing the reload.
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('petstore-contract-kit/orders/cancel-shipped-order')))
      .toContain('"status":"cancelled"');
    await page.reload();
    await orderRow('3').waitFor();
    expect(
      await page
        .locator('#orders tbody tr')
        .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.orderId)),
    ).toEqual(['3']);
    await page.getByLabel('Order number').fill('1');
    await page.getByRole('button', { name: 'Cancel order', exact: true }).click();
    await expect
      .poll(() => message().textContent())
      .toBe('Order 1 was not found: there is no such order, or it was already cancelled.');
  });

  it('starts from the scenario again after a reload without persist', async () => {
    await open('?scenario=cancel-shipped-order');
    await page.getByRole('button', { name: 'Cancel order 1' }).click();
    await expect.poll(() => message().textContent()).toBe('Order 1 was cancelled.');
    await page.reload();
    await orderRow('1').waitFor();
    expect(await orderRow('3').isVisible()).toBe(true);
  });

  it('says when an order number is unknown (404)', async () => {
    await open('?scenario=cancel-shipped-order');
    await orderRow('1').waitFor();
    await page.getByLabel('Order number').fill('42');
    await page.getByRole('button', { name: 'Cancel order', exact: true }).click();
    await expect
      .poll(() => message().textContent())
      .toBe('Order 42 was not found: there is no such order, or it was already cancelled.');
  });

  it('says when no key is sent, and when the key is refused (401)', async () => {
    await open();
    await page.locator('#orders tbody tr').first().waitFor();
    await page.getByLabel('Bearer key sent with every request').fill('');
    await page.getByRole('button', { name: 'Reload orders' }).click();
    await expect
      .poll(() => message().textContent())
      .toBe('You are not signed in: enter an API key to list your orders.');
    expect(await page.locator('#orders').isHidden()).toBe(true);

    await page.getByLabel('Bearer key sent with every request').fill('not-the-key');
    await page.getByRole('button', { name: 'Reload orders' }).click();
    await expect
      .poll(() => message().textContent())
      .toBe(
        'The order service did not accept your API key, so it could not list your orders. Check the key and try again.',
      );
  });

  it('shows an outage declared by a scenario (503), then the orders once it passes', async () => {
    await open('?scenario=list-orders-unavailable');
    await expect
      .poll(() => message().textContent())
      .toBe(
        'The order service is having trouble (503), so it could not list your orders. Please try again in a moment.',
      );
    await page.getByRole('button', { name: 'Reload orders' }).click();
    await orderRow('3').waitFor();
  });

  it('shows a dropped connection as a network failure, and keeps the order', async () => {
    await open('?scenario=cancel-order-network-error');
    await page.getByRole('button', { name: 'Cancel order 1' }).click();
    await expect
      .poll(() => message().textContent())
      .toBe('Could not reach the order service to cancel order 1. Check your connection and try again.');
    expect(await orderRow('1').isVisible()).toBe(true);
  });

  it('names the known scenarios when the address asks for an unknown one', async () => {
    await open('?scenario=no-such-scenario');
    await expect
      .poll(() => message().textContent())
      .toMatch(/^Unknown scenario "no-such-scenario"; known: cancel-cancelled-order, /);
    expect(await page.locator('#scenario').textContent()).toBe('The mock did not start.');
  });
});

describe('npm run example (the Vite dev server)', () => {
  let server: ViteDevServer;

  afterAll(async () => {
    await server?.close();
  });

  it('serves the app on the mock straight from the sources', async () => {
    server = await createViteServer({
      configFile,
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    await server.listen();
    const devOrigin = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
    await page.goto(`${devOrigin}/?scenario=cancel-pending-order`);
    await expect.poll(() => page.locator('#orders tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator('#scenario').textContent()).toBe('Mock scenario: cancel-pending-order');
  }, 120_000);
});
