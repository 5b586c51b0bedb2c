import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { dateTimeFormat } from './date-time-format.js';
import { int64Maximum, int64Minimum, isInt64 } from './int64.js';
import { openApiDocument, openApiDocumentV2 } from '../spec/generated/openapi-document.js';

export { openApiDocument };

/**
 * Where a value breaks a schema or a rule, and how. The kit's validators return these instead of throwing.
 * @example
 * const violation: Violation = { path: '/0/id', message: 'must be integer' };
 */
export interface Violation {
  path: string;
  message: string;
}

export type SchemaName = keyof typeof openApiDocument.components.schemas;

const documentKey = 'oas';
// Each major's document under a key of its own: a `#/components/...` of v2's schemas is v2's document.
const documentKeys: Readonly<Record<string, string>> = { '/v1': documentKey, '/v2': 'oas-v2' };
let ajv: Ajv2020 | undefined;

// Made at the first compile, so that a start that checks nothing (the default seed) does not make it.
// Schemas are not checked against the meta-schema, which slows every start (docs/architecture.md);
// strict mode still refuses unknown keywords, and test/spec/spec.test.ts validates the document.
function documentAjv(): Ajv2020 {
  if (ajv !== undefined) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
  ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components', 'security', 'tags']);
  // ajv-formats is CommonJS: under NodeNext the plugin is the default import's `default`.
  formatsPlugin.default(ajv);
  ajv.addFormat('date-time', dateTimeFormat);
  ajv.addSchema(structuredClone(openApiDocument) as object, documentKey, undefined, false);
  ajv.addSchema(structuredClone(openApiDocumentV2) as object, documentKeys['/v2'], undefined, false);
  return ajv;
}

export function schemaReference(name: SchemaName): string {
  return `${documentKey}#/components/schemas/${name}`;
}

/**
 * Points a schema's local references (`#/components/...`) into the document Ajv holds: the major's
 * whose base path is `base` (v1's unless given).
 * @example
 * documentSchema({ $ref: '#/components/schemas/OrderPage' }, '/v2') // { $ref: 'oas-v2#/components/schemas/OrderPage' }
 */
export function documentSchema(schema: unknown, base = '/v1'): object {
  return rewriteReferences(schema, documentKeys[base] ?? documentKey) as object;
}

function rewriteReferences(schema: unknown, key: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewriteReferences(item, key));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([name, value]) => [
      name,
      name === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${key}${value}`
        : rewriteReferences(value, key),
    ]),
  );
}

const compiled = new Map<string, ValidateFunction>();

/**
 * A validator compiled on first use and cached by key, so that start-up pays only for the validators
 * it needs. Once a value conforms, its int64 fields are checked exactly: Ajv sees `bigint`s as numbers.
 */
export function schemaValidator(key: string, schema: object): (value: unknown) => Violation[] {
  let validate: ValidateFunction | undefined;
  let checkInt64Fields: Int64Checker | undefined;
  return (value) => {
    if (validate === undefined) {
      validate = compiled.get(key) ?? documentAjv().compile(schema);
      compiled.set(key, validate);
      checkInt64Fields = int64Checker(schema, new Set());
    }
    if (!validate(withoutBigInts(value))) return toViolations(validate.errors ?? []);
    const violations: Violation[] = [];
    checkInt64Fields?.(value, [], violations);
    return violations;
  };
}

export const int64Message = `must be an integer from ${int64Minimum} to ${int64Maximum}, written exactly`;

// Where the checker is in the value: escaped property segments ('/name') and item indexes, joined into a
// path only for a violation, so that checking a large conforming value makes no strings.
type PathSoFar = (string | number)[];

type Int64Checker = (value: unknown, at: PathSoFar, violations: Violation[]) => void;

function pathOf(at: PathSoFar): string {
  let path = '';
  for (const segment of at) path += typeof segment === 'number' ? `/${segment}` : segment;
  return path;
}

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

// Visits only the parts of a value whose schema holds an int64; after Ajv, so the value has the schema's shape.
function int64Checker(schema: unknown, visiting: Set<unknown>): Int64Checker | undefined {
  if (schema === null || typeof schema !== 'object' || visiting.has(schema)) return undefined;
  visiting.add(schema);
  const node = schema as Record<string, unknown>;
  const checks: Int64Checker[] = [];
  if (node.format === 'int64') {
    checks.push((value, at, violations) => {
      if (value !== undefined && !isInt64(value)) violations.push({ path: pathOf(at), message: int64Message });
    });
  }
  if (typeof node.$ref === 'string') {
    const referenced = int64Checker(resolveReference(node.$ref), visiting);
    if (referenced) checks.push(referenced);
  }
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    const check = int64Checker(part, visiting);
    if (check) checks.push(check);
  }
  if (node.properties !== null && typeof node.properties === 'object') {
    for (const [name, property] of Object.entries(node.properties)) {
      const check = int64Checker(property, visiting);
      if (check === undefined) continue;
      const segment = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      checks.push((value, at, violations) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, name)) return;
        at.push(segment);
        check((value as Record<string, unknown>)[name], at, violations);
        at.pop();
      });
    }
  }
  const items = int64Checker(node.items, visiting);
  if (items) {
    checks.push((value, at, violations) => {
      if (!Array.isArray(value)) return;
      for (let index = 0; index < value.length; index++) {
        at.push(index);
        items(value[index], at, violations);
        at.pop();
      }
    });
  }
  visiting.delete(schema);
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (value, at, violations) => {
    for (let index = 0; index < checks.length; index++) checks[index]!(value, at, violations);
  };
}

// For Ajv, which knows only numbers. Only the parts that hold a bigint are copied.
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
    for (const item of value) if (typeof item === 'object' ? holdsBigInt(item) : typeof item === 'bigint') return true;
    return false;
  }
  // Scalars are told apart here, not in a call each: a big seed has hundreds of thousands of them.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' ? holdsBigInt(item) : typeof item === 'bigint') return true;
  }
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

/** The first violation in words, and how many more there are, for a one-line message. */
export function violationSummary(violations: readonly Violation[], whole = 'the body'): string {
  const first = violations[0];
  if (first === undefined) return 'no violation';
  return `${first.path || whole} ${first.message}${violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''}`;
}
