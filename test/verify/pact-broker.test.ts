// The Pact Broker workflow: publishing a pact (with CI defaults), fetching the pacts to verify through
// the broker's HAL API (selectors, pending and WIP pacts, the provider's name), publishing the
// verification results, and a broker that is down, hung or not a broker. The broker is a fake one on
// 127.0.0.1 that follows the Pact Broker's HAL API (test/support/fake-broker.ts). The commands run in this process (runVerifyInProcess)
// but one, a process so that Pact's verifier inherits the environment as in CI.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ciBuild } from '../../verify/pact/ci-environment.js';
import { startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { noCi, pactOf, startFakeBroker } from '../support/fake-broker.js';
import { runToExit, runVerifyInProcess, verifyCliPath as verifyCli } from '../support/cli-support.js';
import { listenLocally, type LocalServer } from '../support/support.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function fakeBroker(...args: Parameters<typeof startFakeBroker>) {
  const broker = await startFakeBroker(...args);
  servers.push(broker);
  return broker;
}

async function provider(fault: Fault) {
  const started = await startBrokenProvider(fault);
  servers.push(started);
  return started;
}

const honest: Fault = (_request, response) => response;
// Cancels a shipped order (204 where the pact says 409): what cancel-shipped-order's pact catches.
const cancelsShipped: Fault = (_request, response) =>
  response.status === 409 ? new Response(null, { status: 204 }) : response;

/** petstore-verify in this process, against a provider, with the broker in the environment. */
// Port 2 on loopback: below the ports the system hands out (from 32768 here) and one no service of the
// machine listens on, so it refuses; a port this file closed could be taken by another file's server
// before the test connects. Not port 9, as elsewhere in the suite: Fetch refuses it as a "bad port".
const refusingBroker = { origin: 'http://127.0.0.1:2' };

function verifyWithBroker(broker: { origin: string }, args: string[]) {
  return runVerifyInProcess([...args, '--no-prism'], {
    ...noCi,
    PACT_DO_NOT_TRACK: 'true',
    PACT_BROKER_BASE_URL: broker.origin,
  });
}

