// petstore-verify compat's rules, each both ways: the breaking change flagged with its exact id,
// level and place, the honest variation passed. In process, on the kit's document and copies of it.
import { afterAll, describe, expect, it } from 'vitest';
import { checkCompatibility, type CompatReport } from '../../verify/compat/index.js';
import { CompatFolder, type Document, listOrders, order, specFile } from './compat-support.js';
import { routes } from '../../core/routes.js';

/** v1's operations below a base path, as compat names them: derived, so that an added operation counts. */
const operationsBelow = (base: string) =>
  `${routes.length} operations: ${routes.map((route) => `${route.method} ${base}${route.path}`).join(', ')}`;

const folder = new CompatFolder();
afterAll(() => folder.remove());

const today = new Date('2026-11-29T00:00:00Z');

/** The report of the kit's document (or `old`) against a copy changed by `change`. */
async function compare(
  change: (document: Document) => void,
  old?: (document: Document) => void,
): Promise<CompatReport> {
  const oldFile = old === undefined ? specFile : await folder.variant(old);
  const newFile = await folder.variant((document) => {
    old?.(document);
    change(document);
  });
  return checkCompatibility({ oldFile, newFile, today });
}

/** A report's findings without the files' names. */
const found = (report: CompatReport) =>
  report.findings.map(({ code, severity, operation, path, expected, actual }) => ({
    code,
    severity,
    operation,
    path,
    expected,
    actual,
  }));

const withStatusEnum = (document: Document) => {
  order(document).properties.status = { type: 'string', enum: ['pending', 'shipped', 'cancelled'] };
};
const withListParameters = (document: Document) => {
  listOrders(document).parameters = [
    { name: 'status', in: 'query', schema: { type: 'string', enum: ['pending', 'shipped', 'cancelled'] } },
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
  ];
};

describe('the same document', () => {
  it('passes with no finding', async () => {
    const report = await checkCompatibility({ oldFile: specFile, newFile: specFile, today });
    expect(report).toMatchObject({ findings: [], verdict: 'passed', exitCode: 0, operations: { old: 3, new: 3 } });
  });
});

