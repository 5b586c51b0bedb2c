import type { ContractStep, RecordingNote } from '../../core/scenario.js';
import { providerState, type OrderInput } from '../../core/provider-state.js';
import { scenarioYaml } from '../scenario/scenario-yaml.js';

/** What a recording's file holds: its steps and its state already written as YAML (each kept, not written again). */
export interface RecordingParts {
  /** The command that recorded it (`petstore-verify proxy`, `petstore-verify har`). */
  source?: string;
  description: string;
  recording: RecordingNote;
  /** `stateText(orders)`. */
  state: string;
  /** `stepText(step)` for each step. */
  steps: readonly string[];
}

const heading = (source: string) =>
  `# Recorded by ${source}. Replay it with petstore-verify --scenarios DIR --scenario NAME;\n` +
  '# start the mock in its state with petstore-mock --scenarios DIR --scenario NAME.\n';

/**
 * A recording as the text of a scenario file: the kit's format, each int64 exact (the yaml package
 * writes a `bigint` as the integer it is), the steps last so that a step is one more item at the end.
 */
export function recordingText(parts: RecordingParts, lines: Map<string, string>): string {
  const { inferred, dropped, ...note } = parts.recording;
  const head = `${scenarioYaml({ description: parts.description })}recording:\n${scenarioYaml(note).replace(/^(?=.)/gm, '  ')}`;
  const inferredText = (inferred ?? []).map((item) =>
    itemText(item, `inferred ${item.id} ${item.status} ${item.listed}`, lines, '    '),
  );
  const droppedText = (dropped ?? []).map((item) => itemText(item, undefined, lines, '    '));
  // The proxy records with --record; the HAR command's name says it all.
  const source = (parts.source ?? 'petstore-verify proxy').replace(/^petstore-verify proxy$/, '$& --record');
  return `${heading(source)}${head}${listText('inferred', inferredText)}${listText('dropped', droppedText)}${parts.state}steps:\n${parts.steps.join('')}`;
}

function listText(name: string, items: readonly string[]): string {
  return items.length === 0 ? '' : `  ${name}:\n${items.join('')}`;
}

// An item of a list as YAML at `indent`, kept in `lines` under `key` (what tells it apart from the other
// items it could be: an inference's step, an order's fields, never change once it is made).
function itemText(item: object, key: string | undefined, lines: Map<string, string>, indent: string): string {
  if (key === undefined) return scenarioYaml([item]).replace(/^(?=.)/gm, indent);
  let line = lines.get(key);
  if (line === undefined) {
    line = scenarioYaml([item]).replace(/^(?=.)/gm, indent);
    lines.set(key, line);
  }
  return line;
}

/**
 * The provider state a recording starts from, as the file's `state`. Each order's line is kept in
 * `lines` (the state's orders are the same objects until one changes), so a state of thousands of
 * orders costs a lookup an order when one of them is given its status.
 */
export function stateText(orders: readonly OrderInput[], lines: WeakMap<OrderInput, string>): string {
  const texts = orders.map((order) => {
    let line = lines.get(order);
    if (line === undefined) {
      line = scenarioYaml([order]).replace(/^(?=.)/gm, '      ');
      lines.set(order, line);
    }
    return line;
  });
  return `state:\n  name: ${providerState}\n  params:\n    orders:${texts.length === 0 ? ' []\n' : `\n${texts.join('')}`}`;
}

/** One step as an item of the file's `steps` (at the left margin, as YAML allows under a key). */
export function stepText(step: ContractStep): string {
  return scenarioYaml([step]);
}
