// What the kit's examples must show, shared by the files that run them: on msw 2 in this project
// (playwright-example.test.ts, storybook.test.ts) and on msw 3 in a project of a user's (msw3-frontend.test.ts).

/** Every distinct call of the example Playwright suite's tests, in both modes: what the reporter's pact holds, sorted. */
export const examplePactInteractions = [
  'DELETE /store/orders/1 204 (with the key)',
  'DELETE /store/orders/1 401 (with a wrong key)',
  'DELETE /store/orders/3 204 (with the key)',
  'DELETE /store/orders/3 404 (with the key)',
  'DELETE /store/orders/3 409 (with the key)',
  'DELETE /store/orders/9007199254740993 204 (with the key)',
  'GET /store/orders 200 (with the key)',
  'GET /store/orders 200 (with the key) #2',
  'GET /store/orders 200 (with the key) #3',
  'GET /store/orders 200 (with the key) #4',
  'GET /store/orders 200 (with the key) #5',
  'GET /store/orders 200 (with the key) #6',
  'GET /store/orders 200 (with the key) #7',
  'GET /store/orders 200 (with the key) #8',
  'GET /store/orders 401 (without a key)',
];

/** Each story of the example Storybook, and the text its outcome puts on the page. */
export const storyOutcomes: readonly (readonly [id: string, outcome: string])[] = [
  ['orders--cancel-pending', 'Order 1 was cancelled.'],
  ['orders--already-shipped', 'Order 3 has already shipped, so it can no longer be cancelled.'],
  ['orders--unknown-order', 'Order 999 was not found: there is no such order, or it was already cancelled.'],
  [
    'orders--outage',
    'The order service is having trouble (503), so it could not list your orders. Please try again in a moment.',
  ],
  [
    'orders--network-error',
    'Could not reach the order service to cancel order 1. Check your connection and try again.',
  ],
  ['orders--beyond-safe-integers', 'Order 9007199254740993 was cancelled.'],
  ['orders--no-orders', 'You have no orders.'],
];

const outcomeOf = (id: string) => storyOutcomes.find(([story]) => story === id)![1];

/**
 * Stories visited in turn without a reload, the first opened directly: the pending order is cancelled
 * again on its second visit, which a store that leaked from the first would answer with 404.
 */
export const storySwitches: readonly (readonly [id: string, outcome: string])[] = [
  'orders--cancel-pending',
  'orders--already-shipped',
  'orders--cancel-pending',
  'orders--outage',
  'orders--network-error',
  'orders--already-shipped',
].map((id) => [id, outcomeOf(id)] as const);
