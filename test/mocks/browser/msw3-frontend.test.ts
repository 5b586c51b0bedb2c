// msw 3 in a frontend team's project (issue 55, item 3): a fresh project on Node 24 (msw 3 needs
// Node >= 22.12; the project the Node 24 files share, node24Projects) installs msw 3.0.5, Playwright,
// Storybook and msw-storybook-addon 3.0.3 with no flag, then the packed kit, and runs the kit's own examples from there: the Playwright suite in both modes
// (the in-page mock on the kit's own route source, no @msw/playwright) with the coverage reporter and
// the run's pact, and the Storybook built and opened in Chromium, story by story and switching.
// On msw 2 the same suite runs in this checkout (playwright-example.test.ts); that neither major needs
// @msw/playwright, which this checkout holds for bench/playwright.mjs's baseline, is proved there by
// this project having none, and by architecture.test.ts: no module the package's entry points load
// imports a package it does not declare, and @msw/playwright is not declared.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import packagedChromium from '@sparticuz/chromium';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../../core/parse-json.js';
import { projectRoot } from '../../support/cli-support.js';
import type { ConsumerProject } from '../../support/consumer-project.js';
import {
  documentedResponseCount,
  markedApartNoneSeen,
  responsesOf,
  servedResponseCount,
} from '../../support/document-figures.js';
import { examplePactInteractions, storyOutcomes, storySwitches } from '../../support/example-suites.js';
import { launchChromium } from '../../support/headless-browser.mjs';
import { nodeBinary } from '../../support/node-binaries.js';
import { sharedProject } from '../../support/shared-project.js';
import { expectCleanInstalls, msw3ExampleTools, node24Projects, supportMatrix } from '../../package/support-matrix.js';
import { type LocalServer, serveDirectory } from '../../support/support.js';

// The examples as a TypeScript user compiles them, against msw 3's types and the kit's declarations.
// A name of its own: Playwright reads a tsconfig.json beside its tests.
const examplesTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['examples/playwright', 'examples/web/src', 'examples/storybook/stories', 'examples/storybook/.storybook'],
};

let project: ConsumerProject;
/** The shared project's folder, where its node_modules is; this file works in a folder of its own in it. */
let root: string;

/**
 * The kit's examples as a user's files: the same, but for the aliases that point the kit's names at
 * its TypeScript sources (the project has the kit installed) and MSW's worker script, which is the
 * installed msw's own (the example's is msw 2's, which msw 3 checks its worker against as it starts).
 */
