// Interactions merged as Pact merges them: a request under a provider state is one interaction, the
// same one written once whoever wrote it; two different answers to it cannot both be the contract.
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { MockUsageError } from '../base/errors.js';

/** One interaction of a Pact V4 document. */
export type Interaction = Record<string, JsonValue>;

/** Two interactions with the same request under the same provider state and different answers. */
export interface PactConflict {
  /** The interaction already there (in the file, or earlier in the run). */
  kept: string;
  /** The one that answers the same request differently. */
  added: string;
  /** What differs, as the pact's rules read the two answers: `status 404, then 410`. */
  difference: string;
  /** The tests each was first made in, when they are known (`mock.testStarted`). */
  keptIn?: string;
  addedIn?: string;
}

/** What merging gave: every interaction, the conflicts (none were merged in), and the description each added one has (none: not added). */
export interface MergedInteractions {
  interactions: Interaction[];
  conflicts: PactConflict[];
  descriptions: (string | undefined)[];
}

// JSON text with every object's keys in order, so that a file another tool wrote compares as data.
function canonical(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return stringifyJson(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${stringifyJson(key)}:${canonical(value[key])}`).join(',')}}`;
}

const requestOf = (interaction: Interaction) =>
  canonical({ request: interaction.request ?? null, providerStates: interaction.providerStates ?? [] });

type JsonRecord = Record<string, JsonValue>;

const recordAt = (value: JsonValue | undefined): JsonRecord | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

/**
 * A response as its own matching rules read it: a header or a body field a rule matches stands as
 * that rule (a type rule as the value's type), so two answers the pact matches alike compare equal
 * (two honest 401s, one for a wrong key and one for no Bearer key at all, differ only in what the
 * rules leave open). A list's rules are left as they are: its orders are its provider state's.
 */
function matchedAnswer(response: JsonValue | undefined): string {
  const answer = recordAt(response);
  if (answer === undefined) return canonical(response);
  const rules = recordAt(answer.matchingRules);
  const headerRules = recordAt(rules?.header) ?? {};
  const headers = Object.fromEntries(
    Object.entries(recordAt(answer.headers) ?? {}).map(([name, value]) => [
      name,
      headerRules[name] === undefined ? value : `matched by ${canonical(headerRules[name])}`,
    ]),
  );
  const body = recordAt(answer.body);
  const content = recordAt(body?.content);
  const fields = { ...content };
  for (const [path, rule] of Object.entries(recordAt(rules?.body) ?? {})) {
    const field = /^\$\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(path)?.[1];
    const isType = canonical(rule).includes('"match":"type"');
    if (field !== undefined && isType && content?.[field] !== undefined) fields[field] = `a ${typeof content[field]}`;
  }
  // A status a rule lets vary (Pact V4's `statusCode`) stands as that rule.
  const status = rules?.status === undefined ? (answer.status ?? null) : `matched by ${canonical(rules.status)}`;
  return canonical({
    ...answer,
    status,
    headers,
    ...(body !== undefined && { body: { ...body, ...(content !== undefined && { content: fields }) } }),
  });
}

const answerOf = (interaction: Interaction) => matchedAnswer(interaction.response);

/** What differs between two answers the pact's rules read differently: the status, a header, or the body. */
function differenceOf(kept: JsonValue | undefined, added: JsonValue | undefined): string {
  const [before, after] = [kept, added].map((response) => recordAt(parseJson(matchedAnswer(response))) ?? {});
  const shown = (value: JsonValue | undefined) => {
    const text = canonical(value);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  if (canonical(before!.status) !== canonical(after!.status))
    return `status ${shown(before!.status)}, then ${shown(after!.status)}`;
  const [keptHeaders, addedHeaders] = [recordAt(before!.headers) ?? {}, recordAt(after!.headers) ?? {}];
  for (const name of new Set([...Object.keys(keptHeaders), ...Object.keys(addedHeaders)]))
    if (canonical(keptHeaders[name]) !== canonical(addedHeaders[name]))
      return `the ${name} header ${shown(keptHeaders[name] ?? null)}, then ${shown(addedHeaders[name] ?? null)}`;
  return `the body ${shown(recordAt(before!.body)?.content ?? null)}, then ${shown(recordAt(after!.body)?.content ?? null)}`;
}

function uniqueDescription(wanted: string, taken: Set<string>): string {
  const base = wanted.replace(/ #\d+$/, '');
  if (!taken.has(wanted)) return wanted;
  let number = 2;
  while (taken.has(`${base} #${number}`)) number++;
  return `${base} #${number}`;
}

/**
 * Interactions merged one at a time, as `mergeInteractions` merges them, so that a big pact can be
 * built in slices (a turn of the event loop between them) without merging all of it again. With
 * `keep: false` it keeps only what merging needs (each request's key and its response), not the
 * interactions: for a pact written out as it is built.
 * @example
 * const merger = new InteractionMerger(fromFile);
 * merger.add(interaction) // the interaction as added (its description made unique), or undefined
 * merger.interactions // [...fromFile, ...the added ones]
 */
export class InteractionMerger {
  /** The interactions there and those added (only those there, with `keep: false`). */
  readonly interactions: Interaction[];
  readonly conflicts: PactConflict[] = [];
  readonly #keep: boolean;
  // Each request's key, with the description and the response of the interaction that has it.
  readonly #byRequest = new Map<
    string,
    { description: string; response: JsonValue | undefined; at: number; madeIn?: string | undefined }
  >();
  readonly #descriptions = new Set<string>();

  constructor(existing: readonly Interaction[] = [], { keep = true }: { keep?: boolean } = {}) {
    this.interactions = [...existing];
    this.#keep = keep;
    for (const [at, interaction] of existing.entries()) this.#remember(interaction, requestOf(interaction), at);
  }

  /** Adds one interaction: as added (its description made unique), or undefined when one was there already (a conflict if it answers differently). */
  add(interaction: Interaction, madeIn?: string): Interaction | undefined {
    const request = requestOf(interaction);
    const kept = this.#byRequest.get(request);
    if (kept !== undefined) {
      if (matchedAnswer(kept.response) !== answerOf(interaction))
        this.conflicts.push({
          kept: kept.description,
          added: String(interaction.description),
          difference: differenceOf(kept.response, interaction.response),
          ...(kept.madeIn !== undefined && { keptIn: kept.madeIn }),
          ...(madeIn !== undefined && { addedIn: madeIn }),
        });
      else this.#keepTheLesser(kept, interaction);
      return undefined;
    }
    const description = uniqueDescription(String(interaction.description), this.#descriptions);
    const merged = { ...interaction, description };
    this.#remember(merged, request);
    this.#byRequest.get(request)!.madeIn = madeIn;
    if (this.#keep) this.interactions.push(merged);
    return merged;
  }

  // Of two answers the pact matches alike, the file keeps the one first in code-unit order: the same
  // whichever test met the request first (the text streamed with `keep: false` keeps the first).
  #keepTheLesser(kept: { response: JsonValue | undefined; at: number }, other: Interaction): void {
    const response = other.response;
    if (!this.#keep || response === undefined || canonical(response) >= canonical(kept.response)) return;
    kept.response = response;
    const there = this.interactions[kept.at];
    if (there !== undefined) this.interactions[kept.at] = { ...there, response };
  }

  // The response alone is kept for a later conflict: not the request's provider state, which the key holds.
  #remember(interaction: Interaction, request = requestOf(interaction), at = this.interactions.length): void {
    const description = String(interaction.description);
    this.#descriptions.add(description);
    this.#byRequest.set(request, { description, response: interaction.response, at });
  }
}

/**
 * Adds interactions to those already there: one with the same request and provider state as one there
 * is left out when it answers the same, and named as a conflict when it answers differently; the
 * others are added, their descriptions made unique.
 * @example
 * mergeInteractions(fromFile, fromThisRun) // { interactions: [...fromFile, ...new ones], conflicts: [] }
 */
export function mergeInteractions(existing: readonly Interaction[], added: readonly Interaction[]): MergedInteractions {
  const merger = new InteractionMerger(existing);
  const descriptions = added.map((interaction) => merger.add(interaction)?.description as string | undefined);
  return { interactions: merger.interactions, conflicts: merger.conflicts, descriptions };
}

const kitKey = 'petstore-contract-kit';

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A pact document as its file holds it: the interactions sorted by description, then provider state,
 * request and response (Pact's own writers sort them too), the same descriptions numbered in that
 * order (`#2`, `#3`), and the parts of the kit's metadata sorted. So the same interactions give the
 * same bytes, whichever test, file or worker met them first.
 * @example
 * inFileOrder(document).interactions.map((one) => one.description)
 * // ['DELETE /store/orders/1 204 (with the key)', 'GET /store/orders 200 (with the key)', 'GET /store/orders 200 (with the key) #2']
 */
export function inFileOrder(document: JsonObject): JsonObject {
  const interactions = Array.isArray(document.interactions) ? (document.interactions as Interaction[]) : [];
  const keyed = interactions.map((interaction) => ({
    interaction,
    base: String(interaction.description ?? '').replace(/ #\d+$/, ''),
    key: canonical({
      providerStates: interaction.providerStates ?? [],
      request: interaction.request ?? null,
      response: interaction.response ?? null,
    }),
  }));
  keyed.sort((a, b) => byCodeUnits(a.base, b.base) || byCodeUnits(a.key, b.key));
  const numbered = new Map<string, number>();
  const ordered = keyed.map(({ interaction, base }) => {
    const number = (numbered.get(base) ?? 0) + 1;
    numbered.set(base, number);
    return { ...interaction, description: number === 1 ? base : `${base} #${number}` };
  });
  const metadata = objectAt(document.metadata);
  const kit = objectAt(metadata?.[kitKey]);
  return {
    ...document,
    interactions: ordered,
    ...(metadata !== undefined && {
      metadata: kit === undefined ? metadata : { ...metadata, [kitKey]: sortedParts(kit) },
    }),
  };
}

/**
 * The parts of a text of the kit's metadata, joined by "; ": a call (`GET /v1/store/orders 503: fault`),
 * a test (`test "NAME": did not pass`), a count of calls, or what went unseen. Split only where the next
 * part begins, so that a test's name holding "; " stays whole.
 */
function metadataParts(text: string): string[] {
  return text.split(/; (?=test "|[A-Z]+ \/|\d+ (?:more )?distinct calls|mock\.observe)/);
}

// Each text of the kit's metadata is parts joined by "; " (one per call or test left out): sorted.
function sortedParts(kit: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(kit).map(([key, value]) => [
      key,
      typeof value === 'string' ? metadataParts(value).sort(byCodeUnits).join('; ') : value,
    ]),
  );
}

type JsonObject = Record<string, JsonValue>;

const objectAt = (value: JsonValue | undefined): JsonObject | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

/** The interactions of a pact the new ones can be merged into: the same consumer and provider, Pact V4. */
function interactionsIn(existing: JsonValue, added: JsonObject, where: string): Interaction[] {
  const refuse = (why: string) =>
    new MockUsageError(
      'unmergeable_pact_file',
      `${where} cannot take this run's interactions: ${why}; move it away or delete it`,
    );
  const pact = objectAt(existing);
  if (pact === undefined) throw refuse('it is not a JSON object');
  const consumer = objectAt(pact.consumer)?.name;
  const provider = objectAt(pact.provider)?.name;
  const wanted = { consumer: objectAt(added.consumer)?.name, provider: objectAt(added.provider)?.name };
  if (consumer !== wanted.consumer || provider !== wanted.provider)
    throw refuse(`it is the pact of ${JSON.stringify(consumer)} with ${JSON.stringify(provider)}`);
  const version = objectAt(objectAt(pact.metadata)?.pactSpecification)?.version;
  if (typeof version !== 'string' || !version.startsWith('4.'))
    throw refuse(`its pactSpecification version is ${JSON.stringify(version ?? null)}, not 4.x`);
  const { interactions } = pact;
  if (!Array.isArray(interactions) || interactions.some((one) => objectAt(one) === undefined))
    throw refuse('its interactions are not a list of objects');
  return interactions as Interaction[];
}

// What each writer said of the calls it left out, and of what it could not see, kept side by side.
function mergedKitMetadata(existing: JsonValue | undefined, added: JsonValue | undefined): JsonValue {
  const before = objectAt(existing) ?? {};
  const now = objectAt(added) ?? {};
  const merged: JsonObject = { ...before, ...now };
  for (const [key, value] of Object.entries(before)) {
    const other = now[key];
    if (other === undefined || other === value) continue;
    const parts = [value, other].filter((part) => part !== 'none').map(String);
    merged[key] = parts.length === 0 ? 'none' : [...new Set(parts.flatMap(metadataParts))].join('; ');
  }
  return merged;
}

/**
 * Merges a pact document into one already there (a file's, another test's), as `mergeInteractions`
 * merges their interactions; the kit's metadata of both is kept. Throws `MockUsageError`
 * (`unmergeable_pact_file`) when the one there is not a Pact V4 document of the same consumer and provider.
 * @example
 * const { document, conflicts } = mergePactDocuments(fromFile, fromThisRun, 'pacts/web-app-petstore-order-interface.json');
 */
export function mergePactDocuments(
  existing: JsonValue,
  added: JsonObject,
  where: string,
): { document: JsonObject; conflicts: PactConflict[] } {
  const kept = interactionsIn(existing, added, where);
  const { interactions, conflicts } = mergeInteractions(kept, (added.interactions ?? []) as Interaction[]);
  const metadata = objectAt((existing as JsonObject).metadata) ?? {};
  const ours = objectAt(added.metadata) ?? {};
  const document = {
    ...added,
    interactions,
    metadata: { ...metadata, ...ours, [kitKey]: mergedKitMetadata(metadata[kitKey], ours[kitKey]) },
  };
  return { document, conflicts };
}
