// petstore-verify compat --pact: a consumer's pact checked against a new document, each finding naming
// the consumer and the interaction. The pacts are the kit's own: the shipped one, and one a mock writes.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrderMock } from '../../mocks/index.js';
import { checkCompatibility, type CompatReport } from '../../verify/compat/index.js';
import { CompatFolder, type Document, listOrders, order, shippedPact, specFile } from './compat-support.js';

const folder = new CompatFolder();
afterAll(() => folder.remove());

interface ShippedInteraction {
  description: string;
  request: { method: string; path: string };
  response: { status: number; matchingRules?: unknown };
}
const shipped: { interactions: ShippedInteraction[] } = JSON.parse(readFileSync(shippedPact, 'utf8'));
const consumer = 'petstore-order-client';

async function checkShipped(change: (document: Document) => void): Promise<CompatReport> {
  return checkCompatibility({ newFile: await folder.variant(change), pactFiles: [shippedPact] });
}

const described = (report: CompatReport) =>
  report.findings.map(({ code, consumer, interaction, path, expected, actual }) => ({
    code,
    consumer,
    interaction,
    path,
    expected,
    actual,
  }));

describe('the shipped pact', () => {
  it('passes against the document it was written from', async () => {
    const report = await checkCompatibility({ newFile: specFile, pactFiles: [shippedPact] });
    expect(report).toMatchObject({
      findings: [],
      exitCode: 0,
      pacts: [{ file: shippedPact, consumer, interactions: shipped.interactions.length, broken: 0 }],
    });
  });

  it('passes against a document with an optional Order field added', async () => {
    const report = await checkShipped((document) => {
      order(document).properties.note = { type: 'string' };
    });
    expect(report).toMatchObject({ findings: [], exitCode: 0 });
  });

  it('breaks where its bodies hold an Order field the new document removed: pact-field-removed', async () => {
    const report = await checkShipped((document) => delete order(document).properties.petId);
    expect(described(report)).toContainEqual({
      code: 'pact-field-removed',
      consumer,
      interaction: 'cancel-cancelled-order › the other order is still listed',
      path: '/response/body/0/petId',
      expected: 'the field petId in the response schema',
      actual: 'no such field',
    });
    expect(new Set(report.findings.map((finding) => finding.code))).toEqual(new Set(['pact-field-removed']));
    expect(report.exitCode).toBe(1);
    expect(report.pacts[0]!.broken).toBeGreaterThan(0);
  });

  it("breaks where a value is no longer of its field's type: pact-field-type-changed", async () => {
    const report = await checkShipped((document) => {
      order(document).properties.quantity.type = 'string';
    });
    expect(described(report)).toContainEqual({
      code: 'pact-field-type-changed',
      consumer,
      interaction: 'cancel-cancelled-order › the other order is still listed',
      path: '/response/body/0/quantity',
      expected: 'string',
      actual: '2',
    });
  });

  it('breaks where a value is outside a new bound: pact-value-refused', async () => {
    const report = await checkShipped((document) => {
      order(document).properties.quantity.maximum = 1;
    });
    expect(described(report)).toContainEqual(
      expect.objectContaining({
        code: 'pact-value-refused',
        path: '/response/body/0/quantity',
        expected: 'maximum 1',
        actual: '2',
      }),
    );
  });

  it('breaks on each interaction that expects only a status the new document removed: pact-status-undocumented', async () => {
    const report = await checkShipped(
      (document) => delete document.paths['/store/orders/{orderId}'].delete.responses['409'],
    );
    // Those whose statusCode matcher also accepts 404 still pass.
    const expecting409 = shipped.interactions.filter(
      (interaction) => interaction.response.status === 409 && interaction.response.matchingRules === undefined,
    );
    expect(expecting409.length).toBeGreaterThan(0);
    expect(described(report)).toEqual(
      expecting409.map((interaction) => ({
        code: 'pact-status-undocumented',
        consumer,
        interaction: interaction.description,
        path: '/response/status',
        expected: 'the status 409',
        actual: 'only 204, 401, 404',
      })),
    );
  });

  it('breaks on each interaction of an operation the new document removed: pact-operation-removed', async () => {
    const report = await checkShipped((document) => delete document.paths['/store/orders/{orderId}']);
    const cancels = shipped.interactions.filter((interaction) => interaction.request.method === 'DELETE');
    expect(cancels.length).toBeGreaterThan(0);
    expect(report.findings.map((finding) => [finding.code, finding.interaction, finding.operation])).toEqual(
      cancels.map((interaction) => [
        'pact-operation-removed',
        interaction.description,
        `DELETE ${interaction.request.path}`,
      ]),
    );
  });

  it('breaks on each list expecting success that does not send a new required query parameter: pact-parameter-refused', async () => {
    const report = await checkShipped((document) => {
      listOrders(document).parameters = [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } }];
    });
    // A list expecting the 401 still gets it: the key is refused before any parameter is read.
    const lists = shipped.interactions.filter(
      (interaction) => interaction.request.path === '/v1/store/orders' && interaction.response.status < 400,
    );
    expect(lists.length).toBeLessThan(
      shipped.interactions.filter((interaction) => interaction.request.path === '/v1/store/orders').length,
    );
    expect(report.findings).toHaveLength(lists.length);
    expect(report.findings[0]).toMatchObject({
      code: 'pact-parameter-refused',
      path: '/request/query/limit',
      expected: 'the required query parameter limit',
      actual: 'none sent',
    });
  });

  it('breaks where a body it holds is no longer documented for its status: pact-field-removed', async () => {
    const report = await checkShipped((document) => {
      document.paths['/store/orders/{orderId}'].delete.responses['404'] = { description: 'Not found, no body.' };
    });
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings[0]).toMatchObject({
      code: 'pact-field-removed',
      path: '/response/body',
      expected: 'a JSON body documented for its status',
      actual: 'none',
    });
  });

  it("breaks where a path parameter's value is refused by its new schema", async () => {
    const report = await checkShipped((document) => {
      document.paths['/store/orders/{orderId}'].delete.parameters[0].schema.minimum = 0;
    });
    expect(report.findings.map((finding) => [finding.code, finding.path, finding.expected])).toContainEqual([
      'pact-parameter-refused',
      '/request/path/orderId',
      'minimum 0',
    ]);
  });

  it('breaks on each interaction expecting success without the credentials a new scheme asks: pact-security-unmet', async () => {
    const report = await checkShipped((document) => {
      document.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
    });
    const successes = shipped.interactions.filter((interaction) => interaction.response.status < 400);
    expect(successes.length).toBeGreaterThan(0);
    expect(report.findings.map((finding) => [finding.code, finding.interaction])).toEqual(
      successes.map((interaction) => ['pact-security-unmet', interaction.description]),
    );
    expect(report.findings[0]).toMatchObject({
      path: '/request/headers',
      expected: 'the credentials of bearerAuth',
      actual: 'none sent',
    });
  });

  it('moved under /v2 without /v1, every interaction is pact-operation-removed', async () => {
    const report = await checkShipped((document) => {
      document.servers = [{ url: 'https://production.invalid/v2' }];
    });
    expect(report.findings).toHaveLength(shipped.interactions.length);
    expect(new Set(report.findings.map((finding) => finding.code))).toEqual(new Set(['pact-operation-removed']));
  });

  it('checked against a v2 document with v1 served beside it (--beside), its v1 interactions hold', async () => {
    const v2 = await folder.variant((document) => {
      document.servers = [{ url: 'https://production.invalid/v2' }];
    });
    const report = await checkCompatibility({ newFile: v2, besideFiles: [specFile], pactFiles: [shippedPact] });
    expect(report).toMatchObject({ findings: [], exitCode: 0 });
  });
});

