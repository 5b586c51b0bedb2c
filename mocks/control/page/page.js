// The control page's script (GET /__mock/). It drives only the documented control API under /__mock,
// so everything it does can also be done with curl. scripts/generate-spec.mjs puts it inline into the page.
// @ts-check
// Checked by tsconfig.page.json (`npm run typecheck`) from the JSDoc below: served as written, no build step.

/**
 * The answers of the control routes the page reads, as far as it reads them (the server's types are
 * ActiveFault, JournalEntry, ResponseCoverage, ScenarioSummary, ScenarioLoaded and SessionSummary in mocks/).
 * @typedef {{ id: number, operation: string, status?: number, network?: boolean,
 *   delay?: number | { min: number, max: number }, times?: number, seen: number, affected: number }} Fault
 * @typedef {{ time: string, method: string, path: string, status: number | 'network', operation: string | null,
 *   session: string | null }} JournalEntry
 * @typedef {{ operations: { operation: string, method: string, path: string,
 *   responses: { status: number, seen: number }[] }[], covered: number, total: number }} Coverage
 * @typedef {{ name: string, description: string }} ScenarioSummary
 * @typedef {{ scenario: string, orders: number, faults: number }} ScenarioLoaded
 * @typedef {{ '/faults': Fault[], '/requests': JournalEntry[], '/coverage': Coverage }} Panels
 */
/**
 * An order as the page shows it: its numbers as the digits sent (see parseExact), or as numbers where
 * the browser cannot keep them.
 * @typedef {Partial<Record<'id' | 'petId' | 'quantity' | 'shipDate' | 'complete' | 'status',
 *   string | number | boolean>>} ShownOrder
 */
/**
 * A fault as the form adds it (`POST /__mock/faults`).
 * @typedef {{ operation: string, status?: number, delay?: number, network?: true, times?: number }} FaultInput
 */
/**
 * The elements of page.html the script uses, by id, each of the kind page.html makes it.
 * @typedef {{
 *   session: HTMLSelectElement, reset: HTMLButtonElement, status: HTMLParagraphElement,
 *   'key-form': HTMLFormElement, 'control-key': HTMLInputElement,
 *   'scenario-form': HTMLFormElement, scenario: HTMLSelectElement, 'scenario-description': HTMLParagraphElement,
 *   'orders-note': HTMLParagraphElement, orders: HTMLTableElement,
 *   'faults-note': HTMLParagraphElement, faults: HTMLTableElement, 'fault-form': HTMLFormElement,
 *   'fault-operation': HTMLSelectElement, 'fault-status': HTMLInputElement, 'fault-delay': HTMLInputElement,
 *   'fault-network': HTMLInputElement, 'fault-times': HTMLInputElement, 'fault-error': HTMLParagraphElement,
 *   'journal-note': HTMLParagraphElement, journal: HTMLTableElement,
 *   'coverage-summary': HTMLParagraphElement, coverage: HTMLTableElement,
 * }} PageElements
 */
/**
 * A reviver's third argument where the browser has JSON.parse source text access (TypeScript's lib
 * does not declare it yet): a primitive's text as sent.
 * @typedef {{ source?: string }} ReviverContext
 */

