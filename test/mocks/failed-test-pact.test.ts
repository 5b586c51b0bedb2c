// A test that does not pass leaves its calls out of the consumer pact, named, as the Playwright
// reporter leaves them out (issue 57): told to the mock by `mock.testStarted(name)`'s function, which
// vitest's onTestFailed calls. Driven here through the mock's one pipeline (`mock.handle`), no MSW.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { MockUsageError } from '../../mocks/base/errors.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { authorized, inProcessBase } from '../support/support.js';

type Sender = (method: string, path: string) => Promise<void>;

function senderOf(mock: { handle(request: Request): Promise<unknown> }, session?: string): Sender {
  const headers = session === undefined ? authorized : { ...authorized, 'x-mock-session': session };
  return async (method, path) => {
    await mock.handle(new Request(`${inProcessBase}${path}`, { method, headers }));
  };
}

// Each interaction as `METHOD PATH STATUS`: what the tests decide, whatever its description.
function callsIn(document: Record<string, JsonValue>): string[] {
  const interactions = document.interactions as {
    request: { method: string; path: string };
    response: { status: number };
  }[];
  return interactions.map(({ request, response }) => `${request.method} ${request.path} ${response.status}`).sort();
}

const kitMetadataOf = (document: Record<string, JsonValue>) =>
  (document.metadata as Record<string, JsonValue>)['petstore-contract-kit'];