describe('petstore-verify with a Pact Broker: the pacts it gives, verified', () => {
  it('publishes a passing result for an honest provider, on its branch, with the build URL of the CI', async () => {
    const broker = await fakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }]);
    const target = await provider(honest);
    const exit = await runVerifyInProcess(
      [...target.args, '--suite', 'pact', '--provider-version', '1.2.3', '--provider-branch', 'main', '--no-prism'],
      {
        ...noCi,
        PACT_DO_NOT_TRACK: 'true',
        PACT_BROKER_BASE_URL: broker.origin,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/orders',
        GITHUB_RUN_ID: '42',
      },
    );
    expect(exit.stdout).toMatch(/\npact: 2 passed, 0 failed \(interactions; 2 checks, 0 violations/);
    expect(exit.stdout.split('\n')).toContain(
      'pact: the verification results of 1 pact published to the Pact Broker as version 1.2.3 (branch main, build https://github.com/acme/orders/actions/runs/42)',
    );
    expect(exit.code).toBe(0);
    expect(broker.bodiesOf('POST', '/for-verification')).toEqual([
      {
        consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
        includePendingStatus: false,
        providerVersionBranch: 'main',
      },
    ]);
    expect(broker.received.map((request) => `${request.method} ${request.url}`)).toContain(
      'PUT /pacticipants/petstore-order-interface/branches/main/versions/1.2.3',
    );
    expect(broker.bodiesOf('POST', '/verification-results')).toEqual([
      {
        success: true,
        providerApplicationVersion: '1.2.3',
        buildUrl: 'https://github.com/acme/orders/actions/runs/42',
        verifiedBy: { implementation: 'petstore-contract-kit', version: expect.any(String) },
      },
    ]);
  });

  it('fails a provider that breaks a pact that is not pending, and publishes the failure', async () => {
    const broker = await fakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }]);
    const target = await provider(cancelsShipped);
    const exit = await verifyWithBroker(broker, [...target.args, '--enable-pending', '--provider-version', '1.2.4']);
    expect(exit.stdout).toMatch(
      /\n {4}pact › cancel-shipped-order › cancel the shipped order: expected status 409, got 204 \(at status\) \[status-unexpected\]\n/,
    );
    expect(exit.stdout).not.toMatch(/pending pact/);
    expect(exit.code).toBe(1);
    expect(broker.bodiesOf('POST', '/verification-results')).toMatchObject([{ success: false }]);
  });

  it('reports a failing pending pact by name and exits 0 (Pact: a pending pact does not fail the build)', async () => {
    const broker = await fakeBroker([
      { consumer: 'web-app', text: await pactOf('cancel-shipped-order'), pending: true },
      { consumer: 'admin-app', text: await pactOf('list-orders', 'admin-app') },
    ]);
    const target = await provider(cancelsShipped);
    const directory = await mkdtemp(join(tmpdir(), 'pending-reports-'));
    servers.push({ close: () => rm(directory, { recursive: true, force: true }) });
    const [json, junit] = [join(directory, 'report.json'), join(directory, 'report.xml')];
    const exit = await verifyWithBroker(broker, [
      ...target.args,
      '--enable-pending',
      '--provider-version',
      '1.2.5',
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(broker.bodiesOf('POST', '/for-verification')).toMatchObject([{ includePendingStatus: true }]);
    // Every report says the same: a pending finding, no violation, the pending pact named.
    const report = JSON.parse(await readFile(json, 'utf8')) as {
      pendingFailedChecks: number;
      pendingViolations: number;
      failedChecks: number;
      violations: number;
      exitCode: number;
      findings: { pending?: boolean; code: string }[];
      suites: { pendingPacts?: string[] }[];
    };
    expect(report).toMatchObject({ violations: 0, exitCode: 0 });
    expect(report.findings.filter((finding) => finding.pending)).toMatchObject([{ code: 'status-unexpected' }]);
    expect(report.suites.flatMap((suite) => suite.pendingPacts ?? [])).toEqual([
      'Pact between web-app (v1) and petstore-order-interface',
    ]);
    expect(await readFile(junit, 'utf8')).toMatch(
      /<skipped message="pending pact \(fails nothing\): cancel-shipped-order › cancel the shipped order: expected status 409, got 204/,
    );
    expect(exit.stdout).toMatch(
      /(?:^|\n)~ pact › cancel-shipped-order › cancel the shipped order \(DELETE [^\n]*\n {4}pending pact \(fails nothing\): pact › cancel-shipped-order › cancel the shipped order: expected status 409, got 204 \(at status\) \[status-unexpected\]\n/,
    );
    expect(exit.stdout).toContain(
      '\npact: the pending pact "Pact between web-app (v1) and petstore-order-interface" failed; pending, it fails nothing',
    );
    // A pending pact's failure is counted as such, never as passed: in the console and the JSON.
    expect(exit.stdout).toMatch(
      /\npact: 2 passed, 0 failed, 1 failed pending \(failing nothing\) \(interactions; 3 checks \(1 failed in pending pacts\), 0 violations,/,
    );
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; 3 checks \(1 failed in pending pacts\), 0 violations, /);
    expect(report).toMatchObject({ pendingFailedChecks: 1, pendingViolations: 1, failedChecks: 0 });
    expect(exit.code).toBe(0);
    // The broker is told the truth: the pending pact failed, the other passed.
    expect(broker.bodiesOf('POST', '/verification-results').map((body) => body.success)).toEqual([false, true]);
  });

  it('verifies work-in-progress pacts since a date, as pending, and asks the broker for them', async () => {
    const broker = await fakeBroker([
      { consumer: 'web-app', text: await pactOf('cancel-shipped-order'), pending: true, wip: true },
    ]);
    const target = await provider(cancelsShipped);
    const exit = await verifyWithBroker(broker, [
      ...target.args,
      '--include-wip-pacts-since',
      '2026-01-01',
      '--provider-branch',
      'feat-x',
    ]);
    expect(broker.bodiesOf('POST', '/for-verification')).toEqual([
      {
        consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
        includePendingStatus: true,
        includeWipPactsSince: '2026-01-01',
        providerVersionBranch: 'feat-x',
      },
    ]);
    expect(exit.stdout).toContain(
      'pact: the pending pact "Pact between web-app (v1) and petstore-order-interface" failed',
    );
    expect(exit.code).toBe(0);
  });

  it('sends the consumer version selectors given, and fetches the pacts of the provider named', async () => {
    const broker = await fakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }], {
      provider: 'orders-v2',
    });
    const target = await provider(honest);
    const exit = await verifyWithBroker(broker, [
      ...target.args,
      '--provider-name',
      'orders-v2',
      '--consumer-version-selector',
      '{"branch":"main","consumer":"web-app"}',
      '--consumer-version-selector',
      '{"deployed":true,"environment":"production"}',
    ]);
    expect(broker.bodiesOf('POST', '/pacts/provider/orders-v2/for-verification')).toEqual([
      {
        consumerVersionSelectors: [
          { branch: 'main', consumer: 'web-app' },
          { deployed: true, environment: 'production' },
        ],
        includePendingStatus: false,
      },
    ]);
    expect(exit.stdout).toMatch(/\npact: 2 passed, 0 failed/);
    expect(exit.code).toBe(0);
  });

  it.each([
    [
      ['--consumer-version-selector', '{"branch":'],
      /^petstore-verify: --consumer-version-selector must be a JSON object/,
    ],
    [
      ['--consumer-version-selector', '["main"]'],
      /^petstore-verify: --consumer-version-selector must be a JSON object/,
    ],
    [['--include-wip-pacts-since', 'last week'], /^petstore-verify: --include-wip-pacts-since must be a date/],
  ])('refuses %j with exit 2 and one line', async (args, message) => {
    const exit = await verifyWithBroker({ origin: 'http://127.0.0.1:9' }, [
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      'k',
      '--state-url',
      'http://127.0.0.1:9/s',
      ...args,
    ]);
    expect(exit.stderr).toMatch(message);
    expect(exit.stderr.trim().split('\n')).toHaveLength(1);
    expect(exit.code).toBe(2);
  });

  it('fails the run with one line when the broker refuses the verification results (no silent exit 0)', async () => {
    const broker = await fakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }], {
      refuseResults: true,
    });
    const target = await provider(honest);
    const exit = await verifyWithBroker(broker, [...target.args, '--provider-version', '1.2.6']);
    const line = `! error in pact › publish verification results: the verification results were not published: the Pact Broker answered POST ${broker.origin}/pacts/provider/petstore-order-interface/consumer/web-app/pact-version/1/verification-results with 500: {"error":"database is read-only"}`;
    expect(exit.stdout.split('\n')).toContain(line);
    expect(exit.stdout).not.toMatch(/results of \d+ pacts? published/);
    expect(exit.code).toBe(2);
  });
});

