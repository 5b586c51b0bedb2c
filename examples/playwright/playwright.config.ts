// The example e2e suite: the example app (examples/web) driven by Playwright, each test on a mock of
// its own from its scenario, in both of the kit's modes. Run it from the project root with
// `npx playwright test -c examples/playwright` after `npm run build`.
import { fileURLToPath } from 'node:url';
import packagedChromium from '@sparticuz/chromium';
import { defineConfig } from '@playwright/test';
import type { OrderMockTestOptions } from 'petstore-contract-kit/playwright';

// On your machine, `npx playwright install chromium` and drop launchOptions; here no browser is
// downloaded: the Chromium inside @sparticuz/chromium, or CHROMIUM_PATH's.
const executablePath = process.env.CHROMIUM_PATH || (await packagedChromium.executablePath());

// In your project, write 'petstore-contract-kit/playwright': Playwright finds it in node_modules. Here
// the kit is the project itself, which Playwright's own lookup does not see, so the name is resolved here.
const coverageReporter = fileURLToPath(import.meta.resolve('petstore-contract-kit/playwright'));
const pactDir = fileURLToPath(new URL('./pacts', import.meta.url));

export default defineConfig<OrderMockTestOptions>({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  fullyParallel: true,
  // Two workers on a 2-core CI machine: four ran the same tests slower and with
  // more CPU (bench/RESULTS.md, the example suite's workers).
  workers: 2,
  forbidOnly: true,
  reporter: [
    [process.env.CI ? 'dot' : 'list'],
    // The app never reads a pet (the deprecated operation): every other documented response must be produced.
    // The run's one consumer pact goes to examples/playwright/pacts (PACT_DIR elsewhere).
    [coverageReporter, { failOnMissing: true, ignore: ['readPet'], pactDir: process.env.PACT_DIR || pactDir }],
  ],
  use: {
    pact: { consumer: 'example-web-app' },
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'in-page', use: { mockMode: 'in-page' } },
    { name: 'server', use: { mockMode: 'server' } },
  ],
});
