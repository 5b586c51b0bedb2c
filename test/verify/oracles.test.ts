import { describe, expect, it } from 'vitest';
import { checkAgainstSpec, type ObservedResponse } from '../../core/checks.js';
import { createRequire } from 'node:module';
import { loadPrismOracle, prismOperations } from '../../verify/base/prism.js';
import { openApiDocument } from '../../core/schema-validator.js';
import { compareOracles, type PrismDiagnostic } from '../../core/second-oracle.js';
import { routeOf } from '../../core/routes.js';

// The statuses the document gives cancelOrder, in its order: what a finding of an undocumented one lists.
const cancelStatuses = routeOf('cancelOrder').responses.map((response) => response.status);

const jsonResponse = (status: number, text: string, contentType = 'application/json'): ObservedResponse => ({
  status,
  headers: new Headers({ 'content-type': contentType }),
  text,
});

async function judge(method: string, path: string, response: ObservedResponse) {
  const prism = await loadPrismOracle();
  const ajv = checkAgainstSpec(method, path, response);
  const diagnostics = prism.check(method, path, response);
  return { ajv, diagnostics, ...compareOracles(ajv, diagnostics, response) };
}

describe('Ajv and Prism, the two oracles', () => {
  it('gives Prism the operations its own getHttpOperationsFromSpec makes of the document', async () => {
    const { getHttpOperationsFromSpec } = createRequire(import.meta.url)(
      '@stoplight/prism-http/dist/utils/operations',
    ) as { getHttpOperationsFromSpec: (document: object) => Promise<object[]> };
    const fromPrism = await getHttpOperationsFromSpec(structuredClone(openApiDocument) as object);
    expect(fromPrism.length).toBeGreaterThan(0);
    expect(await prismOperations(structuredClone(openApiDocument) as object)).toEqual(fromPrism);
  });

  it.each([
    ['an id as a string', 'GET', '/store/orders', jsonResponse(200, '[{"id":"1"}]'), 'body'],
    ['a wrapped list', 'GET', '/store/orders', jsonResponse(200, '{"orders":[]}'), 'body'],
    ['a list as text/plain', 'GET', '/store/orders', jsonResponse(200, '[]', 'text/plain'), 'content-type'],
    [
      'an Error record without its message',
      'DELETE',
      '/store/orders/9',
      jsonResponse(404, '{"code":"order_not_found","status":404}'),
      'body',
    ],
    ['a 401 without a body', 'GET', '/store/orders', { status: 401, headers: new Headers(), text: '' }, 'body'],
    ['an undocumented 2xx', 'DELETE', '/store/orders/1', jsonResponse(200, '{}'), 'status'],
  ] as const)('both fail %s, and agree', async (_, method, path, response, area) => {
    const { ajv, diagnostics, violations, disagreements } = await judge(method, path, response);
    expect(ajv.map((finding) => finding.area)).toContain(area);
    expect(
      diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.area),
    ).toContain(area);
    expect(disagreements).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('both pass a conforming list and a 204', async () => {
    for (const [method, path, response] of [
      [
        'GET',
        '/store/orders',
        jsonResponse(200, '[{"id":1,"petId":2,"quantity":1,"shipDate":"2026-12-01T09:00:00Z","complete":false}]'),
      ],
      ['DELETE', '/store/orders/1', { status: 204, headers: new Headers(), text: '' }],
    ] as const) {
      const { ajv, diagnostics } = await judge(method, path, response);
      expect(ajv).toEqual([]);
      expect(diagnostics).toEqual([]);
    }
  });

  it("reports Prism's int64 cap on an exact id beyond 2^53 as a known limit, not a violation", async () => {
    const { ajv, violations, disagreements } = await judge(
      'GET',
      '/store/orders',
      jsonResponse(200, '[{"id":9007199254740993}]'),
    );
    expect(ajv).toEqual([]);
    expect(violations).toEqual([]);
    expect(disagreements).toEqual([
      {
        area: 'body',
        ajv: [],
        prism: ['Response body property 0.id must be <= 9007199254740991'],
        knownPrismLimit:
          'Prism caps format int64 at ±(2^53 - 1), the range of a JavaScript number; the value is an exact int64, which Ajv checks losslessly',
      },
    ]);
  });

  it('lets both fail an id beyond int64, so the cap explains nothing there', async () => {
    const { ajv, disagreements } = await judge(
      'GET',
      '/store/orders',
      jsonResponse(200, '[{"id":9223372036854775808}]'),
    );
    expect(ajv).toEqual([
      { code: 'int64-exact', path: '/0/id', expected: 'an int64', actual: '9223372036854775808', area: 'body' },
    ]);
    expect(disagreements).toEqual([]);
  });

  it('reports an undocumented 4xx, which Prism only warns of, as a known limit while Ajv fails it', async () => {
    const { ajv, violations, disagreements } = await judge(
      'DELETE',
      '/store/orders/1',
      jsonResponse(400, '{"code":"x","message":"x","status":400}'),
    );
    expect(ajv).toEqual([
      {
        code: 'status-undocumented',
        path: 'status',
        expected: `a status DELETE /store/orders/{orderId} documents (${cancelStatuses.join(', ')})`,
        actual: '400',
        area: 'status',
      },
    ]);
    expect(violations).toEqual([]);
    expect(disagreements).toEqual([
      {
        area: 'status',
        ajv: [`expected a status DELETE /store/orders/{orderId} documents (${cancelStatuses.join(', ')}), got 400`],
        prism: [
          `Unable to match the returned status code with those defined in the document: ${cancelStatuses.join(',')}`,
        ],
        knownPrismLimit:
          'Prism only warns of an undocumented status outside 2xx; the specification documents every status an operation answers, so the kit fails it',
      },
    ]);
  });

  it('turns an error only Prism finds into a violation, and reports the disagreement', () => {
    const prismOnly: PrismDiagnostic[] = [
      {
        area: 'body',
        path: '/0/quantity',
        message: 'Response body property 0.quantity must be integer',
        severity: 'error',
      },
    ];
    const { violations, disagreements } = compareOracles([], prismOnly, jsonResponse(200, '[{"quantity":1}]'));
    expect(violations).toEqual([
      {
        code: 'prism',
        path: '/0/quantity',
        expected: 'a response both oracles accept',
        actual: 'Prism: Response body property 0.quantity must be integer (Ajv finds nothing here)',
        area: 'body',
      },
    ]);
    expect(disagreements).toEqual([
      { area: 'body', ajv: [], prism: ['Response body property 0.quantity must be integer'] },
    ]);
  });

  it("reports an error only Ajv finds as a disagreement, keeping Ajv's violation", () => {
    const { violations, disagreements } = compareOracles(
      [{ code: 'int64-exact', path: '/0/id', expected: 'an int64', actual: '1.5', area: 'body' }],
      [],
      jsonResponse(200, '[{"id":1.5}]'),
    );
    expect(violations).toEqual([]);
    expect(disagreements).toEqual([{ area: 'body', ajv: ['expected an int64, got 1.5 (at /0/id)'], prism: [] }]);
  });
});
