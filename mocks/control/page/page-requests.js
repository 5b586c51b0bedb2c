// The control page's script (GET /__mock/), one of its modules: the page's state and its calls of the
// control API (the key, the session header, exact JSON, the status line).
// @ts-check
// Plain browser modules, checked by tsconfig.page.json (`npm run typecheck`) from their JSDoc. Served as written
// but for their import statements and export keywords: scripts/generate-spec.mjs inlines page-types.js,
// page-requests.js, page-panels.js and page-actions.js, in that order, as one script inside one function.

/** @import { ScenarioSummary, PageElements, ReviverContext } from './page-types.js' */

export const keyStorage = 'petstore-mock-control-key';
export const refreshEvery = 1000;
export const shownOrders = 1000;
export const shownCalls = 200;
/**
 * @type {{ session: string, key: string, ordersTag: string | null, drawn: Record<string, string>,
 *   sessionNames: string, scenarios: ScenarioSummary[] | undefined, keyNeeded: boolean }}
 */
export const state = {
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
export const element = (id) => /** @type {PageElements[Id]} */ (document.getElementById(id));

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
export async function call(method, path, options = {}) {
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
export async function errorMessage(response) {
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
export function say(text, refused = false) {
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
export function parseExact(text) {
  if (readsNumberSource) return JSON.parse(text, digitsAsSent);
  // Without source text access: long integers quoted before parsing (orders hold no such digits in a string).
  return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
}
