// A frontend's own pact, from its own tests: the app's calls on the mock (MSW in process) become a
// Pact V4 file with provider states, judged before it is written, that Pact's verifier then holds
// providers to: the kit's mock and an honest provider pass it, a provider that breaks it fails.
// petstore-verify runs in this process (runVerifyInProcess); the one process is Pact's own verifier,
// run as a user of pact-core runs it.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { MockError, PactContradictsSpec } from '../../mocks/base/errors.js';
import { createControlClient } from '../../mocks/control/control-client.js';
import { createOrderMock, type OrderMock } from '../../mocks/adapters/order-mock.js';
import { verifyPact } from '../../verify/pact/pact.js';
import { runToExit, runVerifyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { listenLocally, startServer } from '../support/support.js';

const appKey = 'the-apps-own-secret-key';
const base = 'https://api.example.com/v1';
let directory: string;
let mock: OrderMock;
const server = setupServer();

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-consumer-pact-'));
  // The app's calls go to the mock's handlers; the servers this file starts on loopback are reached for real.
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (!request.url.startsWith('http://127.0.0.1:')) print.error();
    },
  });
});
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await rm(directory, { recursive: true, force: true });
});

/** What the app does: list, cancel a pending, a shipped and an unknown order, and one call without its key. */
async function driveTheApp(
  seed: object[] = [
    { id: 1, petId: 7, quantity: 1 },
    { id: 2, status: 'shipped' },
  ],
) {
  mock = createOrderMock({ seed, apiKeys: [appKey] });
  server.use(...mock.handlers);
  const headers = { authorization: `Bearer ${appKey}` };
  const statuses = [
    (await fetch(`${base}/store/orders`, { headers })).status,
    (await fetch(`${base}/store/orders/1`, { method: 'DELETE', headers })).status,
    (await fetch(`${base}/store/orders/2`, { method: 'DELETE', headers })).status,
    (await fetch(`${base}/store/orders/99`, { method: 'DELETE', headers })).status,
    (await fetch(`${base}/store/orders`)).status,
  ];
  return statuses;
}

interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: {
    description: string;
    providerStates?: { name: string; params: { orders: { id: unknown; status?: string }[] } }[];
    request: { method: string; path: string; headers?: Record<string, string[]> };
    response: { status: number };
  }[];
  metadata: Record<string, Record<string, string>>;
}

const readPact = async (file: string) => parseJson(await readFile(file, 'utf8')) as unknown as PactFile;

