import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { majorRoutes, type OperationName, operationNames, routeOf } from '../../core/routes.js';
import { RequestJournal, type RecordedCall } from '../../mocks/journal/journal.js';
import { authorized, expectError, inProcessBase, jsonOf, startServer, useInProcessMock } from '../support/support.js';
import { servedResponseCount } from '../support/document-figures.js';

type Started = Awaited<ReturnType<typeof startServer>>;
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('the request journal over HTTP (GET and DELETE /__mock/requests)', () => {
  let mock: Started;
  beforeEach(async () => {
    mock = await startServer({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
  });
  afterEach(() => mock.close());

  it('records every call under /v1, oldest first, with what the client got and never the key', async () => {
    await mock.withKey('/store/orders');
    await mock.withKey('/store/orders/1', { method: 'DELETE' });
    await mock.withKey('/store/orders/2', { method: 'DELETE' });
    await mock.api('/store/orders/1', { method: 'DELETE' });
    await mock.api('/pets/7', { headers: { authorization: 'Basic cGV0OnN0b3Jl' } });
    await mock.withKey('/store/nothing');
    await mock.api('/store/orders', { method: 'HEAD', headers: authorized });
    await mock.control('/orders');
    const entries = (await jsonOf(await mock.control('/requests'))) as Record<string, unknown>[];
    expect(
      entries.map(({ time, ...entry }) => {
        expect(time).toMatch(iso);
        return entry;
      }),
    ).toEqual([
      {
        method: 'GET',
        path: '/v1/store/orders',
        operation: 'listOrders',
        status: 200,
        session: null,
        authorization: 'valid',
      },
      {
        method: 'DELETE',
        path: '/v1/store/orders/1',
        operation: 'cancelOrder',
        status: 204,
        session: null,
        authorization: 'valid',
      },
      {
        method: 'DELETE',
        path: '/v1/store/orders/2',
        operation: 'cancelOrder',
        status: 409,
        session: null,
        authorization: 'valid',
      },
      {
        method: 'DELETE',
        path: '/v1/store/orders/1',
        operation: 'cancelOrder',
        status: 401,
        session: null,
        authorization: 'none',
      },
      { method: 'GET', path: '/v1/pets/7', operation: 'readPet', status: 401, session: null, authorization: 'invalid' },
      { method: 'GET', path: '/v1/store/nothing', operation: null, status: 404, session: null, authorization: 'valid' },
      { method: 'HEAD', path: '/v1/store/orders', operation: null, status: 200, session: null, authorization: 'valid' },
    ]);
    expect(JSON.stringify(entries)).not.toContain('petstore-dev-key');
  });

  it('records a faulted call with the status the client got, or network for a dropped connection', async () => {
    await mock.control('/faults', {
      method: 'POST',
      body: JSON.stringify([
        { operation: 'listOrders', status: 503, times: 1 },
        { operation: 'cancelOrder', network: true, times: 1 },
      ]),
    });
    await mock.withKey('/store/orders');
    await expect(mock.withKey('/store/orders/1', { method: 'DELETE' })).rejects.toThrow(TypeError);
    const entries = (await jsonOf(await mock.control('/requests'))) as { operation: string; status: unknown }[];
    expect(entries.map((entry) => [entry.operation, entry.status])).toEqual([
      ['listOrders', 503],
      ['cancelOrder', 'network'],
    ]);
  });

  it('filters by operation, status, method and path in the query', async () => {
    await mock.withKey('/store/orders/1', { method: 'DELETE' });
    await mock.withKey('/store/orders/1', { method: 'DELETE' });
    await mock.withKey('/store/orders');
    const pick = async (query: string) =>
      ((await jsonOf(await mock.control(`/requests?${query}`))) as { status: number }[]).map((entry) => entry.status);
    expect(await pick('operation=cancelOrder')).toEqual([204, 404]);
    expect(await pick('operation=cancelOrder&status=204')).toEqual([204]);
    expect(await pick('method=GET')).toEqual([200]);
    expect(await pick('path=/v1/store/orders/1&status=404')).toEqual([404]);
    expect(await pick('operation=null')).toEqual([]);
  });

  it('refuses an unknown filter and a status that is no status, with 400', async () => {
    await expectError(
      await mock.control('/requests?colour=red'),
      400,
      'invalid_request',
      'Unknown filter "colour": filter by operation, status, method, path.',
    );
    await expectError(
      await mock.control('/requests?status=teapot'),
      400,
      'invalid_request',
      'Invalid status filter "teapot": a status from 100 to 599, or network.',
    );
  });

  it('refuses an operation filter that names no operation, listing the operations', async () => {
    await expectError(
      await mock.control('/requests?operation=cancelorder'),
      400,
      'invalid_request',
      `Unknown operation filter "cancelorder": an operation of the interface (${operationNames.join(', ')}), or null for calls that are no operation.`,
    );
  });

  it('refuses a filter given twice rather than applying one of its values', async () => {
    await expectError(
      await mock.control('/requests?status=200&status=409'),
      400,
      'invalid_request',
      'Filter "status" is given 2 times: give each filter once.',
    );
  });

  it('forgets the calls and the coverage on DELETE, and on reset', async () => {
    await mock.withKey('/store/orders');
    expect((await mock.control('/requests', { method: 'DELETE' })).status).toBe(204);
    expect(await jsonOf(await mock.control('/requests'))).toEqual([]);
    expect(((await jsonOf(await mock.control('/coverage'))) as { covered: number }).covered).toBe(0);
    await mock.withKey('/store/orders');
    await mock.control('/reset', { method: 'POST' });
    expect(await jsonOf(await mock.control('/requests'))).toEqual([]);
  });

  it('keeps a journal per session, named in each entry', async () => {
    await mock.withKey('/store/orders', { headers: { ...authorized, 'x-mock-session': 'job-1' } });
    await mock.withKey('/store/orders');
    const named = (await jsonOf(await mock.control('/requests', { headers: { 'x-mock-session': 'job-1' } }))) as {
      session: string;
    }[];
    expect(named.map((entry) => entry.session)).toEqual(['job-1']);
    expect(
      ((await jsonOf(await mock.control('/requests'))) as { session: null }[]).map((entry) => entry.session),
    ).toEqual([null]);
  });

  it('answers the documented responses with how often each was answered, for every operation of the route table', async () => {
    await mock.withKey('/store/orders/1', { method: 'DELETE' });
    await mock.withKey('/store/orders/2', { method: 'DELETE' });
    await mock.withKey('/store/orders/2', { method: 'DELETE' });
    await mock.api('/store/orders');
    const coverage = (await jsonOf(await mock.control('/coverage'))) as {
      operations: { operation: string; method: string; path: string; responses: { status: number; seen: number }[] }[];
      covered: number;
      total: number;
    };
    expect(coverage.operations.map((operation) => [operation.operation, operation.method, operation.path])).toEqual(
      majorRoutes.map((route) => [route.operation, route.method, route.path]),
    );
    // every documented response of the operation, in the document's order, with how often it was seen
    const seen = (operation: OperationName, counts: Record<number, number>) =>
      routeOf(operation).responses.map(({ status }) => ({ status, seen: counts[status] ?? 0 }));
    expect(coverage.operations.find((operation) => operation.operation === 'cancelOrder')!.responses).toEqual(
      seen('cancelOrder', { 204: 1, 409: 2 }),
    );
    expect(coverage.operations.find((operation) => operation.operation === 'listOrders')!.responses).toEqual(
      seen('listOrders', { 401: 1 }),
    );
    expect(coverage).toMatchObject({ covered: 3, total: servedResponseCount });
  });
});

describe("the journal's bounds", () => {
  let mock: Started;
  afterEach(() => mock.close());

  it('keeps the last --journal-size calls, and counts coverage over the whole life', async () => {
    mock = await startServer({ journalSize: 3 });
    for (let call = 0; call < 5; call++) await mock.withKey(`/pets/${call}`);
    const entries = (await jsonOf(await mock.control('/requests'))) as { path: string }[];
    expect(entries.map((entry) => entry.path)).toEqual(['/v1/pets/2', '/v1/pets/3', '/v1/pets/4']);
    const coverage = (await jsonOf(await mock.control('/coverage'))) as {
      operations: { operation: string; responses: { status: number; seen: number }[] }[];
    };
    expect(coverage.operations.find((operation) => operation.operation === 'readPet')!.responses[0]).toEqual({
      status: 200,
      seen: 5,
    });
  });

  it('keeps nothing with a journal size of 0', async () => {
    mock = await startServer({ journalSize: 0 });
    await mock.withKey('/store/orders');
    expect(await jsonOf(await mock.control('/requests'))).toEqual([]);
    expect(((await jsonOf(await mock.control('/coverage'))) as { covered: number }).covered).toBe(0);
  });
});

describe('the journal in-process', () => {
  const current = useInProcessMock({ seed: [{ id: 1 }, { id: 3, status: 'shipped' }] });

  it('tells a test exactly what the app called: mock.requests(filter)', async () => {
    const mock = current();
    await fetch(`${inProcessBase}/store/orders/3`, { method: 'DELETE', headers: authorized });
    await fetch(`${inProcessBase}/store/orders/1`, { method: 'DELETE', headers: authorized });
    expect(mock.requests({ operation: 'cancelOrder', status: 204 })).toHaveLength(1);
    expect(mock.requests({ method: 'DELETE', path: '/v1/store/orders/3' })).toMatchObject([
      { status: 409, authorization: 'valid', session: null },
    ]);
    expect(mock.requests({ path: /^\/v1\/store\/orders\/\d+$/ })).toHaveLength(2);
    expect(
      mock
        .coverage()
        .operations.find((operation) => operation.operation === 'cancelOrder')!
        .responses.filter((response) => response.seen > 0)
        .map((response) => response.status),
    ).toEqual([204, 409]);
    mock.clearRequests();
    expect(mock.requests()).toEqual([]);
  });

  it('picks every call a global RegExp matches, however often it is used', async () => {
    const mock = current();
    await fetch(`${inProcessBase}/store/orders/3`, { method: 'DELETE', headers: authorized });
    await fetch(`${inProcessBase}/store/orders/1`, { method: 'DELETE', headers: authorized });
    const orders = /orders\/\d+$/g;
    expect(mock.requests({ path: orders })).toHaveLength(2);
    expect(mock.requests({ path: orders })).toHaveLength(2);
  });

  it("keeps a named session's calls apart: mock.session(name).requests()", async () => {
    const mock = current();
    await fetch(`${inProcessBase}/store/orders`, { headers: { ...authorized, 'x-mock-session': 'file-a' } });
    expect(mock.session('file-a').requests()).toMatchObject([
      { operation: 'listOrders', status: 200, session: 'file-a' },
    ]);
    expect(mock.requests()).toEqual([]);
    expect(mock.session('file-a').coverage().covered).toBe(1);
  });
});

describe('the key a call carried, as the journal tells it', () => {
  const current = useInProcessMock({ seed: [{ id: 1 }] });
  const wrongKey = { authorization: 'Bearer not-the-key' };
  const seen = () =>
    current()
      .requests()
      .map(({ method, status, authorization }) => ({ method, status, authorization }));

  it('is valid for a call the operation answered, whatever it answered', async () => {
    await fetch(`${inProcessBase}/store/orders/1`, { method: 'DELETE', headers: authorized });
    await fetch(`${inProcessBase}/store/orders/1`, { method: 'DELETE', headers: authorized });
    expect(seen()).toEqual([
      { method: 'DELETE', status: 204, authorization: 'valid' },
      { method: 'DELETE', status: 404, authorization: 'valid' },
    ]);
  });

  it('is invalid for a wrong key the operation refused, and none for no key', async () => {
    await fetch(`${inProcessBase}/store/orders/1`, { method: 'DELETE', headers: wrongKey });
    await fetch(`${inProcessBase}/store/orders/1`, { method: 'DELETE' });
    expect(seen()).toEqual([
      { method: 'DELETE', status: 401, authorization: 'invalid' },
      { method: 'DELETE', status: 401, authorization: 'none' },
    ]);
  });

  it('is checked for a call no operation answered: OPTIONS, and a fault', async () => {
    current().addFaults({ operation: 'listOrders', status: 503, times: 2 });
    await fetch(`${inProcessBase}/store/orders`, { method: 'OPTIONS', headers: wrongKey });
    await fetch(`${inProcessBase}/store/orders`, { headers: wrongKey });
    await fetch(`${inProcessBase}/store/orders`, { headers: authorized });
    expect(seen()).toEqual([
      { method: 'OPTIONS', status: 204, authorization: 'invalid' },
      { method: 'GET', status: 503, authorization: 'invalid' },
      { method: 'GET', status: 503, authorization: 'valid' },
    ]);
  });
});

describe("the journal's answers, kept for a pact", () => {
  const mebibyte = [new Uint8Array(1024 * 1024)];
  const call = (): RecordedCall => ({
    method: 'GET',
    path: '/v1/store/orders',
    operation: 'listOrders',
    status: 200,
    session: null,
    time: 0,
    authorization: 'valid',
    answer: { by: 'kit', contentType: 'application/json', wwwAuthenticate: null, body: mebibyte },
  });

  it('keeps at most 32 MiB of bodies in all, and journals the calls past it without theirs', () => {
    const journal = new RequestJournal(100);
    for (let index = 0; index < 40; index++) journal.record(call());
    const kept = journal.calls().map((entry) => entry.answer?.bodyDropped === true);
    expect(kept.filter((dropped) => !dropped)).toHaveLength(32);
    expect(kept.slice(32)).toEqual(Array(8).fill(true));
  });

  it('counts a body no longer once its call has left the journal', () => {
    const journal = new RequestJournal(2);
    for (let index = 0; index < 40; index++) journal.record(call());
    expect(journal.calls().map((entry) => entry.answer?.bodyDropped ?? false)).toEqual([false, false]);
  });

  it('shows no answer in the listing: what mock.requests() gives is unchanged', () => {
    const journal = new RequestJournal(2);
    journal.record(call());
    expect(Object.keys(journal.list()[0]!)).not.toContain('answer');
  });
});
