// One story per outcome of the order interface, each on a fresh mock from a scenario the kit ships.
// A story's play function does what the person would, so the story shows the outcome.
import type { Meta, StoryObj } from '@storybook/html-vite';
import { HttpResponse, http } from 'msw';
import { withOrderMock } from 'petstore-contract-kit/storybook';
import { expect, userEvent, within } from 'storybook/test';
import { mountOrders } from '../../web/src/orders-view.js';

const meta: Meta = {
  title: 'Orders',
  render: () => {
    const root = document.createElement('main');
    void mountOrders(root, { apiBase: `${location.origin}/v1` }).loadOrders();
    return root;
  },
};
export default meta;

type Story = StoryObj;

/** Clicks a button once the list shows it, then waits for the message the outcome gives. */
async function cancelAndSee(canvasElement: HTMLElement, button: string, message: string): Promise<void> {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: button }));
  await expect(await canvas.findByText(message)).toBeVisible();
}

export const CancelPending: Story = {
  name: 'Cancel a pending order (204)',
  beforeEach: withOrderMock('cancel-pending-order'),
  play: ({ canvasElement }) => cancelAndSee(canvasElement, 'Cancel order 1', 'Order 1 was cancelled.'),
};

export const AlreadyShipped: Story = {
  name: 'Cancel a shipped order (409)',
  beforeEach: withOrderMock('cancel-shipped-order'),
  play: ({ canvasElement }) =>
    cancelAndSee(canvasElement, 'Cancel order 3', 'Order 3 has already shipped, so it can no longer be cancelled.'),
};

export const UnknownOrder: Story = {
  name: 'Cancel an unknown order (404)',
  beforeEach: withOrderMock('cancel-unknown-order'),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('button', { name: 'Cancel order 1' });
    await userEvent.type(canvas.getByLabelText('Order number'), '999');
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel order' }));
    await expect(
      await canvas.findByText('Order 999 was not found: there is no such order, or it was already cancelled.'),
    ).toBeVisible();
  },
};

export const Outage: Story = {
  name: 'The list is unavailable (503)',
  beforeEach: withOrderMock('list-orders-unavailable'),
};

export const NetworkError: Story = {
  name: 'The connection drops',
  beforeEach: withOrderMock('cancel-order-network-error'),
  play: ({ canvasElement }) =>
    cancelAndSee(
      canvasElement,
      'Cancel order 1',
      'Could not reach the order service to cancel order 1. Check your connection and try again.',
    ),
};

export const BeyondSafeIntegers: Story = {
  name: 'Ids beyond 2^53',
  beforeEach: withOrderMock('cancel-order-beyond-2-53'),
  play: ({ canvasElement }) =>
    cancelAndSee(canvasElement, 'Cancel order 9007199254740993', 'Order 9007199254740993 was cancelled.'),
};

export const NoOrders: Story = {
  name: "A story's own handler in front (no orders)",
  // The addon's CSF 3 parameters: the story's own handlers stay in front of the kit's.
  parameters: { msw: { handlers: [http.get('*/v1/store/orders', () => HttpResponse.json([]))] } },
  beforeEach: withOrderMock('cancel-shipped-order'),
};
