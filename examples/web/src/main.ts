import { startBrowserMock } from 'petstore-contract-kit/browser';
import { mountOrders } from './orders-view.js';

const scenarioLine = document.querySelector<HTMLParagraphElement>('#scenario')!;
const parameters = new URLSearchParams(location.search);
// ?api=URL: the order interface's base URL (a petstore-mock, a deployment); by default the page's own /v1.
const apiBase = parameters.get('api') ?? new URL('/v1', location.origin).href;
const view = mountOrders(document.querySelector<HTMLElement>('#orders-app')!, { apiBase });
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
  await view.loadOrders();
} catch (error) {
  scenarioLine.textContent = 'The mock did not start.';
  document.querySelector('#orders-state')!.textContent = '';
  const message = document.querySelector<HTMLParagraphElement>('#message')!;
  message.textContent = (error as Error).message;
  message.dataset.tone = 'error';
}
