import type { JsonValue } from '../../core/parse-json.js';
import { sameJson } from '../../core/same-json.js';
import { isNode, type Node } from './api-document.js';

// The keywords the comparison reads: two members giving one of them different values do not merge.
const judged = new Set([
  'type',
  'format',
  'nullable',
  'enum',
  'const',
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'pattern',
  'multipleOf',
  'items',
  'additionalProperties',
  'oneOf',
  'anyOf',
  'not',
]);

/** The schema merged, or `undefined` when two of its parts give a keyword the comparison reads different values. */
function merge(schema: Node, resolve: (node: unknown) => unknown, within: Set<Node>): Node | undefined {
  const members = schema.allOf;
  if (!Array.isArray(members) || within.has(schema)) return schema;
  within.add(schema);
  const { allOf: _members, ...own } = schema;
  const merged: Node = { ...own };
  const properties: Node = isNode(own.properties) ? { ...own.properties } : {};
  const required = new Set(Array.isArray(own.required) ? own.required : []);
  let hasProperties = isNode(own.properties);
  for (const raw of members) {
    const resolved = resolve(raw);
    if (!isNode(resolved)) continue;
    const member = merge(resolved, resolve, within);
    if (member === undefined) return undefined;
    for (const [key, value] of Object.entries(member)) {
      if (key === 'allOf') continue;
      if (key === 'properties' && isNode(value)) {
        hasProperties = true;
        // A field named twice must be named alike: two schemas of one field make no one schema.
        for (const [name, field] of Object.entries(value)) {
          if (!Object.hasOwn(properties, name)) properties[name] = field;
          else if (!sameJson(properties[name] as JsonValue, field as JsonValue)) return undefined;
        }
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(name);
      } else if (!Object.hasOwn(merged, key)) merged[key] = value;
      else if (judged.has(key) && !sameJson(merged[key] as JsonValue, value as JsonValue)) return undefined;
    }
  }
  within.delete(schema);
  if (hasProperties) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/**
 * A schema with its `allOf` folded into one object, so that what a value must be is read in one
 * place: the members' fields (through their `$ref`s) and `required` lists joined, any other keyword
 * taken from the schema itself, else from the first member that has it. A field moved from one member
 * to another is the same field of the same object. A schema without `allOf` is returned as it is, and
 * so is one whose parts disagree on a keyword the comparison reads (two `oneOf`s, two maximums: what
 * they make together is not one value); an `allOf` that contains itself (through a `$ref`) is folded once.
 * @example
 * mergedSchema({ allOf: [{ properties: { id: { type: 'integer' } } }, { properties: { status: { type: 'string' } }, required: ['status'] }] }, (node) => node)
 * // { properties: { id: { type: 'integer' }, status: { type: 'string' } }, required: ['status'] }
 */
export function mergedSchema(schema: Node, resolve: (node: unknown) => unknown): Node {
  return merge(schema, resolve, new Set()) ?? schema;
}
