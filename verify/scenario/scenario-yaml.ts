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
    // A text that acts in a terminal (a HAR's or an upstream's, quoted in a finding) is written double-quoted...
    Scalar(_, node) {
      if (typeof node.value === 'string' && actingCharacter.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // ...where the yaml package leaves DEL, C1 and the bidi controls raw: each is written as the `\uXXXX`
  // escape of YAML's double-quoted style, the same value, so that `cat` of the file shows what it holds.
  return document
    .toString({ lineWidth: 0 })
    .replace(acting, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// What `printable` escapes (core/printable.ts), but LF: the file's own line breaks (a string's are written `\n`).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds, on purpose
const acting = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const actingCharacter = new RegExp(acting.source);
