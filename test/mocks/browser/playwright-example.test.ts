// The example e2e suite (examples/playwright) run as a team would run theirs: Playwright with 2
// workers, fullyParallel, every test in both of the kit's modes, each repeated twice, and the
// kit's coverage reporter judging the whole run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../../core/parse-json.js';
import { verifyPact } from '../../../verify/pact/pact.js';
import { projectRoot, runToExit } from '../../support/cli-support.js';
import { hostileKey, startHostileProvider } from '../../support/hostile-provider.js';
import {
  documentedResponseCount,
  markedApartNoneSeen,
  responsesBut,
  responsesOf,
  servedResponseCount,
} from '../../support/document-figures.js';
import { examplePactInteractions } from '../../support/example-suites.js';
import { startServer } from '../../support/support.js';

let pactDir: string;
beforeAll(async () => {
  pactDir = await mkdtemp(join(tmpdir(), 'petstore-e2e-pacts-'));
});
afterAll(() => rm(pactDir, { recursive: true, force: true }));

// Killed only after the test's own timeout (300 s): runToExit's default, 120 s, cut a whole run short
// on a loaded machine (44 tests in 120 s at load 20) and failed it with no test failing.
const playwright = (args: string[]) =>
  runToExit(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'examples/playwright', ...args], {
    cwd: projectRoot,
    env: { ...process.env, CI: '1', FORCE_COLOR: '0', PACT_DIR: pactDir },
    timeout: 310_000,
  });

describe('the example Playwright suite', () => {
  it("passes every test in both modes, twice each, in the example's two workers, produces every documented response it must, and writes one pact of the run", async () => {
    const run = await playwright(['--repeat-each', '2']);
    expect(run.stdout + run.stderr).toMatch(/\b46 passed\b/);
    expect(run.stdout).not.toMatch(/\bfailed\b|\bflaky\b/);
    // the reporter ignores readPet: every other documented response is produced
    const produced = documentedResponseCount - responsesOf('readPet').length;
    expect(run.stdout).toContain(
      `Order interface coverage: every documented response was produced (readPet ignored), over 42 tests; ${produced} of ${servedResponseCount} in all.${markedApartNoneSeen}`,
    );
    expect(run.stdout).toContain(
      `Consumer pact: ${pactDir}/example-web-app-petstore-order-interface.json, ${examplePactInteractions.length} interactions from 42 tests; left out: DELETE /v1/store/orders/1 network: network; GET /v1/store/orders 503: fault.`,
    );
    expect(run.code).toBe(0);
    const pact = parseJson(
      await readFile(join(pactDir, 'example-web-app-petstore-order-interface.json'), 'utf8'),
    ) as unknown as { interactions: { description: string }[] };
    expect(pact.interactions.map((interaction) => interaction.description).sort()).toEqual(examplePactInteractions);
  }, 300_000);

  it("has its run's pact pass Pact's verifier on the kit's mock and fail on a provider that cancels shipped orders", async () => {
    const pactUrls = [join(pactDir, 'example-web-app-petstore-order-interface.json')];
    const kit = await startServer();
    const broken = await startHostileProvider({ cancelShipped: true });
    try {
      const honest = await verifyPact({
        baseUrl: `${kit.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${kit.origin}/__mock/provider-state`,
        pactUrls,
        prism: false,
      });
      expect(honest.cases.filter((result) => result.verdict !== 'passed').map((result) => result.name)).toEqual([]);
      expect(honest.cases).toHaveLength(examplePactInteractions.length);
      const failing = await verifyPact({
        baseUrl: `${broken.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${broken.origin}/__state`,
        pactUrls,
        prism: false,
      });
      expect(failing.verdict).toBe('failed');
      expect(failing.cases.filter((result) => result.verdict === 'failed').map((result) => result.name)).toEqual([
        'DELETE /store/orders/3 409 (with the key)',
      ]);
    } finally {
      await kit.close();
      await broken.close();
    }
  }, 120_000);

  it('fails a green run whose tests never produced a documented response, naming it', async () => {
    const run = await playwright(['--grep', 'a shipped order']);
    expect(run.stdout).toMatch(/\b2 passed\b/);
    // the shipped-order tests list the orders and are refused a cancel; readPet is ignored
    const produced = ['listOrders 200', 'cancelOrder 409'];
    const never = responsesBut(...produced, 'readPet');
    expect(run.stdout).toContain(
      `Order interface coverage: ${produced.length} of ${servedResponseCount} documented responses produced over 2 tests; never produced: ${never.join(', ')} (readPet ignored).${markedApartNoneSeen}`,
    );
    expect(run.stdout).toContain(
      `Order interface: the run fails although every test passed: failOnMissing is on and ${never.length} documented responses were never produced.`,
    );
    expect(run.code).toBe(1);
  }, 120_000);
});