(() => {
  const keyStorage = 'petstore-mock-control-key';
  const refreshEvery = 1000;
  const shownOrders = 1000;
  const shownCalls = 200;
  /**
   * @type {{ session: string, key: string, ordersTag: string | null, drawn: Record<string, string>,
   *   sessionNames: string, scenarios: ScenarioSummary[] | undefined, keyNeeded: boolean }}
   */
  const state = {
    session: '',
    key: sessionStorage.getItem(keyStorage) ?? '',
    ordersTag: null,
    // The text each panel was last drawn from, by control path: a panel is drawn again only when it changes.
    drawn: {},
    sessionNames: '',
    scenarios: undefined,
    keyNeeded: false,
  };
  /**
   * The element of page.html with this id. Typed by PageElements, not checked at run time: page.html is
   * served with this script, and the control page tests drive the two together.
   * @template {keyof PageElements} Id
   * @param {Id} id
   * @returns {PageElements[Id]}
   */
  const element = (id) => /** @type {PageElements[Id]} */ (document.getElementById(id));

  /** @param {Record<string, string> | undefined} extra */
  function requestHeaders(extra) {
    const headers = { ...extra };
    if (state.session !== '') headers['x-mock-session'] = state.session;
    if (state.key !== '') headers.authorization = `Bearer ${state.key}`;
    return headers;
  }

  /**
   * A control call; a 401 asks for the control key.
   * @param {string} method
   * @param {string} path below /__mock
   * @param {{ headers?: Record<string, string>, body?: string }} options
   */
  async function call(method, path, options = {}) {
    const headers = requestHeaders(
      options.body === undefined ? options.headers : { 'content-type': 'application/json', ...options.headers },
    );
    const response = await fetch(`/__mock${path}`, { method, headers, body: options.body, cache: 'no-store' });
    if (response.status === 401) {
      state.keyNeeded = true;
      element('key-form').hidden = false;
    }
    return response;
  }

  /** @param {Response} response */
  async function errorMessage(response) {
    try {
      // The mock's Error record, or any JSON: a body that is no record is read as one without a message.
      const record = /** @type {{ message?: unknown }} */ (await response.json());
      return typeof record.message === 'string' ? record.message : `${response.status}`;
    } catch {
      return `The mock answered ${response.status}.`;
    }
  }

  /**
   * The outcome of the last action, or what the page is doing; a refusal is styled as one, not as a success.
   * @param {string} text
   */
  function say(text, refused = false) {
    element('status').textContent = text;
    element('status').classList.toggle('error', refused);
  }

  /**
   * A number as the digits sent, where the browser gives a reviver the source text; the number where it does not.
   * @param {string} _key
   * @param {unknown} value
   * @param {ReviverContext} [context]
   */
  const digitsAsSent = (_key, value, context) => (typeof value === 'number' ? (context?.source ?? value) : value);

  // JSON with every number kept as the digits sent: an order id beyond 2^53 is shown exactly.
  const readsNumberSource = (() => {
    try {
      return JSON.parse('1', digitsAsSent) === '1';
    } catch {
      return false;
    }
  })();
  /**
   * @param {string} text
   * @returns {unknown}
   */
  function parseExact(text) {
    if (readsNumberSource) return JSON.parse(text, digitsAsSent);
    // Without source text access: long integers quoted before parsing (orders hold no such digits in a string).
    return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
  }

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

  async function refreshOrders() {
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

  async function refreshFaults() {
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

  async function refreshJournal() {
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
          cell(entry.operation ?? '—'),
          cell(entry.session ?? 'default'),
        ]),
      ),
    );
  }

  /** @param {string[]} operations */
  function fillOperations(operations) {
    const select = element('fault-operation');
    if (select.options.length > 1) return;
    for (const name of operations) select.append(new Option(name, name));
  }

  async function refreshCoverage() {
    const coverage = await changedJson('/coverage');
    if (coverage === undefined) return;
    fillOperations(coverage.operations.map((operation) => operation.operation));
    element('coverage-summary').textContent = `${coverage.covered} of ${coverage.total} documented responses seen.`;
    fillTable(
      'coverage',
      coverage.operations.flatMap((operation) =>
        operation.responses.map((response) =>
          row([
            cell(operation.operation),
            cell(`${operation.method} ${operation.path}`),
            cell(String(response.status)),
            response.seen === 0 ? cell('never seen', 'never') : cell(String(response.seen)),
          ]),
        ),
      ),
    );
  }

  async function refreshSessions() {
    const response = await call('GET', '/sessions');
    if (!response.ok) return;
    const sessions = /** @type {{ name: string }[]} */ (await response.json());
    const names = sessions.map((session) => session.name);
    // A session ended elsewhere is not asked again (asking would start it anew): back to the default one.
    if (state.session !== '' && !names.includes(state.session)) {
      say(`Session ${state.session} ended; showing the default session.`);
      chooseSession('');
    }
    // Rebuilt only when the names change (their idle times change at every poll).
    if (names.join('\n') === state.sessionNames) return;
    state.sessionNames = names.join('\n');
    const select = element('session');
    select.replaceChildren(new Option('default', ''), ...names.map((name) => new Option(name, name)));
    select.value = state.session;
  }

  /** @param {string} name */
  function chooseSession(name) {
    state.session = name;
    state.ordersTag = null;
    state.drawn = {};
    element('session').value = name;
  }

  async function refreshScenarios() {
    const response = await call('GET', '/scenarios');
    if (!response.ok) return;
    const scenarios = /** @type {ScenarioSummary[]} */ (await response.json());
    state.scenarios = scenarios;
    if (scenarios.length === 0) element('scenario').disabled = true;
    element('scenario').replaceChildren(...scenarios.map((scenario) => new Option(scenario.name, scenario.name)));
    describeScenario();
  }

  function describeScenario() {
    // Before the scenarios are known the select is empty, and nothing is chosen.
    const chosen = state.scenarios?.find((scenario) => scenario.name === element('scenario').value);
    element('scenario-description').textContent = chosen?.description ?? 'This server knows no scenarios.';
  }

  element('scenario').addEventListener('change', describeScenario);

  /** @type {number | undefined} */
  let timer;
  async function refresh() {
    clearTimeout(timer);
    try {
      // The sessions first: a session ended elsewhere is left before the panels ask for it. Each
      // step only while the key is not missing: a refused call stops the round.
      const steps = [
        refreshSessions,
        () => (state.scenarios === undefined ? refreshScenarios() : undefined),
        () => Promise.all([refreshOrders(), refreshFaults(), refreshJournal(), refreshCoverage()]),
      ];
      for (const step of steps) if (!state.keyNeeded) await step();
    } catch {
      say('The mock does not answer; trying again.', true);
    }
    timer = setTimeout(refresh, refreshEvery);
  }

  /**
   * A control call on the user's behalf: its answer when it succeeded, else why not, as the page says it.
   * @param {string} method
   * @param {string} path
   * @param {{ body?: string }} options
   * @returns {Promise<{ response: Response } | { refusal: string }>}
   */
  async function attempt(method, path, options) {
    try {
      const response = await call(method, path, options);
      return response.ok ? { response } : { refusal: await errorMessage(response) };
    } catch {
      return { refusal: 'The mock does not answer.' };
    }
  }

  /**
   * A control call on the user's behalf, its outcome said in the status line, a refusal styled as one.
   * With `refusedIn`, the element beside the form that shows its refusals, a refusal is shown there
   * alone and the status line is cleared: one refusal, shown once, and no earlier success beside it.
   * `done` is given what the call answers: its JSON, as the control API documents it, or undefined for a 204.
   * @template Answer
   * @param {string} method
   * @param {string} path
   * @param {{ body?: string }} options
   * @param {(answer: Answer) => string} done
   * @param {'fault-error'} [refusedIn]
   */
  async function act(method, path, options, done, refusedIn) {
    const outcome = await attempt(method, path, options);
    if (refusedIn !== undefined) element(refusedIn).textContent = 'refusal' in outcome ? outcome.refusal : '';
    if ('refusal' in outcome) {
      if (refusedIn === undefined) say(outcome.refusal, true);
      else say('');
      return;
    }
    const { response } = outcome;
    // The control API's documented answer to this call: `done` is written for it.
    say(done(/** @type {Answer} */ (response.status === 204 ? undefined : await response.json())));
    await refresh();
  }

  /** @param {number} id */
  async function removeFault(id) {
    await act('DELETE', `/faults/${id}`, {}, () => `Removed fault ${id}.`);
  }

  function faultInput() {
    /** @type {FaultInput} */
    const fault = { operation: element('fault-operation').value };
    /** @param {'fault-status' | 'fault-delay' | 'fault-times'} id */
    const number = (id) => (element(id).value === '' ? undefined : Number(element(id).value));
    if (number('fault-status') !== undefined) fault.status = number('fault-status');
    if (number('fault-delay') !== undefined) fault.delay = number('fault-delay');
    if (element('fault-network').checked) fault.network = true;
    if (number('fault-times') !== undefined) fault.times = number('fault-times');
    return fault;
  }

  element('fault-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    await act(
      'POST',
      '/faults',
      { body: JSON.stringify(faultInput()) },
      /** @param {Fault[]} added */
      (added) => `Added fault ${added.map((fault) => fault.id).join(', ')}.`,
      'fault-error',
    );
  });

  element('scenario-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = element('scenario').value;
    if (name === '') return;
    await act(
      'POST',
      `/scenarios/${encodeURIComponent(name)}`,
      {},
      /** @param {ScenarioLoaded} loaded */
      (loaded) => `Loaded scenario ${loaded.scenario}: ${loaded.orders} orders, ${loaded.faults} faults.`,
    );
  });

  element('reset').addEventListener('click', () =>
    act('POST', '/reset', {}, () => 'Reset: the seed, the start-up faults, an empty journal.'),
  );

  // The select's own value: an event's target is any EventTarget to the checker.
  element('session').addEventListener('change', () => {
    chooseSession(element('session').value);
    say(`Showing session ${state.session === '' ? 'default' : state.session}.`);
    refresh();
  });

  element('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state.key = element('control-key').value;
    sessionStorage.setItem(keyStorage, state.key);
    element('key-form').hidden = true;
    state.keyNeeded = false;
    state.ordersTag = null;
    refresh();
  });

  refresh();
})();
