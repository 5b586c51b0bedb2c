// A consumer's pact as a team's suite writes it: tests that reset before each, scenario loads, more
// calls than the journal keeps, several files and writers for one pact, overrides in front of the
// kit's handlers, and the deprecated pet read. Nothing is lost without being named, nothing laundered.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { createControlClient } from '../../mocks/control/control-client.js';
import { MockUsageError, PactContradictsSpec } from '../../mocks/base/errors.js';
import { createOrderMock, type OrderMock } from '../../mocks/adapters/order-mock.js';
import { pactLockFile, pactLockPatience } from '../../mocks/pact/pact-file.js';
import { PactLedger } from '../../mocks/pact/pact-ledger.js';
import { verifyPact } from '../../verify/pact/pact.js';
import { startBrokenProvider } from '../support/broken-provider.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';
import { startServer } from '../support/support.js';

const base = 'https://api.example.com/v1';
const withKey = { authorization: 'Bearer petstore-dev-key' };
const server = setupServer();
let directory: string;
let dirs = 0;

interface PactFile {
  interactions: { description: string; response: { status: number; headers?: Record<string, string[]> } }[];
  metadata: Record<string, Record<string, string>>;
}

const freshDir = () => join(directory, `pacts-${dirs++}`);
const readPact = async (file: string) => parseJson(await readFile(file, 'utf8')) as unknown as PactFile;
const descriptions = (pact: PactFile) => pact.interactions.map((interaction) => interaction.description);
const call = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { ...withKey, ...(init.headers as Record<string, string>) } });
const cancel = (id: number | string) => call(`/store/orders/${id}`, { method: 'DELETE' });

function mockOnServer(options: Parameters<typeof createOrderMock>[0] = {}): OrderMock {
  const mock = createOrderMock(options);
  server.use(...mock.handlers);
  return mock;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-team-pact-'));
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

describe('the pact of a whole test file', () => {
  it('holds every test’s calls when each test starts with reset(), as the README’s pattern does', async () => {
    const mock = mockOnServer();
    await call('/store/orders');
    await mock.reset();
    await cancel(1);
    await mock.reset();
    await cancel(3);
    await mock.reset();
    await cancel(99);
    await mock.reset();
    const file = await mock.pact({ consumer: 'web-app', dir: freshDir() });
    expect(descriptions(await readPact(file))).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
      'DELETE /store/orders/99 404 (with the key)',
      'GET /store/orders 200 (with the key)',
    ]);
  });

  it('holds the calls made before a scenario was loaded', async () => {
    const mock = mockOnServer({ scenarios: undefined });
    await cancel(1);
    await mock.loadScenario('cancel-shipped-order');
    await cancel(3);
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect(descriptions(document as unknown as PactFile)).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
    ]);
  });

  it("keeps calls past the journal's limit, and says none was left out", async () => {
    const mock = mockOnServer({ journalSize: 2 });
    for (const id of [1, 2, 3, 4, 99]) await cancel(id);
    expect(mock.requests()).toHaveLength(2);
    const file = await mock.pact({ consumer: 'web-app', dir: freshDir() });
    const pact = await readPact(file);
    expect(pact.interactions).toHaveLength(5);
    expect(pact.metadata['petstore-contract-kit']).toMatchObject({ leftOut: 'none' });
    expect(pact.metadata['petstore-contract-kit']).not.toHaveProperty('notKept');
  });

  it('starts over after clearPact(), which reset() does not do', async () => {
    const mock = mockOnServer();
    await cancel(1);
    mock.clearPact();
    await cancel(99);
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect(descriptions(document as unknown as PactFile)).toEqual(['DELETE /store/orders/99 404 (with the key)']);
  });
});

const entry = (path: string, body: string | Uint8Array[] | null = null) => ({
  method: 'DELETE',
  path,
  operation: 'cancelOrder' as const,
  status: 404,
  session: null,
  time: 0,
  authorization: 'valid' as const,
  answer: { by: 'kit' as const, contentType: null, wwwAuthenticate: null, body },
});

