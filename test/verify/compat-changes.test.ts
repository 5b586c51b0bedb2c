// petstore-verify compat's rules added after the reviews of issue 56: status classes (2XX), media
// types, request bodies, allOf read as one object, response headers' schemas, additionalProperties,
// multipleOf, and a pact's values against pattern, multipleOf and item counts. Each both ways: the
// breaking change caught by its rule, the honest equivalent not flagged. Small documents, in process.
import { afterAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../core/stringify-json.js';
import { checkCompatibility, type CompatReport } from '../../verify/compat/index.js';
import { isMultipleOf } from '../../verify/compat/multiple-of.js';
import { CompatFolder, type Document, shippedPact, specFile } from './compat-support.js';

const folder = new CompatFolder();
afterAll(() => folder.remove());

let count = 0;

/** A small document: GET /v1/orders answering 200 with a list of Order, and a 401. */
function small(): Document {
  return {
    openapi: '3.1.0',
    info: { title: 'orders', version: '1.0.0' },
    servers: [{ url: 'https://production.invalid/v1' }],
    paths: {
      '/orders': {
        get: {
          responses: {
            '200': {
              description: 'The orders.',
              content: {
                'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } } },
              },
            },
            '401': { description: 'No key.' },
          },
        },
      },
    },
    components: {
      schemas: {
        Order: {
          type: 'object',
          properties: { id: { type: 'integer', format: 'int64' }, status: { type: 'string' } },
        },
      },
    },
  };
}

const get = (document: Document) => document.paths['/orders'].get;
const ok = (document: Document) => get(document).responses['200'];
const orderSchema = (document: Document) => document.components.schemas.Order;

async function written(document: Document): Promise<string> {
  return folder.file(`document-${++count}.json`, stringifyJson(document));
}

/** The report of the small document changed by `before` (old) against it changed by `before` then `change` (new). */
async function compare(change: (document: Document) => void, before: (document: Document) => void = () => {}) {
  const old = small();
  before(old);
  const next = small();
  before(next);
  change(next);
  return checkCompatibility({ oldFile: await written(old), newFile: await written(next) });
}

const found = (report: CompatReport) =>
  report.findings.map(({ code, severity, path, expected, actual }) => ({ code, severity, path, expected, actual }));

describe('a status documented by its class (2XX)', () => {
  const toRange = (document: Document) => {
    get(document).responses['2XX'] = ok(document);
    delete get(document).responses['200'];
  };

  it('200 replaced by 2XX with the same body is response-status-replaced-by-range, a warning that passes', async () => {
    const report = await compare(toRange);
    expect(found(report)).toEqual([
      {
        code: 'response-status-replaced-by-range',
        severity: 'warning',
        path: '/responses/200',
        expected: 'the status 200',
        actual: 'the class 2XX, which holds it',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  it("200 replaced by 2XX whose body lost a field is that field's response-property-removed, an error", async () => {
    const report = await compare((document) => {
      toRange(document);
      get(document).responses['2XX'] = {
        description: 'Any success.',
        content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: {} } } } },
      };
    });
    expect(found(report)).toContainEqual({
      code: 'response-property-removed',
      severity: 'error',
      path: '/responses/200/body/[]/id',
      expected: 'the field id (integer (int64))',
      actual: 'no such field',
    });
    expect(report.exitCode).toBe(1);
  });

  it('200 replaced by a class that does not hold it (3XX) is response-status-removed', async () => {
    const report = await compare((document) => {
      get(document).responses['3XX'] = ok(document);
      delete get(document).responses['200'];
    });
    expect(found(report).map((finding) => finding.code)).toEqual(['response-status-removed', 'response-status-added']);
  });

  it('2XX replaced by 200 is response-status-range-narrowed, a warning that passes', async () => {
    const report = await compare((document) => {
      get(document).responses['200'] = get(document).responses['2XX'];
      delete get(document).responses['2XX'];
    }, toRange);
    expect(found(report)).toEqual([
      {
        code: 'response-status-range-narrowed',
        severity: 'warning',
        path: '/responses/2XX',
        expected: 'any status of the class 2XX',
        actual: 'only 200 of it',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  it("2XX replaced by 200 whose body lost a field is that field's response-property-removed, an error", async () => {
    const report = await compare((document) => {
      get(document).responses['200'] = {
        description: 'The orders.',
        content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: {} } } } },
      };
      delete get(document).responses['2XX'];
    }, toRange);
    expect(found(report)).toContainEqual(
      expect.objectContaining({ code: 'response-property-removed', path: '/responses/200/body/[]/status' }),
    );
  });

  it('2XX dropped beside a 200 it kept is response-status-range-narrowed, not removed', async () => {
    const report = await compare(
      (document) => delete get(document).responses['2XX'],
      (document) => {
        get(document).responses['2XX'] = ok(document);
      },
    );
    expect(found(report).map((finding) => [finding.code, finding.actual])).toEqual([
      ['response-status-range-narrowed', 'only 200 of it'],
    ]);
  });

  it('a status of a class the old document documented is no status added', async () => {
    const report = await compare((document) => {
      get(document).responses['201'] = get(document).responses['2XX'];
    }, toRange);
    expect(report.findings).toEqual([]);
  });

  it('2XX removed with no status of its class left is response-status-removed', async () => {
    const report = await compare((document) => delete get(document).responses['2XX'], toRange);
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([
      ['response-status-removed', '/responses/2XX'],
    ]);
  });
});

describe('media types', () => {
  const problem = (document: Document) => {
    const content = ok(document).content;
    ok(document).content = { 'application/problem+json': content['application/json'] };
  };

  it('application/json changed to application/problem+json is response-media-type-removed (an error) and -added', async () => {
    const report = await compare(problem);
    expect(found(report)).toEqual([
      {
        code: 'response-media-type-removed',
        severity: 'error',
        path: '/responses/200/content/application/json',
        expected: 'the media type application/json',
        actual: 'only application/problem+json',
      },
      {
        code: 'response-media-type-added',
        severity: 'info',
        path: '/responses/200/content/application/problem+json',
        expected: 'only application/json',
        actual: 'also application/problem+json',
      },
    ]);
    expect(report.exitCode).toBe(1);
  });

  it('a media type added beside application/json is response-media-type-added, info that passes', async () => {
    const report = await compare((document) => {
      ok(document).content['application/xml'] = { schema: { type: 'string' } };
    });
    expect(found(report).map((finding) => [finding.code, finding.severity])).toEqual([
      ['response-media-type-added', 'info'],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('a JSON body replaced by text/csv is response-body-removed, and text/csv response-media-type-added', async () => {
    const report = await compare((document) => {
      ok(document).content = { 'text/csv': { schema: { type: 'string' } } };
    });
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([
      ['response-body-removed', '/responses/200/body'],
      ['response-media-type-added', '/responses/200/content/text/csv'],
    ]);
  });

  it('a charset parameter written out is no change', async () => {
    const report = await compare((document) => {
      ok(document).content = { 'application/json; charset=utf-8': ok(document).content['application/json'] };
    });
    expect(report.findings).toEqual([]);
  });

  it("a media type's name written in another case is no change", async () => {
    const report = await compare((document) => {
      ok(document).content = { 'Application/JSON': ok(document).content['application/json'] };
    });
    expect(report.findings).toEqual([]);
  });

  it('a body documented where there was none (the 401) is response-media-type-added, info', async () => {
    const report = await compare((document) => {
      get(document).responses['401'].content = { 'application/json': { schema: { type: 'object' } } };
    });
    expect(found(report)).toEqual([
      {
        code: 'response-media-type-added',
        severity: 'info',
        path: '/responses/401/content/application/json',
        expected: 'only no body',
        actual: 'also application/json',
      },
    ]);
  });
});

describe('request bodies', () => {
  const withBody = (required: boolean, types: string[]) => (document: Document) => {
    get(document).requestBody = {
      required,
      content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'object' } }])),
    };
  };

  it('a media type the body took removed is request-body-media-type-removed, an error', async () => {
    const report = await compare(
      withBody(false, ['application/json']),
      withBody(false, ['application/json', 'text/csv']),
    );
    expect(found(report)).toEqual([
      {
        code: 'request-body-media-type-removed',
        severity: 'error',
        path: '/requestBody/content/text/csv',
        expected: 'the media type text/csv',
        actual: 'only application/json',
      },
    ]);
  });

  it('a media type added to the body is request-body-media-type-added, info that passes', async () => {
    const report = await compare(
      withBody(false, ['application/json', 'text/csv']),
      withBody(false, ['application/json']),
    );
    expect(found(report).map((finding) => [finding.code, finding.severity])).toEqual([
      ['request-body-media-type-added', 'info'],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it.each([
    ['a required body added', 'request-body-added-required', 'error', withBody(true, ['application/json']), () => {}],
    ['an optional body added', 'request-body-added-optional', 'info', withBody(false, ['application/json']), () => {}],
    [
      'an optional body made required',
      'request-body-became-required',
      'error',
      withBody(true, ['application/json']),
      withBody(false, ['application/json']),
    ],
    [
      'a body removed',
      'request-body-removed',
      'warning',
      (document: Document) => delete get(document).requestBody,
      withBody(false, ['application/json']),
    ],
  ])('%s is %s, %s', async (_what, code, severity, change, before) => {
    const report = await compare(change, before);
    expect(found(report).map((finding) => [finding.code, finding.severity, finding.path])).toEqual([
      [code, severity, '/requestBody'],
    ]);
  });

  it('refuses a request body that is not an object', async () => {
    const next = small();
    get(next).requestBody = 'json';
    const newFile = await written(next);
    await expect(checkCompatibility({ oldFile: await written(small()), newFile })).rejects.toMatchObject({
      code: 'invalid_document',
      message: `${newFile}: the request body of get /orders is not an object`,
    });
  });
});

describe('an allOf, read as the one object it makes', () => {
  /** Order as an allOf of two members, `id` in the first and `status` in the second (or as given). */
  const split = (first: string[], second: string[]) => (document: Document) => {
    const fields = orderSchema(small()).properties;
    const member = (names: string[]) => ({
      type: 'object',
      properties: Object.fromEntries(names.map((name) => [name, fields[name]])),
    });
    document.components.schemas.Base = member(first);
    document.components.schemas.Order = { allOf: [{ $ref: '#/components/schemas/Base' }, member(second)] };
  };

  it('a field moved from one member to another is no change', async () => {
    const report = await compare(split(['id', 'status'], []), split(['id'], ['status']));
    expect(report.findings).toEqual([]);
  });

  it('an object rewritten as an allOf of the same fields is no change', async () => {
    const report = await compare(split(['id'], ['status']));
    expect(report.findings).toEqual([]);
  });

  it('a field dropped from every member is response-property-removed, an error', async () => {
    const report = await compare(split(['id'], []), split(['id'], ['status']));
    expect(found(report)).toEqual([
      {
        code: 'response-property-removed',
        severity: 'error',
        path: '/responses/200/body/[]/status',
        expected: 'the field status (string)',
        actual: 'no such field',
      },
    ]);
  });

  it('a member added with an optional field is response-property-added alone, and passes', async () => {
    const report = await compare(
      (document) => {
        document.components.schemas.Order.allOf.push({ properties: { note: { type: 'string' } } });
      },
      split(['id'], ['status']),
    );
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([
      ['response-property-added', '/responses/200/body/[]/note'],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it("members that disagree on a keyword (two oneOfs) are compared member by member: the second's branch changed is response-schema-changed", async () => {
    const twoOneOfs = (type: string) => (document: Document) => {
      orderSchema(document).properties.id = {
        allOf: [{ oneOf: [{ type: 'integer' }, { type: 'null' }] }, { oneOf: [{ type }, { type: 'null' }] }],
      };
    };
    const report = await compare(twoOneOfs('string'), twoOneOfs('integer'));
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([
      ['response-schema-changed', '/responses/200/body/[]/id'],
    ]);
  });

  it('a field made required in another member is no longer optional: a required list joined', async () => {
    const report = await compare(
      (document) => {
        document.components.schemas.Order.allOf[1].required = [];
      },
      (document) => {
        split(['id'], ['status'])(document);
        document.components.schemas.Order.allOf[1].required = ['id'];
      },
    );
    expect(found(report)).toEqual([
      {
        code: 'response-property-became-optional',
        severity: 'error',
        path: '/responses/200/body/[]/id',
        expected: 'required',
        actual: 'optional',
      },
    ]);
  });
});

describe("a response header's schema", () => {
  const withHeader = (header: object) => (document: Document) => {
    ok(document).headers = { 'X-Rate-Limit': header };
  };
  const header = (schema: object, required = false) => withHeader({ required, schema });

  it("the pet read's Sunset retyped as an integer is response-header-type-changed, an error", async () => {
    const next = await folder.variant((document) => {
      document.paths['/pets/{petId}'].get.responses['200'].headers.Sunset.schema = { type: 'integer' };
    });
    const report = await checkCompatibility({ oldFile: specFile, newFile: next });
    expect(report.findings).toEqual([
      {
        code: 'response-header-type-changed',
        severity: 'error',
        operation: 'GET /v1/pets/{petId}',
        path: '/responses/200/headers/sunset',
        expected: 'string',
        actual: 'integer',
      },
    ]);
  });

  it.each([
    ['a maximum raised', 'response-header-widened', 'error', { maximum: 100 }, { maximum: 1000 }],
    ['a pattern dropped', 'response-header-widened', 'error', { pattern: '^\\d+$' }, {}],
    ['a maximum lowered', 'response-header-narrowed', 'warning', { maximum: 100 }, { maximum: 10 }],
    ['an enum value removed', 'response-header-enum-value-removed', 'error', { enum: [1, 2] }, { enum: [1] }],
    ['an enum value added', 'response-header-enum-value-added', 'warning', { enum: [1] }, { enum: [1, 2] }],
    [
      'a oneOf changed',
      'response-header-schema-changed',
      'warning',
      { oneOf: [{ minimum: 0 }] },
      { oneOf: [{ minimum: 1 }] },
    ],
  ])('%s is %s, %s', async (_what, code, severity, was, is) => {
    const report = await compare(header({ type: 'integer', ...is }), header({ type: 'integer', ...was }));
    expect(found(report).map((finding) => [finding.code, finding.severity, finding.path])).toEqual([
      [code, severity, '/responses/200/headers/x-rate-limit'],
    ]);
  });

  it("a header's description changed is no change", async () => {
    const report = await compare(
      withHeader({ description: 'Calls left.', schema: { type: 'integer' } }),
      header({ type: 'integer' }),
    );
    expect(report.findings).toEqual([]);
  });

  it('a required header removed is required-response-header-removed, an error', async () => {
    const report = await compare((document) => delete ok(document).headers, header({ type: 'integer' }, true));
    expect(found(report)).toEqual([
      {
        code: 'required-response-header-removed',
        severity: 'error',
        path: '/responses/200/headers/x-rate-limit',
        expected: 'the required header x-rate-limit',
        actual: 'none',
      },
    ]);
    expect(report.exitCode).toBe(1);
  });

  it('a required header made optional is response-header-became-optional, an error', async () => {
    const report = await compare(header({ type: 'integer' }, false), header({ type: 'integer' }, true));
    expect(found(report)).toEqual([
      {
        code: 'response-header-became-optional',
        severity: 'error',
        path: '/responses/200/headers/x-rate-limit',
        expected: 'required',
        actual: 'optional',
      },
    ]);
  });

  it('a header added is response-header-added, info that passes', async () => {
    const report = await compare(header({ type: 'integer' }, true));
    expect(found(report)).toEqual([
      {
        code: 'response-header-added',
        severity: 'info',
        path: '/responses/200/headers/x-rate-limit',
        expected: 'no such header',
        actual: 'a required header x-rate-limit',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });
});

describe('additionalProperties', () => {
  const closed = (value: unknown) => (document: Document) => {
    orderSchema(document).additionalProperties = value;
  };
  /** GET /v1/orders taking `filter`, an object in a deepObject query. */
  const filter = (additionalProperties?: unknown) => (document: Document) => {
    get(document).parameters = [
      {
        name: 'filter',
        in: 'query',
        style: 'deepObject',
        schema: {
          type: 'object',
          properties: { status: { type: 'string' } },
          ...(additionalProperties === undefined ? {} : { additionalProperties }),
        },
      },
    ];
  };

  it('a response object closed (unset to false) is response-additional-properties-refused, a warning that passes', async () => {
    const report = await compare(closed(false));
    expect(found(report)).toEqual([
      {
        code: 'response-additional-properties-refused',
        severity: 'warning',
        path: '/responses/200/body/[]/{*}',
        expected: 'any other field',
        actual: 'no other field',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('a response object opened (false to unset) is response-additional-properties-allowed, a warning', async () => {
    const report = await compare((document) => delete orderSchema(document).additionalProperties, closed(false));
    expect(found(report).map((finding) => [finding.code, finding.severity])).toEqual([
      ['response-additional-properties-allowed', 'warning'],
    ]);
  });

  it.each([true, {}])('unset written as %j is no change', async (value) => {
    expect((await compare(closed(value))).findings).toEqual([]);
  });

  it("the other fields' schema retyped is response-property-type-changed at {*}", async () => {
    const report = await compare(closed({ type: 'integer' }), closed({ type: 'string' }));
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([
      ['response-property-type-changed', '/responses/200/body/[]/{*}'],
    ]);
  });

  it("a request object closed (a parameter's) is request-additional-properties-refused, an error", async () => {
    const report = await compare(filter(false), filter());
    expect(found(report)).toEqual([
      {
        code: 'request-additional-properties-refused',
        severity: 'error',
        path: '/parameters/query/filter/{*}',
        expected: 'any other field',
        actual: 'no other field',
      },
    ]);
    expect(report.exitCode).toBe(1);
  });

  it("a request object opened (a parameter's) is request-additional-properties-allowed, info", async () => {
    const report = await compare(filter(true), filter(false));
    expect(found(report).map((finding) => [finding.code, finding.severity])).toEqual([
      ['request-additional-properties-allowed', 'info'],
    ]);
  });
});

describe('multipleOf', () => {
  const multipleOf = (value: number | bigint | undefined) => (document: Document) => {
    orderSchema(document).properties.id.multipleOf = value;
  };
  const limit = (value: number) => (document: Document) => {
    get(document).parameters = [{ name: 'limit', in: 'query', schema: { type: 'integer', multipleOf: value } }];
  };

  it.each([
    ['added', 'response-property-narrowed', undefined, 2],
    ['made a multiple of itself (2 to 4)', 'response-property-narrowed', 2, 4],
    ['dropped', 'response-property-widened', 2, undefined],
    ['made a divisor of itself (4 to 2)', 'response-property-widened', 4, 2],
    ['changed to one that is neither (2 to 3)', 'response-property-widened', 2, 3],
    ['made a multiple, in decimals (0.01 to 0.05)', 'response-property-narrowed', 0.01, 0.05],
    ['made a multiple past 2^53 (3 to 9007199254740993)', 'response-property-narrowed', 3n, 9007199254740993n],
  ])("a response field's multipleOf %s is %s", async (_what, code, was, is) => {
    const report = await compare(multipleOf(is), multipleOf(was));
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([[code, '/responses/200/body/[]/id']]);
  });

  it("a parameter's multipleOf made a multiple of itself is request-parameter-narrowed, an error", async () => {
    const report = await compare(limit(10), limit(5));
    expect(found(report)).toEqual([
      {
        code: 'request-parameter-narrowed',
        severity: 'error',
        path: '/parameters/query/limit',
        expected: 'multipleOf 5',
        actual: 'multipleOf 10',
      },
    ]);
  });

  it("a parameter's multipleOf changed to one that is neither (5 to 3) is request-parameter-narrowed, an error", async () => {
    const report = await compare(limit(3), limit(5));
    expect(found(report).map((finding) => [finding.code, finding.severity])).toEqual([
      ['request-parameter-narrowed', 'error'],
    ]);
  });

  it("a parameter's multipleOf made a divisor of itself is request-parameter-widened, info", async () => {
    const report = await compare(limit(5), limit(10));
    expect(found(report).map((finding) => [finding.code, finding.severity])).toEqual([
      ['request-parameter-widened', 'info'],
    ]);
  });

  it.each([
    [9007199254740993n, 3n, true],
    [9007199254740993n, 2, false],
    [19.99, 0.01, true],
    [0.3, 0.1, true],
    [1e21, 7, false],
    [5, 0, false],
  ])('isMultipleOf(%s, %s) is %s: exact past 2^53 and in decimals', (value, divisor, expected) => {
    expect(isMultipleOf(value, divisor)).toBe(expected);
  });
});

describe("a pact's values against the new schema", () => {
  /** A pact of one list interaction answering `body` (JSON text, so that ids past 2^53 stay exact). */
  const pactOf = (body: string) =>
    folder.file(
      `pact-${++count}.json`,
      `{"consumer":{"name":"dashboard"},"provider":{"name":"orders"},"metadata":{"pactSpecification":{"version":"4.0"}},"interactions":[{"type":"Synchronous/HTTP","description":"lists orders","request":{"method":"GET","path":"/v1/orders"},"response":{"status":200,"body":{"content":${body},"contentType":"application/json","encoded":false}}}]}`,
    );
  const judged = async (body: string, change: (document: Document) => void) => {
    const document = small();
    delete document.security;
    change(document);
    const report = await checkCompatibility({ newFile: await written(document), pactFiles: [await pactOf(body)] });
    return report.findings.map(({ code, path, expected, actual }) => ({ code, path, expected, actual }));
  };
  const id = (keywords: object) => (document: Document) => Object.assign(orderSchema(document).properties.id, keywords);
  const status = (keywords: object) => (document: Document) =>
    Object.assign(orderSchema(document).properties.status, keywords);

  it('a text its new pattern refuses is pact-value-refused', async () => {
    expect(await judged('[{"status":"Shipped"}]', status({ pattern: '^[a-z]+$' }))).toEqual([
      {
        code: 'pact-value-refused',
        path: '/response/body/0/status',
        expected: 'pattern ^[a-z]+$',
        actual: '"Shipped"',
      },
    ]);
  });

  it('a text its new pattern takes, unanchored as JSON Schema reads it, passes', async () => {
    expect(await judged('[{"status":"Shipped"}]', status({ pattern: '[a-z]+' }))).toEqual([]);
  });

  it('refuses a pattern that is no regular expression', async () => {
    const document = small();
    orderSchema(document).properties.status.pattern = '([a-z]';
    const newFile = await written(document);
    await expect(checkCompatibility({ newFile, pactFiles: [await pactOf('[{"status":"x"}]')] })).rejects.toMatchObject({
      code: 'invalid_document',
      message: expect.stringMatching(/^.+: the pattern \(\[a-z\] is no regular expression: /),
    });
  });

  it('an id past 2^53 that is no multiple of the new multipleOf is pact-value-refused, exactly', async () => {
    // 9007199254740993 is odd; as a double it is 9007199254740992, which is even.
    expect(await judged('[{"id":9007199254740993}]', id({ multipleOf: 2 }))).toEqual([
      { code: 'pact-value-refused', path: '/response/body/0/id', expected: 'multipleOf 2', actual: '9007199254740993' },
    ]);
  });

  it('an id past 2^53 that is a multiple of the new multipleOf passes, exactly', async () => {
    // 9007199254740993 = 3 × 3002399751580331; as a double, 9007199254740992 is not.
    expect(await judged('[{"id":9007199254740993}]', id({ multipleOf: 3 }))).toEqual([]);
  });

  it('a decimal that is a multiple as written passes (19.99 of 0.01)', async () => {
    const price = (document: Document) => {
      orderSchema(document).properties.price = { type: 'number', multipleOf: 0.01 };
    };
    expect(await judged('[{"price":19.99}]', price)).toEqual([]);
  });

  it('a list longer than its new maxItems is pact-value-refused', async () => {
    const atMostOne = (document: Document) => {
      ok(document).content['application/json'].schema.maxItems = 1;
    };
    expect(await judged('[{"id":1},{"id":2}]', atMostOne)).toEqual([
      { code: 'pact-value-refused', path: '/response/body', expected: 'maxItems 1', actual: '[{"id":1},{"id":2}]' },
    ]);
  });

  it('a list shorter than its new minItems is pact-value-refused', async () => {
    const atLeastOne = (document: Document) => {
      ok(document).content['application/json'].schema.minItems = 1;
    };
    expect(await judged('[]', atLeastOne)).toEqual([
      { code: 'pact-value-refused', path: '/response/body', expected: 'minItems 1', actual: '[]' },
    ]);
  });

  it("a field an allOf's members no longer hold is pact-field-removed", async () => {
    const asAllOf = (document: Document) => {
      document.components.schemas.Order = {
        allOf: [{ type: 'object', properties: { id: { type: 'integer' } } }, { properties: {} }],
      };
    };
    expect(await judged('[{"id":1,"status":"pending"}]', asAllOf)).toEqual([
      {
        code: 'pact-field-removed',
        path: '/response/body/0/status',
        expected: 'the field status in the response schema',
        actual: 'no such field',
      },
    ]);
  });

  const twoMembers = (document: Document) => {
    document.components.schemas.Order = {
      allOf: [{ properties: { id: { type: 'integer' } } }, { properties: { status: { type: 'string' } } }],
    };
  };

  it('a field held by another member of an allOf passes', async () => {
    expect(await judged('[{"id":1,"status":"pending"}]', twoMembers)).toEqual([]);
  });

  it("a field held by another member of an allOf is judged by that member's schema", async () => {
    expect(await judged('[{"id":1,"status":2}]', twoMembers)).toEqual([
      { code: 'pact-field-type-changed', path: '/response/body/0/status', expected: 'string', actual: '2' },
    ]);
  });
});

describe("a pact's media type against the new document", () => {
  /** The kit's document with the cancel's 404 documented under `type` alone. */
  const notFoundAs = (type: string) =>
    folder.variant((document) => {
      const notFound = document.paths['/store/orders/{orderId}'].delete.responses['404'];
      notFound.content = { [type]: notFound.content['application/json'] };
    });

  it("the shipped pact's 404s stating application/json break where it is application/problem+json only: pact-media-type-undocumented", async () => {
    const report = await checkCompatibility({
      newFile: await notFoundAs('application/problem+json'),
      pactFiles: [shippedPact],
    });
    expect(
      report.findings.map(({ code, interaction, path, expected, actual }) => ({
        code,
        interaction,
        path,
        expected,
        actual,
      })),
    ).toEqual(
      [
        'cancel-far-out-of-range-order › cancel order 9223372036854775807',
        'cancel-unknown-order › cancel an unknown order',
      ].map((interaction) => ({
        code: 'pact-media-type-undocumented',
        interaction,
        path: '/response/headers/content-type',
        expected: 'the media type application/json documented for its status',
        actual: 'only application/problem+json',
      })),
    );
    expect(report.exitCode).toBe(1);
  });

  it('the shipped pact passes where the 404 is documented with a charset parameter', async () => {
    const report = await checkCompatibility({
      newFile: await notFoundAs('application/json; charset=utf-8'),
      pactFiles: [shippedPact],
    });
    expect(report.findings).toEqual([]);
  });

  it('a Content-Type a matcher judges by a pattern is not held to its example', async () => {
    const pact = await folder.file(
      `pact-${++count}.json`,
      JSON.stringify({
        consumer: { name: 'dashboard' },
        provider: { name: 'orders' },
        metadata: { pactSpecification: { version: '3.0.0' } },
        interactions: [
          {
            description: 'lists orders',
            request: { method: 'GET', path: '/v1/orders' },
            response: {
              status: 200,
              headers: { 'Content-Type': 'application/json' },
              body: [],
              matchingRules: {
                header: { 'Content-Type': { matchers: [{ match: 'regex', regex: 'application/.*json' }] } },
              },
            },
          },
        ],
      }),
    );
    const document = small();
    ok(document).content = { 'application/problem+json': ok(document).content['application/json'] };
    const report = await checkCompatibility({ newFile: await written(document), pactFiles: [pact] });
    expect(report.findings).toEqual([]);
  });
});

describe("a pact's response headers against the new document", () => {
  /** A pact of one list interaction expecting `X-Rate-Limit: ten`, judged by a pattern or not. */
  const rateLimitPact = (matched: boolean) =>
    folder.file(
      `pact-${++count}.json`,
      JSON.stringify({
        consumer: { name: 'dashboard' },
        provider: { name: 'orders' },
        metadata: { pactSpecification: { version: '3.0.0' } },
        interactions: [
          {
            description: 'lists orders',
            request: { method: 'GET', path: '/v1/orders' },
            response: {
              status: 200,
              headers: { 'X-Rate-Limit': 'ten' },
              body: [],
              ...(matched
                ? { matchingRules: { header: { 'X-Rate-Limit': { matchers: [{ match: 'regex', regex: '\\w+' }] } } } }
                : {}),
            },
          },
        ],
      }),
    );
  const judged = async (matched: boolean, header?: object) => {
    const document = small();
    if (header !== undefined) ok(document).headers = { 'X-Rate-Limit': header };
    const report = await checkCompatibility({
      newFile: await written(document),
      pactFiles: [await rateLimitPact(matched)],
    });
    return report.findings.map(({ code, severity, path, expected, actual }) => ({
      code,
      severity,
      path,
      expected,
      actual,
    }));
  };

  it("a header value its documented schema refuses is that value's pact-field-type-changed", async () => {
    expect(await judged(false, { schema: { type: 'integer' } })).toEqual([
      {
        code: 'pact-field-type-changed',
        severity: 'error',
        path: '/response/headers/x-rate-limit',
        expected: 'integer',
        actual: '"ten"',
      },
    ]);
  });

  it('a header value a matching rule judges by a pattern is an example, not judged', async () => {
    expect(await judged(true, { schema: { type: 'integer' } })).toEqual([]);
  });

  it('a header the document does not declare for its status is pact-header-undocumented, a warning', async () => {
    expect(await judged(false)).toEqual([
      {
        code: 'pact-header-undocumented',
        severity: 'warning',
        path: '/response/headers/x-rate-limit',
        expected: 'the header x-rate-limit documented for its status',
        actual: 'no such header',
      },
    ]);
  });

  it("the shipped pact's pet read expects Sunset: removed from the document, pact-header-undocumented names it", async () => {
    const next = await folder.variant(
      (document) => delete document.paths['/pets/{petId}'].get.responses['200'].headers.Sunset,
    );
    const report = await checkCompatibility({ newFile: next, pactFiles: [shippedPact] });
    expect(report.findings.map(({ code, interaction, path }) => ({ code, interaction, path }))).toEqual([
      {
        code: 'pact-header-undocumented',
        interaction: 'read-deprecated-pet › read pet 1',
        path: '/response/headers/sunset',
      },
    ]);
  });
});
