// A test that did not pass, told to the standalone server (issue 57): `POST /__mock/pact/tests` and
// `POST /__mock/pact/failed-tests`, and the control client's `testStarted(name)` over them.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../../core/parse-json.js';
import { createControlClient } from '../../../mocks/control/control-client.js';
import { MockError } from '../../../mocks/base/errors.js';
import { expectError, startServer } from '../../support/support.js';

let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function started() {
  server = await startServer();
  return server;
}

const asJson = (body: JsonValue) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

interface Pact {
  interactions: { request: { method: string; path: string }; response: { status: number } }[];
  metadata: Record<string, JsonValue>;
}
const callsIn = (pact: Pact) =>
  pact.interactions.map(({ request, response }) => `${request.method} ${request.path} ${response.status}`).sort();

describe('POST /__mock/pact/failed-tests', () => {
  it("leaves the test's first-made calls out of GET /__mock/pact, named", async () => {
    const { control, withKey } = await started();
    expect((await control('/pact/tests', asJson({ name: 'lists the orders' }))).status).toBe(204);
    await withKey('/store/orders');
    expect((await control('/pact/tests', asJson({ name: 'cancels a pending order' }))).status).toBe(204);
    await withKey('/store/orders/1', { method: 'DELETE' });
    expect((await control('/pact/failed-tests', asJson({ name: 'cancels a pending order' }))).status).toBe(204);
    const pact = parseJson(await (await control('/pact?consumer=web-app')).text()) as unknown as Pact;
    expect(callsIn(pact)).toEqual(['GET /v1/store/orders 200']);
    expect(pact.metadata['petstore-contract-kit']).toEqual({ leftOut: 'test "cancels a pending order": did not pass' });
  });

  it('answers a second word that the same test failed alike (204), naming it once', async () => {
    const { control, withKey } = await started();
    expect((await control('/pact/tests', asJson({ name: 'cancels a pending order' }))).status).toBe(204);
    await withKey('/store/orders/1', { method: 'DELETE' });
    for (const _ of [1, 2])
      expect((await control('/pact/failed-tests', asJson({ name: 'cancels a pending order' }))).status).toBe(204);
    const pact = parseJson(await (await control('/pact?consumer=web-app')).text()) as unknown as Pact;
    expect(pact.metadata['petstore-contract-kit']).toEqual({ leftOut: 'test "cancels a pending order": did not pass' });
  });

  it('refuses a test other than the one that began last (409 tests_overlap), keeping its calls', async () => {
    const { control, withKey } = await started();
    await control('/pact/tests', asJson({ name: 'cancels a pending order' }));
    await withKey('/store/orders/1', { method: 'DELETE' });
    await control('/pact/tests', asJson({ name: 'lists the orders' }));
    await expectError(
      await control('/pact/failed-tests', asJson({ name: 'cancels a pending order' })),
      409,
      'tests_overlap',
      'Test "cancels a pending order" is not the test that began last on this session ("lists the orders" is): its calls cannot be told apart, and stay in the pact.',
    );
    const pact = parseJson(await (await control('/pact?consumer=web-app')).text()) as unknown as Pact;
    expect(callsIn(pact)).toEqual(['DELETE /v1/store/orders/1 204']);
  });

  it('refuses a failed test when none began (409 tests_overlap)', async () => {
    const { control } = await started();
    await expectError(
      await control('/pact/failed-tests', asJson({ name: 'cancels a pending order' })),
      409,
      'tests_overlap',
      'Test "cancels a pending order" is not the test that began last on this session (none is running): its calls cannot be told apart, and stay in the pact.',
    );
  });

  it('refuses a body without a name (400 invalid_request)', async () => {
    const { control } = await started();
    await expectError(
      await control('/pact/tests', asJson({ title: 'cancels' })),
      400,
      'invalid_request',
      'POST /__mock/pact/tests needs a JSON body {"name": "TEST"}, the test\'s name a non-empty string.',
    );
  });
});

describe("the control client's testStarted", () => {
  it("writes a pact without the failed test's call, named in its metadata", async () => {
    const { origin, withKey } = await started();
    const directory = await mkdtemp(join(tmpdir(), 'petstore-failed-test-control-'));
    try {
      const client = createControlClient({ baseUrl: `${origin}/v1`, warn: () => {} });
      await client.testStarted('lists the orders');
      await withKey('/store/orders');
      const failed = await client.testStarted('cancels a pending order');
      await withKey('/store/orders/1', { method: 'DELETE' });
      await failed();
      const file = await client.pact({ consumer: 'web-app', dir: directory });
      const pact = parseJson(await readFile(file, 'utf8')) as unknown as Pact;
      expect(callsIn(pact)).toEqual(['GET /v1/store/orders 200']);
      expect(pact.metadata['petstore-contract-kit']).toEqual({
        leftOut: 'test "cancels a pending order": did not pass',
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('rejects with MockError tests_overlap once another test began', async () => {
    const { origin } = await started();
    const client = createControlClient({ baseUrl: `${origin}/v1` });
    const failed = await client.testStarted('cancels a pending order');
    await client.testStarted('lists the orders');
    await expect(failed()).rejects.toThrow(MockError);
    await expect(failed()).rejects.toMatchObject({ code: 'tests_overlap', status: 409 });
  });
});
