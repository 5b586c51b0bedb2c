import type { JsonValue } from '../../core/parse-json.js';
import { sameJson } from '../../core/same-json.js';
import { type ApiDocument, type ApiOperation, type ApiParameter, isNode } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { compareSchemas, typesOf } from './schema-changes.js';

/** Path parameters are the same by their place in the template (a rename is no change on the wire); others by place and name. */
function keyed(operation: ApiOperation): Map<string, ApiParameter> {
  const byKey = new Map<string, ApiParameter>();
  const pathNames = [...operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  for (const parameter of operation.parameters) {
    const index = parameter.in === 'path' ? pathNames.indexOf(parameter.name) : -1;
    byKey.set(index >= 0 ? `path #${index + 1}` : `${parameter.in} ${parameter.name}`, parameter);
  }
  return byKey;
}

/**
 * The parameters of an operation kept in both documents: a new required one or one made required (an
 * error), one removed (a warning), a new optional one (info), and each schema compared as a request's
 * (what it no longer takes breaks a client sending it).
 * @example
 * parameterChanges({ old, next, oldOperation, newOperation })[0]?.code // 'new-required-request-parameter'
 */
export function parameterChanges(pair: {
  old: ApiDocument;
  next: ApiDocument;
  oldOperation: ApiOperation;
  newOperation: ApiOperation;
}): CompatFinding[] {
  const { old, next, oldOperation, newOperation } = pair;
  const operation = newOperation.label;
  const findings: CompatFinding[] = [];
  const oldParameters = keyed(oldOperation);
  const newParameters = keyed(newOperation);
  for (const [key, parameter] of newParameters) {
    const path = `/parameters/${parameter.in}/${parameter.name}`;
    const before = oldParameters.get(key);
    if (before === undefined) {
      findings.push(
        compatFinding(parameter.required ? 'new-required-request-parameter' : 'new-optional-request-parameter', {
          operation,
          path,
          expected: 'no such parameter',
          actual: `${parameter.required ? 'a required' : 'an optional'} ${parameter.in} parameter ${parameter.name}`,
        }),
      );
      continue;
    }
    if (!before.required && parameter.required) {
      findings.push(
        compatFinding('request-parameter-became-required', {
          operation,
          path,
          expected: 'optional',
          actual: 'required',
        }),
      );
    }
    const oldSchema = old.resolve(before.schema);
    const newSchema = next.resolve(parameter.schema);
    const isList = [oldSchema, newSchema].some((schema) => isNode(schema) && typesOf(schema)?.includes('array'));
    if (isList && parameter.in === 'query' && before.explode !== parameter.explode) {
      const written = (explode: boolean) => (explode ? 'the name repeated (exploded)' : 'one comma-joined value');
      findings.push(
        compatFinding('request-parameter-serialization-changed', {
          operation,
          path,
          expected: written(before.explode),
          actual: written(parameter.explode),
        }),
      );
    }
    const defaultOf = (schema: unknown) => (isNode(schema) ? (schema.default as JsonValue | undefined) : undefined);
    const [oldDefault, newDefault] = [defaultOf(oldSchema), defaultOf(newSchema)];
    if (
      (oldDefault !== undefined || newDefault !== undefined) &&
      (oldDefault === undefined || newDefault === undefined || !sameJson(oldDefault, newDefault))
    ) {
      const shown = (value: JsonValue | undefined) =>
        value === undefined ? 'no default' : `default ${typeof value === 'bigint' ? value : JSON.stringify(value)}`;
      findings.push(
        compatFinding('request-parameter-default-value-changed', {
          operation,
          path,
          expected: shown(oldDefault),
          actual: shown(newDefault),
        }),
      );
    }
    compareSchemas(
      { side: 'request', operation, resolveOld: old.resolve, resolveNew: next.resolve, findings },
      before.schema,
      parameter.schema,
      path,
    );
  }
  for (const [key, parameter] of oldParameters) {
    if (newParameters.has(key)) continue;
    findings.push(
      compatFinding('request-parameter-removed', {
        operation,
        path: `/parameters/${parameter.in}/${parameter.name}`,
        expected: `the ${parameter.in} parameter ${parameter.name}`,
        actual: 'none',
      }),
    );
  }
  return findings;
}