describe('the calls a pact is written from', () => {
  it('keeps a call made again once, and the same path with another body as another call', () => {
    const ledger = new PactLedger();
    const parts = [new TextEncoder().encode('[]')];
    for (let time = 0; time < 3; time++) ledger.record(entry('/v1/store/orders/1', parts));
    ledger.record(entry('/v1/store/orders/1', '{"code":"order_not_found"}'));
    ledger.record(entry('/v1/store/orders/1', parts));
    ledger.record(entry('/v1/store/orders/1', [new TextEncoder().encode('[]')]));
    expect(ledger.calls().calls.map((kept) => kept.answer?.body)).toEqual([
      parts,
      '{"code":"order_not_found"}',
      [new TextEncoder().encode('[]')],
    ]);
  });
});

describe("the pact's limit", () => {
  it('counts the distinct calls that do not fit, and names them', () => {
    const ledger = new PactLedger(2);
    for (const path of ['/v1/store/orders/1', '/v1/store/orders/1', '/v1/store/orders/2', '/v1/store/orders/3'])
      ledger.record(entry(path));
    const { calls, overflow } = ledger.calls();
    expect(calls.map((kept) => kept.path)).toEqual(['/v1/store/orders/1', '/v1/store/orders/2']);
    expect(overflow).toBe(1);
  });

  it('refuses to write a pact of more distinct calls than it holds, rather than drop some, and names them', async () => {
    const mock = createOrderMock();
    const cancel = (id: number) =>
      mock.handle(new Request(`http://localhost/v1/store/orders/${id}`, { method: 'DELETE', headers: withKey }));
    for (let id = 1000; id < 11_025; id++) await cancel(id);
    await cancel(11_024); // the same call again past the limit: counted once
    const dir = freshDir();
    const refusal = await mock.pact({ consumer: 'web-app', dir }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MockUsageError);
    expect((refusal as MockUsageError).code).toBe('pact_limit_reached');
    expect((refusal as Error).message).toBe(
      "the pact was not written: 25 distinct calls came past the 10000 (or 32 MiB of bodies) a session's pact holds, and a pact without them would not be your app's whole contract; clear it between parts with clearPact(), or write a pact per test file",
    );
    expect(existsSync(dir)).toBe(false);
    const { leftOut, document } = await mock.pactDocument({ consumer: 'web-app', filter: { status: 401 } });
    const named = Array.from({ length: 20 }, (_, index) => `DELETE /v1/store/orders/${11_000 + index} 404`);
    expect(leftOut).toEqual([
      ...named.map((call) => ({ call, reason: 'pact-limit' })),
      { call: '5 more distinct calls', reason: 'pact-limit' },
    ]);
    expect((document.metadata as PactFile['metadata'])['petstore-contract-kit']).toEqual({
      leftOut: [...named, '5 more distinct calls'].map((call) => `${call}: pact-limit`).join('; '),
      notKept: "25 distinct calls past the pact's limit",
    });
  });
});