describe('response fields', () => {
  it('an Order field removed is response-property-removed, an error', async () => {
    const report = await compare((document) => delete order(document).properties.petId);
    expect(found(report)).toEqual([
      {
        code: 'response-property-removed',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/responses/200/body/[]/petId',
        expected: 'the field petId (integer (int64))',
        actual: 'no such field',
      },
    ]);
    expect(report.exitCode).toBe(1);
  });

  it('an optional field added is response-property-added, info, and passes', async () => {
    const report = await compare((document) => {
      order(document).properties.note = { type: 'string' };
    });
    expect(found(report)).toEqual([
      {
        code: 'response-property-added',
        severity: 'info',
        operation: 'GET /v1/store/orders',
        path: '/responses/200/body/[]/note',
        expected: 'no such field',
        actual: 'an optional field note (string)',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('a type narrowed (int64 to int32) is response-property-type-changed, an error', async () => {
    const report = await compare((document) => {
      order(document).properties.petId.format = 'int32';
    });
    expect(found(report)).toEqual([
      {
        code: 'response-property-type-changed',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/responses/200/body/[]/petId',
        expected: 'integer (int64)',
        actual: 'integer (int32)',
      },
    ]);
  });

  it('a type changed (integer to string) is response-property-type-changed, an error', async () => {
    const report = await compare((document) => {
      order(document).properties.quantity.type = 'string';
    });
    expect(found(report)).toEqual([
      expect.objectContaining({ code: 'response-property-type-changed', expected: 'integer', actual: 'string' }),
    ]);
  });

  it("a field's description changed is no change", async () => {
    const report = await compare((document) => {
      order(document).properties.quantity.description = 'How many.';
    });
    expect(report).toMatchObject({ findings: [], exitCode: 0 });
  });

  it('a maximum raised is response-property-widened, an error', async () => {
    const report = await compare(
      (document) => {
        order(document).properties.quantity.maximum = 1000;
      },
      (document) => {
        order(document).properties.quantity.maximum = 100;
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-property-widened',
        severity: 'error',
        expected: 'maximum 100',
        actual: 'maximum 1000',
      }),
    ]);
  });

  it('a maximum lowered is response-property-narrowed, a warning that passes', async () => {
    const report = await compare(
      (document) => {
        order(document).properties.quantity.maximum = 10;
      },
      (document) => {
        order(document).properties.quantity.maximum = 100;
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-property-narrowed',
        severity: 'warning',
        expected: 'maximum 100',
        actual: 'maximum 10',
      }),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('an int64 bound is compared exactly past 2^53', async () => {
    const report = await compare(
      (document) => {
        order(document).properties.id.maximum = 9007199254740993n;
      },
      (document) => {
        order(document).properties.id.maximum = 9007199254740992n;
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-property-widened',
        expected: 'maximum 9007199254740992',
        actual: 'maximum 9007199254740993',
      }),
    ]);
  });

  it('a field made nullable is response-property-widened, an error', async () => {
    const report = await compare((document) => {
      order(document).properties.quantity.type = ['integer', 'null'];
    });
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-property-widened',
        path: '/responses/200/body/[]/quantity',
        expected: 'not nullable',
        actual: 'nullable',
      }),
    ]);
  });

  it('a required Error field made optional is response-property-became-optional, on each operation that answers it', async () => {
    const report = await compare((document) => {
      document.components.schemas.Error.required = ['code', 'message'];
    });
    expect(found(report).map((finding) => [finding.code, finding.operation, finding.path])).toEqual([
      ['response-property-became-optional', 'GET /v1/store/orders', '/responses/401/body/status'],
      ['response-property-became-optional', 'DELETE /v1/store/orders/{orderId}', '/responses/401/body/status'],
      ['response-property-became-optional', 'DELETE /v1/store/orders/{orderId}', '/responses/404/body/status'],
      ['response-property-became-optional', 'GET /v1/pets/{petId}', '/responses/401/body/status'],
    ]);
  });

  it('a composition changed is response-schema-changed, a warning naming it', async () => {
    const report = await compare(
      (document) => {
        order(document).properties.shipDate = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
      },
      (document) => {
        order(document).properties.shipDate = { oneOf: [{ type: 'string' }] };
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-schema-changed',
        severity: 'warning',
        actual: 'a changed one: compare by hand',
      }),
    ]);
  });

  /** Order as an allOf over a Base schema, as v2's OrderWithStatus is over v1's Order (the old document). */
  const asAllOf = (document: Document) => {
    document.components.schemas.Base = order(document);
    document.components.schemas.Order = {
      allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: {} }],
    };
  };
  const base = (document: Document) => document.components.schemas.Base;

  it("a field's type changed behind an allOf's $ref is response-property-type-changed, an error", async () => {
    const report = await compare((document) => {
      base(document).properties.id.type = 'string';
    }, asAllOf);
    expect(found(report)).toEqual([
      {
        code: 'response-property-type-changed',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/responses/200/body/[]/id',
        expected: 'integer (int64)',
        actual: 'string (int64)',
      },
    ]);
  });

  it("an optional field added in an allOf's member is response-property-added alone, and passes", async () => {
    const report = await compare((document) => {
      base(document).properties.note = { type: 'string' };
    }, asAllOf);
    expect(report.verdict).toBe('passed');
    expect(found(report).map((finding) => [finding.code, finding.path])).toEqual([
      ['response-property-added', '/responses/200/body/[]/note'],
    ]);
  });

  it("a oneOf's branch changed behind its $ref is response-schema-changed, a warning", async () => {
    const withOneOf = (type: string) => (document: Document) => {
      document.components.schemas.When = { type };
      order(document).properties.shipDate = { oneOf: [{ $ref: '#/components/schemas/When' }, { type: 'null' }] };
    };
    const report = await compare(withOneOf('integer'), withOneOf('string'));
    expect(found(report).map((finding) => [finding.code, finding.severity, finding.path])).toEqual([
      ['response-schema-changed', 'warning', '/responses/200/body/[]/shipDate'],
    ]);
  });

  it('a recursive oneOf is compared once per pair of schemas, and ends: the same, no finding; a branch changed, a warning', async () => {
    const withTree = (leaf: string) => (document: Document) => {
      document.components.schemas.Node = {
        oneOf: [
          { type: leaf },
          { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
        ],
      };
      order(document).properties.tree = { $ref: '#/components/schemas/Node' };
    };
    expect((await compare(() => {}, withTree('string'))).findings).toEqual([]);
    expect(found(await compare(withTree('integer'), withTree('string'))).map((finding) => finding.code)).toEqual([
      'response-schema-changed',
    ]);
  });

  it('a recursive schema is compared once per pair of schemas, and ends', async () => {
    const recursive = (document: Document) => {
      order(document).properties.parent = { $ref: '#/components/schemas/Order' };
    };
    const report = await compare((document) => delete order(document).properties.complete, recursive);
    expect(found(report).map((finding) => finding.path)).toEqual(['/responses/200/body/[]/complete']);
  });
});

