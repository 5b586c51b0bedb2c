// The control page's script (GET /__mock/). It drives only the documented control API under /__mock,
// so everything it does can also be done with curl. scripts/generate-spec.mjs puts it inline into the page.
(() => {
  const keyStorage = 'petstore-mock-control-key';
  const refreshEvery = 1000;
  const shownOrders = 1000;
  const shownCalls = 200;
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
  const element = (id) => document.getElementById(id);

  function requestHeaders(extra) {
    const headers = { ...extra };
    if (state.session !== '') headers['x-mock-session'] = state.session;
    if (state.key !== '') headers.authorization = `Bearer ${state.key}`;
    return headers;
  }

  /** A control call; a 401 asks for the control key. */
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

  async function errorMessage(response) {
    try {
      const record = await response.json();
      return typeof record.message === 'string' ? record.message : `${response.status}`;
    } catch {
      return `The mock answered ${response.status}.`;
    }
  }

  /** The outcome of the last action, or what the page is doing; a refusal is styled as one, not as a success. */
  function say(text, refused = false) {
    element('status').textContent = text;
    element('status').classList.toggle('error', refused);
  }

  // JSON with every number kept as the digits sent: an order id beyond 2^53 is shown exactly.
  const sourceTextKept = (() => {
    try {
      return JSON.parse('1', (_key, value, context) => context?.source ?? value) === '1';
    } catch {
      return false;
    }
  })();
  function parseExact(text) {
    if (sourceTextKept)
      return JSON.parse(text, (_key, value, context) => (typeof value === 'number' ? context.source : value));
    // Without source text access: long integers quoted before parsing (orders hold no such digits in a string).
    return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
  }

  function cell(text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className !== undefined) td.className = className;
    return td;
  }

  function fillTable(id, rows) {
    const body = element(id).tBodies[0];
    body.replaceChildren(...rows);
  }

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
    const orders = parseExact(await response.text());
    const shown = orders.slice(0, shownOrders);
    fillTable(
      'orders',
      shown.map((order) => {
        const tr = row(
          ['id', 'petId', 'quantity', 'shipDate', 'complete', 'status'].map((field) =>
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

  function faultEffect(fault) {
    const parts = [];
    if (fault.status !== undefined) parts.push(`status ${fault.status}`);
    if (fault.network === true) parts.push('network error');
    if (typeof fault.delay === 'number') parts.push(`delay ${fault.delay} ms`);
    else if (fault.delay !== undefined) parts.push(`delay ${fault.delay.min}–${fault.delay.max} ms`);
    return parts.join(', ');
  }

  /** What a control route answers, parsed; undefined when it was refused or is what the panel shows already. */
  async function changedJson(path) {
    const response = await call('GET', path);
    if (!response.ok) return undefined;
    const text = await response.text();
    if (text === state.drawn[path]) return undefined;
    state.drawn[path] = text;
    return JSON.parse(text);
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
    const names = (await response.json()).map((session) => session.name);
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

  function chooseSession(name) {
    state.session = name;
    state.ordersTag = null;
    state.drawn = {};
    element('session').value = name;
  }

  async function refreshScenarios() {
    const response = await call('GET', '/scenarios');
    if (!response.ok) return;
    state.scenarios = await response.json();
    if (state.scenarios.length === 0) element('scenario').disabled = true;
    element('scenario').replaceChildren(...state.scenarios.map((scenario) => new Option(scenario.name, scenario.name)));
    describeScenario();
  }

  function describeScenario() {
    const chosen = state.scenarios.find((scenario) => scenario.name === element('scenario').value);
    element('scenario-description').textContent = chosen?.description ?? 'This server knows no scenarios.';
  }

  element('scenario').addEventListener('change', describeScenario);

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
   * A control call on the user's behalf, its outcome said in the status line, a refusal styled as one.
   * With `refusedIn`, the element beside the form that shows its refusals, a refusal is shown there
   * alone and the status line is cleared: one refusal, shown once, and no earlier success beside it.
   */
  async function act(method, path, options, done, refusedIn) {
    let response;
    let message;
    try {
      response = await call(method, path, options);
      if (!response.ok) message = await errorMessage(response);
    } catch {
      message = 'The mock does not answer.';
    }
    if (refusedIn !== undefined) element(refusedIn).textContent = message ?? '';
    if (message !== undefined) {
      if (refusedIn === undefined) say(message, true);
      else say('');
      return;
    }
    say(done(response.status === 204 ? undefined : await response.json()));
    await refresh();
  }

  async function removeFault(id) {
    await act('DELETE', `/faults/${id}`, {}, () => `Removed fault ${id}.`);
  }

  function faultInput() {
    const fault = { operation: element('fault-operation').value };
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
      (loaded) => `Loaded scenario ${loaded.scenario}: ${loaded.orders} orders, ${loaded.faults} faults.`,
    );
  });

  element('reset').addEventListener('click', () =>
    act('POST', '/reset', {}, () => 'Reset: the seed, the start-up faults, an empty journal.'),
  );

  element('session').addEventListener('change', (event) => {
    chooseSession(event.target.value);
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
