import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { verifyPact } from '../../verify/pact/pact.js';
import { judgeConsumerPacts } from '../../verify/pact/consumer-pacts.js';
import { runVerification } from '../../verify/run/verification.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { startBrokenProvider } from '../support/broken-provider.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';
import { documentedResponseCount, notCountedLater, responsesOf } from '../support/document-figures.js';
import { startServer } from '../support/support.js';

const devKey = { Authorization: ['Bearer petstore-dev-key'] };
const state = (orders: object[]) => [{ name: 'the store holds orders', params: { orders } }];
const errorBody = (code: string, status: number) => ({
  content: { code, message: 'refused', status },
  contentType: 'application/json',
  encoded: false,
});

/** Interactions a consumer may write: each one the specification allows. */
const allowed = [
  {
    type: 'Synchronous/HTTP',
    description: 'cancel a pending order',
    providerStates: state([{ id: 1, status: 'pending' }]),
    request: { method: 'DELETE', path: '/v1/store/orders/1', headers: devKey },
    response: { status: 204 },
  },
  {
    type: 'Synchronous/HTTP',
    description: 'cancel a shipped order beyond 2^53',
    providerStates: state([{ id: 9007199254740993n, status: 'shipped' }]),
    request: { method: 'DELETE', path: '/v1/store/orders/9007199254740993', headers: devKey },
    response: { status: 409 },
  },
];

/** Interactions no provider can pass: the specification or the model says otherwise. */
const contradicted = [
  {
    type: 'Synchronous/HTTP',
    description: 'cancel a pending order, refused',
    providerStates: state([{ id: 3, status: 'pending' }]),
    request: { method: 'DELETE', path: '/v1/store/orders/3', headers: devKey },
    response: { status: 409 },
  },
  {
    type: 'Synchronous/HTTP',
    description: 'list the orders, failing',
    providerStates: state([]),
    request: { method: 'GET', path: '/v1/store/orders', headers: devKey },
    response: { status: 500, body: errorBody('internal', 500) },
  },
  {
    type: 'Synchronous/HTTP',
    description: 'cancel without a key',
    providerStates: state([{ id: 4, status: 'pending' }]),
    request: { method: 'DELETE', path: '/v1/store/orders/4' },
    response: { status: 204 },
  },
];

const pactOf = (interactions: object[]) =>
  stringifyJson({
    consumer: { name: 'web-app' },
    provider: { name: 'petstore-order-interface' },
    interactions,
    metadata: { pactSpecification: { version: '4.0' } },
  } as never);

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-consumer-pacts-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function pactFile(name: string, interactions: object[]): Promise<string> {
  const file = join(directory, `${name}.json`);
  await writeFile(file, pactOf(interactions));
  return file;
}