describe('response enums', () => {
  it('a value removed is response-property-enum-value-removed, an error', async () => {
    const report = await compare((document) => {
      order(document).properties.status.enum = ['pending', 'cancelled'];
    }, withStatusEnum);
    expect(found(report)).toEqual([
      {
        code: 'response-property-enum-value-removed',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/responses/200/body/[]/status',
        expected: 'the value "shipped"',
        actual: 'one of "pending", "cancelled"',
      },
    ]);
  });

  it('a value added is response-property-enum-value-added, a warning that passes', async () => {
    const report = await compare((document) => {
      order(document).properties.status.enum.push('delivered');
    }, withStatusEnum);
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-property-enum-value-added',
        severity: 'warning',
        actual: 'also "delivered"',
      }),
    ]);
    expect(report.exitCode).toBe(0);
  });
});

describe('response statuses', () => {
  it('a status removed is response-status-removed, an error', async () => {
    const report = await compare(
      (document) => delete document.paths['/store/orders/{orderId}'].delete.responses['409'],
    );
    expect(found(report)).toEqual([
      {
        code: 'response-status-removed',
        severity: 'error',
        operation: 'DELETE /v1/store/orders/{orderId}',
        path: '/responses/409',
        expected: 'the status 409',
        actual: 'only 204, 401, 404',
      },
    ]);
  });

  it('a status added is response-status-added, a warning that passes', async () => {
    const report = await compare((document) => {
      listOrders(document).responses['503'] = { description: 'Unavailable.' };
    });
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-status-added',
        severity: 'warning',
        path: '/responses/503',
        actual: 'also 503',
      }),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it("a status's JSON body removed is response-body-removed, an error", async () => {
    const report = await compare((document) => {
      document.paths['/store/orders/{orderId}'].delete.responses['404'] = { description: 'Not found.' };
    });
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-body-removed',
        path: '/responses/404/body',
        expected: 'a JSON body',
        actual: 'none',
      }),
    ]);
  });

  it('a documented header removed is response-header-removed, a warning', async () => {
    const report = await compare(
      (document) => delete document.paths['/pets/{petId}'].get.responses['200'].headers.Sunset,
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-header-removed',
        severity: 'warning',
        path: '/responses/200/headers/sunset',
      }),
    ]);
  });
});

