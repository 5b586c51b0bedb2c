// The control page's script (GET /__mock/), in four modules. It drives only the documented control API
// under /__mock, so everything it does can also be done with curl. This one: the shapes the others read (types only).
// @ts-check
// Plain browser modules, checked by tsconfig.page.json (`npm run typecheck`) from their JSDoc. Served as written
// but for their import statements and export keywords: scripts/generate-spec.mjs inlines page-types.js,
// page-requests.js, page-panels.js and page-actions.js, in that order, as one script inside one function.

/**
 * The answers of the control routes the page reads, as far as it reads them (the server's types are
 * ActiveFault, JournalEntry, ResponseCoverage, ScenarioSummary, ScenarioLoaded and SessionSummary in mocks/).
 * @typedef {{ id: number, operation: string, status?: number, network?: boolean,
 *   delay?: number | { min: number, max: number }, times?: number, seen: number, affected: number }} Fault
 * @typedef {{ time: string, method: string, path: string, status: number | 'network', operation: string | null,
 *   stability?: string, session: string | null }} JournalEntry
 * @typedef {{ operations: { operation: string, method: string, base: string, path: string,
 *   stability: string | null, responses: { status: number, seen: number }[] }[], covered: number, total: number }} Coverage
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

export {};
