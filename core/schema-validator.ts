import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { int64Maximum, int64Minimum, toInt64 } from './int64.js';
import { openApiDocument } from '../spec/generated/openapi-document.js';

export { openApiDocument };

/**
 * One place where a value breaks a schema or a rule: a JSON Pointer into the value (`""` for the
 * whole value) and what is wrong there. Every validator of the kit returns these instead of throwing.
 * @example
 * const violation: Violation = { path: '/0/id', message: 'must be integer' };
 */
export interface Violation {
  path: string;
  message: string;
}

/** The name of a schema in the document's `components.schemas`. */
export type SchemaName = keyof typeof openApiDocument.components.schemas;

// One Ajv instance for the kit, holding the whole document so that schemas refer into it.
// validateSchema off: checking each of the kit's own schemas against the meta-schema cost about 60 ms at every start;
// strict mode still refuses unknown keywords when a schema compiles.
const ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
// The OpenAPI root keywords are not JSON Schema keywords: declare them so strict mode accepts the document.
ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components', 'security', 'tags']);
// ajv-formats is CommonJS: under NodeNext its default import is the module object, the plugin is its `default`.
formatsPlugin.default(ajv);
// Not checked against the meta-schema here (that costs about 90 ms at every start): test/spec.test.ts
// validates the document as OpenAPI 3.1, and the generated module is checked to match it.
const documentKey = 'oas';
ajv.addSchema(structuredClone(openApiDocument) as object, documentKey, undefined, false);

/**
 * The JSON Schema reference of a schema of the document, for use inside other schemas.
 * @example
 * { type: 'array', items: { $ref: schemaReference('Order') } }
 */
export function schemaReference(name: SchemaName): string {
  return `${documentKey}#/components/schemas/${name}`;
}

/**
 * A schema of the document (whose references are local, `#/components/...`) as a schema the
 * validators take: its references point into the document Ajv holds.
 * @example
 * documentSchema({ $ref: '#/components/schemas/Error' }) // { $ref: 'oas#/components/schemas/Error' }
 */
export function documentSchema(schema: unknown): object {
  return rewriteReferences(schema) as object;
}

function rewriteReferences(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteReferences);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${documentKey}${value}`
        : rewriteReferences(value),
    ]),
  );
}

const compiled = new Map<string, ValidateFunction>();

/**
 * A validator for a JSON Schema that may refer into the document, compiled once, on first use, and cached by key.
 * It returns the violations (each `path` a JSON Pointer, `""` for the whole value), empty when the value conforms.
 * `bigint` values are checked as the numbers they denote; then, once the value conforms, every field
 * whose schema says `format: int64` is checked exactly (Ajv sees numbers, and ajv-formats lets 2^63 through).
 * @example
 * const validateOrders = schemaValidator('orders', { type: 'array', items: { $ref: schemaReference('Order') } });
 * validateOrders([{ id: 'x' }]) // [{ path: '/0/id', message: 'must be integer' }]
 * validateOrders([{ id: 9223372036854775808n }]) // [{ path: '/0/id', message: 'must be an integer from -9223372036854775808 to ...' }]
 */
export function schemaValidator(key: string, schema: object): (value: unknown) => Violation[] {
  // Compiled on first use, not at import: start-up pays only for the validators it needs.
  let run: ValidateFunction | undefined;
  let checkInt64s: Int64Check | undefined;
  return (value) => {
    if (run === undefined) {
      run = compiled.get(key) ?? ajv.compile(schema);
      compiled.set(key, run);
      checkInt64s = int64Check(schema, new Set());
    }
    // A value that holds no bigint is checked as it is, not copied (withoutBigInts returns it).
    if (!run(withoutBigInts(value))) return toViolations(run.errors ?? []);
    const violations: Violation[] = [];
    checkInt64s?.(value, '', violations);
    return violations;
  };
}

/** What an int64 out of range, or not written exactly, is told. */
export const int64Message = `must be an integer from ${int64Minimum} to ${int64Maximum}, written exactly`;

type Int64Check = (value: unknown, path: string, violations: Violation[]) => void;

function resolveReference(reference: string): unknown {
  const pointer = reference.startsWith(`${documentKey}#`)
    ? reference.slice(documentKey.length + 1)
    : reference.startsWith('#')
      ? reference.slice(1)
      : undefined;
  if (pointer === undefined) return undefined;
  let schema: unknown = openApiDocument;
  for (const segment of pointer.split('/').slice(1))
    schema = (schema as Record<string, unknown> | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  return schema;
}