describe('request parameters', () => {
  it('a new required parameter is new-required-request-parameter, an error', async () => {
    const report = await compare((document) => {
      listOrders(document).parameters = [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } }];
    });
    expect(found(report)).toEqual([
      {
        code: 'new-required-request-parameter',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/parameters/query/limit',
        expected: 'no such parameter',
        actual: 'a required query parameter limit',
      },
    ]);
  });

  it('a new optional parameter is new-optional-request-parameter, info that passes', async () => {
    const report = await compare((document) => {
      listOrders(document).parameters = [{ name: 'limit', in: 'query', schema: { type: 'integer' } }];
    });
    expect(found(report)).toEqual([
      expect.objectContaining({ code: 'new-optional-request-parameter', severity: 'info' }),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('a parameter made required is request-parameter-became-required, an error', async () => {
    const report = await compare((document) => {
      listOrders(document).parameters[1].required = true;
    }, withListParameters);
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'request-parameter-became-required',
        path: '/parameters/query/limit',
        expected: 'optional',
        actual: 'required',
      }),
    ]);
  });

  it("a value removed from a parameter's enum is request-parameter-enum-value-removed, an error", async () => {
    const report = await compare((document) => {
      listOrders(document).parameters[0].schema.enum = ['pending', 'shipped'];
    }, withListParameters);
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'request-parameter-enum-value-removed',
        severity: 'error',
        expected: 'the value "cancelled"',
      }),
    ]);
  });

  it("a value added to a parameter's enum is request-parameter-enum-value-added, info", async () => {
    const report = await compare((document) => {
      listOrders(document).parameters[0].schema.enum.push('delivered');
    }, withListParameters);
    expect(found(report)).toEqual([
      expect.objectContaining({ code: 'request-parameter-enum-value-added', severity: 'info' }),
    ]);
  });

  it("a parameter's maximum lowered is request-parameter-narrowed, an error", async () => {
    const report = await compare((document) => {
      listOrders(document).parameters[1].schema.maximum = 50;
    }, withListParameters);
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'request-parameter-narrowed',
        severity: 'error',
        expected: 'maximum 100',
        actual: 'maximum 50',
      }),
    ]);
  });

  it("a parameter's maximum raised is request-parameter-widened, info", async () => {
    const report = await compare((document) => {
      listOrders(document).parameters[1].schema.maximum = 500;
    }, withListParameters);
    expect(found(report)).toEqual([expect.objectContaining({ code: 'request-parameter-widened', severity: 'info' })]);
    expect(report.exitCode).toBe(0);
  });

  it("a parameter's default changed is request-parameter-default-value-changed, a warning", async () => {
    const report = await compare(
      (document) => {
        listOrders(document).parameters[1].schema.default = 50;
      },
      (document) => {
        withListParameters(document);
        listOrders(document).parameters[1].schema.default = 20;
      },
    );
    expect(found(report)).toEqual([
      {
        code: 'request-parameter-default-value-changed',
        severity: 'warning',
        operation: 'GET /v1/store/orders',
        path: '/parameters/query/limit',
        expected: 'default 20',
        actual: 'default 50',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  /** The list taking `tag`, a list of strings, as the name repeated (OpenAPI's default) or not. */
  const withTags = (explode?: boolean) => (document: Document) => {
    listOrders(document).parameters = [
      {
        name: 'tag',
        in: 'query',
        ...(explode === undefined ? {} : { explode }),
        schema: { type: 'array', items: { type: 'string' } },
      },
    ];
  };

  it("a list parameter's explode changed is request-parameter-serialization-changed, an error", async () => {
    const report = await compare(withTags(false), withTags());
    expect(found(report)).toEqual([
      {
        code: 'request-parameter-serialization-changed',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/parameters/query/tag',
        expected: 'the name repeated (exploded)',
        actual: 'one comma-joined value',
      },
    ]);
  });

  it("a list parameter's default explode written out is no change", async () => {
    const report = await compare(withTags(true), withTags());
    expect(report.findings).toEqual([]);
  });

  it('a parameter removed is request-parameter-removed, a warning', async () => {
    const report = await compare((document) => {
      listOrders(document).parameters.pop();
    }, withListParameters);
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'request-parameter-removed',
        severity: 'warning',
        path: '/parameters/query/limit',
      }),
    ]);
  });

  it("a path parameter's type changed is request-parameter-type-changed; renamed, it is no change", async () => {
    const retyped = await compare((document) => {
      document.paths['/store/orders/{orderId}'].delete.parameters[0].schema = { type: 'string' };
    });
    expect(found(retyped)).toEqual([
      expect.objectContaining({
        code: 'request-parameter-type-changed',
        expected: 'integer (int64)',
        actual: 'string',
      }),
    ]);
    const renamed = await compare((document) => {
      const item = document.paths['/store/orders/{orderId}'];
      item.delete.parameters[0].name = 'id';
      document.paths['/store/orders/{id}'] = item;
      delete document.paths['/store/orders/{orderId}'];
    });
    expect(found(renamed)).toEqual([]);
  });
});