describe('a test that did not pass, in-process', () => {
  it('leaves the calls it made first out of pactDocument()', async () => {
    const mock = createOrderMock();
    const send = senderOf(mock);
    mock.testStarted('lists the orders');
    await send('GET', '/store/orders');
    const failed = mock.testStarted('cancels a pending order');
    await mock.reset();
    await send('DELETE', '/store/orders/1');
    failed();
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual(['GET /v1/store/orders 200']);
  });

  it("names it in leftOut and the metadata, in the Playwright reporter's words", async () => {
    const mock = createOrderMock();
    const failed = mock.testStarted('orders > cancels a pending order');
    await senderOf(mock)('DELETE', '/store/orders/1');
    failed();
    const { document, leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(leftOut).toEqual([{ call: 'test "orders > cancels a pending order"', reason: 'did not pass' }]);
    expect(kitMetadataOf(document)).toEqual({ leftOut: 'test "orders > cancels a pending order": did not pass' });
  });

  it('takes a second word that the same test failed as the first: named once, no tests_overlap', async () => {
    const mock = createOrderMock();
    const failed = mock.testStarted('cancels a pending order');
    await senderOf(mock)('DELETE', '/store/orders/1');
    failed();
    failed();
    const { leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(leftOut).toEqual([{ call: 'test "cancels a pending order"', reason: 'did not pass' }]);
  });

  it('keeps a call a passing test made before it', async () => {
    const mock = createOrderMock();
    const send = senderOf(mock);
    mock.testStarted('lists the orders');
    await send('GET', '/store/orders');
    const failed = mock.testStarted('lists, then cancels');
    await send('GET', '/store/orders');
    await send('DELETE', '/store/orders/1');
    failed();
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual(['GET /v1/store/orders 200']);
  });

  it('takes back a call it made first once a later passing test makes it', async () => {
    const mock = createOrderMock();
    const send = senderOf(mock);
    const failed = mock.testStarted('cancels, then fails');
    await send('DELETE', '/store/orders/1');
    failed();
    mock.testStarted('cancels a pending order');
    await mock.reset();
    await send('DELETE', '/store/orders/1');
    const { document, leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual(['DELETE /v1/store/orders/1 204']);
    expect(leftOut).toEqual([{ call: 'test "cancels, then fails"', reason: 'did not pass' }]);
  });

  it('keeps the calls of a test that passed, once the next one began', async () => {
    const mock = createOrderMock();
    const send = senderOf(mock);
    mock.testStarted('cancels a pending order');
    await send('DELETE', '/store/orders/1');
    mock.testStarted('lists the orders');
    const { document, leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual(['DELETE /v1/store/orders/1 204']);
    expect(leftOut).toEqual([]);
  });

  it("leaves a named session's failed test out of that session's pact only", async () => {
    const mock = createOrderMock();
    const tab = mock.session('checkout-tab');
    const failed = tab.testStarted('checkout cancels');
    await senderOf(mock, 'checkout-tab')('DELETE', '/store/orders/1');
    await senderOf(mock)('DELETE', '/store/orders/1');
    failed();
    const ofTab = await tab.pactDocument({ consumer: 'checkout' });
    expect(callsIn(ofTab.document)).toEqual([]);
    expect(kitMetadataOf(ofTab.document)).toEqual({ leftOut: 'test "checkout cancels": did not pass' });
    const ofDefault = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(ofDefault.document)).toEqual(['DELETE /v1/store/orders/1 204']);
  });

  it('refuses to say a test failed once another began (tests_overlap), keeping its calls', async () => {
    const mock = createOrderMock();
    const failed = mock.testStarted('cancels a pending order');
    await senderOf(mock)('DELETE', '/store/orders/1');
    mock.testStarted('lists the orders');
    expect(failed).toThrow(
      new MockUsageError(
        'tests_overlap',
        'test "cancels a pending order" did not pass, but another test began on this mock since it began: its calls cannot be told from that test\'s, and stay in the pact (run the tests that share a mock one at a time)',
      ),
    );
    expect(failed).toThrow(expect.objectContaining({ code: 'tests_overlap' }));
    const { document } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual(['DELETE /v1/store/orders/1 204']);
  });

  it('names a retried test for its failed attempt, and keeps the calls of the attempt that passed', async () => {
    const mock = createOrderMock();
    const send = senderOf(mock);
    const firstAttempt = mock.testStarted('cancels a pending order');
    await send('DELETE', '/store/orders/1');
    firstAttempt();
    mock.testStarted('cancels a pending order');
    await mock.reset();
    await send('DELETE', '/store/orders/1');
    const { document, leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual(['DELETE /v1/store/orders/1 204']);
    expect(leftOut).toEqual([{ call: 'test "cancels a pending order"', reason: 'did not pass' }]);
  });

  it('leaves out the calls a test made after a clearPact() half-way through it, if it fails', async () => {
    const mock = createOrderMock();
    const send = senderOf(mock);
    const failed = mock.testStarted('cancels a pending order');
    await send('GET', '/store/orders');
    mock.clearPact();
    await send('DELETE', '/store/orders/1');
    failed();
    const { document, leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(callsIn(document)).toEqual([]);
    expect(leftOut).toEqual([{ call: 'test "cancels a pending order"', reason: 'did not pass' }]);
  });

  it('forgets the tests it named with clearPact()', async () => {
    const mock = createOrderMock();
    const failed = mock.testStarted('cancels a pending order');
    await senderOf(mock)('DELETE', '/store/orders/1');
    failed();
    mock.clearPact();
    const { leftOut } = await mock.pactDocument({ consumer: 'web-app' });
    expect(leftOut).toEqual([]);
  });
});

describe('a test that did not pass, in the pact file', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-failed-test-pact-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('is named in the file and through warn, its call not in it', async () => {
    const lines: string[] = [];
    const mock = createOrderMock({ warn: (line) => lines.push(line) });
    const send = senderOf(mock);
    mock.testStarted('lists the orders');
    await send('GET', '/store/orders');
    const failed = mock.testStarted('cancels a pending order');
    await send('DELETE', '/store/orders/1');
    failed();
    const file = await mock.pact({ consumer: 'web-app', dir: directory });
    const written = parseJson(await readFile(file, 'utf8')) as Record<string, JsonValue>;
    expect(callsIn(written)).toEqual(['GET /v1/store/orders 200']);
    expect(kitMetadataOf(written)).toEqual({ leftOut: 'test "cancels a pending order": did not pass' });
    expect(lines).toEqual([`the pact ${file} leaves out test "cancels a pending order": did not pass`]);
  });
});