describe("a consumer's pact the specification contradicts", () => {
  it('is judged interaction by interaction, naming what the specification says against each', async () => {
    const file = await pactFile('judged', [...allowed, ...contradicted]);
    const judged = await judgeConsumerPacts([file], {});
    try {
      expect(
        judged.contradicted.map((result) => [
          result.name,
          result.verdict,
          result.contradictions?.map((finding) => finding.code),
        ]),
      ).toEqual([
        ['cancel a pending order, refused', 'error', ['status-unexpected']],
        ['list the orders, failing', 'error', ['status-undocumented', 'status-unexpected']],
        ['cancel without a key', 'error', ['status-unexpected']],
      ]);
      expect(judged.contradicted[0]?.reason).toBe(
        "the consumer's pact contradicts the specification, so no provider can pass it: expected status 204, got 409 (at status)",
      );
      expect(judged.pactUrls).toHaveLength(1);
      expect(judged.pactUrls[0]).not.toBe(file);
    } finally {
      await judged.remove();
    }
  });

  it('reads Pact V3 files too: bodies as JSON, header fields as strings', async () => {
    const order = { id: 5, petId: 1, quantity: 1, shipDate: '2026-01-01T00:00:00Z', status: 'pending' };
    const v3 = (body: unknown) => ({
      description: 'list the orders',
      providerStates: state([order]),
      request: { method: 'GET', path: '/v1/store/orders', headers: { Authorization: 'Bearer petstore-dev-key' } },
      response: { status: 200, headers: { 'Content-Type': 'application/json' }, body },
    });
    const honest = await judgeConsumerPacts([await pactFile('v3-honest', [v3([order])])], {});
    expect(honest.contradicted).toEqual([]);
    const wrong = await judgeConsumerPacts([await pactFile('v3-wrong', [v3([{ ...order, id: '5' }])])], {});
    try {
      expect(wrong.contradicted[0]?.contradictions?.map((finding) => [finding.code, finding.path])).toContainEqual([
        'body-schema',
        '/0/id',
      ]);
    } finally {
      await wrong.remove();
    }
  });

  it('leaves to the provider what the pact matches by rules, and the headers it does not state', async () => {
    const listed = (rules: object) => ({
      type: 'Synchronous/HTTP',
      description: 'list the orders, by type',
      providerStates: state([{ id: 7 }]),
      request: { method: 'GET', path: '/v1/store/orders', headers: devKey },
      response: {
        status: 200,
        headers: { 'Content-Type': ['application/json'] },
        body: { content: [{ id: 1 }], contentType: 'application/json', encoded: false },
        ...rules,
      },
    });
    const readPet = {
      type: 'Synchronous/HTTP',
      description: 'read a pet, no headers stated',
      request: { method: 'GET', path: '/v1/pets/1', headers: devKey },
      response: { status: 200, body: { content: { id: 1 }, contentType: 'application/json', encoded: false } },
    };
    const byType = { matchingRules: { body: { $: { combine: 'AND', matchers: [{ match: 'type' }] } } } };
    const lenient = await judgeConsumerPacts([await pactFile('by-type', [listed(byType), readPet])], {});
    expect(lenient.contradicted).toEqual([]);
    const exact = await judgeConsumerPacts([await pactFile('exact', [listed({})])], {});
    try {
      expect(exact.contradicted[0]?.contradictions?.map((finding) => finding.code)).toContain('order-unknown');
    } finally {
      await exact.remove();
    }
  });

  it("takes the run's own key and a lowercase scheme as the accepted key, as the guard sends them", async () => {
    const cancelWith = (authorization: string, id: number) => ({
      type: 'Synchronous/HTTP',
      description: `cancel with ${authorization}`,
      providerStates: state([{ id, status: 'pending' }]),
      request: { method: 'DELETE', path: `/v1/store/orders/${id}`, headers: { Authorization: [authorization] } },
      response: { status: 204 },
    });
    const file = await pactFile('keys', [
      cancelWith(`Bearer ${hostileKey}`, 1),
      cancelWith('bearer petstore-dev-key', 2),
    ]);
    const provider = await startHostileProvider({});
    try {
      const suite = await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        pactUrls: [file],
        prism: false,
      });
      expect(suite.cases.map((result) => [result.name, result.verdict])).toEqual([
        [`cancel with Bearer ${hostileKey}`, 'passed'],
        ['cancel with bearer petstore-dev-key', 'passed'],
      ]);
    } finally {
      await provider.close();
    }
  });

  it('leaves a pact the specification allows as it is', async () => {
    const file = await pactFile('allowed', allowed);
    const judged = await judgeConsumerPacts([file], {});
    expect(judged).toMatchObject({ pactUrls: [file], contradicted: [] });
  });

  it("is the consumer's error, not the provider's: the kit's mock passes the rest, and the run is exit 2", async () => {
    const file = await pactFile('mixed', [...allowed, ...contradicted]);
    const kit = await startServer();
    try {
      const exit = await runVerifyInProcess([
        '--base-url',
        `${kit.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${kit.origin}/__mock/provider-state`,
        '--pact',
        file,
        '--no-prism',
      ]);
      expect(exit.stdout).toContain(
        "! error in pact › cancel a pending order, refused: the consumer's pact contradicts the specification, so no provider can pass it: expected status 204, got 409 (at status)",
      );
      expect(exit.stdout).toMatch(/\npact: 2 passed, 0 failed, 3 errors \(interactions; 2 checks, 0 violations,/);
      expect(exit.stdout).toMatch(
        /\nverdict: not-run \(exit 2; 2 checks, 0 violations, [^)]*\): pact › cancel a pending order, refused: /,
      );
      expect(exit.code).toBe(2);
    } finally {
      await kit.close();
    }
  });

  it('verifies an interaction that names no provider state against the provider as it is, not its state URL', async () => {
    const stateless = {
      type: 'Synchronous/HTTP',
      description: 'list without a key',
      request: { method: 'GET', path: '/v1/store/orders' },
      response: {
        status: 401,
        body: errorBody('missing_api_key', 401),
        matchingRules: { body: { '$.message': { combine: 'AND', matchers: [{ match: 'type' }] } } },
      },
    };
    const file = await pactFile('stateless', [stateless]);
    const kit = await startServer();
    try {
      const exit = await runVerifyInProcess([
        '--base-url',
        `${kit.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${kit.origin}/__mock/provider-state`,
        '--pact',
        file,
        '--no-prism',
      ]);
      expect(exit.stdout).toMatch(/\npact: 1 passed, 0 failed \(interactions; 1 check, 0 violations,/);
      expect(exit.code).toBe(0);
    } finally {
      await kit.close();
    }
  });

  it('still fails a provider that breaks the interactions the specification allows', async () => {
    const file = await pactFile('broken', [...allowed, ...contradicted]);
    const provider = await startHostileProvider({ cancelShipped: true });
    try {
      const suite = await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        pactUrls: [file],
        prism: false,
      });
      expect(suite.verdict).toBe('failed');
      expect(suite.cases.map((result) => [result.name, result.verdict])).toEqual([
        ['cancel a pending order, refused', 'error'],
        ['list the orders, failing', 'error'],
        ['cancel without a key', 'error'],
        ['cancel a pending order', 'passed'],
        ['cancel a shipped order beyond 2^53', 'failed'],
      ]);
    } finally {
      await provider.close();
    }
  });

  it('sends nothing to the provider when every interaction is contradicted', async () => {
    const file = await pactFile('all-contradicted', contradicted);
    const kit = await startServer();
    try {
      const suite = await verifyPact({
        baseUrl: `${kit.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${kit.origin}/__mock/provider-state`,
        pactUrls: [file],
        prism: false,
      });
      expect(suite).toMatchObject({ verdict: 'error', checks: 0, violations: 0 });
      expect(await (await kit.control('/requests')).json()).toEqual([]);
    } finally {
      await kit.close();
    }
  });
});

