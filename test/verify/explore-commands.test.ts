// Exploration's commands, derived from the route table and the definitions: each operation gets its
// commands, and an operation on one order aims at the stored order of a kind nearest a generated id, so
// that fast-check's shrinking keeps naming the same order while the state shrinks around it.
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationDefinitions } from '../../core/operation-definitions.js';
import { routes } from '../../core/routes.js';
import { arbitraries } from '../../verify/explore/arbitraries.js';
import { CallOnOrder, CallOperation, CallWithId, orderTarget } from '../../verify/explore/commands.js';
import { nearPaths, NearPathWithoutKey } from '../../verify/explore/near-path-without-key.js';
import type { StoredOrder } from '../../mocks/store/order-store.js';

const orders: StoredOrder[] = [
  { id: 1n, status: 'pending' },
  { id: 9n, status: 'pending' },
  { id: 5n, status: 'shipped' },
  { id: 7n, status: 'cancelled' },
  { id: 2n ** 53n, status: 'pending' },
];

describe('orderTarget', () => {
  it('aims at the stored order of the kind nearest the generated id, the smaller of two as near', () => {
    expect(orderTarget(orders, 'pending', 7n)).toBe(9n);
    expect(orderTarget(orders, 'pending', 5n)).toBe(1n);
    expect(orderTarget(orders, 'shipped', -1000n)).toBe(5n);
    expect(orderTarget(orders, 'cancelled', 0n)).toBe(7n);
    expect(orderTarget(orders, 'unknown', 42n)).toBe(42n);
    expect(orderTarget(orders, 'unknown', 9n)).toBeUndefined();
    expect(orderTarget(orders, 'neighbour', 0n)).toBe(2n ** 53n - 1n);
    expect(orderTarget([], 'pending', 0n)).toBeUndefined();
  });

  it('keeps its target while the state shrinks around it (any order but the target removed)', () => {
    const order = fc.record({
      id: fc.bigInt({ min: -50n, max: 50n }),
      status: fc.constantFrom<StoredOrder['status']>('pending', 'shipped', 'cancelled'),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(order, { selector: (entry) => entry.id, minLength: 1 }),
        fc.bigInt({ min: -60n, max: 60n }),
        fc.array(fc.boolean()),
        (state, near, kept) => {
          const target = orderTarget(state, 'pending', near);
          if (target === undefined) return;
          const smaller = state.filter((entry, index) => entry.id === target || (kept[index] ?? true));
          expect(orderTarget(smaller, 'pending', near)).toBe(target);
        },
      ),
    );
  });
});

describe('the commands of each operation', () => {
  it('are generated for every operation of the route table, by what its definition says', () => {
    const { commandArbitraries } = arbitraries(fc);
    const generated = commandArbitraries.flatMap((arbitrary) => fc.sample(arbitrary, { numRuns: 200, seed: 1 }));
    const operationsOf = (kind: new (...args: never[]) => { operation: string }) =>
      new Set(
        generated
          .filter((command) => command instanceof kind)
          .map((command) => (command as unknown as { operation: string }).operation),
      );
    for (const route of routes) {
      const expected =
        route.parameter === null
          ? CallOperation
          : operationDefinitions[route.operation].targets
            ? CallOnOrder
            : CallWithId;
      expect(operationsOf(expected as never), route.operation).toContain(route.operation);
    }
    expect(operationsOf(NearPathWithoutKey as never)).toEqual(new Set(routes.map((route) => route.operation)));
    expect(new Set(nearPaths.map(({ operation }) => operation)).size).toBe(routes.length);
  });
});