describe("a broker's pacts, judged as a consumer's pact file is", () => {
  it('refuses a pact that cannot be used with exit 2 and one line naming its URL, before any call or publication', async () => {
    const usable = JSON.parse(await pactOf('cancel-shipped-order')) as { metadata: Record<string, unknown> };
    usable.metadata = { pactSpecification: { version: '9.9' } };
    const broker = await fakeBroker([{ consumer: 'web-app', text: JSON.stringify(usable) }]);
    const target = await provider(honest);
    const exit = await verifyWithBroker(broker, [...target.args, '--suite', 'pact', '--provider-version', '1.2.9']);
    const url = `${broker.origin}/pacts/provider/petstore-order-interface/consumer/web-app/pact-version/1`;
    expect(exit.stdout + exit.stderr).toContain(
      `the pact ${url} cannot be verified: /metadata/pactSpecification/version`,
    );
    expect(exit.stdout + exit.stderr).not.toMatch(/unexpected failure|petstore-broker-pacts/);
    expect(exit.code).toBe(2);
    expect(broker.bodiesOf('POST', '/verification-results')).toEqual([]);
  });

  it("takes an interaction the specification contradicts as the consumer's error, not the provider's violation", async () => {
    const pact = JSON.parse(await pactOf('cancel-shipped-order')) as {
      interactions: { description: string; response: { status: number } }[];
    };
    const refused = pact.interactions.find((interaction) => interaction.response.status === 409)!;
    refused.response = { status: 204 };
    const broker = await fakeBroker([{ consumer: 'web-app', text: JSON.stringify(pact) }]);
    const target = await provider(honest);
    const exit = await verifyWithBroker(broker, [...target.args, '--suite', 'pact']);
    expect(exit.stdout).toContain(
      `! error in pact › ${refused.description}: the consumer's pact contradicts the specification, so no provider can pass it`,
    );
    expect(exit.stdout).not.toMatch(/✗ pact/);
    expect(exit.code).toBe(2);
  });
});

describe("Pact's verifier and the environment", () => {
  it('reads no broker of its own from PACT_BROKER_BASE_URL: the kit fetches the pacts once and publishes a pass', async () => {
    const broker = await fakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }]);
    const target = await provider(honest);
    // The command in a process of its own, so that Pact's verifier inherits the environment as in CI.
    const exit = await runToExit(
      process.execPath,
      [verifyCli, ...target.args, '--suite', 'pact', '--provider-version', '1.3.0', '--no-prism'],
      { env: { ...noCi, PACT_DO_NOT_TRACK: 'true', PACT_BROKER_BASE_URL: broker.origin } },
    );
    expect(exit.stdout).toMatch(/\npact: 2 passed, 0 failed \(interactions; 2 checks, 0 violations/);
    expect(exit.code).toBe(0);
    expect(broker.received.filter((request) => request.url.endsWith('/for-verification'))).toHaveLength(1);
    expect(broker.bodiesOf('POST', '/verification-results')).toMatchObject([{ success: true }]);
  });
});