// Pact's verifier (pact-core) sends a state's params with every object's keys in alphabetical order,
// whatever order the pact file holds them in: the harness compares states as data, never as text.
describe("a pact the kit wrote, with its state params' keys in another order than Pact's verifier sends", () => {
  const seed = [
    { id: 1, petId: 7, quantity: 1, shipDate: '2026-01-01T09:00:00Z', status: 'pending' },
    { id: 9007199254740993n, petId: 2, quantity: 3, status: 'shipped' },
    { id: 3, petId: 5, quantity: 2 },
  ];

  /** The pact of an app's seven calls, as the kit writes it (GET /__mock/pact is mock.pact()'s document). */
  async function kitPact(): Promise<Record<string, JsonValue>> {
    const app = await startServer({ seed: seed as never });
    try {
      await app.withKey('/store/orders');
      await app.withKey('/store/orders/1', { method: 'DELETE' });
      await app.withKey('/store/orders/9007199254740993', { method: 'DELETE' });
      await app.withKey('/store/orders/99', { method: 'DELETE' });
      await app.withKey('/store/orders');
      await app.api('/store/orders');
      await app.api('/store/orders/3', { method: 'DELETE', headers: { authorization: 'Bearer not-the-key' } });
      return parseJson(await (await app.control('/pact?consumer=web-app')).text()) as Record<string, JsonValue>;
    } finally {
      await app.close();
    }
  }

  /** Every object in the states' params with its keys in reverse order (Pact's verifier sends them sorted). */
  const reversed = (value: JsonValue): JsonValue =>
    Array.isArray(value)
      ? value.map(reversed)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, item]) => [key, reversed(item)]),
          )
        : value;

  async function reorderedPactFile(name: string): Promise<string> {
    const pact = await kitPact();
    const interactions = pact.interactions as Record<string, JsonValue>[];
    for (const interaction of interactions)
      for (const state of (interaction.providerStates ?? []) as Record<string, JsonValue>[])
        state.params = reversed(state.params!);
    expect(interactions).toHaveLength(7);
    expect(stringifyJson(interactions[0]!.providerStates!)).toContain(
      '{"shipDate":"2026-01-01T09:00:00Z","quantity":1,"petId":7,"id":1}',
    );
    const file = join(directory, `${name}.json`);
    await writeFile(file, stringifyJson(pact));
    return file;
  }

  it('answers every interaction, counts each once, and covers listOrders 200 (the kit as provider)', async () => {
    // the kit's pact holds no interaction of readPet: its responses are the ones left unexercised
    const unexercised = responsesOf('readPet');
    const file = await reorderedPactFile('reordered');
    const kit = await startServer();
    try {
      const exit = await runVerifyInProcess([
        '--base-url',
        `${kit.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${kit.origin}/__mock/provider-state`,
        '--pact',
        file,
        '--no-prism',
      ]);
      expect(exit.stdout).not.toContain('no answer');
      expect(exit.stdout.match(/^✓ pact › .+ → \d{3}, \d+ ms\)$/gm)).toHaveLength(7);
      expect(exit.stdout).toMatch(/\npact: 7 passed, 0 failed \(interactions; 7 checks, 0 violations,/);
      expect(exit.stdout).toContain(
        `\ncoverage: ${documentedResponseCount - unexercised.length} of ${documentedResponseCount} documented responses exercised (not: ${unexercised.join(', ')})${notCountedLater()}\n`,
      );
      expect(exit.code).toBe(0);
    } finally {
      await kit.close();
    }
  });

  it('passes an honest provider written from scratch', async () => {
    const file = await reorderedPactFile('reordered-honest');
    const provider = await startHostileProvider({ reverseListOrder: true });
    try {
      const suite = await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        pactUrls: [file],
        prism: false,
      });
      expect(suite).toMatchObject({ verdict: 'passed', checks: 7, violations: 0 });
      expect(suite.cases.flatMap((result) => result.exchanges.map((exchange) => exchange.status))).not.toContain(
        undefined,
      );
    } finally {
      await provider.close();
    }
  });

  it('still fails a provider that cancels shipped orders, at the 409 interaction', async () => {
    const file = await reorderedPactFile('reordered-broken');
    const provider = await startHostileProvider({ cancelShipped: true });
    try {
      const suite = await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        pactUrls: [file],
        prism: false,
      });
      expect(suite.verdict).toBe('failed');
      expect(suite.checks).toBe(7);
      const failed = suite.cases.filter((result) => result.verdict === 'failed');
      expect(failed.map((result) => result.name)).toEqual(['DELETE /store/orders/9007199254740993 409 (with the key)']);
      expect(failed[0]!.exchanges.map((exchange) => exchange.status)).toEqual([204]);
    } finally {
      await provider.close();
    }
  });
});

