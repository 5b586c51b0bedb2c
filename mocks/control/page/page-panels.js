// The control page's script (GET /__mock/), one of its modules: the panels it draws from the control API
// (the orders, the faults, the journal, the coverage).
// @ts-check
// Plain browser modules, checked by tsconfig.page.json (`npm run typecheck`) from their JSDoc. Served as written
// but for their import statements and export keywords: scripts/generate-spec.mjs inlines page-types.js,
// page-requests.js, page-panels.js and page-actions.js, in that order, as one script inside one function.

/** @import { Fault, Panels, ShownOrder } from './page-types.js' */
import { shownOrders, shownCalls, state, element, call, parseExact } from './page-requests.js';

/**
 * @param {string} text
 * @param {string} [className]
 */
function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className !== undefined) td.className = className;
  return td;
}

/**
 * @param {'orders' | 'faults' | 'journal' | 'coverage'} id
 * @param {HTMLTableRowElement[]} rows
 */
function fillTable(id, rows) {
  const body = element(id).tBodies[0];
  // Each table of page.html has its tbody: a table without one is a fault of the page, said as one.
  if (body === undefined) throw new Error(`The table #${id} has no body.`);
  body.replaceChildren(...rows);
}

/** @param {HTMLTableCellElement[]} cells */
function row(cells) {
  const tr = document.createElement('tr');
  tr.append(...cells);
  return tr;
}

export async function refreshOrders() {
  const response = await call('GET', '/orders', {
    headers: state.ordersTag === null ? {} : { 'if-none-match': state.ordersTag },
  });
  if (response.status === 304) return;
  if (!response.ok) return;
  state.ordersTag = response.headers.get('etag');
  const orders = /** @type {ShownOrder[]} */ (parseExact(await response.text()));
  const shown = orders.slice(0, shownOrders);
  fillTable(
    'orders',
    shown.map((order) => {
      const tr = row(
        /** @type {const} */ (['id', 'petId', 'quantity', 'shipDate', 'complete', 'status']).map((field) =>
          cell(order[field] === undefined ? '' : String(order[field])),
        ),
      );
      tr.dataset.orderId = String(order.id);
      return tr;
    }),
  );
  element('orders-note').textContent =
    orders.length > shownOrders
      ? `${orders.length} orders; the first ${shownOrders} are shown.`
      : `${orders.length} order${orders.length === 1 ? '' : 's'}.`;
}

/** @param {Fault} fault */
function faultEffect(fault) {
  const parts = [];
  if (fault.status !== undefined) parts.push(`status ${fault.status}`);
  if (fault.network === true) parts.push('network error');
  if (typeof fault.delay === 'number') parts.push(`delay ${fault.delay} ms`);
  else if (fault.delay !== undefined) parts.push(`delay ${fault.delay.min}–${fault.delay.max} ms`);
  return parts.join(', ');
}

/**
 * What a control route answers, parsed; undefined when it was refused or is what the panel shows already.
 * @template {keyof Panels} Path
 * @param {Path} path
 * @returns {Promise<Panels[Path] | undefined>}
 */
async function changedJson(path) {
  const response = await call('GET', path);
  if (!response.ok) return undefined;
  const text = await response.text();
  if (text === state.drawn[path]) return undefined;
  state.drawn[path] = text;
  return /** @type {Panels[Path]} */ (JSON.parse(text));
}

/**
 * The faults in force, each with its button to remove it.
 * @param {(id: number) => Promise<void>} removeFault what the button does (page-actions.js: a DELETE, then a refresh)
 */
export async function refreshFaults(removeFault) {
  const faults = await changedJson('/faults');
  if (faults === undefined) return;
  element('faults-note').textContent =
    faults.length === 0 ? 'No faults in force: every call is answered by the mock.' : '';
  fillTable(
    'faults',
    faults.map((fault) => {
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove fault ${fault.id}`);
      remove.addEventListener('click', () => removeFault(fault.id));
      const action = document.createElement('td');
      action.append(remove);
      return row([
        cell(String(fault.id)),
        cell(fault.operation),
        cell(faultEffect(fault)),
        cell(fault.times === undefined ? 'every call' : String(fault.times)),
        cell(String(fault.seen)),
        cell(String(fault.affected)),
        action,
      ]);
    }),
  );
}

export async function refreshJournal() {
  const journal = await changedJson('/requests');
  if (journal === undefined) return;
  const calls = journal.slice(-shownCalls).reverse();
  element('journal-note').textContent =
    journal.length === 0
      ? 'No calls of the interface yet in this session.'
      : journal.length > shownCalls
        ? `${journal.length} calls; the newest ${shownCalls} are shown.`
        : '';
  fillTable(
    'journal',
    calls.map((entry) =>
      row([
        cell(entry.time),
        cell(entry.method),
        cell(entry.path),
        cell(String(entry.status)),
        cell(entry.operation === null ? '—' : marked(entry.operation, entry.stability)),
        cell(entry.session ?? 'default'),
      ]),
    ),
  );
}

/**
 * An operation's name with the document's stability marker, where it has one: `listOrdersV2 (beta)`.
 * @param {string} operation
 * @param {string | null | undefined} stability
 */
function marked(operation, stability) {
  return stability == null ? operation : `${operation} (${stability})`;
}

/** @param {string[]} operations */
function fillOperations(operations) {
  const select = element('fault-operation');
  if (select.options.length > 1) return;
  for (const name of operations) select.append(new Option(name, name));
}

export async function refreshCoverage() {
  const coverage = await changedJson('/coverage');
  if (coverage === undefined) return;
  fillOperations(coverage.operations.map((operation) => operation.operation));
  element('coverage-summary').textContent = `${coverage.covered} of ${coverage.total} documented responses seen.`;
  fillTable(
    'coverage',
    coverage.operations.flatMap((operation) =>
      operation.responses.map((response) =>
        row([
          cell(marked(operation.operation, operation.stability)),
          cell(`${operation.method} ${operation.base}${operation.path}`),
          cell(String(response.status)),
          response.seen === 0 ? cell('never seen', 'never') : cell(String(response.seen)),
        ]),
      ),
    ),
  );
}
