// A pact of a big store never stalls the mock (issue 59, item 4): the build takes turns of the event
// loop, so that other sessions are answered while it goes on; a pact past its size limit is refused
// with a coded error that names the limit, the store untouched; what a pact leaves out is said in the
// same words on the console, in the file and in pactDocument().leftOut; and a small pact's answer is
// byte for byte what it was before the build was sliced.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { MockUsageError } from '../../mocks/base/errors.js';
import { replyToResponse, type Reply } from '../../mocks/base/reply.js';
import { createControlClient } from '../../mocks/control/control-client.js';
import { startServer } from '../support/support.js';

const key = { authorization: 'Bearer petstore-dev-key' };
const list = (session?: string) =>
  new Request('http://petstore.test/v1/store/orders', {
    headers: session === undefined ? key : { ...key, 'x-mock-session': session },
  });
const cancel = (id: number) =>
  new Request(`http://petstore.test/v1/store/orders/${id}`, { method: 'DELETE', headers: key });

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-big-pact-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('building a big pact', () => {
  it("answers another session's request while the pact is being built", async () => {
    // Three lists of 1,000 orders: each interaction is a slice of its own (about 340 KiB of text, over 256 KiB).
    const mock = createOrderMock({
      seed: Array.from({ length: 1000 }, (_, index) => ({ id: index + 1, petId: 1000 + index })),
    });
    for (const id of [1, 2, 3]) {
      await mock.handle(list());
      await mock.handle(cancel(id));
    }
    const events: string[] = [];
    const pact = mock.handle(new Request('http://petstore.test/__mock/pact?consumer=web-app')).then((answer) => {
      events.push(`pact answered ${(answer as Reply).status}`);
    });
    // Runs at the first turn of the event loop: only if the build lets one happen before it ends.
    const other = new Promise<void>((done) =>
      setImmediate(async () => {
        events.push('other session asked');
        const answer = (await mock.handle(list('other-tab'))) as Reply;
        events.push(`other session answered ${answer.status}`);
        done();
      }),
    );
    await Promise.all([pact, other]);
    expect(events).toEqual(['other session asked', 'other session answered 200', 'pact answered 200']);
  });
});