describe('one pact file for many writers', () => {
  it('merges what two test files wrote, each interaction once', async () => {
    const dir = freshDir();
    const first = mockOnServer();
    await call('/store/orders');
    await cancel(1);
    await first.pact({ consumer: 'web-app', dir });
    server.resetHandlers();
    const second = mockOnServer();
    await cancel(1);
    await cancel(3);
    const file = await second.pact({ consumer: 'web-app', dir });
    expect(descriptions(await readPact(file))).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
      'GET /store/orders 200 (with the key)',
    ]);
  });

  it('keeps every interaction when writers write at once', async () => {
    const dir = freshDir();
    const mocks = [1, 2, 3, 4, 5, 99].map((id) => ({ id, mock: createOrderMock() }));
    for (const { id, mock } of mocks)
      await mock.handle(new Request(`http://localhost/v1/store/orders/${id}`, { method: 'DELETE', headers: withKey }));
    const files = await Promise.all(mocks.map(({ mock }) => mock.pact({ consumer: 'web-app', dir })));
    expect(new Set(files).size).toBe(1);
    expect(descriptions(await readPact(files[0]!)).sort()).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/2 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
      'DELETE /store/orders/4 409 (with the key)',
      'DELETE /store/orders/5 204 (with the key)',
      'DELETE /store/orders/99 404 (with the key)',
    ]);
  });

  it('breaks a lock left by a writer that died, once, and loses no writer’s interactions', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const dir = freshDir();
      await mkdir(dir, { recursive: true });
      const lock = pactLockFile(dir, { consumer: 'web-app', provider: 'petstore-order-interface' });
      await writeFile(lock, 'a writer that died');
      const longAgo = (Date.now() - 2 * pactLockPatience) / 1000;
      await utimes(lock, longAgo, longAgo);
      const mocks = Array.from({ length: 8 }, () => createOrderMock());
      for (const [writer, mock] of mocks.entries())
        for (let id = 0; id < 50; id++)
          await mock.handle(
            new Request(`http://localhost/v1/store/orders/${100_000 + writer * 1000 + id}`, {
              method: 'DELETE',
              headers: withKey,
            }),
          );
      const [file] = await Promise.all(mocks.map((mock) => mock.pact({ consumer: 'web-app', dir })));
      expect((await readPact(file!)).interactions).toHaveLength(400);
      expect(existsSync(lock)).toBe(false);
    }
  });

  it('refuses a request answered otherwise under the same state than the file holds, naming both, and leaves the file', async () => {
    const dir = freshDir();
    const first = mockOnServer();
    await cancel(99);
    const file = await first.pact({ consumer: 'web-app', dir });
    const edited = (await readFile(file, 'utf8')).replace('"status":404', '"status":410');
    await writeFile(file, edited);
    server.resetHandlers();
    const second = mockOnServer();
    await cancel(99);
    await expect(second.pact({ consumer: 'web-app', dir })).rejects.toThrow(
      `the pact was not written: the same request under the same provider state is answered differently in ${file} and in this run: "DELETE /store/orders/99 404 (with the key)" (status 410, then 404)`,
    );
    expect(await readFile(file, 'utf8')).toBe(edited);
  });

  it('names both tests of a conflict within a run, when the mock was told of them (testStarted)', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    mock.testStarted('answers 404');
    await cancel(99);
    mock.testStarted('answers 410');
    server.use(
      http.delete(`${base}/store/orders/99`, () =>
        HttpResponse.json({ code: 'gone', message: 'gone' }, { status: 410 }),
      ),
    );
    await cancel(99);
    const refusal = await mock.pact({ consumer: 'web-app', dir: freshDir() }).catch((error: unknown) => error);
    stop();
    expect((refusal as MockUsageError).code).toBe('pact_conflict');
    expect((refusal as Error).message).toBe(
      'the pact was not written: the same request under the same provider state is answered differently: "DELETE /store/orders/99 410 (with the key)" against "DELETE /store/orders/99 404 (with the key)" (status 404, then 410; in test "answers 404", then in test "answers 410")',
    );
  });

  it('refuses to merge into a file that is not a pact of the same consumer, and leaves it', async () => {
    const dir = freshDir();
    const mock = mockOnServer();
    await cancel(1);
    const file = await mock.pact({ consumer: 'web-app', dir });
    await writeFile(file, '{"consumer":{"name":"web-app"},"provider":{"name":"petstore-order-interface"}}');
    const refusal = await mock.pact({ consumer: 'web-app', dir }).catch((error: unknown) => error);
    expect((refusal as MockUsageError).code).toBe('unmergeable_pact_file');
    expect((refusal as Error).message).toBe(
      `${file} cannot take this run's interactions: its pactSpecification version is null, not 4.x; move it away or delete it`,
    );
    await writeFile(file, 'not json');
    await expect(mock.pact({ consumer: 'web-app', dir })).rejects.toThrow(
      `${file} is there and is not JSON; move it away or delete it`,
    );
    expect(await readFile(file, 'utf8')).toBe('not json');
  });
});

describe('writing the file', () => {
  it('writes a pact whose name is near the file system’s limit (its lock and new file have short names)', async () => {
    const mock = createOrderMock();
    await mock.handle(new Request('http://localhost/v1/store/orders/1', { method: 'DELETE', headers: withKey }));
    const consumer = 'c'.repeat(220);
    const file = await mock.pact({ consumer, dir: freshDir() });
    expect(file.endsWith(`${consumer}-petstore-order-interface.json`)).toBe(true);
    expect(descriptions(await readPact(file))).toEqual(['DELETE /store/orders/1 204 (with the key)']);
  });

  it('refuses, writing nothing, what a server answers to the control client’s pact that is not a pact', async () => {
    const dir = freshDir();
    const control = createControlClient({
      baseUrl: 'http://mock.test',
      fetch: async () => new Response('{"orders":[]}', { headers: { 'content-type': 'application/json' } }),
    });
    await expect(control.pact({ consumer: 'web-app', dir })).rejects.toThrow(
      'GET /__mock/pact answered JSON that is not a pact of web-app with petstore-order-interface: is petstore-mock running there?',
    );
    expect(existsSync(dir)).toBe(false);
  });
});