describe('mock.pact()', () => {
  it("writes the app's calls as Pact V4 interactions, each with the provider state it depended on", async () => {
    expect(await driveTheApp()).toEqual([200, 204, 409, 404, 401]);
    const file = await mock.pact({ consumer: 'web-app', dir: directory });
    expect(file).toBe(`${directory}/web-app-petstore-order-interface.json`);
    const pact = await readPact(file);
    expect(pact.consumer).toEqual({ name: 'web-app' });
    expect(pact.provider).toEqual({ name: 'petstore-order-interface' });
    expect(
      pact.interactions.map((interaction) => [
        interaction.request.method,
        interaction.request.path,
        interaction.response.status,
      ]),
    ).toEqual([
      // Sorted by description, as Pact's own writers sort a file's interactions.
      ['DELETE', '/v1/store/orders/1', 204],
      ['DELETE', '/v1/store/orders/2', 409],
      ['DELETE', '/v1/store/orders/99', 404],
      ['GET', '/v1/store/orders', 200],
      ['GET', '/v1/store/orders', 401],
    ]);
    expect(pact.interactions.map((interaction) => interaction.providerStates?.[0]?.params.orders)).toEqual([
      [{ id: 1, status: 'pending' }],
      [{ id: 2, status: 'shipped' }],
      [],
      // The orders as the list showed them: a listed order is not cancelled, and the list names no status.
      [{ id: 1, petId: 7, quantity: 1 }, { id: 2 }],
      [],
    ]);
  });

  it("never writes the app's key: the pact sends its own, and no header where the app sent none", async () => {
    await driveTheApp();
    const file = await mock.pact({ consumer: 'web-app', dir: directory });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(appKey);
    const pact = await readPact(file);
    expect(pact.interactions[0]!.request.headers).toEqual({ Authorization: ['Bearer petstore-dev-key'] });
    expect(pact.interactions[4]!.request.headers).toBeUndefined();
  });

  it('writes an identical interaction once', async () => {
    await driveTheApp();
    const headers = { authorization: `Bearer ${appKey}` };
    await fetch(`${base}/store/orders/99`, { method: 'DELETE', headers });
    await fetch(`${base}/store/orders`);
    const pact = await readPact(await mock.pact({ consumer: 'web-app', dir: directory }));
    expect(pact.interactions).toHaveLength(5);
  });

  it('leaves out what a fault answered, and says so in the metadata', async () => {
    await driveTheApp();
    mock.addFaults([{ operation: 'listOrders', status: 503 }]);
    expect((await fetch(`${base}/store/orders`, { headers: { authorization: `Bearer ${appKey}` } })).status).toBe(503);
    const { document, leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(leftOut).toEqual([{ call: 'GET /v1/store/orders 503', reason: 'fault' }]);
    expect((document.interactions as unknown[]).length).toBe(5);
    expect(document.metadata).toMatchObject({
      'petstore-contract-kit': { leftOut: 'GET /v1/store/orders 503: fault' },
    });
  });

  it('writes ids beyond 2^53 with every digit', async () => {
    await driveTheApp([{ id: 9007199254740993n, status: 'shipped' }]);
    const text = await readFile(await mock.pact({ consumer: 'web-app', dir: directory }), 'utf8');
    expect(text).toContain('"id":9007199254740993');
  });

  it("refuses to write a pact with an answer the specification does not allow, naming it (a handler of the app's own)", async () => {
    await driveTheApp();
    mock.observe(server);
    server.use(http.get(`${base}/store/orders`, () => HttpResponse.json([{ id: 'one' }])));
    await fetch(`${base}/store/orders`, { headers: { authorization: `Bearer ${appKey}` } });
    const file = join(directory, 'refused', 'web-app-petstore-order-interface.json');
    const refusal = await mock.pact({ consumer: 'web-app', dir: join(directory, 'refused') }).catch((error) => error);
    expect(refusal).toBeInstanceOf(PactContradictsSpec);
    expect(refusal.code).toBe('pact_contradicts_spec');
    expect(
      refusal.findings.map((finding: { interaction: string; path: string }) => [finding.interaction, finding.path]),
    ).toContainEqual(['GET /store/orders 200 (with the key) #2', '/0/id']);
    expect(existsSync(file)).toBe(false);
  });

  it("writes a named session's pact from that session's calls only: mock.session(name).pact()", async () => {
    await driveTheApp();
    await fetch(`${base}/store/orders`, {
      headers: { authorization: `Bearer ${appKey}`, 'x-mock-session': 'checkout-tab' },
    });
    const file = await mock.session('checkout-tab').pact({ consumer: 'checkout', dir: join(directory, 'named') });
    expect(file).toBe(join(directory, 'named', 'checkout-petstore-order-interface.json'));
    const pact = await readPact(file);
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'GET /store/orders 200 (with the key)',
    ]);
    expect(pact.interactions[0]?.providerStates?.[0]?.params.orders.map((order) => order.id)).toEqual([1, 2]);
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect((document.interactions as unknown[]).length).toBe(5);
  });

  it('leaves out the calls a filter does not pick, as requests(filter) picks them', async () => {
    await driveTheApp();
    const { document } = await mock.pactDocument({ consumer: 'web-app', filter: { operation: 'cancelOrder' } });
    expect((document as unknown as PactFile).interactions.map((interaction) => interaction.description)).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/2 409 (with the key)',
      'DELETE /store/orders/99 404 (with the key)',
    ]);
    const file = await mock.pact({ consumer: 'web-app', dir: join(directory, 'filtered'), filter: { status: 401 } });
    expect((await readPact(file)).interactions.map((interaction) => interaction.description)).toEqual([
      'GET /store/orders 401 (without a key)',
    ]);
  });

  it('refuses a consumer name that is not a plain name', async () => {
    await driveTheApp();
    await expect(mock.pact({ consumer: '../elsewhere', dir: directory })).rejects.toThrow(
      `the pact's consumer must be a name of letters, digits, '.', '_' and '-', not "../elsewhere"`,
    );
  });
});