// Pact's DSL keeps interactions that share a description when their states differ; Pact's verifier
// names its results by description alone. Each interaction is still one check, with its own request.
describe('interactions that share a description, in different states', () => {
  const cancel = (id: number, status: string, answer: number) => ({
    type: 'Synchronous/HTTP',
    description: 'cancel an order',
    providerStates: state([{ id, status }]),
    request: { method: 'DELETE', path: `/v1/store/orders/${id}`, headers: devKey },
    response: { status: answer },
  });
  const shared = () => pactFile('shared-description', [cancel(1, 'pending', 204), cancel(2, 'shipped', 409)]);
  const verifyAgainst = async (provider: { origin: string; close(): Promise<void> }) => {
    try {
      return await verifyPact({
        baseUrl: `${provider.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${provider.origin}/__mock/provider-state`,
        pactUrls: [await shared()],
        prism: false,
      });
    } finally {
      await provider.close();
    }
  };
  const requests = (suite: Awaited<ReturnType<typeof verifyPact>>) =>
    suite.cases.map((result) => [
      result.verdict,
      ...result.exchanges.map((exchange) => `${exchange.method} ${exchange.path} → ${exchange.status}`),
    ]);

  it('are each verified once, each with its own request (the kit as provider)', async () => {
    const suite = await verifyAgainst(await startServer());
    expect(suite).toMatchObject({ verdict: 'passed', checks: 2, violations: 0 });
    expect(requests(suite)).toEqual([
      ['passed', 'DELETE /store/orders/1 → 204'],
      ['passed', 'DELETE /store/orders/2 → 409'],
    ]);
  });

  it('fail a provider that cancels shipped orders at the shipped one alone', async () => {
    const suite = await verifyAgainst(
      await startBrokenProvider((_request, response) =>
        response.status === 409 ? new Response(null, { status: 204 }) : response,
      ),
    );
    expect(suite).toMatchObject({ verdict: 'failed', checks: 2 });
    expect(requests(suite)).toEqual([
      ['passed', 'DELETE /store/orders/1 → 204'],
      ['failed', 'DELETE /store/orders/2 → 204'],
    ]);
    expect(suite.cases[1]!.exchanges[0]!.violations.map((finding) => finding.code)).toContain('status-unexpected');
  });
});