describe('the size limit of a pact', () => {
  // A list and a cancel: a pact of two interactions.
  async function serverWithCalls(maxPactBytes?: number) {
    const kit = await startServer({
      seed: [{ id: 1 }, { id: 2, status: 'shipped' }],
      ...(maxPactBytes !== undefined && { maxPactBytes }),
      warn: () => {},
    });
    await (await kit.withKey('/store/orders')).arrayBuffer();
    await (await kit.withKey('/store/orders/2', { method: 'DELETE' })).arrayBuffer();
    return kit;
  }

  async function pactSize(): Promise<number> {
    const kit = await serverWithCalls();
    try {
      return (await (await kit.control('/pact?consumer=web-app')).arrayBuffer()).byteLength;
    } finally {
      await kit.close();
    }
  }

  it('answers a pact of exactly the limit', async () => {
    const size = await pactSize();
    const kit = await serverWithCalls(size);
    try {
      const answer = await kit.control('/pact?consumer=web-app');
      expect(answer.status).toBe(200);
      expect((await answer.arrayBuffer()).byteLength).toBe(size);
    } finally {
      await kit.close();
    }
  });

  it('refuses a pact one byte past the limit with 409 pact_too_large, naming the limit and how to get under it', async () => {
    const size = await pactSize();
    const kit = await serverWithCalls(size - 1);
    try {
      const answer = await kit.control('/pact?consumer=web-app');
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({
        code: 'pact_too_large',
        message: `The pact of web-app was not made: its JSON text passed the ${size - 1} bytes a pact may have (0.0 MiB), and a pact without some of its calls would not be the app's whole contract. Write it in parts (a filter such as ?operation=cancelOrder, or clear it between parts with DELETE /__mock/pact), or list a smaller store.`,
        status: 409,
      });
    } finally {
      await kit.close();
    }
  });

  it('leaves the store, the journal and the calls of the pact as they were when it refuses', async () => {
    // More than a pact of no calls, less than one of a list and a cancel.
    const kit = await serverWithCalls(400);
    try {
      const orders = await kit.storedOrders();
      const journal = parseJson(await (await kit.control('/requests')).text()) as unknown[];
      expect((await kit.control('/pact?consumer=web-app')).status).toBe(409);
      expect(await kit.storedOrders()).toEqual(orders);
      expect(parseJson(await (await kit.control('/requests')).text())).toEqual(journal);
      // The pact's calls are kept: cleared, the pact of no calls fits.
      expect((await kit.control('/pact?consumer=web-app')).status).toBe(409);
      expect((await kit.control('/pact', { method: 'DELETE' })).status).toBe(204);
      expect((await kit.control('/pact?consumer=web-app')).status).toBe(200);
    } finally {
      await kit.close();
    }
  });

  it('leaves the store and the journal as they were when it answers', async () => {
    const kit = await serverWithCalls();
    try {
      const orders = await kit.storedOrders();
      const journal = parseJson(await (await kit.control('/requests')).text()) as unknown[];
      expect((await kit.control('/pact?consumer=web-app')).status).toBe(200);
      expect(await kit.storedOrders()).toEqual(orders);
      expect(parseJson(await (await kit.control('/requests')).text())).toEqual(journal);
    } finally {
      await kit.close();
    }
  });

  it('refuses mock.pact() with MockUsageError pact_too_large, writing nothing', async () => {
    const mock = createOrderMock({ seed: [{ id: 1 }], maxPactBytes: 100 });
    await mock.handle(list());
    const dir = join(directory, 'too-large');
    const refused = await mock.pact({ consumer: 'web-app', dir }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockUsageError);
    expect(refused).toMatchObject({ code: 'pact_too_large' });
    expect(existsSync(dir)).toBe(false);
  });

  it('refuses a maxPactBytes that is not a whole number of at least 1, with invalid_option', () => {
    expect(() => createOrderMock({ maxPactBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: 'maxPactBytes must be a whole number >= 1, not 0' }),
    );
  });
});

