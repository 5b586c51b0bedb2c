import type { ApiDocument, ApiOperation } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { compareSchemas } from './schema-changes.js';

/**
 * The responses of an operation kept in both documents: statuses removed (an error) and added (a
 * warning), a JSON body gone, a documented header gone, and each body's schema compared field by field.
 * @example
 * responseChanges({ old, next, oldOperation, newOperation }).map((finding) => finding.code) // ['response-status-removed']
 */
export function responseChanges(pair: {
  old: ApiDocument;
  next: ApiDocument;
  oldOperation: ApiOperation;
  newOperation: ApiOperation;
}): CompatFinding[] {
  const { old, next, oldOperation, newOperation } = pair;
  const operation = newOperation.label;
  const findings: CompatFinding[] = [];
  for (const [status, response] of oldOperation.responses) {
    const path = `/responses/${status}`;
    const kept = newOperation.responses.get(status);
    if (kept === undefined) {
      const statuses = [...newOperation.responses.keys()].join(', ');
      findings.push(
        compatFinding('response-status-removed', {
          operation,
          path,
          expected: `the status ${status}`,
          actual: `only ${statuses || 'no status'}`,
        }),
      );
      continue;
    }
    if (response.hasBody && !kept.hasBody) {
      findings.push(
        compatFinding('response-body-removed', {
          operation,
          path: `${path}/body`,
          expected: 'a JSON body',
          actual: 'none',
        }),
      );
      continue;
    }
    for (const [name] of response.headers) {
      if (!kept.headers.has(name)) {
        findings.push(
          compatFinding('response-header-removed', {
            operation,
            path: `${path}/headers/${name}`,
            expected: `the header ${name}`,
            actual: 'none',
          }),
        );
      }
    }
    if (response.hasBody) {
      compareSchemas(
        { side: 'response', operation, resolveOld: old.resolve, resolveNew: next.resolve, findings },
        response.schema,
        kept.schema,
        `${path}/body`,
      );
    }
  }
  for (const status of newOperation.responses.keys()) {
    if (!oldOperation.responses.has(status)) {
      const statuses = [...oldOperation.responses.keys()].join(', ');
      findings.push(
        compatFinding('response-status-added', {
          operation,
          path: `/responses/${status}`,
          expected: `only ${statuses}`,
          actual: `also ${status}`,
        }),
      );
    }
  }
  return findings;
}