describe('a pact a mock wrote', () => {
  it('names its consumer and interaction when the new document breaks it, and passes the honest one', async () => {
    const mock = createOrderMock({ seed: [{ id: 1, petId: 7, quantity: 2 }] });
    const key = { authorization: 'Bearer petstore-dev-key' };
    await mock.handle(new Request('https://api.example.com/v1/store/orders', { headers: key }));
    const dir = await folder.file('pacts-made', '').then((file) => `${file}-dir`);
    const pact = await mock.pact({ consumer: 'web-app', dir });
    const honest = await checkCompatibility({ newFile: specFile, pactFiles: [pact] });
    expect(honest).toMatchObject({
      findings: [],
      exitCode: 0,
      pacts: [{ consumer: 'web-app', interactions: 1, broken: 0 }],
    });
    const broken = await checkCompatibility({
      newFile: await folder.variant((document) => delete order(document).properties.quantity),
      pactFiles: [pact],
    });
    expect(broken.findings).toEqual([
      expect.objectContaining({ code: 'pact-field-removed', consumer: 'web-app', path: '/response/body/0/quantity' }),
    ]);
  });
});

describe("a pact a mock wrote of v2's list, refused parameters included", () => {
  const v2File = specFile.replace(/openapi\.yaml$/, 'openapi-v2.yaml');

  /** The mock's pact of a v2 page, a limit and a status v2 refuses (400), and a limit sent without a key (401). */
  async function v2Pact(): Promise<string> {
    const mock = createOrderMock({ seed: [{ id: 1, petId: 7, quantity: 2 }] });
    const key = { authorization: 'Bearer petstore-dev-key' };
    for (const query of ['limit=2', 'limit=0', 'status=lost'])
      await mock.handle(new Request(`https://api.example.com/v2/store/orders?${query}`, { headers: key }));
    await mock.handle(new Request('https://api.example.com/v2/store/orders?limit=0'));
    const dir = await folder.file('pacts-v2', '').then((file) => `${file}-dir`);
    return mock.pact({ consumer: 'web-app', dir });
  }

  it('passes the document it was written from: an interaction expecting the 400 or the 401 states the refusal, it is not broken by it', async () => {
    const report = await checkCompatibility({ newFile: v2File, besideFiles: [specFile], pactFiles: [await v2Pact()] });
    // The 401's WWW-Authenticate (RFC 6750) is in no document: a warning, as spec gap 56 decides.
    expect(report.findings.map((finding) => [finding.code, finding.interaction])).toEqual([
      ['pact-header-undocumented', 'GET /v2/store/orders?limit=0 401 (without a key)'],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('breaks the page that expects success where the new document refuses its limit: pact-parameter-refused', async () => {
    const narrowed = await folder.file(
      'openapi-v2-narrowed.yaml',
      readFileSync(v2File, 'utf8')
        .replaceAll("'./openapi.yaml#", `'${specFile}#`)
        .replace('minimum: 1\n            maximum: 100', 'minimum: 3\n            maximum: 100'),
    );
    const report = await checkCompatibility({
      newFile: narrowed,
      besideFiles: [specFile],
      pactFiles: [await v2Pact()],
    });
    expect(described(report).filter((finding) => finding.code !== 'pact-header-undocumented')).toEqual([
      {
        code: 'pact-parameter-refused',
        consumer: 'web-app',
        interaction: 'GET /v2/store/orders?limit=2 200 (with the key)',
        path: '/request/query/limit',
        expected: 'minimum 3',
        actual: '"2"',
      },
    ]);
    expect(report.exitCode).toBe(1);
  });
});

/** A pact of one list interaction, with `request` and `body` as given. */
async function listPact(name: string, request: object, body: unknown): Promise<string> {
  return folder.file(
    name,
    JSON.stringify({
      consumer: { name: 'dashboard' },
      provider: { name: 'petstore-order-interface' },
      metadata: { pactSpecification: { version: '4.0' } },
      interactions: [
        {
          type: 'Synchronous/HTTP',
          description: 'lists orders',
          request: { method: 'GET', path: '/v1/store/orders', headers: { Authorization: ['Bearer k'] }, ...request },
          response: { status: 200, body: { content: body, contentType: 'application/json', encoded: false } },
        },
      ],
    }),
  );
}

describe('a pact written by hand', () => {
  it('sending a query parameter the new document does not declare is pact-parameter-unknown, a warning', async () => {
    const pact = await listPact('query.json', { query: { page: ['2'] } }, []);
    const report = await checkCompatibility({ newFile: specFile, pactFiles: [pact] });
    expect(described(report)).toEqual([
      {
        code: 'pact-parameter-unknown',
        consumer: 'dashboard',
        interaction: 'lists orders',
        path: '/request/query/page',
        expected: 'a query parameter the operation declares',
        actual: 'page',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  /** The kit's document whose list takes `tag`, a list of strings, as OpenAPI's default query (form, exploded) or comma-joined. */
  const withTags = (explode: boolean) =>
    folder.variant((document) => {
      listOrders(document).parameters = [
        { name: 'tag', in: 'query', explode, schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
      ];
    });

  it('sending a list parameter as its name repeated, where it is exploded, is no finding', async () => {
    const pact = await listPact('tags.json', { query: { tag: ['a', 'b'] } }, []);
    const report = await checkCompatibility({ newFile: await withTags(true), pactFiles: [pact] });
    expect(report.findings).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it("a list parameter's item outside its items' enum is pact-parameter-refused", async () => {
    const pact = await listPact('tags-bad.json', { query: { tag: ['a,c'] } }, []);
    const report = await checkCompatibility({ newFile: await withTags(false), pactFiles: [pact] });
    expect(described(report)).toEqual([
      expect.objectContaining({
        code: 'pact-parameter-refused',
        path: '/request/query/tag',
        expected: 'one of "a", "b"',
        actual: '"a,c"',
      }),
    ]);
  });

  it('sending a parameter that is no list twice is pact-parameter-refused, as the mock refuses it', async () => {
    const pact = await listPact('twice.json', { query: { limit: ['2', '3'] } }, []);
    const limited = await folder.variant((document) => {
      listOrders(document).parameters = [{ name: 'limit', in: 'query', schema: { type: 'integer' } }];
    });
    const report = await checkCompatibility({ newFile: limited, pactFiles: [pact] });
    expect(described(report)).toEqual([
      expect.objectContaining({
        code: 'pact-parameter-refused',
        path: '/request/query/limit',
        expected: 'one value',
        actual: '"2", "3"',
      }),
    ]);
  });

  it('an integer written with a leading zero is pact-parameter-refused, as the mock refuses it (spec gap 58)', async () => {
    const pact = await listPact('leading-zero.json', { query: { limit: ['02'] } }, []);
    const limited = await folder.variant((document) => {
      listOrders(document).parameters = [{ name: 'limit', in: 'query', schema: { type: 'integer' } }];
    });
    const report = await checkCompatibility({ newFile: limited, pactFiles: [pact] });
    expect(described(report)).toEqual([
      expect.objectContaining({ code: 'pact-parameter-refused', path: '/request/query/limit', actual: '"02"' }),
    ]);
  });

  it('an integer in its one written form passes the same parameter', async () => {
    const pact = await listPact('one-form.json', { query: { limit: ['2'] } }, []);
    const limited = await folder.variant((document) => {
      listOrders(document).parameters = [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 2 } }];
    });
    expect((await checkCompatibility({ newFile: limited, pactFiles: [pact] })).findings).toEqual([]);
  });

  it('holding null where the new document no longer allows it is pact-value-refused', async () => {
    const pact = await listPact('null.json', {}, [{ id: 1, quantity: null }]);
    const nullable = await folder.variant((document) => {
      order(document).properties.quantity.type = ['integer', 'null'];
    });
    expect((await checkCompatibility({ newFile: nullable, pactFiles: [pact] })).findings).toEqual([]);
    const report = await checkCompatibility({ newFile: specFile, pactFiles: [pact] });
    expect(described(report)).toEqual([
      expect.objectContaining({
        code: 'pact-value-refused',
        path: '/response/body/0/quantity',
        expected: 'not null',
        actual: 'null',
      }),
    ]);
  });

  it('is paired with a concrete path before a template that also matches it', async () => {
    const pact = await folder.file(
      'summary.json',
      (await readFile(await listPact('summary-base.json', {}, { count: 2 }), 'utf8')).replace(
        '/v1/store/orders"',
        '/v1/store/orders/summary"',
      ),
    );
    const withSummary = await folder.variant((document) => {
      const orderItem = document.paths['/store/orders/{orderId}'];
      orderItem.get = { parameters: orderItem.delete.parameters, responses: { '200': { description: 'The order.' } } };
      const summary = {
        get: {
          responses: {
            '200': {
              description: 'Counts.',
              content: {
                'application/json': { schema: { type: 'object', properties: { count: { type: 'integer' } } } },
              },
            },
          },
        },
      };
      // The concrete path first: paired by the order of the document, the template would win.
      document.paths = { '/store/orders/summary': summary, ...document.paths };
    });
    const report = await checkCompatibility({ newFile: withSummary, pactFiles: [pact] });
    expect(report.findings).toEqual([]);
  });

  it('an id past 2^53 is judged exactly against an int32 format', async () => {
    const pact = await listPact('big-id.json', {}, [{ id: 1 }]);
    const text = (await readFile(pact, 'utf8')).replace('"id":1', '"id":9007199254740993');
    const big = await folder.file('big-id-exact.json', text);
    expect((await checkCompatibility({ newFile: specFile, pactFiles: [big] })).findings).toEqual([]);
    const int32 = await folder.variant((document) => {
      order(document).properties.id.format = 'int32';
    });
    expect(described(await checkCompatibility({ newFile: int32, pactFiles: [big] }))).toEqual([
      expect.objectContaining({
        code: 'pact-field-type-changed',
        expected: 'integer (int32)',
        actual: '9007199254740993',
      }),
    ]);
  });

  it('an id past 2^53 is judged exactly against a maximum past 2^53, exclusive or not', async () => {
    const pact = await listPact('big-id-bound.json', {}, [{ id: 1 }]);
    const text = (await readFile(pact, 'utf8')).replace('"id":1', '"id":9007199254740993');
    const big = await folder.file('big-id-bound-exact.json', text);
    const bounded = (bound: Record<string, bigint>) =>
      folder.variant((document) => Object.assign(order(document).properties.id, bound));
    const refusedBy = async (bound: Record<string, bigint>) =>
      described(await checkCompatibility({ newFile: await bounded(bound), pactFiles: [big] })).map(
        (finding) => `${finding.code}: ${finding.expected}`,
      );
    expect(await refusedBy({ maximum: 9007199254740993n })).toEqual([]);
    expect(await refusedBy({ maximum: 9007199254740992n })).toEqual(['pact-value-refused: maximum 9007199254740992']);
    expect(await refusedBy({ exclusiveMaximum: 9007199254740993n })).toEqual([
      'pact-value-refused: exclusiveMaximum 9007199254740993',
    ]);
    expect(await refusedBy({ minimum: 9007199254740994n })).toEqual(['pact-value-refused: minimum 9007199254740994']);
  });
});

describe("a pact's matching rules", () => {
  it('name a field the example does not hold: removed from the schema, it is pact-field-removed', async () => {
    const pact = await folder.file(
      'rules-only.json',
      JSON.stringify({
        consumer: { name: 'dashboard' },
        provider: { name: 'petstore-order-interface' },
        metadata: { pactSpecification: { version: '4.0' } },
        interactions: [
          {
            type: 'Synchronous/HTTP',
            description: 'lists orders',
            request: { method: 'GET', path: '/v1/store/orders', headers: { Authorization: ['Bearer k'] } },
            response: {
              status: 200,
              body: { content: [], contentType: 'application/json', encoded: false },
              matchingRules: { body: { '$[*].shipDate': { combine: 'AND', matchers: [{ match: 'type' }] } } },
            },
          },
        ],
      }),
    );
    const honest = await checkCompatibility({ newFile: specFile, pactFiles: [pact] });
    expect(honest.findings).toEqual([]);
    const report = await checkCompatibility({
      newFile: await folder.variant((document) => delete order(document).properties.shipDate),
      pactFiles: [pact],
    });
    expect(described(report)).toEqual([
      {
        code: 'pact-field-removed',
        consumer: 'dashboard',
        interaction: 'lists orders',
        path: '/response/body/[]/shipDate',
        expected: 'the field shipDate its matching rules name',
        actual: 'no such field',
      },
    ]);
  });
});
