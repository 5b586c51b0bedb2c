// How the kit writes a scenario file, whoever writes it (a recording, a saved exploration): one style.
import { Document, isPair, isScalar, visit } from 'yaml';

/**
 * A value as YAML in the style of the kit's own scenarios: a map or list of plain values inside the
 * value on one line (`{ id: 1, status: shipped }`), the value itself in block style, no line folded,
 * each int64 exact (the yaml package writes a `bigint` as the integer it is).
 */
export function scenarioYaml(value: unknown): string {
  const document = new Document(value);
  visit(document, {
    Collection(_, node, path) {
      const nested = path.length > 1;
      if (nested && node.items.every((item: unknown) => isScalar(isPair(item) ? item.value : item))) node.flow = true;
    },
  });
  return document.toString({ lineWidth: 0 });
}