describe("the app's pact, verified by Pact's verifier", () => {
  let pactFile: string;
  beforeAll(async () => {
    await driveTheApp([
      { id: 1, petId: 7, quantity: 1 },
      { id: 2, status: 'shipped' },
      { id: 9007199254740993n, status: 'shipped' },
    ]);
    await fetch(`${base}/store/orders/9007199254740993`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${appKey}` },
    });
    pactFile = await mock.pact({ consumer: 'web-app', dir: join(directory, 'verified') });
  });

  it("passes on the kit's own mock", async () => {
    const kit = await startServer();
    try {
      const suite = await verifyPact({
        baseUrl: `${kit.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${kit.origin}/__mock/provider-state`,
        pactUrls: [pactFile],
        prism: false,
      });
      expect(suite.cases.map((result) => [result.name, result.verdict])).toEqual(
        suite.cases.map((result) => [result.name, 'passed']),
      );
      expect(suite.cases).toHaveLength(6);
      expect(suite.verdict).toBe('passed');
    } finally {
      await kit.server.close();
    }
  });

  const againstHostile = async (switches: Switches, options: { strict?: boolean } = {}) => {
    const provider = await startHostileProvider(switches);
    try {
      return await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        pactUrls: [pactFile],
        prism: false,
        ...options,
      });
    } finally {
      await provider.close();
    }
  };

  it('passes on a provider written from scratch that differs honestly (charset, gzip, another list order, a 409 without a body)', async () => {
    const suite = await againstHostile({
      charset: true,
      gzip: true,
      reverseListOrder: true,
      conflictWithoutBody: true,
    });
    expect(suite.verdict).toBe('passed');
  });

  it('fails a provider that cancels shipped orders, naming the interaction', async () => {
    const suite = await againstHostile({ cancelShipped: true });
    expect(suite.verdict).toBe('failed');
    expect(suite.cases.filter((result) => result.verdict === 'failed').map((result) => result.name)).toEqual([
      'DELETE /store/orders/2 409 (with the key)',
      'DELETE /store/orders/9007199254740993 409 (with the key)',
    ]);
  });

  it('warns of a provider that lists cancelled orders, and fails it under --strict, naming the cancel', async () => {
    const lenient = await againstHostile({ keepCancelledListed: true });
    expect(lenient.verdict).toBe('passed');
    expect(
      lenient.cases
        .filter((result) => result.exchanges.some((exchange) => exchange.warnings.length > 0))
        .map((result) => result.name),
    ).toEqual(['DELETE /store/orders/1 204 (with the key)']);
    const strict = await againstHostile({ keepCancelledListed: true }, { strict: true });
    expect(strict.verdict).toBe('failed');
    const failed = strict.cases.filter((result) => result.verdict === 'failed');
    expect(failed.map((result) => result.name)).toEqual(['DELETE /store/orders/1 204 (with the key)']);
    expect(failed[0]?.exchanges[0]?.violations).toEqual([
      {
        code: 'order-listed',
        path: '',
        expected: 'order 1 not in the list',
        actual: 'ids [1]',
        advisory: true,
        about: 'after this call, GET /store/orders',
      },
    ]);
  });

  it("is read by Pact's own verifier without a warning", async () => {
    const kit = await startServer();
    try {
      // Pact's verifier as a provider team would run it, with its warnings on and its own report.
      const script = `
        const { default: pact } = await import('@pact-foundation/pact-core');
        const out = await pact.verifyPacts(${JSON.stringify({
          provider: 'petstore-order-interface',
          providerBaseUrl: kit.origin,
          providerStatesSetupUrl: `${kit.origin}/__mock/provider-state`,
          providerStatesSetupTeardown: true,
          providerStatesSetupBody: true,
          pactUrls: [pactFile],
          logLevel: 'warn',
        })});
        console.log(JSON.parse(out).interactionResults.map((result) => result.result).join(' '));`;
      const exit = await runToExit(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
      });
      expect(exit.stdout).toMatch(/\nOK OK OK OK OK OK\n$/);
      expect(exit.stdout + exit.stderr).not.toMatch(/\b(WARN|ERROR)\b/);
      expect(exit.code).toBe(0);
    } finally {
      await kit.server.close();
    }
  });

  it('is what petstore-verify --pact FILE verifies: green on the mock, red with the reason on a broken provider', async () => {
    const kit = await startServer();
    const broken = await startHostileProvider({ cancelShipped: true });
    try {
      const onMock = await runVerifyInProcess([
        '--base-url',
        `${kit.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${kit.origin}/__mock/provider-state`,
        '--pact',
        pactFile,
        '--no-prism',
      ]);
      expect(onMock.stdout).toMatch(/\npact: 6 passed, 0 failed \(interactions;/);
      expect(onMock.code).toBe(0);
      const onBroken = await runVerifyInProcess([...broken.args, '--pact', pactFile, '--no-prism']);
      expect(onBroken.stdout).toMatch(
        /pact › DELETE \/store\/orders\/2 409 \(with the key\): expected status 409, got 204/,
      );
      expect(onBroken.code).toBe(1);
    } finally {
      await kit.server.close();
      await broken.close();
    }
  });

  it('is what petstore-verify publish-pact --pact FILE publishes, as the consumer and for the provider it names', async () => {
    const received: { url: string; body: string }[] = [];
    const broker = await listenLocally(async (request, response) => {
      received.push({ url: request.url!, body: await new Response(request as unknown as ReadableStream).text() });
      response.writeHead(200, { 'content-type': 'application/hal+json' });
      response.end('{"notices":[]}');
    });
    try {
      const exit = await runVerifyInProcess(['publish-pact', '--consumer-version', 'abc123', '--pact', pactFile], {
        PACT_BROKER_BASE_URL: broker.origin,
      });
      expect(exit.stdout).toBe(`published the pact to ${broker.origin} as version abc123\n`);
      expect(exit.code).toBe(0);
      const body = JSON.parse(received[0]!.body) as {
        pacticipantName: string;
        contracts: { consumerName: string; providerName: string; content: string }[];
      };
      expect(received[0]!.url).toBe('/contracts/publish');
      expect(body.pacticipantName).toBe('web-app');
      expect(body.contracts[0]).toMatchObject({ consumerName: 'web-app', providerName: 'petstore-order-interface' });
      expect(Buffer.from(body.contracts[0]!.content, 'base64').toString('utf8')).toBe(await readFile(pactFile, 'utf8'));
    } finally {
      await broker.close();
    }
  });

  it("is what petstore-verify --pact-broker-consumer NAME verifies: that consumer's pacts, fetched from the broker", async () => {
    const pact = await readFile(pactFile, 'utf8');
    const selectors: unknown[] = [];
    const broker = await listenLocally(async (request, response) => {
      const body = await new Response(request as unknown as ReadableStream).text();
      const origin = `http://${request.headers.host}`;
      response.setHeader('content-type', 'application/hal+json');
      if (request.method === 'GET' && request.url === '/')
        return response.end(
          JSON.stringify({
            _links: {
              'pb:provider-pacts-for-verification': {
                href: `${origin}/pacts/provider/{provider}/for-verification`,
                templated: true,
              },
            },
          }),
        );
      const forVerification = '/pacts/provider/petstore-order-interface/for-verification';
      // Pact's verifier follows the link (GET), then posts its selectors to the resource's own link.
      if (request.method === 'GET' && request.url === forVerification)
        return response.end(JSON.stringify({ _links: { self: { href: `${origin}${forVerification}` } } }));
      if (request.method === 'POST' && request.url === forVerification) {
        selectors.push(...(JSON.parse(body) as { consumerVersionSelectors: unknown[] }).consumerVersionSelectors);
        return response.end(
          JSON.stringify({
            _embedded: {
              pacts: [
                {
                  shortDescription: 'latest from main',
                  verificationProperties: { pending: false, notices: [] },
                  _links: {
                    self: {
                      href: `${origin}/pacts/web-app/latest`,
                      name: 'Pact between web-app and petstore-order-interface',
                    },
                  },
                },
              ],
            },
          }),
        );
      }
      if (request.method === 'GET' && request.url === '/pacts/web-app/latest') return response.end(pact);
      response.statusCode = 404;
      response.end('{}');
    });
    const kit = await startServer();
    try {
      const exit = await runVerifyInProcess(
        [
          '--base-url',
          `${kit.origin}/v1`,
          '--api-key',
          'petstore-dev-key',
          '--state-url',
          `${kit.origin}/__mock/provider-state`,
          '--pact-broker-consumer',
          'web-app',
          '--no-prism',
        ],
        { PACT_BROKER_BASE_URL: broker.origin },
      );
      expect(selectors).toEqual([
        { mainBranch: true, consumer: 'web-app' },
        { deployedOrReleased: true, consumer: 'web-app' },
      ]);
      // Each interaction judged by the kit's checks too: six checks, not a green run that checked nothing.
      expect(exit.stdout).toMatch(/\npact: 6 passed, 0 failed \(interactions; 6 checks, 0 violations/);
      expect(exit.code).toBe(0);
    } finally {
      await kit.server.close();
      await broker.close();
    }
  });

  it('refuses a --pact that is not a file, with exit 2 and one line', async () => {
    const exit = await runVerifyInProcess([
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      'k',
      '--pact',
      join(directory, 'no-such-pact.json'),
    ]);
    expect(exit.stderr).toBe(
      `petstore-verify: --pact "${join(directory, 'no-such-pact.json')}" is not a file: give the path of a pact file, such as mock.pact() writes (see --help)\n`,
    );
    expect(exit.code).toBe(2);
  });
});

describe('GET /__mock/pact on the standalone server', () => {
  it("gives the session's pact, as mock.pact() writes it, for the calls of that session only", async () => {
    const kit = await startServer({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
    try {
      const session = { 'x-mock-session': 'browser-tab' };
      await kit.withKey('/store/orders/2', { method: 'DELETE', headers: session });
      await kit.withKey('/store/orders', {});
      const answer = await kit.control('/pact?consumer=web-app', { headers: session });
      expect(answer.status).toBe(200);
      const pact = (await answer.json()) as PactFile;
      expect(pact.consumer).toEqual({ name: 'web-app' });
      expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
        'DELETE /store/orders/2 409 (with the key)',
      ]);
      const defaultSession = (await (
        await kit.control('/pact?consumer=web-app&provider=orders-api')
      ).json()) as PactFile;
      expect(defaultSession.provider).toEqual({ name: 'orders-api' });
      expect(defaultSession.interactions.map((interaction) => interaction.description)).toEqual([
        'GET /store/orders 200 (with the key)',
      ]);
    } finally {
      await kit.server.close();
    }
  });

  it('is what the control client writes: control.pact() for its session, or MockError pact_contradicts_spec', async () => {
    const kit = await startServer({
      seed: [{ id: 1 }],
      handlers: [
        http.get('*/v1/store/orders', ({ request }) =>
          request.headers.get('x-mock-session') === 'broken' ? HttpResponse.json([{ id: 'one' }]) : undefined,
        ),
      ],
    });
    try {
      await kit.withKey('/store/orders/1', { method: 'DELETE', headers: { 'x-mock-session': 'tab' } });
      const control = createControlClient({ baseUrl: kit.origin, session: 'tab' });
      const file = await control.pact({ consumer: 'web-app', dir: join(directory, 'control') });
      const served = parseJson(
        await (await kit.control('/pact?consumer=web-app', { headers: control.sessionHeaders })).text(),
      );
      expect(await readPact(file)).toEqual(served);
      expect((served as unknown as PactFile).interactions.map((interaction) => interaction.description)).toEqual([
        'DELETE /store/orders/1 204 (with the key)',
      ]);
      await kit.withKey('/store/orders', { headers: control.sessionHeaders });
      const onlyLists = await control.pact({
        consumer: 'web-app',
        dir: join(directory, 'control-lists'),
        filter: { operation: 'listOrders' },
      });
      expect((await readPact(onlyLists)).interactions.map((interaction) => interaction.description)).toEqual([
        'GET /store/orders 200 (with the key)',
      ]);
      await expect(control.pact({ consumer: 'web-app', filter: { path: /orders/ } })).rejects.toMatchObject({
        code: 'invalid_option',
      });
      const broken = control.forSession('broken');
      await kit.withKey('/store/orders', { headers: broken.sessionHeaders });
      const refused = await broken
        .pact({ consumer: 'web-app', dir: join(directory, 'refused') })
        .catch((error) => error);
      expect(refused).toBeInstanceOf(MockError);
      expect(refused).toMatchObject({ code: 'pact_contradicts_spec', status: 422 });
      expect(existsSync(join(directory, 'refused'))).toBe(false);
    } finally {
      await kit.server.close();
    }
  });

  it('refuses a filter it does not know with 400, naming the filters', async () => {
    const kit = await startServer();
    try {
      const answer = await kit.control('/pact?consumer=web-app&colour=red');
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        code: 'invalid_request',
        message: 'Unknown filter "colour": filter by operation, status, method, path, consumer, provider.',
      });
    } finally {
      await kit.server.close();
    }
  });

  it('refuses a consumer given twice with 400, as a filter given twice is', async () => {
    const kit = await startServer();
    try {
      const answer = await kit.control('/pact?consumer=a&consumer=b');
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        code: 'invalid_request',
        message: 'Filter "consumer" is given 2 times: give each filter once.',
      });
    } finally {
      await kit.server.close();
    }
  });

  it('refuses a request without a consumer with 400 and an Error record', async () => {
    const kit = await startServer();
    try {
      const answer = await kit.control('/pact');
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        code: 'invalid_request',
        message: "GET /__mock/pact needs ?consumer=NAME, a name of letters, digits, '.', '_' and '-'.",
        status: 400,
      });
    } finally {
      await kit.server.close();
    }
  });

  it('answers 422 naming each interaction the contract does not allow', async () => {
    const kit = await startServer({
      handlers: [http.get('*/v1/store/orders', () => HttpResponse.json([{ id: 'one' }]))],
    });
    try {
      await kit.withKey('/store/orders', {});
      const answer = await kit.control('/pact?consumer=web-app');
      expect(answer.status).toBe(422);
      const record = (await answer.json()) as { code: string; violations: { path: string }[] };
      expect(record.code).toBe('pact_contradicts_spec');
      expect(record.violations.map((violation) => violation.path)).toContain(
        'GET /store/orders 200 (with the key) /0/id',
      );
    } finally {
      await kit.server.close();
    }
  });
});
