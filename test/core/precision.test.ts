// A client that lost an id's precision (JSON.parse reads 9007199254740993 as 9007199254740992) cancels
// an id the store does not hold. The contract's answer stays 404; the mock says which order the client
// probably meant, in the message, in the journal, and once a session in its log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, jsonOf, startServer } from '../support/support.js';

let mock: Awaited<ReturnType<typeof startServer>>;
let warnings: string[];

beforeEach(async () => {
  warnings = [];
  mock = await startServer({
    seed: [{ id: 9007199254740993n }, { id: 9223372036854775807n, status: 'shipped' }, { id: 5 }],
    warn: (line) => warnings.push(line),
  });
});
afterEach(async () => {
  await mock.close();
});

const cancel = (id: string, headers: Record<string, string> = {}) =>
  mock.withKey(`/store/orders/${id}`, { method: 'DELETE', headers });

describe('a cancel of an id that a float64 makes of one in the store', () => {
  it('is 404 order_not_found naming the order the client probably meant', async () => {
    await expectError(
      await cancel('9007199254740992'),
      404,
      'order_not_found',
      'Order 9007199254740992 not found. The store holds order 9007199254740993, which a float64 cannot tell from 9007199254740992: your client probably parsed the id with JSON.parse and lost its last digits (ids are int64). Parse ids exactly: see docs/frontend.md, "Exact ids in typed clients".',
    );
  });

  it('changes nothing: the order meant stays pending', async () => {
    await cancel('9007199254740992');
    const orders = (await jsonOf(await mock.control('/orders'))) as { id: bigint; status: string }[];
    expect(orders.map(({ id, status }) => [id, status])).toEqual([
      [9007199254740993n, 'pending'],
      [9223372036854775807n, 'shipped'],
      [5, 'pending'],
    ]);
  });

  it('is marked in the journal with the id probably meant', async () => {
    await cancel('9007199254740992');
    await cancel('5');
    const journal = (await (await mock.control('/requests')).json()) as Record<string, unknown>[];
    expect(journal[0]).toMatchObject({ status: 404, probablyMeant: '9007199254740993' });
    expect(journal[1]).not.toHaveProperty('probablyMeant');
  });

  it('is said in the log once a session', async () => {
    await cancel('9007199254740992');
    await cancel('9007199254740992');
    await cancel('9007199254740992', { 'x-mock-session': 'other' });
    expect(warnings).toEqual([
      "/v1/store/orders/9007199254740992: order 9007199254740993 was probably meant; the client lost the last digits of an id beyond 2^53 (said once a session; see the journal's probablyMeant)",
      "/v1/store/orders/9007199254740992: order 9007199254740993 was probably meant; the client lost the last digits of an id beyond 2^53 (said once a session; see the journal's probablyMeant)",
    ]);
  });

  it('is noticed beyond int64 too: 9223372036854775807 prints as 9223372036854776000 in JavaScript', async () => {
    const body = await expectError(await cancel('9223372036854776000'), 404, 'order_not_found');
    expect(body.message).toMatch(/^Order 9223372036854776000 not found\. The store holds order 9223372036854775807, /);
  });
});

describe('a cancel that is no float64 rounding', () => {
  it('keeps the plain 404 for an exact id beside a stored one: 9223372036854775806 is no float64 print of 9223372036854775807', async () => {
    await mock.control('/orders', { method: 'PUT', body: '[{"id": 9223372036854775806}]' });
    await expectError(
      await cancel('9223372036854775807'),
      404,
      'order_not_found',
      'Order 9223372036854775807 not found.',
    );
    expect(warnings).toEqual([]);
  });

  it('names every order a float64 cannot tell apart, and a cancelled one as cancelled', async () => {
    await mock.control('/orders', {
      method: 'PUT',
      body: '[{"id": 9007199254740995, "status": "cancelled"}, {"id": 9007199254740997}]',
    });
    const body = await expectError(await cancel('9007199254740996'), 404, 'order_not_found');
    expect(body.message).toMatch(
      /^Order 9007199254740996 not found\. The store holds order 9007199254740995 \(cancelled\) and order 9007199254740997, which a float64 cannot tell from 9007199254740996: /,
    );
  });

  it('says it in the log again after a reset', async () => {
    await cancel('9007199254740992');
    await mock.control('/reset', { method: 'POST' });
    await cancel('9007199254740992');
    expect(warnings).toHaveLength(2);
  });

  it('keeps the plain 404 for an id with no twin', async () => {
    await expectError(await cancel('42'), 404, 'order_not_found', 'Order 42 not found.');
    expect(warnings).toEqual([]);
  });

  it('keeps the plain 404 for an id beyond 2^53 that nothing rounds to', async () => {
    await expectError(await cancel('9007199254740995'), 404, 'order_not_found', 'Order 9007199254740995 not found.');
  });

  it('cancels the order when both ids are in the store: each is exact', async () => {
    await mock.control('/orders', { method: 'PUT', body: '[{"id": 9007199254740993}, {"id": 9007199254740992}]' });
    expect((await cancel('9007199254740992')).status).toBe(204);
    await expectError(await cancel('9007199254740992'), 404, 'order_not_found', 'Order 9007199254740992 not found.');
    expect(warnings).toEqual([]);
  });
});
