import { type ApiDocument, type ApiOperation, isNode } from './api-document.js';
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

/** Whether a client meeting `alternative` (the credentials it sends) meets one of `requirement`'s alternatives. */
function meets(alternative: string[], requirement: string[][]): boolean {
  if (requirement.length === 0) return true;
  return requirement.some((needed) => needed.every((credential) => alternative.includes(credential)));
}

function describeSecurity(requirement: string[][]): string {
  if (requirement.length === 0) return 'no security';
  return requirement
    .map((alternative) => (alternative.length === 0 ? 'anonymous' : alternative.join(' and ')))
    .join(', or ');
}

/**
 * What a scheme makes a client send, so that a scheme renamed is the same and a scheme redefined under
 * its old name is not: `Authorization: Bearer` for an http bearer scheme, `header X-Key` for an API key.
 */
function credentialOf(document: ApiDocument, name: string): string {
  const scheme = document.resolve(document.securitySchemes[name]);
  if (!isNode(scheme)) return name;
  if (scheme.type === 'http' && typeof scheme.scheme === 'string')
    return `Authorization: ${scheme.scheme.toLowerCase()}`;
  if (scheme.type === 'apiKey' && typeof scheme.name === 'string' && typeof scheme.in === 'string')
    return `${scheme.in} ${scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name}`;
  return name;
}

/**
 * What an operation kept in both documents asks of a client's credentials: an error when a client that
 * satisfied one of the old alternatives satisfies none of the new ones, info when it asks for less.
 * Schemes are compared by what they make a client send, not by their names: the old `bearerAuth`
 * redefined as an API key breaks every client, and a scheme only renamed breaks none.
 * @example
 * securityChanges({ old, next, oldOperation, newOperation })[0]?.code // 'api-security-added'
 */
export function securityChanges(pair: {
  old: ApiDocument;
  next: ApiDocument;
  oldOperation: ApiOperation;
  newOperation: ApiOperation;
}): CompatFinding[] {
  const { oldOperation, newOperation } = pair;
  const oldSecurity = oldOperation.security.map((alternative) =>
    alternative.map((name) => credentialOf(pair.old, name)),
  );
  const newSecurity = newOperation.security.map((alternative) =>
    alternative.map((name) => credentialOf(pair.next, name)),
  );
  // Named by the schemes' names, or by what they make a client send where the names alone read the same.
  const byName = [describeSecurity(oldOperation.security), describeSecurity(newOperation.security)];
  const [expected, actual] =
    byName[0] === byName[1] ? [describeSecurity(oldSecurity), describeSecurity(newSecurity)] : byName;
  const where = { operation: newOperation.label, path: '/security', expected: expected!, actual: actual! };
  const oldAlternatives = oldSecurity.length === 0 ? [[]] : oldSecurity;
  if (oldAlternatives.some((alternative) => !meets(alternative, newSecurity))) {
    return [compatFinding('api-security-added', where)];
  }
  const newAlternatives = newSecurity.length === 0 ? [[]] : newSecurity;
  if (newAlternatives.some((alternative) => !meets(alternative, oldSecurity))) {
    return [compatFinding('api-security-relaxed', where)];
  }
  return [];
}
