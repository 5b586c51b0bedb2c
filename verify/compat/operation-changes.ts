import type { ApiDocument, ApiOperation } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
// Read strictly (gap 52): never Date.parse's guesses.
import { calendarDay } from './calendar-day.js';

function removal(operation: ApiOperation, today: Date): CompatFinding {
  const where = { operation: operation.label, path: '' };
  if (!operation.deprecated) {
    return compatFinding('api-removed-without-deprecation', { ...where, expected: 'the operation', actual: 'none' });
  }
  const sunset = operation.sunset === undefined ? undefined : calendarDay(operation.sunset);
  if (sunset === undefined) {
    const had =
      operation.sunset === undefined
        ? 'no sunset date (x-sunset)'
        : `a sunset date that is no date (${operation.sunset})`;
    return compatFinding('api-removed-before-sunset', {
      ...where,
      expected: 'a deprecated operation kept until its sunset date',
      actual: `removed, with ${had}`,
    });
  }
  const after = today.getTime() >= sunset;
  return compatFinding(after ? 'api-removed-after-sunset' : 'api-removed-before-sunset', {
    ...where,
    expected: `a deprecated operation kept until its sunset date ${operation.sunset}`,
    actual: `removed on ${today.toISOString().slice(0, 10)}`,
  });
}

function operationList(operations: ApiOperation[]): string {
  const labels = operations.map((operation) => operation.label).join(', ');
  return `${operations.length} operation${operations.length === 1 ? '' : 's'}: ${labels}`;
}

/**
 * The operations and base paths of the old document that the new one no longer has, and those it
 * adds: a base path gone, or new, is one finding (its operations listed in it, not named again); an operation gone is an
 * error unless it was deprecated and its sunset date (`x-sunset`) has passed on `today`, then a warning.
 * @example
 * operationChanges(oldDocument, newDocument, new Date()).map((finding) => finding.code) // ['api-added']
 */
export function operationChanges(old: ApiDocument, next: ApiDocument, today: Date): CompatFinding[] {
  const findings: CompatFinding[] = [];
  const newKeys = new Set(next.operations.map((operation) => operation.key));
  const oldKeys = new Set(old.operations.map((operation) => operation.key));
  const goneBases = old.basePaths.filter((base) => !next.basePaths.includes(base));
  for (const base of goneBases) {
    const under = old.operations.filter((operation) => operation.basePath === base);
    findings.push(
      compatFinding('api-base-path-removed', {
        operation: '',
        path: '/servers',
        expected: `the base path ${base || '/'} (${operationList(under)})`,
        actual: `none: the document serves ${next.basePaths.map((path) => path || '/').join(', ') || 'nothing'}`,
      }),
    );
  }
  const newBases = next.basePaths.filter((path) => !old.basePaths.includes(path));
  for (const base of newBases) {
    const under = next.operations.filter((operation) => operation.basePath === base);
    findings.push(
      compatFinding('api-base-path-added', {
        operation: '',
        path: '/servers',
        expected: 'no such base path',
        actual: `${base || '/'} (${operationList(under)})`,
      }),
    );
  }
  for (const operation of old.operations) {
    if (!newKeys.has(operation.key) && !goneBases.includes(operation.basePath))
      findings.push(removal(operation, today));
  }
  for (const operation of next.operations) {
    if (!oldKeys.has(operation.key) && !newBases.includes(operation.basePath)) {
      findings.push(
        compatFinding('api-added', {
          operation: operation.label,
          path: '',
          expected: 'no operation',
          actual: 'a new one',
        }),
      );
    }
  }
  return findings;
}

/** Whether a client meeting `alternative` (the schemes it sends) meets one of `requirement`'s alternatives. */
function meets(alternative: string[], requirement: string[][]): boolean {
  if (requirement.length === 0) return true;
  return requirement.some((needed) => needed.every((scheme) => alternative.includes(scheme)));
}

function describeSecurity(requirement: string[][]): string {
  if (requirement.length === 0) return 'no security';
  return requirement
    .map((alternative) => (alternative.length === 0 ? 'anonymous' : alternative.join(' and ')))
    .join(', or ');
}

/**
 * What an operation kept in both documents asks of a client's credentials: an error when a client that
 * satisfied one of the old alternatives satisfies none of the new ones, info when it asks for less.
 * @example
 * securityChanges(oldOperation, newOperation)[0]?.code // 'api-security-added'
 */
export function securityChanges(old: ApiOperation, next: ApiOperation): CompatFinding[] {
  const where = {
    operation: next.label,
    path: '/security',
    expected: describeSecurity(old.security),
    actual: describeSecurity(next.security),
  };
  const oldAlternatives = old.security.length === 0 ? [[]] : old.security;
  if (oldAlternatives.some((alternative) => !meets(alternative, next.security))) {
    return [compatFinding('api-security-added', where)];
  }
  const newAlternatives = next.security.length === 0 ? [[]] : next.security;
  if (newAlternatives.some((alternative) => !meets(alternative, old.security))) {
    return [compatFinding('api-security-relaxed', where)];
  }
  return [];
}
