import { readFile } from 'node:fs/promises';
import { parseJson, type JsonValue } from '../core/parse-json.js';
import type { Scenario } from '../core/scenario.js';
import type { CaseResult } from './results.js';

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
  path: string;
  authorization: string | undefined;
  /** The orders of the interaction's provider state (ids exact), if it sets any: compared as data (`sameJson`). */
  state: JsonValue | undefined;
}

type PactFile = {
  interactions?: {
    description: string;
    providerStates?: { params?: { orders?: JsonValue } }[];
    request: { method: string; path: string; headers?: Record<string, string | string[]> };
  }[];
};

/** The interactions of these pact files; a file that cannot be read is left to Pact's verifier to report. */
export async function readPactInteractions(files: readonly string[]): Promise<PactInteraction[]> {
  const interactions: PactInteraction[] = [];
  for (const file of files) {
    let pact: PactFile;
    try {
      pact = parseJson(await readFile(file, 'utf8')) as unknown as PactFile;
    } catch {
      continue; // Pact's verifier says what is wrong with it
    }
    for (const interaction of pact.interactions ?? []) {
      const header = Object.entries(interaction.request.headers ?? {}).find(
        ([name]) => name.toLowerCase() === 'authorization',
      )?.[1];
      const orders = interaction.providerStates?.[0]?.params?.orders;
      interactions.push({
        description: interaction.description,
        method: interaction.request.method,
        path: interaction.request.path.replace(/^\/v1/, ''),
        authorization: Array.isArray(header) ? header.join(', ') : header,
        state: orders,
      });
    }
  }
  return interactions;
}