describe('petstore-verify with a broker that cannot be used: exit 2, one line naming the URL', () => {
  const target = ['--base-url', '', '--api-key', 'petstore-dev-key', '--state-url', ''];
  const withTarget = (origin: string) => {
    const args = [...target];
    args[1] = `${origin}/v1`;
    args[5] = `${origin}/__mock/provider-state`;
    return args;
  };

  it('a broker that refuses connections', async () => {
    const closed = refusingBroker;
    const honestProvider = await provider(honest);
    const exit = await verifyWithBroker(closed, [...withTarget(honestProvider.origin), '--suite', 'pact']);
    expect(exit.stderr).toBe(`petstore-verify: the Pact Broker did not answer GET ${closed.origin}/: ECONNREFUSED\n`);
    expect(exit.code).toBe(2);
  });

  it("a server that answers HTML, not the broker's HAL", async () => {
    const garbage = await listenLocally((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx!</body></html>'),
    );
    servers.push(garbage);
    const honestProvider = await provider(honest);
    const exit = await verifyWithBroker(garbage, [...withTarget(honestProvider.origin), '--suite', 'pact']);
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker answered GET ${garbage.origin}/ with 200 and no JSON (is it a Pact Broker?): <html><body>Welcome to nginx!</body></html>\n`,
    );
    expect(exit.stdout).not.toMatch(/violation[^s]/);
    expect(exit.code).toBe(2);
  });

  it('a JSON answer without the for-verification link', async () => {
    const notABroker = await listenLocally((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
    );
    servers.push(notABroker);
    const honestProvider = await provider(honest);
    const exit = await verifyWithBroker(notABroker, [...withTarget(honestProvider.origin), '--suite', 'pact']);
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker's answer to GET ${notABroker.origin}/ has no pb:provider-pacts-for-verification link (is it a Pact Broker?)\n`,
    );
    expect(exit.code).toBe(2);
  });

  it('a broker that never answers, bounded by --timeout when it ends sooner than --deadline', async () => {
    // It takes the request and never answers: only --timeout can end the wait.
    const hung: LocalServer = await listenLocally(() => undefined);
    servers.push(hung);
    const honestProvider = await provider(honest);
    const exit = await verifyWithBroker(hung, [
      ...withTarget(honestProvider.origin),
      '--suite',
      'pact',
      '--timeout',
      '0.5',
      '--deadline',
      '60',
    ]);
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker did not answer GET ${hung.origin}/: no complete answer within 0.5 s\n`,
    );
    expect(exit.code).toBe(2);
  });
});

describe('petstore-verify publish-pact', () => {
  const publish = (args: string[], env: NodeJS.ProcessEnv) =>
    runVerifyInProcess(['publish-pact', ...args], { ...noCi, ...env });

  it("reads the version, branch and build URL from GitHub Actions' variables, and says which", async () => {
    const broker = await fakeBroker([]);
    const exit = await publish([], {
      PACT_BROKER_BASE_URL: broker.origin,
      GITHUB_SHA: 'abc123',
      GITHUB_REF_NAME: '17/merge',
      GITHUB_HEAD_REF: 'feat-cancel',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/web-app',
      GITHUB_RUN_ID: '99',
    });
    expect(exit.stdout).toBe(
      `published the pact to ${broker.origin} as version abc123 (from GITHUB_SHA), branch feat-cancel (from GITHUB_HEAD_REF), build URL https://github.com/acme/web-app/actions/runs/99 (from GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID)\nCreated pact\n`,
    );
    expect(exit.code).toBe(0);
    expect(broker.bodiesOf('POST', '/contracts/publish')).toMatchObject([
      {
        pacticipantName: 'petstore-order-client',
        pacticipantVersionNumber: 'abc123',
        branch: 'feat-cancel',
        buildUrl: 'https://github.com/acme/web-app/actions/runs/99',
      },
    ]);
  });

  it('refuses, with exit 2 and nothing sent, a pact file --pact would refuse (interactions not a list, a state id past int64)', async () => {
    const broker = await fakeBroker([]);
    const directory = await mkdtemp(join(tmpdir(), 'unpublishable-'));
    servers.push({ close: () => rm(directory, { recursive: true, force: true }) });
    const base = JSON.parse(await pactOf('cancel-shipped-order')) as Record<string, unknown>;
    const stateBeyond = (await pactOf('cancel-shipped-order')).replace(/"id":\s*3\b/, '"id":9223372036854775808');
    const cases: [string, string, string][] = [
      ['object.json', JSON.stringify({ ...base, interactions: {} }), '/interactions: must be a list of interactions'],
      ['beyond.json', stateBeyond, '/interactions/0/providerStates/0/params/orders'],
    ];
    for (const [name, text, said] of cases) {
      const file = join(directory, name);
      await writeFile(file, text);
      const exit = await publish(['--consumer-version', 'v1', '--pact', file], { PACT_BROKER_BASE_URL: broker.origin });
      expect(exit.stderr).toContain(`petstore-verify: ${file} is not a pact that can be published: ${said}`);
      expect(exit.code).toBe(2);
    }
    expect(broker.received).toEqual([]);
  });

  it('publishes the tags and build URL given, the flags before the CI variables', async () => {
    const broker = await fakeBroker([]);
    const exit = await publish(
      [
        '--consumer-version',
        'v2',
        '--branch',
        'main',
        '--tag',
        'main',
        '--tag',
        'prod',
        '--build-url',
        'https://ci/b/7',
      ],
      { PACT_BROKER_BASE_URL: broker.origin, GITHUB_SHA: 'abc123', GITHUB_REF_NAME: 'other' },
    );
    expect(exit.stdout).toBe(
      `published the pact to ${broker.origin} as version v2, branch main, tags main, prod, build URL https://ci/b/7\nCreated pact\n`,
    );
    expect(exit.code).toBe(0);
    const [body] = broker.bodiesOf('POST', '/contracts/publish');
    expect(body).toMatchObject({
      pacticipantVersionNumber: 'v2',
      branch: 'main',
      tags: ['main', 'prod'],
      buildUrl: 'https://ci/b/7',
    });
  });

  it('needs a version: the flag or the CI commit', async () => {
    const exit = await publish([], { PACT_BROKER_BASE_URL: 'http://127.0.0.1:9' });
    expect(exit.stderr).toBe(
      'petstore-verify: publish-pact needs --consumer-version V (or a CI commit: $GITHUB_SHA, $CI_COMMIT_SHA) (see --help)\n',
    );
    expect(exit.code).toBe(2);
  });

  it('exits 1 with one line when the broker refuses the pact', async () => {
    const broker = await fakeBroker([], { refusePublication: true });
    const exit = await publish(['--consumer-version', 'v1'], { PACT_BROKER_BASE_URL: broker.origin });
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker answered POST ${broker.origin}/contracts/publish with 401: {"error":"unauthorised"}\n`,
    );
    expect(exit.code).toBe(1);
  });

  it('exits 2 with one line naming the URL when the broker never answers, bounded by --timeout', async () => {
    const hung = await listenLocally(() => undefined);
    servers.push(hung);
    const exit = await publish(['--consumer-version', 'v1', '--timeout', '0.5'], { PACT_BROKER_BASE_URL: hung.origin });
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker did not answer POST ${hung.origin}/contracts/publish: no complete answer within 0.5 s\n`,
    );
    expect(exit.code).toBe(2);
  });

  it('exits 2 with one line naming the URL when nothing listens at the broker URL (not "fetch failed")', async () => {
    const closed = refusingBroker;
    const exit = await publish(['--consumer-version', 'v1'], { PACT_BROKER_BASE_URL: closed.origin });
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker did not answer POST ${closed.origin}/contracts/publish: ECONNREFUSED\n`,
    );
    expect(exit.code).toBe(2);
  });
});

describe('ciBuild', () => {
  it('takes the branch of a pull request from GITHUB_HEAD_REF, else GITHUB_REF_NAME, else GitLab', () => {
    expect(ciBuild({ GITHUB_REF_NAME: 'main' }).branch).toEqual({ value: 'main', source: 'GITHUB_REF_NAME' });
    expect(ciBuild({ GITHUB_REF_NAME: '3/merge', GITHUB_HEAD_REF: 'fix' }).branch).toEqual({
      value: 'fix',
      source: 'GITHUB_HEAD_REF',
    });
    expect(ciBuild({ CI_COMMIT_SHA: 'f00', CI_COMMIT_REF_NAME: 'dev', CI_JOB_URL: 'https://gl/j/1' })).toEqual({
      version: { value: 'f00', source: 'CI_COMMIT_SHA' },
      branch: { value: 'dev', source: 'CI_COMMIT_REF_NAME' },
      buildUrl: { value: 'https://gl/j/1', source: 'CI_JOB_URL' },
    });
  });

  it('leaves out what is not set, or set empty, and a build URL with a part missing', () => {
    expect(ciBuild({ GITHUB_SHA: '', GITHUB_SERVER_URL: 'https://github.com', GITHUB_RUN_ID: '1' })).toEqual({});
  });
});
