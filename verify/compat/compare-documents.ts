import type { ApiDocument } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { operationChanges, securityChanges } from './operation-changes.js';
import { parameterChanges } from './parameter-changes.js';
import { requestBodyChanges } from './request-body-changes.js';
import { responseChanges } from './response-changes.js';

/**
 * Every change from `old` to `next` a consumer could notice, one finding each: operations and base
 * paths removed or added, and for every operation in both (same method, base path and path) its
 * security, parameters and responses. `today` decides whether a deprecated operation's sunset has passed.
 * @example
 * const findings = compareDocuments(await readApiDocument('spec/openapi.yaml'), await readApiDocument('changed.yaml'), { today: new Date() });
 */
export function compareDocuments(old: ApiDocument, next: ApiDocument, options: { today: Date }): CompatFinding[] {
  const findings = operationChanges(old, next, options.today);
  const newByKey = new Map(next.operations.map((operation) => [operation.key, operation]));
  for (const oldOperation of old.operations) {
    const newOperation = newByKey.get(oldOperation.key);
    if (newOperation === undefined) continue;
    if (!oldOperation.deprecated && newOperation.deprecated) {
      findings.push(
        compatFinding('api-became-deprecated', {
          operation: newOperation.label,
          path: '',
          expected: 'not deprecated',
          actual: newOperation.sunset === undefined ? 'deprecated' : `deprecated, sunset ${newOperation.sunset}`,
        }),
      );
    }
    const pair = { old, next, oldOperation, newOperation };
    findings.push(
      ...securityChanges(pair),
      ...parameterChanges(pair),
      ...requestBodyChanges(pair),
      ...responseChanges(pair),
    );
  }
  return findings;
}
