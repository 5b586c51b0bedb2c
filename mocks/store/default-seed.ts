import type { OrderInput } from '../../core/provider-state.js';

/**
 * The orders the mock starts with when no seed is given: three pending, two shipped.
 * @example
 * createOrderMock({ seed: defaultSeed }) // the same as createOrderMock()
 */
// Frozen: the store takes it without checking it again (a test checks it), so no one may change it.
export const defaultSeed: readonly OrderInput[] = Object.freeze(
  (
    [
      { id: 1, petId: 101, quantity: 1, shipDate: '2026-12-01T09:00:00Z', complete: false, status: 'pending' },
      { id: 2, petId: 102, quantity: 2, shipDate: '2026-12-03T09:00:00Z', complete: false, status: 'pending' },
      { id: 3, petId: 103, quantity: 1, shipDate: '2026-11-02T15:30:00Z', complete: true, status: 'shipped' },
      { id: 4, petId: 104, quantity: 3, shipDate: '2026-11-10T12:00:00Z', complete: false, status: 'shipped' },
      { id: 5, petId: 105, quantity: 1, shipDate: '2026-12-15T09:00:00Z', complete: false, status: 'pending' },
    ] satisfies OrderInput[]
  ).map((order) => Object.freeze(order)),
);
