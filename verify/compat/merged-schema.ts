import { isNode, type Node } from './api-document.js';

function merge(schema: Node, resolve: (node: unknown) => unknown, within: Set<Node>): Node {
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
    for (const [key, value] of Object.entries(member)) {
      if (key === 'properties' && isNode(value)) {
        hasProperties = true;
        // The first member naming a field gives its schema, as the schema itself comes first.
        for (const [name, field] of Object.entries(value))
          if (!Object.hasOwn(properties, name)) properties[name] = field;
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(name);
      } else if (!Object.hasOwn(merged, key)) merged[key] = value;
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
 * to another is the same field of the same object. A schema without `allOf` is returned as it is; an
 * `allOf` that contains itself (through a `$ref`) is folded once.
 * @example
 * mergedSchema({ allOf: [{ properties: { id: { type: 'integer' } } }, { properties: { status: { type: 'string' } }, required: ['status'] }] }, (node) => node)
 * // { properties: { id: { type: 'integer' }, status: { type: 'string' } }, required: ['status'] }
 */
export function mergedSchema(schema: Node, resolve: (node: unknown) => unknown): Node {
  return merge(schema, resolve, new Set());
}