// A pact petstore-verify cannot use is the consumer's input error: exit 2 and one line naming the file,
// before any call to the provider; never "1 violation", which would blame the provider, nor a stack trace.
describe('a pact file petstore-verify cannot use', () => {
  const interaction = (orders: string) =>
    `{"type":"Synchronous/HTTP","description":"cancel","providerStates":[{"name":"the store holds orders","params":{"orders":${orders}}}],"request":{"method":"DELETE","path":"/v1/store/orders/1","headers":{"Authorization":["Bearer petstore-dev-key"]}},"response":{"status":204}}`;
  const document = (interactions: string, metadata = '{"pactSpecification":{"version":"4.0"}}') =>
    `{"consumer":{"name":"web-app"},"provider":{"name":"petstore-order-interface"},"interactions":${interactions},"metadata":${metadata}}`;
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  const pending = '[{"id":1,"status":"pending"}]';
  const unusable: [string, string, string, string][] = [
    ['unparsable JSON', '{"interactions": [', 'pact-not-json', ''],
    ['an empty file', '', 'pact-not-json', ''],
    ['JSON nested 10,000 deep', document(`[${interaction(deep)}]`), 'pact-too-deep', ''],
    [
      'no Pact specification version',
      document(`[${interaction(pending)}]`, '{}'),
      'pact-version',
      '/metadata/pactSpecification/version',
    ],
    [
      'an unknown Pact specification version',
      document(`[${interaction(pending)}]`, '{"pactSpecification":{"version":"5.0"}}'),
      'pact-version',
      '/metadata/pactSpecification/version',
    ],
    [
      'a state id beyond int64 (2^63)',
      document(`[${interaction('[{"id":9223372036854775808,"status":"pending"}]')}]`),
      'state-orders',
      '/interactions/0/providerStates/0/params/orders/0/id',
    ],
    ['interactions that are an object', document('{}'), 'pact-shape', '/interactions'],
    [
      'an interaction without request and response',
      document('[{"description":"nothing","type":"Synchronous/HTTP"}]'),
      'pact-shape',
      '/interactions/0/request',
    ],
    ['an interaction that is a string', document('["cancel"]'), 'pact-shape', '/interactions/0'],
  ];

  it.each(unusable)('%s: exit 2, one line naming the file, nothing sent to the provider', async (name, text) => {
    const file = join(directory, `unusable-${name.replace(/\W+/g, '-')}.json`);
    await writeFile(file, text);
    const kit = await startServer();
    try {
      const exit = await runVerifyInProcess([
        '--base-url',
        `${kit.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${kit.origin}/__mock/provider-state`,
        '--pact',
        file,
        '--no-prism',
      ]);
      expect(exit.stderr).toMatch(
        new RegExp(
          `^petstore-verify: the pact ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be verified: [^\\n]+\\n$`,
        ),
      );
      expect(exit.stderr).not.toMatch(/\bat .+:\d+:\d+/);
      expect(exit.stdout).toBe('');
      expect(exit.code).toBe(2);
      expect(await (await kit.control('/requests')).json()).toEqual([]);
    } finally {
      await kit.close();
    }
  });

  it.each(unusable)(
    '%s: verifyPact rejects with a code and the diagnostics as data',
    async (name, text, code, path) => {
      const file = join(directory, `unusable-lib-${name.replace(/\W+/g, '-')}.json`);
      await writeFile(file, text);
      const kit = await startServer();
      try {
        const verifying = verifyPact({
          baseUrl: `${kit.origin}/v1`,
          apiKey: 'petstore-dev-key',
          stateUrl: `${kit.origin}/__mock/provider-state`,
          pactUrls: [file],
          prism: false,
        });
        await expect(verifying).rejects.toMatchObject({
          code: 'invalid_consumer_pact',
          file,
          diagnostics: expect.arrayContaining([expect.objectContaining({ code, path })]),
        });
        expect(await (await kit.control('/requests')).json()).toEqual([]);
      } finally {
        await kit.close();
      }
    },
  );

  it('verifies what is at the edge of usable: Pact 3.0.0, string headers, a state id of 2^63 - 1', async () => {
    const edge = `{"description":"cancel the shipped order at the int64 maximum","providerStates":[{"name":"the store holds orders","params":{"orders":[{"status":"shipped","id":9223372036854775807}]}}],"request":{"method":"DELETE","path":"/v1/store/orders/9223372036854775807","headers":{"Authorization":"Bearer petstore-dev-key"}},"response":{"status":409}}`;
    const file = join(directory, 'edge.json');
    await writeFile(file, document(`[${edge}]`, '{"pactSpecification":{"version":"3.0.0"}}'));
    const verifyAgainst = async (provider: { origin: string; close(): Promise<void> }) => {
      try {
        return await verifyPact({
          baseUrl: `${provider.origin}/v1`,
          apiKey: 'petstore-dev-key',
          stateUrl: `${provider.origin}/__mock/provider-state`,
          pactUrls: [file],
          prism: false,
        });
      } finally {
        await provider.close();
      }
    };
    expect(await verifyAgainst(await startServer())).toMatchObject({ verdict: 'passed', checks: 1, violations: 0 });
    const cancelsShipped = await startBrokenProvider((_request, response) =>
      response.status === 409 ? new Response(null, { status: 204 }) : response,
    );
    expect(await verifyAgainst(cancelsShipped)).toMatchObject({ verdict: 'failed', checks: 1 });
  });

  it('runVerification reports it as a setup error, exit 2, before the preflight', async () => {
    const file = join(directory, 'unusable-run.json');
    await writeFile(file, document('{}'));
    const kit = await startServer();
    try {
      const report = await runVerification({
        baseUrl: `${kit.origin}/v1`,
        apiKey: 'petstore-dev-key',
        stateUrl: `${kit.origin}/__mock/provider-state`,
        suites: ['pact'],
        scenarios: [],
        pactFiles: [file],
        prism: false,
        version: 'test',
      });
      expect(report.exitCode).toBe(2);
      expect(report.setupError).toEqual({
        check: 'pact-file',
        message: `the pact ${file} cannot be verified: /interactions: must be a list of interactions, got an object`,
      });
      expect(await (await kit.control('/requests')).json()).toEqual([]);
    } finally {
      await kit.close();
    }
  });
});
