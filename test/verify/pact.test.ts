import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyPact } from '../../verify/pact/pact.js';
import { scenarioFilter } from '../../verify/pact/pact-interactions.js';
import { inStableOrder, pactCases, verifierNotRun } from '../../verify/pact/pact-cases.js';
import { tallySuite } from '../../verify/base/results.js';
import type { PactMismatch } from '../../verify/pact/run-pact-child.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { loadScenarios } from '../../core/scenario-files.js';
import { runVerification } from '../../verify/run/verification.js';
import { json, isList, startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { runToExit, runVerifyInProcess, verifyCliPath as verifyCli } from '../support/cli-support.js';
import { contractScenarios } from '../support/document-figures.js';
import { listenLocally, startServer } from '../support/support.js';
import { v2Walks } from '../../verify/provider/v2-list.js';

const env = { PACT_DO_NOT_TRACK: 'true', PACT_BROKER_BASE_URL: '' };
// petstore-verify run in this process (the same code from the command line to the reports; Pact's
// verifier in its own process all the same), and the built command, where its process is at stake:
// the pact suite once from the bundle (which must find and start Pact's verifier from dist/), and
// publish-pact's exit 1 when the broker refuses, as the binary exits.
const petstoreVerify = (args: string[]) => runVerifyInProcess(args, env);
const petstoreVerifyCommand = (args: string[]) =>
  runToExit(process.execPath, [verifyCli, ...args], { env, timeout: 110_000 });
const interactionCount = async () =>
  (JSON.parse(await readFile(shippedPactFile, 'utf8')) as { interactions: unknown[] }).interactions.length;

describe("petstore-verify --suite pact against the kit's own mock", () => {
  let mock: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    mock = await startServer();
  });
  afterAll(async () => {
    await mock.close();
  });
  const target = () => [
    '--base-url',
    `${mock.origin}/v1`,
    '--api-key',
    'petstore-dev-key',
    '--state-url',
    `${mock.origin}/__mock/provider-state`,
  ];

  it('verifies every interaction of the shipped pact over HTTP, with provider states', async () => {
    const exit = await petstoreVerifyCommand([...target(), '--suite', 'pact']);
    const count = await interactionCount();
    expect(exit.stdout).toMatch(
      new RegExp(`\\npact: ${count} passed, 0 failed \\(interactions; ${count} checks, 0 violations, 0 warnings, `),
    );
    const verified = exit.stdout.match(/^✓ pact › [a-z0-9-]+ › .+ \((GET|DELETE) \/\S+ → \d{3}, \d+ ms\)$/gm) ?? [];
    expect(verified).toHaveLength(count);
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
    expect(exit.code).toBe(0);
  });

  it('runs both suites by default, Pact first', async () => {
    const exit = await petstoreVerify(target());
    expect(exit.stdout.indexOf('✓ pact › ')).toBeGreaterThan(-1);
    expect(exit.stdout.lastIndexOf('✓ pact › ')).toBeLessThan(exit.stdout.indexOf('✓ cancel-cancelled-order'));
    expect(exit.stdout).toMatch(
      new RegExp(
        `\\npact: ${await interactionCount()} passed, 0 failed \\(interactions;[^\\n]*\\nscenarios: ${(await contractScenarios()).length + v2Walks.length + 2} passed, 0 failed \\(scenarios;`,
      ),
    );
    expect(exit.code).toBe(0);
  });

  it('runs a scenario named with --scenario alone: no pact, no exploration', async () => {
    const exit = await petstoreVerify([...target(), '--scenario', 'cancel-shipped-order']);
    expect(exit.stdout.split('\n').filter((line) => /^[✓✗] /.test(line))).toEqual([
      expect.stringMatching(/^✓ cancel-shipped-order › cancel the shipped order \(DELETE \/store\/orders\/3 → 409, /),
      expect.stringMatching(
        /^✓ cancel-shipped-order › the shipped order is still listed \(GET \/store\/orders → 200, /,
      ),
    ]);
    expect(exit.stdout).not.toMatch(/^(pact|explore)[: ]/m);
    expect(exit.stdout).toMatch(/\nscenarios: 1 passed, 0 failed \(scenarios; 2 checks, /);
    expect(exit.code).toBe(0);
  });

  it("verifies, under --suite pact, only the named scenario's interactions, in the scenario's step order", async () => {
    const exit = await petstoreVerify([...target(), '--suite', 'pact', '--scenario', 'cancel-cancelled-order']);
    expect(exit.stdout.match(/^✓ pact › .+(?= \()/gm)).toEqual([
      '✓ pact › cancel-cancelled-order › cancel the pending order',
      '✓ pact › cancel-cancelled-order › cancel it again',
      '✓ pact › cancel-cancelled-order › the other order is still listed',
      '✓ pact › cancel-cancelled-order › cancel it a third time',
    ]);
    expect(exit.stdout).toMatch(/\npact: 4 passed, 0 failed \(interactions; 4 checks, /);
    expect(exit.code).toBe(0);
  });

  it('skips the pact suite, saying why, when no named scenario has an interaction in the pact', async () => {
    const exit = await petstoreVerify([...target(), '--suite', 'pact', '--scenario', 'list-with-another-scheme']);
    expect(exit.stdout.split('\n')).toContain(
      'pact: skipped (none of the chosen scenarios has an interaction in the pact)',
    );
    expect(exit.code).toBe(2);
  });

  it('skips the pact suite, saying why, without --state-url', async () => {
    const exit = await petstoreVerify(['--base-url', `${mock.origin}/v1`, '--api-key', 'petstore-dev-key']);
    expect(exit.stdout).toContain(
      '\npact: skipped (every interaction sets a provider state, and no --state-url was given)\n',
    );
    expect(exit.stdout).toMatch(/\nscenarios: 10 passed, 0 failed, 16 skipped/);
    expect(exit.code).toBe(0);
  });

  it.each([
    [
      ['--suite', 'pact'],
      'petstore-verify: --suite pact needs --state-url: every interaction of the pact sets a provider state (see --help)\n',
    ],
    [
      ['--suite', 'both', '--state-url', 'http://127.0.0.1:9/s'],
      'petstore-verify: --suite must be pact, scenarios, explore or all, got "both" (see --help)\n',
    ],
    [
      ['--provider-version', '1.2.3'],
      'petstore-verify: --provider-version and --provider-branch publish to a Pact Broker: set PACT_BROKER_BASE_URL (see --help)\n',
    ],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const exit = await petstoreVerify(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', ...args]);
    expect(exit.stderr).toBe(message);
    expect(exit.code).toBe(2);
  });

  it('refuses a base URL without /v1 for the pact suite', async () => {
    const exit = await petstoreVerify([
      '--base-url',
      `${mock.origin}/api`,
      '--api-key',
      'k',
      '--state-url',
      `${mock.origin}/__mock/provider-state`,
    ]);
    expect(exit.stderr).toBe(
      `petstore-verify: the base URL ${mock.origin}/api does not end with /v1, below which the interface's paths are (did you mean ${mock.origin}/api/v1?); check --base-url\n`,
    );
    expect(exit.code).toBe(2);
  });
});

// Each test starts a provider of its own: they run at once, each waiting on its own Pact verifier.
describe.concurrent('petstore-verify --suite pact fails broken providers', () => {
  const broken: [string, Fault, RegExp][] = [
    [
      'cancels a shipped order',
      (_request, response) => (response.status === 409 ? new Response(null, { status: 204 }) : response),
      /\n {4}pact › cancel-shipped-order › cancel the shipped order: expected status 409, got 204 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'puts another status in the Error record',
      (_request, response) =>
        response.status === 401 ? json({ code: 'unauthorized', message: 'no', status: 403 }, 401) : response,
      /\n {4}pact › list-without-key › list the orders without a key: expected 401, got 403 \(Pact: Expected 403 \(Integer\) to be equal to 401 \(Integer\)\) \(at \$\.status\) \[body-schema\]\n/,
    ],
    [
      'sends ids as strings',
      async (request, response) =>
        isList(request) && response.status === 200
          ? json((await response.text()).replace(/"id":(\d+)/g, '"id":"$1"'), 200)
          : response,
      /\n {4}pact › list-orders › list the orders: expected .* \(Pact: .*\n/,
    ],
    [
      'rounds ids beyond 2^53',
      async (request, response) =>
        isList(request) && response.status === 200
          ? json(JSON.stringify(JSON.parse(await response.text())), 200)
          : response,
      /\n {4}pact › cancel-order-beyond-2-53 › list both orders with exact ids: expected .*9007199254740993.* \(Pact: .*\n/,
    ],
  ];

  it.each(broken)('fails a provider that %s', async (_, fault, message) => {
    const provider = await startBrokenProvider(fault);
    try {
      const exit = await petstoreVerify([...provider.args, '--suite', 'pact']);
      expect(exit.stdout).toMatch(message);
      expect(exit.stdout).toMatch(/\npact: \d+ passed, [1-9]\d* failed \(interactions;/);
      expect(exit.stderr).toBe('');
      expect(exit.code).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('stops before the verifier, with exit 2 and one line, when the provider state cannot be set', async () => {
    const mock = await startServer();
    try {
      const exit = await petstoreVerify([
        '--base-url',
        `${mock.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${mock.origin}/__mock/no-such-state-endpoint`,
        '--suite',
        'pact',
      ]);
      expect(exit.stderr).toBe(
        `petstore-verify: the state URL refused a setup of "the store holds orders": POST ${mock.origin}/__mock/no-such-state-endpoint answered 404; check --state-url (the kit's mock serves it at /__mock/provider-state)\n`,
      );
      expect(exit.stdout).not.toMatch(/setup state change handlers has failed/);
      expect(exit.stdout).toMatch(
        /^verdict: not-run \(exit 2; 0 checks, 0 violations, [\d.]+ s\): the state URL refused/,
      );
      expect(exit.code).toBe(2);
    } finally {
      await mock.close();
    }
  });
});

describe.concurrent('one defect carries one rule code in the pact suite and the scenarios suite', () => {
  const withHeaders = async (response: Response, change: (headers: Headers) => void) => {
    const headers = new Headers(response.headers);
    change(headers);
    return new Response(await response.text(), { status: response.status, headers });
  };
  const defects: [string, string, Fault, string[]][] = [
    [
      'cancels a shipped order with 204',
      'cancel-shipped-order',
      (_request, response) => (response.status === 409 ? new Response(null, { status: 204 }) : response),
      ['status-unexpected'],
    ],
    [
      'lists the orders without a key',
      'list-without-key',
      (request, response) => (isList(request) && response.status === 401 ? json([], 200) : response),
      ['body-schema', 'status-unexpected'],
    ],
    [
      'sends its lists as text/plain',
      'list-orders',
      (request, response) =>
        isList(request) ? withHeaders(response, (headers) => headers.set('content-type', 'text/plain')) : response,
      ['media-type'],
    ],
    [
      'leaves out the Deprecation header',
      'read-deprecated-pet',
      (_request, response) => withHeaders(response, (headers) => headers.delete('deprecation')),
      ['header-missing'],
    ],
    [
      'writes the Deprecation header as a word',
      'read-deprecated-pet',
      (_request, response) =>
        response.headers.has('deprecation')
          ? withHeaders(response, (headers) => headers.set('deprecation', 'yes'))
          : response,
      ['header-syntax'],
    ],
  ];

  it.each(defects)('a provider that %s (%s)', async (_, scenario, fault, codes) => {
    const provider = await startBrokenProvider(fault);
    try {
      const report = await runVerification({
        baseUrl: `${provider.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${provider.origin}/__mock/provider-state`,
        suites: ['pact', 'scenarios'],
        scenarios: await loadScenarios({ names: [scenario] }),
        pactScenarios: [scenario],
        prism: false,
        version: 'test',
      });
      const codesOf = (suite: string) =>
        [
          ...new Set(report.findings.filter((finding) => finding.suite === suite).map((finding) => finding.code)),
        ].sort();
      expect([codesOf('pact'), codesOf('scenarios')]).toEqual([codes, codes]);
    } finally {
      await provider.close();
    }
  });
});

describe('the pact suite ends with a verdict whatever the verifier does', () => {
  it('refuses a pact that cannot be loaded before the verifier starts, with a code, not as a violation', async () => {
    const mock = await startServer();
    const directory = await mkdtemp(join(tmpdir(), 'petstore-pact-bad-'));
    try {
      const file = join(directory, 'not-a-pact.json');
      await writeFile(file, '{"interactions": [');
      const verifying = verifyPact({
        baseUrl: `${mock.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${mock.origin}/__mock/provider-state`,
        pactUrls: [file],
      });
      await expect(verifying).rejects.toMatchObject({
        code: 'invalid_consumer_pact',
        message: expect.stringMatching(/^the pact .*not-a-pact\.json cannot be verified: is not JSON: /),
        diagnostics: [expect.objectContaining({ code: 'pact-not-json', path: '' })],
      });
      expect(await (await mock.control('/requests')).json()).toEqual([]);
    } finally {
      await mock.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('petstore-verify publish-pact', () => {
  it("publishes the shipped pact to a Pact Broker's /contracts/publish, with the token", async () => {
    const received: { method: string; url: string; authorization?: string; body: string }[] = [];
    const broker = await listenLocally(async (request, response) => {
      received.push({
        method: request.method!,
        url: request.url!,
        authorization: request.headers.authorization,
        body: await new Response(request as unknown as ReadableStream).text(),
      });
      response.writeHead(200, { 'content-type': 'application/hal+json' });
      response.end(JSON.stringify({ notices: [{ type: 'success', text: 'Created pact for version abc123' }] }));
    });
    const brokerUrl = broker.origin;
    try {
      const exit = await runVerifyInProcess(['publish-pact', '--consumer-version', 'abc123', '--branch', 'main'], {
        PACT_BROKER_BASE_URL: brokerUrl,
        PACT_BROKER_TOKEN: 'secret',
      });
      expect(exit.stdout).toBe(
        `published the pact to ${brokerUrl} as version abc123, branch main\nCreated pact for version abc123\n`,
      );
      expect(exit.code).toBe(0);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: 'POST', url: '/contracts/publish', authorization: 'Bearer secret' });
      const body = JSON.parse(received[0]!.body) as {
        pacticipantName: string;
        pacticipantVersionNumber: string;
        branch: string;
        contracts: { providerName: string; content: string }[];
      };
      expect(body).toMatchObject({
        pacticipantName: 'petstore-order-client',
        pacticipantVersionNumber: 'abc123',
        branch: 'main',
      });
      expect(body.contracts[0]!.providerName).toBe('petstore-order-interface');
      expect(Buffer.from(body.contracts[0]!.content, 'base64').toString('utf8')).toBe(
        await readFile(shippedPactFile, 'utf8'),
      );
    } finally {
      await broker.close();
    }
  });

  it('says why, in one line, when the broker refuses, and exits 1', async () => {
    const broker = await listenLocally((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":"unauthorised"}');
    });
    try {
      const exit = await runToExit(process.execPath, [verifyCli, 'publish-pact', '--consumer-version', 'abc123'], {
        env: { PACT_BROKER_BASE_URL: broker.origin },
      });
      expect(exit.stderr).toBe(
        `petstore-verify: the Pact Broker answered POST ${broker.origin}/contracts/publish with 401: {"error":"unauthorised"}\n`,
      );
      expect(exit.code).toBe(1);
    } finally {
      await broker.close();
    }
  });

  it('needs PACT_BROKER_BASE_URL and a consumer version', async () => {
    const withoutBroker = await runVerifyInProcess(['publish-pact', '--consumer-version', 'abc123'], {
      PACT_BROKER_BASE_URL: '',
    });
    expect(withoutBroker.stderr).toBe('petstore-verify: publish-pact needs PACT_BROKER_BASE_URL (see --help)\n');
    expect(withoutBroker.code).toBe(2);
    const withoutVersion = await runVerifyInProcess(['publish-pact'], {
      PACT_BROKER_BASE_URL: 'http://127.0.0.1:9',
      GITHUB_SHA: '',
      CI_COMMIT_SHA: '',
    });
    expect(withoutVersion.stderr).toBe(
      'petstore-verify: publish-pact needs --consumer-version V (or a CI commit: $GITHUB_SHA, $CI_COMMIT_SHA) (see --help)\n',
    );
    expect(withoutVersion.code).toBe(2);
  });
});

describe('scenarioFilter', () => {
  it("matches the interactions of the named scenarios, and no other scenario's", () => {
    const filter = new RegExp(scenarioFilter(['cancel-shipped-order', 'list.orders']));
    expect(filter.test('cancel-shipped-order › cancel the shipped order')).toBe(true);
    expect(filter.test('list.orders › list the orders')).toBe(true);
    expect(filter.test('listxorders › list the orders')).toBe(false);
    expect(filter.test('cancel-shipped-order-again › cancel it')).toBe(false);
  });
});

describe('inStableOrder', () => {
  const missing = (key: string): PactMismatch => ({
    type: 'HeaderMismatch',
    key,
    expected: 'x',
    actual: '',
    mismatch: `Expected a header '${key}' but was missing`,
  });
  const status: PactMismatch = { type: 'StatusMismatch', expected: 200, actual: 502 };
  const body: PactMismatch = { type: 'BodyMismatch', path: '$.id', expected: 1, actual: '1' };

  it("orders Pact's header mismatches by name, whichever order Pact's hash map gave, in their places", () => {
    const ordered = [status, missing('Deprecation'), missing('Sunset'), body];
    expect(inStableOrder([status, missing('Sunset'), missing('Deprecation'), body])).toEqual(ordered);
    expect(inStableOrder([status, missing('Deprecation'), missing('Sunset'), body])).toEqual(ordered);
    expect(inStableOrder([missing('sunset'), body, missing('Content-Type')])).toEqual([
      missing('Content-Type'),
      body,
      missing('sunset'),
    ]);
  });
});

describe('a verifier that never started on the pact', () => {
  it("is a case that could not run (the tool's, exit 2), not a violation of the provider's (exit 1)", () => {
    const reason =
      "Pact's verifier could not run: Couldn't find npm package @pact-foundation/pact-core-linux-x64-glibc";
    const interaction = { description: 'list-orders › list the orders', method: 'GET', path: '/v1/store/orders' };
    const cases = pactCases(
      {
        outcome: { crash: reason, notRun: true },
        interactions: [{ ...interaction, query: '', authorization: 'Bearer petstore-dev-key', state: undefined }],
        records: [],
        taken: new Set(),
      },
      undefined,
    );
    expect(cases).toEqual([{ name: 'verifier', verdict: 'error', reason, exchanges: [] }]);
    expect(tallySuite('pact', cases, 1)).toMatchObject({ verdict: 'error', violations: 0, checks: 0 });
    expect(verifierNotRun(cases)).toBe(true);
    // A crash while it verified (a provider can cause one) still fails the run, as before.
    const crashed = pactCases(
      { outcome: { crash: reason }, interactions: [], records: [], taken: new Set() },
      undefined,
    );
    expect(crashed).toMatchObject([{ name: 'verifier', verdict: 'failed' }]);
    expect(verifierNotRun(crashed)).toBe(false);
  });
});
