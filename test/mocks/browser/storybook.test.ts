// The example Storybook (examples/storybook) built as CI would build it and opened in headless
// Chromium: each story on its own fresh mock from its scenario, on msw-storybook-addon's one worker,
// and story switches that keep each story's own state with no error in the console.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot, runToExit } from '../../support/cli-support.js';
import { launchChromium } from '../../support/headless-browser.mjs';
import { storyOutcomes, storySwitches } from '../../support/example-suites.js';
import { serveDirectory, type LocalServer } from '../../support/support.js';

let outDir: string;
let site: LocalServer | undefined;
let origin: string;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'petstore-storybook-'));
  const built = await runToExit(
    process.execPath,
    [
      'node_modules/storybook/dist/bin/dispatcher.js',
      'build',
      '-c',
      'examples/storybook/.storybook',
      '-o',
      outDir,
      '--quiet',
    ],
    { cwd: projectRoot, env: { STORYBOOK_DISABLE_TELEMETRY: '1', CI: '1' } },
  );
  if (built.code !== 0) throw new Error(`storybook build failed:\n${built.stdout}\n${built.stderr}`);
  // Served as any static host would serve it.
  site = await serveDirectory(outDir);
  origin = site.origin;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await (await browser.newContext()).newPage();
  problems = [];
  // Errors, and MSW's warnings (a second worker.start(), an unhandled request), in the page or its preview
  // frame; not Chromium's own line for each error status a story exists to show ("Failed to load resource").
  page.on('console', (message) => {
    const line = message.text();
    if (line.startsWith('Failed to load resource:')) return;
    if (message.type() === 'error' || (message.type() === 'warning' && /\[MSW\]/.test(line))) problems.push(line);
  });
  page.on('pageerror', (error) => problems.push(error.message));
});

afterEach(async () => {
  await page.context().close();
});

const story = (id: string) => page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
const text = (value: string) => page.getByText(value, { exact: true });

describe('the example Storybook, story by story', () => {
  it.each(storyOutcomes)('%s shows its outcome, and the console no error', async (id, outcome) => {
    await story(id);
    await text(outcome).waitFor();
    expect(problems).toEqual([]);
  });

  it('lists both ids beyond 2^53 exactly, and cancels the one chosen', async () => {
    await story('orders--beyond-safe-integers');
    await text('Order 9007199254740993 was cancelled.').waitFor();
    await expect
      .poll(() =>
        page.locator('#orders tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.orderId)),
      )
      .toEqual(['9007199254740992']);
  });
});

describe('switching stories without a reload', () => {
  it('starts each story from its own scenario every time, on one worker, with no error', async () => {
    const [first, ...rest] = storySwitches;
    await page.goto(`${origin}/?path=/story/${first![0]}`);
    const preview = page.frameLocator('#storybook-preview-iframe');
    await preview.getByText(first![1], { exact: true }).waitFor();
    // Order 1 is cancelled again on its second visit: a store that leaked from the first would answer 404.
    for (const [id, outcome] of rest) {
      await page.locator(`#${id}`).click();
      await preview.getByText(outcome, { exact: true }).waitFor();
    }
    expect(problems).toEqual([]);
  });
});
