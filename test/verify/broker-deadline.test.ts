// Issue 59, item 2: a slow broker is never the provider's fault. Every wait on the broker is inside the
// run's deadline; a broker that stalls or fails on some pacts is exit 2 naming it and each pact it did not
// serve, while the pacts it did serve are judged; and a verifier the deadline stops while the provider kept
// nothing waiting is a run that could not finish, not a violation. The broker is the fake one of
// test/support/fake-broker.ts, which holds the pacts a test names unanswered (a broker that stalls).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordProviderBranch } from '../../verify/pact/pact-broker.js';
import { verifyPact } from '../../verify/pact/pact.js';
import { pactCases } from '../../verify/pact/pact-cases.js';
import { startPactGuard } from '../../verify/pact/pact-guard.js';
import { startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { noCi, pactOf, startFakeBroker } from '../support/fake-broker.js';
import { listenLocally } from '../support/support.js';

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

const honest: Fault = (_request, response) => response;
// Cancels a shipped order (204 where the pact says 409): what cancel-shipped-order's pact catches.
const cancelsShipped: Fault = (_request, response) =>
  response.status === 409 ? new Response(null, { status: 204 }) : response;

// Never a token in any output: the broker is named by its origin alone.
const token = 'broker-token-that-must-not-show';

async function fakeBroker(...args: Parameters<typeof startFakeBroker>) {
  const broker = await startFakeBroker(...args);
  closing.push(broker);
  return broker;
}

async function provider(fault: Fault) {
  const started = await startBrokenProvider(fault);
  closing.push(started);
  return started;
}

/** Three pacts of three consumers, as the broker lists them (v1, v2, v3). */
async function threePacts() {
  return [
    { consumer: 'web-app', text: await pactOf('cancel-shipped-order') },
    { consumer: 'admin-app', text: await pactOf('list-orders', 'admin-app') },
    { consumer: 'mobile-app', text: await pactOf('cancel-pending-order', 'mobile-app') },
  ];
}

/**
 * petstore-verify in this process (the pact suite unless `suites` says otherwise), with the broker and
 * its token in the environment, and a JSON and JUnit report.
 */
async function verifyWithBroker(broker: { origin: string }, args: string[], suites = ['--suite', 'pact']) {
  const directory = await mkdtemp(join(tmpdir(), 'broker-deadline-'));
  closing.push({ close: () => rm(directory, { recursive: true, force: true }) });
  const [json, junit] = [join(directory, 'report.json'), join(directory, 'report.xml')];
  const exit = await runVerifyInProcess([...args, ...suites, '--no-prism', '--json', json, '--junit', junit], {
    ...noCi,
    PACT_DO_NOT_TRACK: 'true',
    PACT_BROKER_BASE_URL: broker.origin,
    PACT_BROKER_TOKEN: token,
  });
  const report = JSON.parse(await readFile(json, 'utf8')) as {
    exitCode: number;
    checks: number;
    violations: number;
    suites: { unverifiedPacts?: { name: string; url: string; code: string; reason: string }[] }[];
  };
  return { exit, report, junit: await readFile(junit, 'utf8') };
}

const pactUrl = (broker: { origin: string }, consumer: string, position: number) =>
  `${broker.origin}/pacts/provider/petstore-order-interface/consumer/${consumer}/pact-version/${position}`;

describe('a broker that stalls against --deadline', () => {
  it('exits 2 naming the broker and each pact it did not serve, the suites after it not run, no check and no violation counted', async () => {
    // Listed, then never served: only the deadline (3 s, far below --timeout) can end the wait. Every
    // suite (the default run): those after the pact suite start past the deadline and send nothing.
    const broker = await fakeBroker(await threePacts(), { holdPacts: [1, 2, 3] });
    const target = await provider(honest);
    const { exit, report, junit } = await verifyWithBroker(
      broker,
      [...target.args, '--timeout', '600', '--deadline', '3'],
      [],
    );
    const first = `the Pact Broker did not answer GET ${pactUrl(broker, 'web-app', 1)}: no complete answer before the run's deadline`;
    const rest = `not fetched from the Pact Broker at ${broker.origin}: the run passed its deadline`;
    const notRun = 'not run: the run passed its deadline before this suite started (nothing of it was sent)';
    expect(exit.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        `! error in pact › Pact between web-app (v1) and petstore-order-interface: ${first}`,
        `! error in pact › Pact between admin-app (v2) and petstore-order-interface: ${rest}`,
        `! error in pact › Pact between mobile-app (v3) and petstore-order-interface: ${rest}`,
        `! error in scenarios: ${notRun}`,
        `! error in explore › explore: ${notRun}`,
      ]),
    );
    const verdict = exit.stdout.split('\n').find((line) => line.startsWith('verdict: '));
    expect(verdict?.replace(/, [\d.]+ s\)/, ')')).toBe(
      `verdict: not-run (exit 2; 0 checks, 0 violations): no check ran; pact › Pact between web-app (v1) and petstore-order-interface: ${first}; pact › Pact between admin-app (v2) and petstore-order-interface: ${rest}; pact › Pact between mobile-app (v3) and petstore-order-interface: ${rest}; scenarios › scenarios: ${notRun}; explore › explore: ${notRun}`,
    );
    expect(exit.code).toBe(2);
    expect(report).toMatchObject({ exitCode: 2, checks: 0, violations: 0 });
    expect(report.suites[0]?.unverifiedPacts?.map((pact) => pact.code)).toEqual([
      'broker_unreachable',
      'run_stopped',
      'run_stopped',
    ]);
    expect(junit).toContain(`<error message="${first.replaceAll("'", '&#39;')}"/>`);
    expect(`${exit.stdout}${exit.stderr}${junit}${JSON.stringify(report)}`).not.toContain(token);
  });
});

