import type { ApiHeader } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { compareSchemas } from './schema-changes.js';

/**
 * The headers of a response kept in both documents: one removed (a warning; an error when it was
 * required), one added (info), one no longer required (an error), and each kept header's schema compared as a value a consumer reads
 * (`response-header-*`: a type changed or a bound raised breaks it, a bound lowered may not).
 * @example
 * const findings: CompatFinding[] = [];
 * headerChanges({ operation: 'GET /v1/pets/{petId}', path: '/responses/200', resolveOld: (n) => n, resolveNew: (n) => n, findings },
 *   new Map([['sunset', { required: false, schema: { type: 'string' } }]]), new Map());
 * findings[0]?.code // 'response-header-removed'
 */
export function headerChanges(
  where: {
    operation: string;
    path: string;
    resolveOld(node: unknown): unknown;
    resolveNew(node: unknown): unknown;
    findings: CompatFinding[];
  },
  old: ReadonlyMap<string, ApiHeader>,
  next: ReadonlyMap<string, ApiHeader>,
): void {
  const { operation, path, findings } = where;
  for (const [name, header] of old) {
    const at = `${path}/headers/${name}`;
    const kept = next.get(name);
    if (kept === undefined) {
      findings.push(
        compatFinding(header.required ? 'required-response-header-removed' : 'response-header-removed', {
          operation,
          path: at,
          expected: `the ${header.required ? 'required ' : ''}header ${name}`,
          actual: 'none',
        }),
      );
      continue;
    }
    if (header.required && !kept.required) {
      findings.push(
        compatFinding('response-header-became-optional', {
          operation,
          path: at,
          expected: 'required',
          actual: 'optional',
        }),
      );
    }
    compareSchemas({ ...where, side: 'response-header' }, header.schema, kept.schema, at);
  }
  for (const [name, header] of next) {
    if (old.has(name)) continue;
    findings.push(
      compatFinding('response-header-added', {
        operation,
        path: `${path}/headers/${name}`,
        expected: 'no such header',
        actual: `${header.required ? 'a required' : 'an optional'} header ${name}`,
      }),
    );
  }
}
