import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { openApiDocument } from './generated/openapi-document.js';
import type { components } from './generated/openapi-types.js';
import type { Violation } from './errors.js';

export { openApiDocument };

/** An Order record as the specification defines it (generated from `spec/openapi.yaml`). */
export type Order = components['schemas']['Order'];
/** The Error record `{ code, message, status }` (generated from `spec/openapi.yaml`). */
export type ErrorRecord = components['schemas']['Error'];
/** The name of a schema in the document's `components.schemas`. */
export type SchemaName = keyof typeof openApiDocument.components.schemas;

/** The field names of an Order, in the document's order: the only fields the public interface sends. */
export const orderFields = Object.keys(openApiDocument.components.schemas.Order.properties) as (keyof Order)[];

/** The Order fields whose format is int64: held as `bigint` and checked over the whole int64 range. */
export const orderInt64Fields = Object.entries(openApiDocument.components.schemas.Order.properties)
  .filter(([, schema]) => 'format' in schema && schema.format === 'int64')
  .map(([name]) => name as keyof Order);

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
ajv.addSchema(structuredClone(openApiDocument) as object, 'oas', undefined, false);

/**
 * The JSON Schema reference of a schema of the document, for use inside other schemas.
 * @example
 * { type: 'array', items: { $ref: schemaReference('Order') } }
 */
export function schemaReference(name: SchemaName): string {
  return `oas#/components/schemas/${name}`;
}

const compiled = new Map<string, ValidateFunction>();

/**
 * A validator for a JSON Schema that may refer into the document, compiled once, on first use, and cached by key.
 * It returns the violations (each `path` a JSON Pointer, `""` for the whole value), empty when the value conforms. `bigint` values are checked as the
 * numbers they denote (their exact int64 range is checked by `toInt64`, not by Ajv).
 * @example
 * const validateOrders = schemaValidator('orders', { type: 'array', items: { $ref: schemaReference('Order') } });
 * validateOrders([{ id: 'x' }]) // [{ path: '/0/id', message: 'must be integer' }]
 */
export function schemaValidator(key: string, schema: object): (value: unknown) => Violation[] {
  // Compiled on first use, not at import: start-up pays only for the validators it needs.
  let run: ValidateFunction | undefined;
  return (value) => {
    if (run === undefined) {
      run = compiled.get(key) ?? ajv.compile(schema);
      compiled.set(key, run);
    }
    return run(withoutBigInts(value)) ? [] : toViolations(run.errors ?? []);
  };
}

function withoutBigInts(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.some(needsConversion) ? value.map(withoutBigInts) : value;
  if (value !== null && typeof value === 'object') {
    if (!Object.values(value).some(needsConversion)) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutBigInts(item)]));
  }
  return value;
}

function needsConversion(value: unknown): boolean {
  return typeof value === 'bigint' || (value !== null && typeof value === 'object');
}

function toViolations(errors: ErrorObject[]): Violation[] {
  return errors.map((error) => {
    let path = error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'unevaluatedProperties' || error.keyword === 'additionalProperties') {
      const property = (error.params as { unevaluatedProperty?: string; additionalProperty?: string });
      path = `${path}/${escapePointer(property.unevaluatedProperty ?? property.additionalProperty ?? '')}`;
      message = 'is not a field of this record';
    } else if (error.keyword === 'required') {
      path = `${path}/${escapePointer((error.params as { missingProperty: string }).missingProperty)}`;
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${((error.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { path, message };
  });
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
