import { createOrderClient, type ClientOrder } from 'petstore-contract-kit/client';
import { describeCancellation, describeListFailure, type Message } from './messages.js';

// The orders view: the key, the message, the list with a cancel button per order, and a form to
// cancel by number. The app (main.ts) and the stories (examples/storybook) mount the same view.
const markup = `
<section aria-labelledby="key-heading">
  <h2 id="key-heading">API key</h2>
  <label for="api-key">Bearer key sent with every request</label>
  <input id="api-key" name="api-key" autocomplete="off" spellcheck="false" value="petstore-dev-key" />
  <button id="reload" type="button">Reload orders</button>
</section>

<p id="message" role="status" aria-live="polite"></p>

<section aria-labelledby="orders-heading">
  <h2 id="orders-heading">Orders</h2>
  <p id="orders-state" class="muted">Loading orders…</p>
  <table id="orders" hidden>
    <thead>
      <tr><th scope="col">Order</th><th scope="col">Pet</th><th scope="col">Quantity</th><th scope="col">Ship date</th><th scope="col"><span class="visually-hidden">Action</span></th></tr>
    </thead>
    <tbody></tbody>
  </table>
</section>

<section aria-labelledby="by-number-heading">
  <h2 id="by-number-heading">Cancel an order by its number</h2>
  <form id="cancel-by-number">
    <label for="order-number">Order number</label>
    <input id="order-number" name="order-number" inputmode="numeric" required />
    <button type="submit">Cancel order</button>
  </form>
</section>
`;

/** Where the view sends its calls. */
export interface OrdersViewOptions {
  /** The order interface's base URL, ending with /v1. */
  apiBase: string;
}

/**
 * Draws the orders view into `root` and wires it; `loadOrders()` lists the orders (the app calls it
 * once its mock runs, a story at once).
 * @example
 * const view = mountOrders(document.querySelector('#orders-app')!, { apiBase: `${location.origin}/v1` });
 * await view.loadOrders();
 */
export function mountOrders(root: HTMLElement, options: OrdersViewOptions): { loadOrders(): Promise<void> } {
  root.innerHTML = markup;
  function element<T extends HTMLElement>(selector: string): T {
    const found = root.querySelector<T>(selector);
    if (found === null) throw new Error(`the page has no ${selector}`);
    return found;
  }

  const keyInput = element<HTMLInputElement>('#api-key');
  const reloadButton = element<HTMLButtonElement>('#reload');
  const message = element<HTMLParagraphElement>('#message');
  const ordersState = element<HTMLParagraphElement>('#orders-state');
  const table = element<HTMLTableElement>('#orders');
  const rows = element<HTMLTableSectionElement>('#orders tbody');
  const byNumber = element<HTMLFormElement>('#cancel-by-number');
  const numberInput = element<HTMLInputElement>('#order-number');

  function client() {
    const apiKey = keyInput.value.trim();
    return createOrderClient({ baseUrl: options.apiBase, ...(apiKey === '' ? {} : { apiKey }) });
  }

  function say({ text, tone }: Message): void {
    message.textContent = text;
    message.dataset.tone = tone;
  }

  function row(order: ClientOrder): HTMLTableRowElement {
    const id = String(order.id);
    const tr = document.createElement('tr');
    tr.dataset.orderId = id;
    const cells = [
      `#${id}`,
      order.petId === undefined ? '—' : `Pet ${order.petId}`,
      String(order.quantity ?? '—'),
      order.shipDate ? new Date(order.shipDate).toLocaleDateString('en-GB') : '—',
    ];
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    const action = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Cancel';
    button.setAttribute('aria-label', `Cancel order ${id}`);
    button.addEventListener('click', () => void cancel(id, button));
    action.append(button);
    tr.append(action);
    return tr;
  }

  async function loadOrders(): Promise<void> {
    reloadButton.disabled = true;
    ordersState.hidden = false;
    ordersState.textContent = 'Loading orders…';
    try {
      const orders = await client().listOrders();
      rows.replaceChildren(...orders.map(row));
      table.hidden = orders.length === 0;
      ordersState.hidden = orders.length > 0;
      ordersState.textContent = 'You have no orders.';
    } catch (error) {
      rows.replaceChildren();
      table.hidden = true;
      ordersState.textContent = 'Your orders could not be loaded.';
      say(describeListFailure(error));
    } finally {
      reloadButton.disabled = false;
    }
  }

  async function cancel(orderId: string, button?: HTMLButtonElement): Promise<void> {
    if (button) button.disabled = true;
    try {
      await client().cancelOrder(orderId);
      say(describeCancellation(orderId));
      rows.querySelector(`tr[data-order-id="${CSS.escape(orderId)}"]`)?.remove();
      if (rows.children.length === 0) {
        table.hidden = true;
        ordersState.hidden = false;
        ordersState.textContent = 'You have no orders.';
      }
    } catch (error) {
      say(describeCancellation(orderId, error));
    } finally {
      if (button) button.disabled = false;
    }
  }

  reloadButton.addEventListener('click', () => void loadOrders());
  byNumber.addEventListener('submit', (event) => {
    event.preventDefault();
    const orderId = numberInput.value.trim();
    if (orderId !== '') void cancel(orderId);
  });
  return { loadOrders };
}