// Compiles, once per validator, a walk that visits only the parts of a value whose schema holds an
// int64: undefined when there are none. It follows $ref, allOf, properties and items; a value that
// passed Ajv has the shape the schema says, so the walk only has to read what is there.
function int64Check(schema: unknown, visiting: Set<unknown>): Int64Check | undefined {
  if (schema === null || typeof schema !== 'object' || visiting.has(schema)) return undefined;
  visiting.add(schema);
  const node = schema as Record<string, unknown>;
  const checks: Int64Check[] = [];
  if (node.format === 'int64') {
    checks.push((value, path, violations) => {
      if (value !== undefined && toInt64(value) === undefined) violations.push({ path, message: int64Message });
    });
  }
  if (typeof node.$ref === 'string') {
    const referenced = int64Check(resolveReference(node.$ref), visiting);
    if (referenced) checks.push(referenced);
  }
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    const check = int64Check(part, visiting);
    if (check) checks.push(check);
  }
  if (node.properties !== null && typeof node.properties === 'object') {
    for (const [name, property] of Object.entries(node.properties)) {
      const check = int64Check(property, visiting);
      if (check === undefined) continue;
      const segment = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      checks.push((value, path, violations) => {
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, name))
          check((value as Record<string, unknown>)[name], path + segment, violations);
      });
    }
  }
  const items = int64Check(node.items, visiting);
  if (items) {
    checks.push((value, path, violations) => {
      if (Array.isArray(value)) {
        value.forEach((item, index) => {
          items(item, `${path}/${index}`, violations);
        });
      }
    });
  }
  visiting.delete(schema);
  if (checks.length === 0) return undefined;
  return (value, path, violations) => {
    for (const check of checks) check(value, path, violations);
  };
}

// Ajv checks numbers: the value with every bigint as the number it denotes (the exact check comes
// after). Only the parts that hold a bigint are copied; most values are returned as they are.
function withoutBigInts(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value === null || typeof value !== 'object' || !holdsBigInt(value)) return value;
  if (Array.isArray(value)) return value.map(withoutBigInts);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutBigInts(item)]));
}

function holdsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsBigInt(item)) return true;
    return false;
  }
  for (const key in value)
    if (Object.hasOwn(value, key) && holdsBigInt((value as Record<string, unknown>)[key])) return true;
  return false;
}

function toViolations(errors: ErrorObject[]): Violation[] {
  return errors.map((error) => {
    let path = error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'unevaluatedProperties' || error.keyword === 'additionalProperties') {
      const property = error.params as { unevaluatedProperty?: string; additionalProperty?: string };
      path = `${path}/${escapePointer(property.unevaluatedProperty ?? property.additionalProperty ?? '')}`;
      message = 'is not a field of this record';
    } else if (error.keyword === 'required') {
      path = `${path}/${escapePointer((error.params as { missingProperty: string }).missingProperty)}`;
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
    }
    return { path, message };
  });
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The first violation as words, and how many more there are: what a one-line error message says.
 * @example
 * violationSummary([{ path: '/0/id', message: 'must be integer' }, { path: '/1', message: 'is required' }])
 * // '/0/id must be integer (and 1 more)'
 */
export function violationSummary(violations: readonly Violation[], whole = 'the body'): string {
  const first = violations[0];
  if (first === undefined) return 'no violation';
  return `${first.path || whole} ${first.message}${violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''}`;
}
