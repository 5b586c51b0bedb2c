import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../core/stringify-json.js';
import { listBody } from '../../../mocks/store/list-body.js';
import { storedOrders } from '../../support/arbitraries.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const listed = (orders: readonly Record<string, unknown>[]) =>
  orders.filter((order) => order.status !== 'cancelled').map(({ status: _, ...fields }) => fields);

describe('listBody', () => {
  it('writes what the lossless serialiser writes for the documented fields of the orders not cancelled', () => {
    fc.assert(
      fc.property(fc.array(storedOrders, { maxLength: 12 }), (orders) => {
        // -0 is written 0, as any JSON serialiser writes it.
        const expected = stringifyJson(
          listed(orders).map((fields) => (Object.is(fields.quantity, -0) ? { ...fields, quantity: 0 } : fields)),
        );
        expect(text(listBody(orders))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('writes integers of every size exactly, as numbers or bigints', () => {
    const ids = [0, 7, -7, 10, 99, 100, 9007199254740991, -9007199254740991, 9007199254740993n, -(2n ** 63n)];
    const orders = ids.map((id) => ({ id, status: 'pending' }));
    expect(text(listBody(orders))).toBe(stringifyJson(orders.map(({ id }) => ({ id }))));
  });

  it('escapes a string that is not plain ASCII, and encodes it as UTF-8', () => {
    const shipDates = ['a"quote', 'back\\slash', 'line\nbreak', 'ünïcode', '😀', '\u007f'];
    const orders = shipDates.map((shipDate, index) => ({ id: index, shipDate, status: 'pending' }));
    expect(text(listBody(orders))).toBe(JSON.stringify(orders.map(({ id, shipDate }) => ({ id, shipDate }))));
  });

  it('notes where each listed order starts, and grows past its first estimate', () => {
    const long = 'x'.repeat(300);
    const orders = [
      { id: 1, shipDate: long, status: 'pending' },
      { id: 2, status: 'cancelled' },
      { id: 3, shipDate: long, status: 'shipped' },
    ];
    const starts = new Int32Array(2);
    const body = text(listBody(orders, starts));
    expect(body).toBe(`[{"id":1,"shipDate":"${long}"},{"id":3,"shipDate":"${long}"}]`);
    expect([...starts].map((start) => body.slice(start, start + 7))).toEqual(['{"id":1', '{"id":3']);
  });

  it('writes [] for no order listed', () => {
    expect(text(listBody([{ id: 1, status: 'cancelled' }]))).toBe('[]');
  });
});
