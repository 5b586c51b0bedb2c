// The control page's script (GET /__mock/), one of its modules: the sessions and scenarios, the refresh
// every second, what the forms and buttons do; it starts the page.
// @ts-check
// Plain browser modules, checked by tsconfig.page.json (`npm run typecheck`) from their JSDoc. Served as written
// but for their import statements and export keywords: scripts/generate-spec.mjs inlines page-types.js,
// page-requests.js, page-panels.js and page-actions.js, in that order, as one script inside one function.

/** @import { Fault, ScenarioSummary, ScenarioLoaded, FaultInput } from './page-types.js' */
import { keyStorage, refreshEvery, state, element, call, errorMessage, say } from './page-requests.js';
import { refreshOrders, refreshFaults, refreshJournal, refreshCoverage } from './page-panels.js';

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
      () => Promise.all([refreshOrders(), refreshFaults(removeFault), refreshJournal(), refreshCoverage()]),
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