describe('a broker that never answers its index, against --deadline', () => {
  it('is given up at the deadline, not at --timeout: exit 2 and one line naming the request', async () => {
    const hung = await listenLocally(() => undefined);
    closing.push(hung);
    const target = await provider(honest);
    const exit = await runVerifyInProcess(
      [...target.args, '--suite', 'pact', '--no-prism', '--timeout', '600', '--deadline', '2'],
      { ...noCi, PACT_DO_NOT_TRACK: 'true', PACT_BROKER_BASE_URL: hung.origin, PACT_BROKER_TOKEN: token },
    );
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker did not answer GET ${hung.origin}/: no complete answer before the run's deadline\n`,
    );
    expect(exit.code).toBe(2);
  });
});

describe('a broker that serves 2 of the pacts it lists, then stalls and drops the connection', () => {
  /**
   * The pact suite against a broker that lists four pacts, serves the first two, holds the third's
   * answer, and drops that connection once the run has asked for it (after the two were judged: each
   * pact is fetched just before it is verified). The fourth is never asked for.
   */
  async function partialBroker(fault: Fault, args: string[] = []) {
    const pacts = [...(await threePacts()), { consumer: 'ios-app', text: await pactOf('list-orders', 'ios-app') }];
    const broker = await fakeBroker(pacts, { holdPacts: [3, 4] });
    const target = await provider(fault);
    const run = verifyWithBroker(broker, [...target.args, ...args]);
    await expect.poll(() => broker.held.length).toBe(1);
    broker.held[0]?.destroy();
    return { broker, ...(await run) };
  }

  const missing = (broker: { origin: string }) => [
    {
      name: 'Pact between mobile-app (v3) and petstore-order-interface',
      url: pactUrl(broker, 'mobile-app', 3),
      code: 'broker_unreachable',
      reason: `the Pact Broker did not answer GET ${pactUrl(broker, 'mobile-app', 3)}: the connection closed before a whole answer (UND_ERR_SOCKET)`,
    },
    {
      name: 'Pact between ios-app (v4) and petstore-order-interface',
      url: pactUrl(broker, 'ios-app', 4),
      code: 'broker_unreachable',
      reason: `not fetched from the Pact Broker at ${broker.origin}: it stopped answering (no answer to GET ${pactUrl(broker, 'mobile-app', 3)})`,
    },
  ];

  it('judges the 2 it served, publishes their results, and exits 2 naming each missing one', async () => {
    const { broker, exit, report } = await partialBroker(honest, ['--provider-version', '2.0.0']);
    expect(exit.stdout).toMatch(/(?:^|\n)✓ pact › cancel-shipped-order › cancel the shipped order /);
    expect(exit.stdout).toMatch(/(?:^|\n)✓ pact › list-orders › list the orders /);
    expect(exit.stdout.split('\n')).toEqual(
      expect.arrayContaining(missing(broker).map((pact) => `! error in pact › ${pact.name}: ${pact.reason}`)),
    );
    expect(exit.stdout).toMatch(/\npact: \d+ passed, 0 failed, 2 errors \(interactions; \d+ checks, 0 violations/);
    expect(exit.code).toBe(2);
    expect(report.violations).toBe(0);
    expect(report.suites[0]?.unverifiedPacts).toEqual(missing(broker));
    // The results of the two pacts judged; none for those never served, and the fourth never asked for.
    expect(broker.bodiesOf('POST', '/verification-results')).toMatchObject([{ success: true }, { success: true }]);
    expect(broker.received.map((request) => request.url)).not.toContain(
      new URL(pactUrl(broker, 'ios-app', 4)).pathname,
    );
  });

  it('still fails a provider that breaks a pact it served (exit 1), and names each missing one', async () => {
    const { broker, exit, report } = await partialBroker(cancelsShipped);
    expect(exit.stdout).toMatch(
      /\n {4}pact › cancel-shipped-order › cancel the shipped order: expected status 409, got 204 \(at status\) \[status-unexpected\]\n/,
    );
    expect(exit.stdout.split('\n')).toEqual(
      expect.arrayContaining(missing(broker).map((pact) => `! error in pact › ${pact.name}: ${pact.reason}`)),
    );
    expect(exit.code).toBe(1);
    expect(report.violations).toBe(1);
  });
});

describe('an honest broker under a deadline', () => {
  it('gives the same verdict as before: every pact judged, no error, exit 0', async () => {
    const broker = await fakeBroker(await threePacts());
    const target = await provider(honest);
    const { exit, report } = await verifyWithBroker(broker, [
      ...target.args,
      '--deadline',
      '600',
      '--provider-version',
      '2.0.1',
    ]);
    expect(exit.stdout).not.toMatch(/! error/);
    expect(exit.stdout).toMatch(/\npact: \d+ passed, 0 failed \(interactions; /);
    expect(exit.code).toBe(0);
    expect(report.suites[0]?.unverifiedPacts).toBeUndefined();
    expect(broker.bodiesOf('POST', '/verification-results')).toHaveLength(3);
  });
});

describe('the waits after the verification are inside the deadline too', () => {
  it("does not send the provider version's branch once the deadline has passed, and names the broker", async () => {
    const broker = await fakeBroker([]);
    const index = {
      _links: {
        'pb:pacticipant-branch-version': { href: `${broker.origin}/pacticipants/{pacticipant}/b/{branch}/v/{version}` },
      },
    };
    const past = Date.now() - 1;
    await expect(
      recordProviderBranch({ url: broker.origin, token, providerVersion: '1', providerBranch: 'main' }, index, {
        timeout: 10_000,
        deadline: past,
      }),
    ).rejects.toMatchObject({
      code: 'broker_unreachable',
      message: `the Pact Broker at ${broker.origin} was not asked PUT ${broker.origin}/pacticipants/petstore-order-interface/b/main/v/1: the run passed its deadline`,
    });
    expect(broker.received).toEqual([]);
  });
});

describe("Pact's verifier stopped by the deadline", () => {
  it('could not run, with no violation counted, when the deadline stopped it before the provider was sent anything', async () => {
    const target = await provider(honest);
    const suite = await verifyPact({
      baseUrl: `${target.origin}/v1`,
      apiKey: 'petstore-dev-key',
      stateUrl: `${target.origin}/__mock/provider-state`,
      deadline: Date.now() - 1,
    });
    expect(suite.cases).toEqual([
      {
        name: 'verifier',
        verdict: 'error',
        reason: "Pact's verifier was stopped: the run passed its deadline (no request to the provider was under way)",
        exchanges: [],
      },
    ]);
    expect(suite).toMatchObject({ verdict: 'error', checks: 0, violations: 0 });
  });

  it('is a case that could not run, not a violation, when the provider kept nothing waiting', () => {
    const cases = pactCases(
      {
        outcome: { crash: "Pact's verifier was stopped: the run passed its deadline", unfinished: true },
        interactions: [],
        records: [],
        taken: new Set(),
      },
      undefined,
    );
    expect(cases).toEqual([
      {
        name: 'verifier',
        verdict: 'error',
        reason: "Pact's verifier was stopped: the run passed its deadline",
        exchanges: [],
      },
    ]);
  });

  it('stays a violation when the provider kept it waiting', () => {
    const [verifier] = pactCases(
      {
        outcome: { crash: "Pact's verifier was stopped: the run passed its deadline" },
        interactions: [],
        records: [],
        taken: new Set(),
      },
      undefined,
    );
    expect(verifier).toMatchObject({ name: 'verifier', verdict: 'failed' });
    expect(verifier?.exchanges[0]?.violations).toMatchObject([{ code: 'pact-verifier' }]);
  });
});

describe("the guard knows whether the provider kept Pact's verifier waiting", () => {
  async function guardBefore(origin: string, timeout: number) {
    const guard = await startPactGuard(
      { baseUrl: `${origin}/v1`, apiKey: 'petstore-dev-key', stateUrl: `${origin}/state`, timeout, prism: false },
      () => undefined,
    );
    closing.push(guard);
    return guard;
  }

  it('says so while a request to the provider is under way', async () => {
    let received = 0;
    const hung = await listenLocally(() => {
      received += 1;
    });
    closing.push(hung);
    const guard = await guardBefore(hung.origin, 600_000);
    expect(guard.keptWaiting()).toBe(false);
    void fetch(`${guard.origin}/v1/store/orders`).catch(() => undefined);
    await expect.poll(() => received).toBe(1);
    expect(guard.keptWaiting()).toBe(true);
  });

  it('says so after a request the provider did not answer in time', async () => {
    const hung = await listenLocally(() => undefined);
    closing.push(hung);
    const guard = await guardBefore(hung.origin, 100);
    expect((await fetch(`${guard.origin}/v1/store/orders`)).status).toBe(502);
    expect(guard.keptWaiting()).toBe(true);
  });

  it('says not after a provider answered every request', async () => {
    const target = await provider(honest);
    const guard = await guardBefore(target.origin, 10_000);
    const answer = await fetch(`${guard.origin}/v1/store/orders`, {
      headers: { authorization: 'Bearer petstore-dev-key' },
    });
    expect(answer.status).toBe(200);
    expect(guard.keptWaiting()).toBe(false);
  });
});
