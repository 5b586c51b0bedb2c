import { Document, isPair, isScalar, visit } from 'yaml';
import type { ContractStep, RecordingNote } from '../../mocks/scenarios.js';
import { providerState, type OrderInput } from '../../spec/provider-state.js';

/** What a recording's file holds. */
export interface RecordingParts {
  description: string;
  recording: RecordingNote;
  orders: OrderInput[];
  steps: ContractStep[];
}

const heading =
  '# Recorded by petstore-verify proxy --record. Replay it with petstore-verify --scenarios DIR --scenario NAME;\n' +
  '# start the mock in its state with petstore-mock --scenarios DIR --scenario NAME.\n';

/**
 * A recording as the text of a scenario file: the kit's format, each int64 exact (the yaml package
 * writes a `bigint` as the integer it is), the steps last so that a step is one more item at the end.
 * @example
 * recordingText({ description, recording, orders: [{ id: 9007199254740993n }], steps }) // '# Recorded by …\ndescription: …'
 */
export function recordingText(parts: RecordingParts): string {
  const head = yamlText({
    description: parts.description,
    recording: parts.recording,
    state: { name: providerState, params: { orders: parts.orders } },
  });
  return `${heading}${head}steps:\n${parts.steps.map(stepText).join('')}`;
}

/**
 * One step as an item of the file's `steps` (at the left margin, as YAML allows under a key).
 * @example
 * stepText({ name: '1. list the orders', request: { method: 'GET', path: '/store/orders' }, expect: { status: 200 } })
 * // '- name: 1. list the orders\n  request: { method: GET, path: /store/orders }\n  expect: { status: 200 }\n'
 */
export function stepText(step: ContractStep): string {
  return yamlText([step]);
}

// As the kit's own scenarios are written: a map or list of plain values on one line ({ id: 1, status: shipped }).
function yamlText(value: unknown): string {
  const document = new Document(value);
  visit(document, {
    Collection(_, node) {
      if (node.items.every((item: unknown) => isScalar(isPair(item) ? item.value : item))) node.flow = true;
    },
  });
  return document.toString({ lineWidth: 0 });
}