describe('what a pact leaves out', () => {
  it('is said in the same words by mock.pact() on the console, in the file and in pactDocument().leftOut', async () => {
    const lines: string[] = [];
    const mock = createOrderMock({ seed: [{ id: 1 }], warn: (line) => lines.push(line) });
    await mock.handle(list());
    mock.addFaults([{ operation: 'listOrders', status: 503 }]);
    await mock.handle(list());
    const { leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    const file = await mock.pact({ consumer: 'web-app', dir: join(directory, 'left-out') });
    const metadata = (parseJson(await readFile(file, 'utf8')) as { metadata: Record<string, { leftOut: string }> })
      .metadata['petstore-contract-kit'];
    expect(leftOut).toEqual([{ call: 'GET /v1/store/orders 503', reason: 'fault' }]);
    expect(metadata?.leftOut).toBe('GET /v1/store/orders 503: fault');
    expect(lines).toEqual([`the pact ${file} leaves out GET /v1/store/orders 503: fault`]);
  });

  it('names a list body over 1 MiB as body-too-large, in the same words on the console, in the file and in pactDocument()', async () => {
    const lines: string[] = [];
    // 12,000 orders of every field: a list body of 1,092,895 bytes, past the 1 MiB (1,048,576) a pact states.
    const seed = Array.from({ length: 12_000 }, (_, index) => ({
      id: index + 1,
      petId: 100_000 + index,
      quantity: 1,
      shipDate: '2026-12-01T09:00:00Z',
      complete: false,
    }));
    const mock = createOrderMock({ seed, warn: (line) => lines.push(line) });
    await mock.handle(list());
    const { leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    const file = await mock.pact({ consumer: 'web-app', dir: join(directory, 'body-too-large') });
    const metadata = (parseJson(await readFile(file, 'utf8')) as { metadata: Record<string, { leftOut: string }> })
      .metadata['petstore-contract-kit'];
    expect(leftOut).toEqual([{ call: 'GET /v1/store/orders 200', reason: 'body-too-large' }]);
    expect(metadata?.leftOut).toBe('GET /v1/store/orders 200: body-too-large');
    expect(lines).toEqual([`the pact ${file} leaves out GET /v1/store/orders 200: body-too-large`]);
  });

  it('is said by GET /__mock/pact on the server console, as its metadata says it', async () => {
    const lines: string[] = [];
    const kit = await startServer({
      seed: [{ id: 1 }],
      faults: [{ operation: 'listOrders', status: 503, times: 1 }],
      warn: (line) => lines.push(line),
    });
    try {
      await (await kit.withKey('/store/orders')).arrayBuffer();
      const pact = parseJson(await (await kit.control('/pact?consumer=web-app')).text()) as {
        metadata: Record<string, { leftOut: string }>;
      };
      expect(pact.metadata['petstore-contract-kit']?.leftOut).toBe('GET /v1/store/orders 503: fault');
      expect(lines).toEqual(['the pact of web-app leaves out GET /v1/store/orders 503: fault']);
    } finally {
      await kit.close();
    }
  });

  it("is said by the control client's pact() as the file it wrote says it", async () => {
    const kit = await startServer({
      seed: [{ id: 1 }],
      faults: [{ operation: 'listOrders', status: 503, times: 1 }],
      warn: () => {},
    });
    try {
      await (await kit.withKey('/store/orders')).arrayBuffer();
      const lines: string[] = [];
      const control = createControlClient({ baseUrl: kit.origin, warn: (line) => lines.push(line) });
      const file = await control.pact({ consumer: 'web-app', dir: join(directory, 'control') });
      const metadata = (parseJson(await readFile(file, 'utf8')) as { metadata: Record<string, { leftOut: string }> })
        .metadata['petstore-contract-kit'];
      expect(metadata?.leftOut).toBe('GET /v1/store/orders 503: fault');
      expect(lines).toEqual([`the pact ${file} leaves out GET /v1/store/orders 503: fault`]);
    } finally {
      await kit.close();
    }
  });

  it('is not said when nothing is left out', async () => {
    const lines: string[] = [];
    const mock = createOrderMock({ seed: [{ id: 1 }], warn: (line) => lines.push(line) });
    await mock.handle(list());
    await mock.pact({ consumer: 'web-app', dir: join(directory, 'nothing-left-out') });
    expect(lines).toEqual([]);
  });
});

describe('the answer of a small pact', () => {
  it('is byte for byte what GET /__mock/pact answered before the build was sliced', async () => {
    const kit = await startServer({
      seed: [
        { id: 1, petId: 9007199254740993n },
        { id: 2, status: 'shipped' },
      ],
    });
    try {
      await (await kit.withKey('/store/orders')).arrayBuffer();
      await (await kit.withKey('/store/orders/2', { method: 'DELETE' })).arrayBuffer();
      await (await kit.api('/store/orders')).arrayBuffer();
      const answer = await kit.control('/pact?consumer=web-app');
      expect(answer.headers.get('content-type')).toBe('application/json');
      const golden = await readFile(new URL('./fixtures/small-pact.golden.txt', import.meta.url), 'utf8');
      expect(await answer.text()).toBe(golden.trimEnd());
    } finally {
      await kit.close();
    }
  });

  it("is byte for byte the JSON text of pactDocument()'s document", async () => {
    const mock = createOrderMock({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
    await mock.handle(list());
    await mock.handle(cancel(2));
    await mock.handle(cancel(1));
    const answer = (await mock.handle(new Request('http://petstore.test/__mock/pact?consumer=web-app'))) as Reply;
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect(await replyToResponse(answer).text()).toBe(stringifyJson(document));
  });
});