async function copyExamples(folder: string, withStorybook: boolean): Promise<void> {
  const examples: Record<string, string[]> = {
    playwright: ['playwright.config.ts', 'global-setup.ts', 'tests'],
    web: ['index.html', 'vite.config.ts', 'src'],
    ...(withStorybook && { storybook: ['.storybook', 'stories'] }),
  };
  for (const [from, files] of Object.entries(examples))
    for (const file of files)
      await cp(join(projectRoot, 'examples', from, file), join(folder, 'examples', from, file), { recursive: true });
  for (const config of ['web/vite.config.ts', ...(withStorybook ? ['storybook/.storybook/main.ts'] : [])]) {
    const path = join(folder, 'examples', config);
    const lines = (await readFile(path, 'utf8')).split('\n');
    await writeFile(path, lines.filter((line) => !/'petstore-contract-kit\/[a-z]+': here\(/.test(line)).join('\n'));
  }
  await writeFile(join(folder, 'tsconfig.examples.json'), JSON.stringify(examplesTsconfig));
  await cp(
    join(root, 'node_modules/msw/lib/mockServiceWorker.js'),
    join(folder, 'examples/web/public/mockServiceWorker.js'),
  );
}

const installedVersion = async (folder: string, name: string) =>
  (JSON.parse(await readFile(join(folder, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

/** Runs the example Playwright suite in `folder` under its Node, and checks its summary, coverage and pact. */
async function passesExamplePlaywright(from: ConsumerProject): Promise<void> {
  const pactDir = join(from.folder, 'pacts');
  // The project's environment (its Node first), and Chromium from the suite's own @sparticuz/chromium.
  const run = await from.exec(
    from.node.path,
    [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'examples/playwright'],
    {
      env: {
        CHROMIUM_PATH: await packagedChromium.executablePath(),
        CI: '1',
        FORCE_COLOR: '0',
        PACT_DIR: pactDir,
      },
      timeout: 290_000,
    },
  );
  const output = run.stdout + run.stderr;
  // 12 tests in two projects; the in-page mock's own test is skipped in the server project.
  expect(output).toMatch(/\b23 passed\b/);
  expect(output).toMatch(/\b1 skipped\b/);
  expect(run.stdout).not.toMatch(/\bfailed\b|\bflaky\b/);
  const produced = documentedResponseCount - responsesOf('readPet').length;
  expect(run.stdout).toContain(
    `Order interface coverage: every documented response was produced (readPet ignored), over 21 tests; ${produced} of ${servedResponseCount} in all.${markedApartNoneSeen}`,
  );
  expect(run.stdout).toContain(
    `Consumer pact: ${pactDir}/example-web-app-petstore-order-interface.json, ${examplePactInteractions.length} interactions from 21 tests; left out: DELETE /v1/store/orders/1 network: network; GET /v1/store/orders 503: fault.`,
  );
  expect(run.code).toBe(0);
  const pact = parseJson(
    await readFile(join(pactDir, 'example-web-app-petstore-order-interface.json'), 'utf8'),
  ) as unknown as { interactions: { description: string }[] };
  expect(pact.interactions.map((interaction) => interaction.description).sort()).toEqual(examplePactInteractions);
}

describe('a project on msw 3 (Node 24)', () => {
  beforeAll(async () => {
    // The Node 24 frontend project the Node 24 files share (node24Projects), made once a run: it installs
    // msw3ExampleTools, each exactly, with the other files' tools, with no flag, then the packed kit.
    const shared = await sharedProject(node24Projects.frontend, {
      node: await nodeBinary(supportMatrix.node24.nodeVersion),
      workspace: 'msw3-frontend',
    });
    project = shared.project;
    root = shared.root;
    expectCleanInstalls({ definition: node24Projects.frontend, installs: shared.installs }, msw3ExampleTools);
    await copyExamples(project.folder, true);
  }, 600_000);

  afterAll(async () => {
    if (project) await rm(project.folder, { recursive: true, force: true });
  });

  it('installs msw 3 and the kit with no flag, and no @msw/playwright', async () => {
    expect(project.node.version).toMatch(/^24\./);
    expect(await installedVersion(root, 'msw')).toBe('3.0.5');
    expect(await installedVersion(root, 'msw-storybook-addon')).toBe('3.0.3');
    // The kit loads the project's msw, not a copy of its own.
    const kitRequire = createRequire(join(root, 'node_modules/petstore-contract-kit/package.json'));
    expect(kitRequire.resolve('msw')).toBe(join(root, 'node_modules/msw/lib/core/index.js'));
    await expect(readFile(join(root, 'node_modules/@msw/playwright/package.json'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it("type-checks the examples (Playwright's tests, the app, the stories) against msw 3 and the kit's declarations", async () => {
    const checked = await project.exec(project.node.path, [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.examples.json',
    ]);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  });

  it(
    "passes the kit's example Playwright suite in both modes, with every documented response and the run's pact",
    () => passesExamplePlaywright(project),
    300_000,
  );

  describe("the kit's example Storybook on msw-storybook-addon 3.0.3", () => {
    let site: LocalServer | undefined;
    let browser: Browser | undefined;

    beforeAll(async () => {
      const outDir = join(project.folder, 'storybook-static');
      const built = await project.exec(
        project.node.path,
        [
          join(root, 'node_modules/storybook/dist/bin/dispatcher.js'),
          'build',
          '-c',
          'examples/storybook/.storybook',
          '-o',
          outDir,
          '--quiet',
        ],
        { timeout: 240_000 },
      );
      if (built.code !== 0) throw new Error(`storybook build failed:\n${built.stdout}\n${built.stderr}`);
      site = await serveDirectory(outDir);
      browser = await launchChromium();
    }, 250_000);

    afterAll(async () => {
      await browser?.close();
      await site?.close();
    });

    /** A fresh page, and the errors and MSW warnings its console and frames report. */
    async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
      const page = await (await browser!.newContext()).newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        const line = message.text();
        if (line.startsWith('Failed to load resource:')) return;
        if (message.type() === 'error' || (message.type() === 'warning' && /\[MSW\]/.test(line))) problems.push(line);
      });
      page.on('pageerror', (error) => problems.push(error.message));
      return { page, problems };
    }

    it.each(storyOutcomes)('%s shows its outcome, and the console no error', async (id, outcome) => {
      const { page, problems } = await watchedPage();
      try {
        await page.goto(`${site!.origin}/iframe.html?id=${id}&viewMode=story`);
        await page.getByText(outcome, { exact: true }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    });

    it('starts each story from its own scenario on every switch, on one worker, with no error', async () => {
      const { page, problems } = await watchedPage();
      try {
        const [first, ...rest] = storySwitches;
        await page.goto(`${site!.origin}/?path=/story/${first![0]}`);
        const preview = page.frameLocator('#storybook-preview-iframe');
        await preview.getByText(first![1], { exact: true }).waitFor();
        for (const [id, outcome] of rest) {
          await page.locator(`#${id}`).click();
          await preview.getByText(outcome, { exact: true }).waitFor();
        }
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  });
});
