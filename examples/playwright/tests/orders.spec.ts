// The example app's outcomes, one scenario each. Every test runs in both projects (the in-page mock
// and a petstore-mock session), and tests that need order 3 shipped, pending or gone run at once.
import { readFile } from 'node:fs/promises';
import { expect, test } from 'petstore-contract-kit/playwright';

/** The example app, on the mock of this test's mode: ?mock=off starts no mock of the page's own. */
function appAddress(mockMode: string): string {
  const app = process.env.EXAMPLE_APP_URL!;
  return mockMode === 'server'
    ? `${app}/?mock=off&api=${encodeURIComponent(`${process.env.PETSTORE_MOCK_URL}/v1`)}`
    : `${app}/?mock=off`;
}

const message = (page: import('@playwright/test').Page) => page.locator('#message');

test.describe('a shipped order', () => {
  test.use({ scenario: 'cancel-shipped-order' });

  test('cannot be cancelled, and stays listed', async ({ page, mock, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.getByRole('button', { name: 'Cancel order 3' }).click();
    await expect(message(page)).toHaveText('Order 3 has already shipped, so it can no longer be cancelled.');
    await expect(page.locator('#orders tr[data-order-id="3"]')).toBeVisible();
    expect(await mock.requests({ operation: 'cancelOrder', status: 409 })).toHaveLength(1);
  });
});

test.describe("the app's own pact", () => {
  test.use({ scenario: 'cancel-shipped-order' });

  test('holds what the app called, judged by the specification', async ({ page, mock, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.getByRole('button', { name: 'Cancel order 3' }).click();
    await expect(message(page)).toHaveText('Order 3 has already shipped, so it can no longer be cancelled.');
    const file = await mock.pact({ consumer: 'example-app', dir: test.info().outputPath('pacts') });
    const pact = JSON.parse(await readFile(file, 'utf8')) as { interactions: { description: string }[] };
    expect(pact.interactions.map((interaction) => interaction.description)).toContain(
      'DELETE /store/orders/3 409 (with the key)',
    );
  });
});

test.describe('a pending order', () => {
  test.use({ scenario: 'cancel-pending-order' });

  test('cancels, and leaves the list', async ({ page, mock, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.getByRole('button', { name: 'Cancel order 1' }).click();
    await expect(message(page)).toHaveText('Order 1 was cancelled.');
    await expect(page.locator('#orders tr[data-order-id="1"]')).toHaveCount(0);
    expect((await mock.orders()).find((order) => order.id === 1n)?.status).toBe('cancelled');
  });

  test('order 3 arranged as pending cancels too, while another test finds it shipped', async ({
    page,
    mock,
    mockMode,
  }) => {
    await mock.replaceOrders([{ id: 3, petId: 103, status: 'pending' }]);
    await page.goto(appAddress(mockMode));
    await page.getByRole('button', { name: 'Cancel order 3' }).click();
    await expect(message(page)).toHaveText('Order 3 was cancelled.');
    expect(await mock.requests({ operation: 'cancelOrder', status: 204 })).toHaveLength(1);
  });
});

test.describe('an unknown order', () => {
  test.use({ scenario: 'cancel-unknown-order' });

  test('is not found', async ({ page, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.getByLabel('Order number').fill('3');
    await page.getByRole('button', { name: 'Cancel order', exact: true }).click();
    await expect(message(page)).toHaveText(
      'Order 3 was not found: there is no such order, or it was already cancelled.',
    );
  });
});

test.describe('ids beyond 2^53', () => {
  test.use({ scenario: 'cancel-order-beyond-2-53' });

  test('cancel the order the person chose, not its float64 neighbour', async ({ page, mock, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.getByRole('button', { name: 'Cancel order 9007199254740993' }).click();
    await expect(message(page)).toHaveText('Order 9007199254740993 was cancelled.');
    expect((await mock.orders()).map((order) => [order.id, order.status])).toEqual([
      [9007199254740993n, 'cancelled'],
      [9007199254740992n, 'shipped'],
    ]);
  });
});

test.describe('an outage', () => {
  test.use({ scenario: 'list-orders-unavailable' });

  test('is said, and the orders come once it passes', async ({ page, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await expect(message(page)).toHaveText(
      'The order service is having trouble (503), so it could not list your orders. Please try again in a moment.',
    );
    await page.getByRole('button', { name: 'Reload orders' }).click();
    await expect(page.locator('#orders tr[data-order-id="3"]')).toBeVisible();
  });
});

test.describe('a dropped connection', () => {
  test.use({ scenario: 'cancel-order-network-error' });

  test('is a network failure, and the order stays', async ({ page, mock, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.getByRole('button', { name: 'Cancel order 1' }).click();
    await expect(message(page)).toHaveText(
      'Could not reach the order service to cancel order 1. Check your connection and try again.',
    );
    expect((await mock.requests({ operation: 'cancelOrder', status: 'network' })).length).toBeGreaterThan(0);
    expect(await mock.requests({ operation: 'cancelOrder', status: 204 })).toEqual([]);
  });
});

test.describe('the key', () => {
  test('missing or refused, is said', async ({ page, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.locator('#orders tbody tr').first().waitFor();
    await page.getByLabel('Bearer key sent with every request').fill('');
    await page.getByRole('button', { name: 'Reload orders' }).click();
    await expect(message(page)).toHaveText('You are not signed in: enter an API key to list your orders.');
    await page.getByLabel('Bearer key sent with every request').fill('not-the-key');
    await page.getByLabel('Order number').fill('1');
    await page.getByRole('button', { name: 'Cancel order', exact: true }).click();
    await expect(message(page)).toHaveText(
      'The order service did not accept your API key, so it could not cancel order 1. Check the key and try again.',
    );
  });
});

test.describe('the in-page mock', () => {
  test.skip(({ mockMode }) => mockMode !== 'in-page', "the collection and network.use() are the in-page mock's");

  test('lets a test arrange data through the collection, and put a handler in front', async ({
    page,
    mock,
    mockMode,
    orderMock,
    network,
  }) => {
    const { http, HttpResponse } = await import('msw');
    const orders = await orderMock.collection();
    await orders.create({ id: 42n, petId: 7n, status: 'shipped' });
    await page.goto(appAddress(mockMode));
    await expect(page.locator('#orders tr[data-order-id="42"]')).toBeVisible();
    network.use(http.get('*/v1/store/orders', () => HttpResponse.json([])));
    await page.getByRole('button', { name: 'Reload orders' }).click();
    await expect(page.locator('#orders-state')).toHaveText('You have no orders.');
    // The kit's answer and the handler's in front of it, both journaled (the journal is told after the page).
    await expect
      .poll(async () => (await mock.requests({ operation: 'listOrders' })).map((entry) => entry.status))
      .toEqual([200, 200]);
  });
});

test.describe('headers the test asks for', () => {
  test.use({ extraHTTPHeaders: { authorization: 'Bearer petstore-dev-key' } });

  test('reach the mock beside the session header', async ({ page, mock, mockMode }) => {
    await page.goto(appAddress(mockMode));
    await page.locator('#orders tbody tr').first().waitFor();
    await page.getByLabel('Bearer key sent with every request').fill('');
    await page.getByRole('button', { name: 'Reload orders' }).click();
    // The rows stay on the page while the reload is under way: wait for its call, not for them.
    await expect
      .poll(async () => (await mock.requests({ operation: 'listOrders' })).map((entry) => entry.authorization))
      .toEqual(['valid', 'valid']);
    await expect(page.locator('#orders tr[data-order-id="3"]')).toBeVisible();
  });
});

test.describe('a scenario the mock does not know', () => {
  test.use({ scenario: 'no-such-scenario' });
  // Expected to fail in its setup. Its session is ended all the same: the server's session limit,
  // as small as the workers, would be reached otherwise, and every later server test would fail.
  test.fail();

  test('fails the test, and leaves no session behind', async ({ mock }) => {
    await mock.orders();
  });
});
