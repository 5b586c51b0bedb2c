import type { JsonValue } from '../../core/parse-json.js';
import { isLocalPact, readPactDocument, type PactDocument } from './pact-document.js';
import type { Scenario } from '../../core/scenario.js';
import type { CaseResult } from '../base/results.js';
import { pactQueryKey } from './pact-query.js';

/** The regular expression (Pact's `PACT_DESCRIPTION` filter) that matches the interactions of these scenarios. */
export function scenarioFilter(names: readonly string[]): string {
  return `^(?:${names.map((name) => name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|')}) › `;
}

/** Whether an interaction named `scenario › step` belongs to one of these scenarios. */
export function belongsToScenarios(description: string, names: readonly string[] | undefined): boolean {
  return names === undefined || names.some((name) => description.startsWith(`${name} › `));
}

/**
 * Sorts cases named `scenario › step` into the scenarios' order, step by step; the others keep
 * their order, after them.
 */
export function inScenarioOrder(cases: CaseResult[], scenarios: readonly Scenario[] | undefined): CaseResult[] {
  if (scenarios === undefined) return cases;
  const rank = new Map<string, number>();
  for (const scenario of scenarios)
    for (const step of scenario.steps) rank.set(`${scenario.name} › ${step.name}`, rank.size);
  const rankOf = (name: string) => rank.get(name) ?? rank.size;
  return cases
    .map((result, index) => ({ result, index }))
    .sort((one, other) => rankOf(one.result.name) - rankOf(other.result.name) || one.index - other.index)
    .map(({ result }) => result);
}

/** An interaction of a pact file, as far as the guard's records are matched to it. */
export interface PactInteraction {
  description: string;
  method: string;
  /** The path below v1's base path (`/store/orders`), or with another major's (`/v2/store/orders`). */
  path: string;
  /** The request's query as `pactQueryKey` writes it (`''` for none): one path's interactions differ by it. */
  query: string;
  authorization: string | undefined;
  /** The orders of the interaction's provider state (ids exact), if it sets any: compared as data (`sameJson`). */
  state: JsonValue | undefined;
}

/** A pact's header field as one value (V4 lists, V2 and V3 strings), if it is there. */
function headerField(headers: JsonValue | undefined, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return undefined;
  const value = Object.entries(headers).find(([field]) => field.toLowerCase() === name)?.[1];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/** The orders of an interaction's first provider state, if it sets any. */
function stateOrders(interaction: PactDocument['interactions'][number]): JsonValue | undefined {
  const [state] = Array.isArray(interaction.providerStates) ? interaction.providerStates : [];
  const params = state !== null && typeof state === 'object' && !Array.isArray(state) ? state.params : undefined;
  return params !== null && typeof params === 'object' && !Array.isArray(params) ? params.orders : undefined;
}

/**
 * The interactions of these pact files, read and checked up front (`readPactDocument`); an http(s)
 * URL is left to Pact's verifier, which reads it itself.
 * @throws PactFileError when a file cannot be used.
 */
export async function readPactInteractions(files: readonly string[]): Promise<PactInteraction[]> {
  const interactions: PactInteraction[] = [];
  for (const file of files) {
    if (!isLocalPact(file)) continue;
    for (const interaction of (await readPactDocument(file)).interactions) {
      const request = interaction.request as { method: string; path: string; query?: JsonValue; headers?: JsonValue };
      interactions.push({
        description: String(interaction.description),
        method: request.method,
        path: request.path.replace(/^\/v1(?=\/|$)/, ''),
        query: pactQueryKey(request.query),
        authorization: headerField(request.headers, 'authorization'),
        state: stateOrders(interaction),
      });
    }
  }
  return interactions;
}
