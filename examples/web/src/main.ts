import { startBrowserMock } from 'petstore-contract-kit/browser';
import { createOrderClient, type ClientOrder } from 'petstore-contract-kit/client';
import { describeCancellation, describeListFailure, type Message } from './messages.js';

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`the page has no ${selector}`);
  return found;
}

const scenarioLine = element<HTMLParagraphElement>('#scenario');
const keyInput = element<HTMLInputElement>('#api-key');
const reloadButton = element<HTMLButtonElement>('#reload');
const message = element<HTMLParagraphElement>('#message');
const ordersState = element<HTMLParagraphElement>('#orders-state');
const table = element<HTMLTableElement>('#orders');
const rows = element<HTMLTableSectionElement>('#orders tbody');
const byNumber = element<HTMLFormElement>('#cancel-by-number');
const numberInput = element<HTMLInputElement>('#order-number');

const parameters = new URLSearchParams(location.search);
// ?api=URL: the order interface's base URL (a petstore-mock, a deployment); by default the page's own /v1.
const apiBase = parameters.get('api') ?? new URL('/v1', location.origin).href;

function client() {
  const apiKey = keyInput.value.trim();
  return createOrderClient({ baseUrl: apiBase, ...(apiKey === '' ? {} : { apiKey }) });
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

const scenario = parameters.get('scenario');
try {
  // In your own app, start the mock only in development: `if (import.meta.env.DEV) await startBrowserMock(...)`.
  // With ?persist, the fake's orders survive a reload (kept in localStorage). With ?mock=off the page
  // starts no mock: something else answers (Playwright's in-page mock, a petstore-mock given by ?api=).
  if (parameters.get('mock') === 'off') {
    scenarioLine.textContent = `Orders from ${apiBase}`;
  } else {
    await startBrowserMock({ scenario, persist: parameters.has('persist') });
    scenarioLine.textContent = scenario
      ? `Mock scenario: ${scenario}`
      : 'Mock with its built-in orders (add ?scenario=NAME to the address to pick a scenario)';
  }
  await loadOrders();
} catch (error) {
  scenarioLine.textContent = 'The mock did not start.';
  ordersState.textContent = '';
  say({ text: (error as Error).message, tone: 'error' });
}
