import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openApiDocument } from '../../core/schema-validator.js';
import { openApiDocumentV2 } from '../../spec/generated/openapi-document.js';

const specPath = new URL('../../spec/openapi.yaml', import.meta.url);
const document = parse(await readFile(specPath, 'utf8'));

describe('spec/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is linted by a validator that does reject a broken document', async () => {
    const withoutInfo = structuredClone(document);
    delete withoutInfo.info;
    expect((await new Validator().validate(withoutInfo)).valid).toBe(false);
    const badParameter = structuredClone(document);
    badParameter.paths['/store/orders/{orderId}'].delete.parameters[0].in = 'body';
    expect((await new Validator().validate(badParameter)).valid).toBe(false);
  });

  it('is version 1.0.0 with a production and a staging server, both ending in /v1', () => {
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers).toHaveLength(2);
    for (const server of document.servers) {
      const [variable] = Object.values(server.variables) as { default: string }[];
      expect(variable!.default).toMatch(/\/v1$/);
    }
    expect(document.servers.map((server: { description: string }) => server.description.split('.')[0])).toEqual([
      'Production',
      'Staging',
    ]);
  });

  it('requires HTTP bearer authentication on every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const path of Object.values(document.paths) as Record<string, { security?: unknown }>[]) {
      for (const operation of Object.values(path)) expect(operation.security).toBeUndefined();
    }
  });

  it('defines Order with int64 ids, a date-time shipDate and no required field', () => {
    const order = document.components.schemas.Order;
    expect(order.required).toBeUndefined();
    expect(Object.keys(order.properties)).toEqual(['id', 'petId', 'quantity', 'shipDate', 'complete']);
    expect(order.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(order.properties.petId).toMatchObject({ type: 'integer', format: 'int64' });
    expect(order.properties.quantity.type).toBe('integer');
    expect(order.properties.shipDate).toMatchObject({ type: 'string', format: 'date-time' });
    expect(order.properties.complete.type).toBe('boolean');
    expect(order.properties.status).toBeUndefined();
  });

  it('defines Error with code, message and status all required', () => {
    const error = document.components.schemas.Error;
    expect(error.required).toEqual(['code', 'message', 'status']);
    expect(error.properties).toMatchObject({
      code: { type: 'string' },
      message: { type: 'string' },
      status: { type: 'integer' },
    });
  });

  it('documents listOrders and cancelOrder with their tags and every documented response', () => {
    const list = document.paths['/store/orders'].get;
    expect(list.operationId).toBe('listOrders');
    expect(list.tags).toEqual(['orders']);
    expect(list.parameters).toBeUndefined();
    expect(Object.keys(list.responses)).toEqual(['200', '401']);
    const cancel = document.paths['/store/orders/{orderId}'].delete;
    expect(cancel.operationId).toBe('cancelOrder');
    expect(cancel.tags).toEqual(['orders']);
    expect(cancel.parameters).toEqual([
      expect.objectContaining({
        name: 'orderId',
        in: 'path',
        required: true,
        schema: { type: 'integer', format: 'int64' },
      }),
    ]);
    expect(Object.keys(cancel.responses)).toEqual(['204', '401', '404', '409']);
    expect(cancel.responses['204'].content).toBeUndefined();
    expect(cancel.responses['409'].content).toBeUndefined();
    expect(cancel.responses['409'].description).toMatch(/not shown/);
  });

  it("marks GET /pets/{petId} deprecated, names it readPet (the kit's name), with no invented tag or pet field", () => {
    const read = document.paths['/pets/{petId}'].get;
    expect(read.deprecated).toBe(true);
    expect(read.operationId).toBe('readPet');
    expect(read.description).toMatch(/The operation identifier readPet is the kit's/);
    expect(read.tags).toBeUndefined();
    // An open object: generators give { [key: string]: unknown }, not Record<string, never>.
    expect(document.components.schemas.Pet).toEqual({
      type: 'object',
      description: expect.stringMatching(/not shown/),
      additionalProperties: true,
    });
  });

  it('is the document the mock runs on (the generated module is fresh)', async () => {
    expect(openApiDocument).toEqual(document);
    const { stderr } = await promisify(execFile)(process.execPath, ['scripts/generate-spec.mjs', '--check'], {
      cwd: new URL('../..', import.meta.url),
    });
    expect(stderr).toBe('');
  });
});

const v2 = parse(await readFile(new URL('../../spec/openapi-v2.yaml', import.meta.url), 'utf8'));

describe('spec/openapi-v2.yaml', () => {
  it('is, with the v1 records it refers to copied in, a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocumentV2) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("refers to v1's Order, Error, Unauthorized and bearer scheme rather than copying them", () => {
    const references = JSON.stringify(v2).match(/\.\/openapi\.yaml#[^"]+/g);
    expect([...new Set(references)].sort()).toEqual([
      './openapi.yaml#/components/responses/Unauthorized',
      './openapi.yaml#/components/schemas/Error',
      './openapi.yaml#/components/schemas/Order',
      './openapi.yaml#/components/securitySchemes/bearerAuth',
    ]);
  });

  it('has a production and a staging server, both ending in /v2', () => {
    const defaults = v2.servers.map(
      (server: { variables: Record<string, { default: string }> }) => Object.values(server.variables)[0]!.default,
    );
    expect(defaults).toEqual(['https://production.invalid/v2', 'https://staging.invalid/v2']);
  });

  it('marks its list beta, with a status filter, a bounded limit and a cursor', () => {
    const list = v2.paths['/store/orders'].get;
    expect(list['x-stability']).toBe('beta');
    expect(
      list.parameters.map((parameter: { name: string; in: string }) => `${parameter.in} ${parameter.name}`),
    ).toEqual(['query status', 'query limit', 'query cursor']);
    expect(list.parameters[1].schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401']);
  });
});
