// petstore-verify har on HAR files a real browser wrote: Chromium through Playwright's recordHar, against
// the kit's mock and against a provider that cancels shipped orders with 204 (the README's bug). One
// browser launch for the file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { startBrokenProvider } from '../support/broken-provider.js';
import { runToExit, verifyCliPath as verifyCli } from '../support/cli-support.js';
import { launchChromium } from '../support/headless-browser.mjs';
import { developmentKey, startServer } from '../support/support.js';

let browser: Browser;
let directory: string;
beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-browser-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const shippedState = JSON.stringify({
  state: 'the store holds orders',
  params: {
    orders: [
      { id: 1, petId: 101, quantity: 1, status: 'pending' },
      { id: 3, petId: 103, quantity: 1, status: 'shipped' },
    ],
  },
  action: 'setup',
});

/**
 * A tester's session in Chromium, saved as a HAR by Playwright's recordHar: the page opens the list (a
 * navigation without a key: 401), then the app lists with its key, cancels the shipped order 3, lists again.
 */
async function browserSession(origin: string, file: string): Promise<void> {
  await fetch(`${origin}/__mock/provider-state`, { method: 'POST', body: shippedState });
  const context = await browser.newContext({ recordHar: { path: file, content: 'embed' } });
  const page = await context.newPage();
  await page.goto(`${origin}/v1/store/orders`);
  await page.evaluate(async (key) => {
    const headers = { authorization: `Bearer ${key}` };
    await (await fetch('/v1/store/orders', { headers })).text();
    await (await fetch('/v1/store/orders/3', { method: 'DELETE', headers })).text();
    await (await fetch('/v1/store/orders', { headers })).text();
  }, developmentKey);
  await context.close(); // writes the HAR
}

const judge = (file: string, extra: string[] = []) =>
  runToExit(process.execPath, [
    verifyCli,
    'har',
    file,
    '--from-scenario',
    'cancel-shipped-order',
    '--api-key',
    developmentKey,
    '--no-prism',
    ...extra,
  ]);

describe('petstore-verify har on a HAR Chromium wrote (Playwright recordHar)', () => {
  it("holds the buggy provider's 204 for the shipped order at once; the saved scenario replays red there and green against the mock", async () => {
    const buggy = await startBrokenProvider(async (request, response) =>
      request.method === 'DELETE' && response.status === 409 ? new Response(null, { status: 204 }) : response,
    );
    const file = join(directory, 'buggy.har');
    const saved = join(directory, 'saved');
    try {
      await browserSession(buggy.origin, file);
      const har = JSON.parse(await readFile(file, 'utf8'));
      expect(har.log.version).toBe('1.2');
      const run = await judge(file, ['--save', saved, '--name', 'browser-bug']);
      expect(run.stdout).toContain(`4 of the order interface at ${buggy.origin}/v1`);
      expect(run.stdout).toContain(
        "✗ contract: 3. cancel order 3: the contract requires status 409, the HAR's answer was 204 [status-unexpected]",
      );
      expect(run.stdout).toContain('4 entries of the interface, 4 judged, 0 violations of the specification');
      expect(run.stdout).not.toContain(developmentKey);
      expect(run.code).toBe(1);
      expect(await readFile(join(saved, 'browser-bug.yaml'), 'utf8')).not.toContain(developmentKey);
      const replay = (origin: string) =>
        runToExit(process.execPath, [
          verifyCli,
          '--scenarios',
          saved,
          '--scenario',
          'browser-bug',
          '--base-url',
          `${origin}/v1`,
          '--api-key',
          developmentKey,
          '--state-url',
          `${origin}/__mock/provider-state`,
          '--no-prism',
        ]);
      const red = await replay(buggy.origin);
      expect(red.stdout).toContain('browser-bug › 3. cancel order 3: expected status 409, got 204 (at status)');
      expect(red.code).toBe(1);
      const honest = await startServer();
      try {
        expect((await replay(honest.origin)).code).toBe(0);
      } finally {
        await honest.close();
      }
    } finally {
      await buggy.close();
    }
  });

  it('judges the same session against the honest mock green', async () => {
    const honest = await startServer();
    const file = join(directory, 'honest.har');
    try {
      await browserSession(honest.origin, file);
    } finally {
      await honest.close();
    }
    const run = await judge(file);
    expect(run.stdout).toContain(
      '4 entries of the interface, 4 judged, 0 violations of the specification, 0 findings against the contract',
    );
    expect(run.stdout).toMatch(/\nverdict: passed \(exit 0\)\n$/);
    expect(run.code).toBe(0);
  });
});
