import type { CompatFinding } from '../compat/compat-finding.js';
import type { CompatReport } from '../compat/check-compatibility.js';

const marks = { error: '✗', warning: '!', info: '+' } as const;

/**
 * A finding as one line: its mark, level and rule, the operation and where, then what was and what is.
 * @example
 * compatFindingLine({ code: 'api-added', severity: 'info', operation: 'GET /v2/store/orders', path: '', expected: 'no operation', actual: 'a new one' })
 * // '+ info api-added: GET /v2/store/orders: expected no operation, got a new one'
 */
export function compatFindingLine(finding: CompatFinding): string {
  const who = finding.consumer === undefined ? '' : `${finding.consumer} › ${finding.interaction ?? ''}: `;
  const where = [finding.operation, finding.path].filter((part) => part !== '').join(' ');
  return `${marks[finding.severity]} ${finding.severity} ${finding.code}: ${who}${where === '' ? '' : `${where}: `}expected ${finding.expected}, got ${finding.actual}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The console lines of a compatibility check: what was compared, one line a finding (errors first,
 * then warnings, then info), and the verdict with its exit code.
 * @example
 * compatLines(report).at(-1) // 'compat: failed: 2 errors (breaking), 0 warnings, 1 info (additive) (exit 1)'
 */
export function compatLines(report: CompatReport): string[] {
  const compared =
    report.old === undefined
      ? `compat: ${report.new} (${plural(report.operations.new, 'operation')})`
      : `compat: ${report.old} (${plural(report.operations.old ?? 0, 'operation')}) → ${report.new} (${plural(report.operations.new, 'operation')})`;
  const pactLines = report.pacts.map(
    (pact) =>
      `compat: pact of ${pact.consumer} (${pact.file}): ${plural(pact.interactions, 'interaction')}, ${pact.broken} broken by ${report.new}`,
  );
  const order = { error: 0, warning: 1, info: 2 };
  const findings = [...report.findings].sort((one, other) => order[one.severity] - order[other.severity]);
  const { error, warning, info } = report.counts;
  const verdict = `compat: ${report.verdict}: ${plural(error, 'error')} (breaking), ${plural(warning, 'warning')}, ${info} info (additive) (exit ${report.exitCode})`;
  return [compared, ...pactLines, ...findings.map(compatFindingLine), verdict];
}