describe('handlers in front of the kit’s', () => {
  it('names what it could not see when no server was observed', async () => {
    const mock = mockOnServer();
    server.use(http.get(`${base}/store/orders`, () => HttpResponse.json([])));
    await call('/store/orders');
    const { document, unseen } = await mock.pactDocument({ consumer: 'web-app' });
    const said =
      "mock.observe(server) was never called: answers of handlers in front of the kit's (server.use, worker.use) could not be seen, and are not in this pact";
    expect(unseen).toBe(said);
    expect((document.metadata as PactFile['metadata'])['petstore-contract-kit']).toEqual({
      leftOut: 'none',
      unseen: said,
    });
    expect(document.interactions).toEqual([]);
  });

  it('writes an observed override, and says nothing went unseen', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    server.use(http.get(`${base}/store/orders`, () => HttpResponse.json([])));
    await call('/store/orders');
    const { document, unseen } = await mock.pactDocument({ consumer: 'web-app' });
    stop();
    expect(unseen).toBeUndefined();
    expect(descriptions(document as unknown as PactFile)).toEqual(['GET /store/orders 200 (with the key)']);
  });

  it('names what it could not see after the observation was disconnected', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    server.use(http.get(`${base}/store/orders`, () => HttpResponse.json([])));
    await call('/store/orders');
    stop();
    stop();
    server.use(http.get(`${base}/store/orders`, () => HttpResponse.json([{ id: 5, petId: 5, quantity: 1 }])));
    await call('/store/orders');
    const { document, unseen } = await mock.pactDocument({ consumer: 'web-app' });
    expect(unseen).toBe(
      "mock.observe(server)'s disconnect was called: answers of handlers in front of the kit's (server.use, worker.use) while nothing was observed could not be seen, and are not in this pact",
    );
    expect(descriptions(document as unknown as PactFile)).toEqual(['GET /store/orders 200 (with the key)']);
  });

  it('says nothing went unseen while one of two observations of the same server is still kept', async () => {
    const mock = mockOnServer();
    const first = mock.observe(server);
    const second = mock.observe(server);
    expect(second).toBe(first);
    server.use(http.get(`${base}/store/orders`, () => HttpResponse.json([])));
    await call('/store/orders');
    const { unseen } = await mock.pactDocument({ consumer: 'web-app' });
    first();
    expect(unseen).toBeUndefined();
  });

  it('refuses a 409 for an order the mock holds as pending, naming the interaction', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    server.use(http.delete(`${base}/store/orders/1`, () => new HttpResponse(null, { status: 409 })));
    await cancel(1);
    const refusal = await mock.pact({ consumer: 'web-app', dir: freshDir() }).catch((error: unknown) => error);
    stop();
    expect(refusal).toBeInstanceOf(PactContradictsSpec);
    expect((refusal as PactContradictsSpec).findings).toEqual([
      {
        code: 'status-unexpected',
        path: 'status',
        expected:
          "status 204: the mock held order 1 as pending when a handler in front of it answered (arrange the mock's orders instead: mock.collection(), a scenario)",
        actual: 'status 409',
        interaction: 'DELETE /store/orders/1 409 (with the key)',
      },
    ]);
  });

  it('refuses a 404 for an order the mock holds', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    server.use(
      http.delete(`${base}/store/orders/3`, () =>
        HttpResponse.json({ code: 'order_not_found', message: 'No order 3.', status: 404 }, { status: 404 }),
      ),
    );
    await cancel(3);
    const { findings } = await mock.pactDocument({ consumer: 'web-app' });
    stop();
    expect(findings.map((finding) => [finding.interaction, finding.expected])).toEqual([
      [
        'DELETE /store/orders/3 404 (with the key)',
        "status 409: the mock held order 3 as shipped when a handler in front of it answered (arrange the mock's orders instead: mock.collection(), a scenario)",
      ],
    ]);
  });

  it('writes an override that agrees with the mock’s store (a 409 for a shipped order)', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    server.use(http.delete(`${base}/store/orders/3`, () => new HttpResponse(null, { status: 409 })));
    await cancel(3);
    const file = await mock.pact({ consumer: 'web-app', dir: freshDir() });
    stop();
    expect(descriptions(await readPact(file))).toEqual(['DELETE /store/orders/3 409 (with the key)']);
  });
});

