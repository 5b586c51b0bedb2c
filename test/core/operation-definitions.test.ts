// One definition per operation of the document: what an answer proves about the store, read the same
// way by a consumer's pact and by a recording.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { operationDefinitions, statusShowing, titleOf } from '../../core/operation-definitions.js';
import type { JsonValue } from '../../core/parse-json.js';
import type { BodySchemaName } from '../../core/scenario.js';
import { isSafeMethod, majorRoutes, mayChangeTheStore, routes, schemaNameOf, storeListing } from '../../core/routes.js';

describe('operationDefinitions', () => {
  it('defines every operation of both documents, and no other', () => {
    expect(Object.keys(operationDefinitions).sort()).toEqual(majorRoutes.map((route) => route.operation).sort());
  });

  it("reads a list's orders as listed, and nothing from a refused list", () => {
    const orders: JsonValue[] = [{ id: 9007199254740993n, petId: 7 }, { id: 2 }];
    expect(operationDefinitions.listOrders.evidence({ status: 200, body: orders })).toEqual({ kind: 'listed', orders });
    expect(operationDefinitions.listOrders.evidence({ status: 401, body: { code: 'missing_api_key' } })).toEqual({
      kind: 'nothing',
    });
  });

  it("reads how a cancel's order was held from its status, the id exact beyond 2^53", () => {
    const cancel = (status: number, parameter: string) =>
      operationDefinitions.cancelOrder.evidence({ status, body: undefined, parameter });
    expect(cancel(204, '9007199254740993')).toEqual({ kind: 'held', id: 9007199254740993n, as: 'pending' });
    expect(cancel(409, '3')).toEqual({ kind: 'held', id: 3n, as: 'shipped' });
    expect(cancel(404, '99')).toEqual({ kind: 'held', id: 99n, as: 'absent' });
    expect(cancel(401, '3')).toEqual({ kind: 'nothing' });
    expect(cancel(404, 'abc')).toEqual({ kind: 'nothing' });
    expect(cancel(404, '9223372036854775808')).toEqual({ kind: 'nothing' });
  });

  it('gives back the status that shows how an order was held, a cancelled order as an absent one', () => {
    expect(
      ['pending', 'shipped', 'cancelled', 'absent'].map((as) => statusShowing('cancelOrder', as as never)),
    ).toEqual([204, 409, 404, 404]);
    expect(statusShowing('listOrders', 'pending')).toBeUndefined();
  });

  it("titles a recorded call of each operation, with its path's parameter as written", () => {
    expect(titleOf('listOrders')).toBe('list the orders');
    expect(titleOf('cancelOrder', '9007199254740993')).toBe('cancel order 9007199254740993');
    expect(titleOf('readPet', '7')).toBe('read pet 7');
  });

  it("titles an operation without a title of its own by its name's words, and its parameter as written", () => {
    expect(operationDefinitions.cancelOrder.title).toBeUndefined();
    expect(routes.map((route) => titleOf(route.operation, route.parameter === null ? undefined : '12'))).toEqual(
      routes.map((route) =>
        route.operation === 'listOrders'
          ? 'list the orders'
          : `${route.operation.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)} 12`,
      ),
    );
  });

  it('proves nothing from the deprecated pet read', () => {
    expect(operationDefinitions.readPet.evidence({ status: 200, body: { id: 1 }, parameter: '1' })).toEqual({
      kind: 'nothing',
    });
  });
});

describe('schemaNameOf', () => {
  it("names every documented body schema as a scenario step names it, from the document's own schema", () => {
    const names = routes.flatMap((route) =>
      route.responses.map((response) => `${route.operation} ${response.status} ${schemaNameOf(response) ?? '-'}`),
    );
    expect(names).toEqual(
      routes.flatMap((route) =>
        route.responses.map(
          (response) =>
            `${route.operation} ${response.status} ${
              response.schema === null
                ? '-'
                : route.operation === 'listOrders' && response.status === 200
                  ? 'Order[]'
                  : response.status === 200
                    ? 'Pet'
                    : 'Error'
            }`,
        ),
      ),
    );
    const stepNames: BodySchemaName[] = ['Order[]', 'Error', 'Pet'];
    for (const name of names.map((line) => line.split(' ')[2]).filter((name) => name !== '-'))
      expect(stepNames).toContain(name);
  });

  it("is what scenarios/scenario.schema.json lets a step's body name (both majors'), no more and no fewer", async () => {
    const text = await readFile(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8');
    const found: string[][] = [];
    JSON.parse(text, (key, value) => {
      if (key === 'enum' && Array.isArray(value) && value.includes('Error')) found.push(value as string[]);
      return value;
    });
    const documented = new Set(
      majorRoutes.flatMap((route) => route.responses.map((response) => schemaNameOf(response))).filter(Boolean),
    );
    expect(found.map((names) => [...names].sort())).toEqual([[...documented].sort()]);
  });
});

describe('storeListing', () => {
  it('is the one operation without a parameter whose 200 lists Orders', () => {
    const lists = routes.filter(
      (route) =>
        route.parameter === null &&
        route.responses.some((response) => response.status === 200 && schemaNameOf(response) === 'Order[]'),
    );
    expect(lists).toHaveLength(1);
    expect(storeListing()).toBe(lists[0]);
    expect(`${storeListing().method} ${storeListing().path}`).toBe('GET /store/orders');
  });
});

describe('mayChangeTheStore', () => {
  it("is true for a documented operation's unsafe method only (RFC 9110, 9.2.1)", () => {
    expect(mayChangeTheStore('DELETE', '/store/orders/3')).toBe(true);
    expect(mayChangeTheStore('GET', '/store/orders')).toBe(false);
    expect(mayChangeTheStore('GET', '/pets/3')).toBe(false);
    // Not an operation of the document: the model holds nothing it could change.
    expect(mayChangeTheStore('DELETE', '/store/orders')).toBe(false);
    expect(mayChangeTheStore('POST', '/store/orders/3/x')).toBe(false);
  });

  it('rests on the methods RFC 9110 calls safe, and no other', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'TRACE'].map(isSafeMethod)).toEqual([true, true, true, true]);
    expect(['DELETE', 'POST', 'PUT', 'PATCH', 'CONNECT', 'get'].map(isSafeMethod)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