describe('operations, base paths and security', () => {
  it('an operation removed is api-removed-without-deprecation, an error', async () => {
    const report = await compare((document) => delete document.paths['/store/orders/{orderId}']);
    expect(found(report)).toEqual([
      {
        code: 'api-removed-without-deprecation',
        severity: 'error',
        operation: 'DELETE /v1/store/orders/{orderId}',
        path: '',
        expected: 'the operation',
        actual: 'none',
      },
    ]);
  });

  it('the deprecated pet read removed with no sunset date is api-removed-before-sunset, an error', async () => {
    const report = await compare((document) => delete document.paths['/pets/{petId}']);
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'api-removed-before-sunset',
        severity: 'error',
        operation: 'GET /v1/pets/{petId}',
        actual: 'removed, with no sunset date (x-sunset)',
      }),
    ]);
  });

  it('the deprecated pet read removed after its x-sunset date is api-removed-after-sunset, a warning that passes', async () => {
    const report = await compare(
      (document) => delete document.paths['/pets/{petId}'],
      (document) => {
        document.paths['/pets/{petId}'].get['x-sunset'] = '2026-06-01';
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'api-removed-after-sunset',
        severity: 'warning',
        expected: 'a deprecated operation kept until its sunset date 2026-06-01',
        actual: 'removed on 2026-11-29',
      }),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it.each([
    ['2026-02-30', 'a day no calendar has'],
    ['1', 'a text Date.parse reads as 2001'],
  ])('an x-sunset of %s (%s) is no date: api-removed-before-sunset, an error', async (sunset) => {
    const report = await compare(
      (document) => delete document.paths['/pets/{petId}'],
      (document) => {
        document.paths['/pets/{petId}'].get['x-sunset'] = sunset;
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'api-removed-before-sunset',
        severity: 'error',
        actual: `removed, with a sunset date that is no date (${sunset})`,
      }),
    ]);
  });

  it('an x-sunset given as an RFC 3339 date-time is read to the second', async () => {
    const report = await compare(
      (document) => delete document.paths['/pets/{petId}'],
      (document) => {
        document.paths['/pets/{petId}'].get['x-sunset'] = '2026-11-28T23:59:59+00:00';
      },
    );
    expect(found(report)).toEqual([expect.objectContaining({ code: 'api-removed-after-sunset' })]);
  });

  it('the deprecated pet read removed before its x-sunset date is api-removed-before-sunset', async () => {
    const report = await compare(
      (document) => delete document.paths['/pets/{petId}'],
      (document) => {
        document.paths['/pets/{petId}'].get['x-sunset'] = '2027-06-01';
      },
    );
    expect(found(report)).toEqual([
      expect.objectContaining({ code: 'api-removed-before-sunset', actual: 'removed on 2026-11-29' }),
    ]);
  });

  it('an operation newly deprecated is api-became-deprecated, info that passes', async () => {
    const report = await compare((document) => {
      listOrders(document).deprecated = true;
      listOrders(document)['x-sunset'] = '2027-06-01';
    });
    expect(found(report)).toEqual([
      {
        code: 'api-became-deprecated',
        severity: 'info',
        operation: 'GET /v1/store/orders',
        path: '',
        expected: 'not deprecated',
        actual: 'deprecated, sunset 2027-06-01',
      },
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('an operation added is api-added, info that passes', async () => {
    const report = await compare((document) => {
      document.paths['/store/orders/{orderId}'].get = {
        operationId: 'getOrder',
        parameters: document.paths['/store/orders/{orderId}'].delete.parameters,
        responses: { '200': { description: 'The order.' } },
      };
    });
    expect(found(report)).toEqual([
      expect.objectContaining({ code: 'api-added', severity: 'info', operation: 'GET /v1/store/orders/{orderId}' }),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('every path moved under /v2 is api-base-path-removed once, an error', async () => {
    const report = await compare((document) => {
      document.servers = [{ url: 'https://production.invalid/v2' }];
    });
    expect(found(report)).toEqual([
      {
        code: 'api-base-path-removed',
        severity: 'error',
        operation: '',
        path: '/servers',
        expected: `the base path /v1 (${operationsBelow('/v1')})`,
        actual: 'none: the document serves /v2',
      },
      {
        code: 'api-base-path-added',
        severity: 'info',
        operation: '',
        path: '/servers',
        expected: 'no such base path',
        actual: `/v2 (${operationsBelow('/v2')})`,
      },
    ]);
  });

  it("v2's orders added beside v1 by a path's servers are additive", async () => {
    const report = await compare((document) => {
      document.paths['/store/orders'].servers = [
        { url: 'https://production.invalid/v1' },
        { url: 'https://production.invalid/v2' },
      ];
    });
    expect(found(report).map((finding) => [finding.code, finding.actual])).toEqual([
      ['api-base-path-added', '/v2 (1 operation: GET /v2/store/orders)'],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it("v1's list moved under /v2 by a path's servers is api-removed-without-deprecation at /v1", async () => {
    const report = await compare((document) => {
      document.paths['/store/orders'].servers = [
        { url: '{base}', variables: { base: { default: 'https://x.invalid/v2' } } },
      ];
    });
    expect(found(report).map((finding) => [finding.code, finding.operation])).toEqual([
      ['api-base-path-added', ''],
      ['api-removed-without-deprecation', 'GET /v1/store/orders'],
    ]);
  });

  it('security required where none was is api-security-added, an error', async () => {
    const report = await compare(
      (document) => delete listOrders(document).security,
      (document) => {
        listOrders(document).security = [];
      },
    );
    expect(found(report)).toEqual([
      {
        code: 'api-security-added',
        severity: 'error',
        operation: 'GET /v1/store/orders',
        path: '/security',
        expected: 'no security',
        actual: 'bearerAuth',
      },
    ]);
  });

  it('a second way to authenticate is api-security-relaxed, info', async () => {
    const report = await compare((document) => {
      document.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
      listOrders(document).security = [{ bearerAuth: [] }, { apiKey: [] }];
    });
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'api-security-relaxed',
        severity: 'info',
        expected: 'bearerAuth',
        actual: 'bearerAuth, or apiKey',
      }),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('the bearer scheme redefined as an API key under its old name is api-security-added, an error', async () => {
    const report = await compare((document) => {
      document.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-Key' };
    });
    expect(found(report)).toContainEqual({
      code: 'api-security-added',
      severity: 'error',
      operation: 'GET /v1/store/orders',
      path: '/security',
      expected: 'Authorization: bearer',
      actual: 'header x-key',
    });
    expect(report.exitCode).toBe(1);
  });

  it('the bearer scheme only renamed is no change', async () => {
    const report = await compare((document) => {
      document.components.securitySchemes.bearer = document.components.securitySchemes.bearerAuth;
      delete document.components.securitySchemes.bearerAuth;
      document.security = [{ bearer: [] }];
    });
    expect(report.findings).toEqual([]);
  });
});

describe('a document that refers to another file, as v2 refers to v1', () => {
  const v2 = (orders: string) =>
    [
      'openapi: 3.1.0',
      'info: { title: v2, version: 2.0.0 }',
      "servers: [{ url: 'https://production.invalid/v2' }]",
      'security: [{ bearerAuth: [] }]',
      'paths:',
      '  /store/orders:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: A page.',
      '          content:',
      '            application/json:',
      "              schema: { type: array, items: { $ref: '#/components/schemas/Listed' } }",
      "        '401': { $ref: './" + orders + "#/components/responses/Unauthorized' }",
      'components:',
      '  securitySchemes:',
      "    bearerAuth: { $ref: './" + orders + "#/components/securitySchemes/bearerAuth' }",
      '  schemas:',
      "    Listed: { $ref: './" + orders + "#/components/schemas/Order' }",
      '',
    ].join('\n');

  it("follows the $ref into the other file: v1's Order field removed breaks v2's list", async () => {
    await folder.variant(() => {}, 'v1.yaml');
    await folder.variant((document) => delete order(document).properties.petId, 'v1-changed.yaml');
    const oldFile = await folder.file('v2.yaml', v2('v1.yaml'));
    const newFile = await folder.file('v2-changed.yaml', v2('v1-changed.yaml'));
    const report = await checkCompatibility({ oldFile, newFile, today });
    expect(found(report)).toEqual([
      expect.objectContaining({
        code: 'response-property-removed',
        operation: 'GET /v2/store/orders',
        path: '/responses/200/body/[]/petId',
      }),
    ]);
  });

  it('refuses a $ref into the other file that resolves to nothing, named as written', async () => {
    await folder.variant(() => {}, 'v1.yaml');
    const broken = await folder.file('v2-broken.yaml', v2('v1.yaml').replace('schemas/Order', 'schemas/Gone'));
    await expect(checkCompatibility({ oldFile: broken, newFile: broken, today })).rejects.toMatchObject({
      code: 'invalid_document',
      message: `${broken}: the $ref ./v1.yaml#/components/schemas/Gone resolves to nothing`,
    });
  });

  it('refuses a $ref to a URL', async () => {
    const remote = await folder.file(
      'v2-remote.yaml',
      v2('v1.yaml').replaceAll('./v1.yaml', 'https://example.com/v1.yaml'),
    );
    await expect(checkCompatibility({ oldFile: remote, newFile: remote, today })).rejects.toMatchObject({
      code: 'invalid_document',
      message: `${remote}: the $ref https://example.com/v1.yaml#/components/schemas/Order is a URL: only $refs inside the document or to files beside it are read`,
    });
  });

  it('refuses a path item that is not an object, rather than reading its operations as removed', async () => {
    const broken = await folder.variant((document) => {
      document.paths['/store/orders'] = 'GET';
    });
    await expect(checkCompatibility({ oldFile: specFile, newFile: broken, today })).rejects.toMatchObject({
      code: 'invalid_document',
      message: `${broken}: the path /store/orders is not an object`,
    });
  });

  it('refuses an operation that is not an object', async () => {
    const broken = await folder.variant((document) => {
      document.paths['/store/orders'].get = null;
    });
    await expect(checkCompatibility({ oldFile: specFile, newFile: broken, today })).rejects.toMatchObject({
      code: 'invalid_document',
      message: `${broken}: the operation get /store/orders is not an object`,
    });
  });

  it('refuses a parameter without its name and place, rather than dropping it unnamed', async () => {
    const broken = await folder.variant((document) => {
      listOrders(document).parameters = [{ in: 'query', required: true, schema: { type: 'string' } }];
    });
    await expect(checkCompatibility({ oldFile: specFile, newFile: broken, today })).rejects.toMatchObject({
      code: 'invalid_document',
      message: `${broken}: parameter 1 of get /store/orders has no name or no place (in)`,
    });
  });
});