describe('the deprecated pet read', () => {
  let pactFile: string;
  beforeAll(async () => {
    const mock = mockOnServer();
    await call('/pets/1');
    await cancel(3);
    pactFile = await mock.pact({ consumer: 'pet-reader', dir: freshDir() });
  });

  it('is written with its Deprecation and Sunset', async () => {
    const pact = await readPact(pactFile);
    expect(descriptions(pact)).toEqual(['DELETE /store/orders/3 409 (with the key)', 'GET /pets/1 200 (with the key)']);
    expect(Object.keys(pact.interactions[1]?.response.headers ?? {}).sort()).toEqual([
      'Content-Type',
      'Deprecation',
      'Sunset',
    ]);
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
      expect(suite.cases.map((result) => [result.name, result.verdict])).toEqual([
        ['DELETE /store/orders/3 409 (with the key)', 'passed'],
        ['GET /pets/1 200 (with the key)', 'passed'],
      ]);
    } finally {
      await kit.close();
    }
  });

  it('fails a provider whose Deprecation is not a date', async () => {
    const provider = await startHostileProvider({ deprecationTrue: true });
    try {
      const suite = await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        pactUrls: [pactFile],
        prism: false,
      });
      expect(suite.cases.filter((result) => result.verdict === 'failed').map((result) => result.name)).toEqual([
        'GET /pets/1 200 (with the key)',
      ]);
    } finally {
      await provider.close();
    }
  });
});

/** Verifies a pact against a provider that answers as the kit's mock but for what `fault` changes. */
async function verifiedOn(file: string, fault: Parameters<typeof startBrokenProvider>[0]) {
  const provider = await startBrokenProvider(fault);
  try {
    const suite = await verifyPact({
      baseUrl: `${provider.origin}/v1`,
      apiKey: 'petstore-dev-key',
      stateUrl: `${provider.origin}/__mock/provider-state`,
      pactUrls: [file],
      prism: false,
    });
    return suite.cases.map((result) => [result.name, result.verdict]);
  } finally {
    await provider.close();
  }
}

describe('what an interaction asserts, as its state implies', () => {
  it('matches the pet read as any object, as the specification allows: a pet with no id passes', async () => {
    const mock = mockOnServer();
    await call('/pets/1');
    const file = await mock.pact({ consumer: 'pet-reader', dir: freshDir() });
    const pet = (parseJson(await readFile(file, 'utf8')) as { interactions: { response: { body: unknown } }[] })
      .interactions[0]!.response.body;
    expect(pet).toEqual({ content: {}, contentType: 'application/json', encoded: false });
    const otherPet = async (request: Request, response: Response) =>
      new URL(request.url).pathname === '/v1/pets/1'
        ? new Response('{"petId":"7","name":"pet 7"}', { status: 200, headers: response.headers })
        : response;
    expect(await verifiedOn(file, otherPet)).toEqual([['GET /pets/1 200 (with the key)', 'passed']]);
    const notAnObject = async (request: Request, response: Response) =>
      new URL(request.url).pathname === '/v1/pets/1'
        ? new Response('["pet 7"]', { status: 200, headers: response.headers })
        : response;
    expect(await verifiedOn(file, notAnObject)).toEqual([['GET /pets/1 200 (with the key)', 'failed']]);
  });

  it('states a re-cancel’s order as cancelled: a provider that cancels it twice fails, one that answers 409 passes', async () => {
    const mock = mockOnServer();
    await cancel(2);
    await cancel(2);
    const file = await mock.pact({ consumer: 'cancel-twice', dir: freshDir() });
    const pact = parseJson(await readFile(file, 'utf8')) as unknown as {
      interactions: { description: string; providerStates: { params: unknown }[]; response: unknown }[];
    };
    const again = pact.interactions.find((one) => one.description === 'DELETE /store/orders/2 404 (with the key)')!;
    expect(again.providerStates[0]!.params).toEqual({ orders: [{ id: 2, status: 'cancelled' }] });
    expect(again.response).toEqual({
      status: 404,
      matchingRules: { status: { combine: 'AND', matchers: [{ match: 'statusCode', status: [404, 409] }] } },
    });
    const reCancel = (status: number) => async (request: Request, response: Response) =>
      request.method === 'DELETE' && response.status === 404 ? new Response(null, { status }) : response;
    const verdicts = async (fault: Parameters<typeof verifiedOn>[1]) =>
      Object.fromEntries(await verifiedOn(file, fault)) as Record<string, string>;
    expect((await verdicts(reCancel(204)))['DELETE /store/orders/2 404 (with the key)']).toBe('failed');
    expect((await verdicts(reCancel(409)))['DELETE /store/orders/2 404 (with the key)']).toBe('passed');
    expect(await verdicts(async (_request, response) => response)).toEqual({
      'DELETE /store/orders/2 204 (with the key)': 'passed',
      'DELETE /store/orders/2 404 (with the key)': 'passed',
    });
  });

  it('takes a handler’s honest 409 for an order the mock holds as cancelled, beside the mock’s own 404, as one interaction', async () => {
    const mock = mockOnServer();
    const stop = mock.observe(server);
    await cancel(2);
    await cancel(2);
    server.use(http.delete(`${base}/store/orders/2`, () => new HttpResponse(null, { status: 409 })));
    await cancel(2);
    const { conflicts, findings } = await mock.pactDocument({ consumer: 'cancel-twice' });
    stop();
    expect(findings).toEqual([]);
    expect(conflicts).toEqual([]);
    const file = await mock.pact({ consumer: 'cancel-twice', dir: freshDir() });
    const pact = parseJson(await readFile(file, 'utf8')) as unknown as {
      interactions: { description: string; providerStates: { params: unknown }[] }[];
    };
    expect(pact.interactions.map((one) => [one.description, one.providerStates[0]!.params])).toEqual([
      ['DELETE /store/orders/2 204 (with the key)', { orders: [{ id: 2, status: 'pending' }] }],
      ['DELETE /store/orders/2 404 (with the key)', { orders: [{ id: 2, status: 'cancelled' }] }],
    ]);
  });

  it('matches an empty store’s list as empty: a provider that ignores the state fails it', async () => {
    const mock = mockOnServer({ seed: [] });
    await call('/store/orders');
    const file = await mock.pact({ consumer: 'empty-store', dir: freshDir() });
    const ignoresTheState = async (request: Request, response: Response) =>
      request.method === 'GET' && new URL(request.url).pathname === '/v1/store/orders'
        ? Response.json([{ id: 1, petId: 1, quantity: 1 }], { headers: response.headers })
        : response;
    expect(await verifiedOn(file, ignoresTheState)).toEqual([['GET /store/orders 200 (with the key)', 'failed']]);
    expect(await verifiedOn(file, async (_request, response) => response)).toEqual([
      ['GET /store/orders 200 (with the key)', 'passed'],
    ]);
  });
});

describe('two answers the pact matches alike', () => {
  const list = (authorization: string) => new Request(`${base}/store/orders`, { headers: { authorization } });

  it('are no conflict: a wrong Bearer key and Basic credentials give one 401 interaction, the same whichever came first', async () => {
    const texts: string[] = [];
    for (const order of [
      ['Bearer wrong-key', 'Basic dXNlcjpwYXNz'],
      ['Basic dXNlcjpwYXNz', 'Bearer wrong-key'],
    ]) {
      const mock = createOrderMock();
      for (const authorization of order) expect(await mock.handle(list(authorization))).toMatchObject({ status: 401 });
      const { conflicts } = await mock.pactDocument({ consumer: 'web-app' });
      expect(conflicts).toEqual([]);
      texts.push(await readFile(await mock.pact({ consumer: 'web-app', dir: freshDir() }), 'utf8'));
    }
    expect(texts[1]).toBe(texts[0]);
    expect(descriptions(parseJson(texts[0]!) as unknown as PactFile)).toEqual([
      'GET /store/orders 401 (with a wrong key)',
    ]);
  });
});

describe('the control plane’s pact', () => {
  it('survives POST /__mock/reset, and DELETE /__mock/pact starts it over', async () => {
    const kit = await startServer();
    try {
      const control = createControlClient({ baseUrl: kit.origin });
      await kit.withKey('/store/orders/1', { method: 'DELETE' });
      await control.reset();
      await kit.withKey('/store/orders/3', { method: 'DELETE' });
      expect(descriptions((await control.fetchPact({ consumer: 'web-app' })) as unknown as PactFile)).toEqual([
        'DELETE /store/orders/1 204 (with the key)',
        'DELETE /store/orders/3 409 (with the key)',
      ]);
      await control.clearPact();
      expect((await control.fetchPact({ consumer: 'web-app' })).interactions).toEqual([]);
    } finally {
      await kit.close();
    }
  });
});
