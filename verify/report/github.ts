import { printable } from '../../core/printable.js';
import type { ReportedFinding, RunReport } from '../run/run-report.js';

// A workflow command's data: `%`, CR and LF escaped (what the runner unescapes), then every other
// character that would act in the log (ESC, a bidi override: what a target may have sent) made printable.
function commandData(text: string): string {
  return printable(text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A'));
}

// A workflow command's property value: as data, and `:` and `,` too.
function commandProperty(text: string): string {
  return commandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function findingSubject(finding: ReportedFinding): string {
  const suite = finding.suite === 'scenarios' ? '' : `${finding.suite} › `;
  return `${suite}${finding.scenario}${finding.step === finding.scenario ? '' : ` › ${finding.step}`}`;
}

/**
 * The GitHub Actions workflow commands of a run: `::error` for each violation, `::warning` for each
 * advisory finding, `::notice` for each known failure of the baseline and each pending pact's, titled by the rule code and
 * the operation.
 * @example
 * githubAnnotations(report)
 * // ['::error title=status-unexpected cancelOrder::cancel-shipped-order › cancel the shipped order: expected status 409, got 204 (at status)']
 */
export function githubAnnotations(report: RunReport): string[] {
  return report.findings.map((finding) => {
    const setApart = finding.known ? 'known failure ' : finding.pending ? 'pending pact ' : '';
    const command = setApart !== '' ? 'notice' : finding.severity === 'error' ? 'error' : 'warning';
    const title = `${setApart}${finding.code}${finding.operation === null ? '' : ` ${finding.operation}`}`;
    return `::${command} title=${commandProperty(title)}::${commandData(`${findingSubject(finding)}: ${finding.message}`)}`;
  });
}

// A table cell of Markdown, on one line: what the target sent is shown as text, never as HTML or
// Markdown (HTML's special characters as entities, Markdown's escaped), nor as a control character.
function cell(text: string): string {
  return printable(text.replace(/\s+/g, ' '))
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\\`*_[\]|]/g, '\\$&')
    .replace(/\s+/g, ' ');
}

// How many findings the step summary lists before it says how many more there are.
const summaryFindingLimit = 50;

/**
 * The run as a Markdown step summary (`$GITHUB_STEP_SUMMARY`): the verdict, a table of the suites,
 * and the violations (the first 50), each with its rule, where, expected and actual.
 * @example
 * await appendFile(process.env.GITHUB_STEP_SUMMARY!, githubSummary(report));
 */
export function githubSummary(report: RunReport): string {
  const mark = report.exitCode === 0 ? '✅' : report.exitCode === 1 ? '❌' : '⚠️';
  const lines = [
    `## ${mark} petstore-verify: ${report.verdict} (exit ${report.exitCode})`,
    '',
    `${report.baseUrl} · ${report.checks} checks · ${report.violations} violations${report.betaViolations > 0 ? ` (${report.betaViolations} in beta operations)` : ''}${report.baseline === undefined ? '' : ` · ${report.knownViolations} known failures`} · coverage ${report.coverage.covered} of ${report.coverage.total} documented responses`,
    '',
  ];
  if (report.exitCode !== 0 && report.reasons.length > 0)
    lines.push(...report.reasons.map((reason) => `- ${cell(reason)}`), '');
  // Left out by --leave-out-beta: named here too, never dropped silently.
  if (report.setupError === undefined && report.leftOut.length > 0)
    lines.push(
      ...report.leftOut.map(
        (item) =>
          `- left out: ${item.operation} (${item.method} ${item.base}${item.path}, ${item.stability}): ${cell(item.reason)}`,
      ),
      '',
    );
  if (report.suites.length > 0) {
    lines.push('| suite | verdict | cases | checks | violations | warnings |', '|---|---|---|---|---|---|');
    for (const suite of report.suites)
      lines.push(
        `| ${suite.suite} | ${suite.verdict}${suite.reason === undefined ? '' : `: ${cell(suite.reason)}`} | ${suite.cases.length} | ${suite.checks} | ${suite.violations} | ${suite.warnings} |`,
      );
    lines.push('');
  }
  const violations = report.findings.filter(
    (finding) => finding.severity === 'error' && !finding.known && !finding.pending,
  );
  if (violations.length > 0) {
    lines.push(
      '### Violations',
      '',
      '| rule | operation | where | at | expected | actual |',
      '|---|---|---|---|---|---|',
      ...violations
        .slice(0, summaryFindingLimit)
        .map(
          (finding) =>
            `| \`${finding.code}\` | ${finding.operation ?? ''}${finding.stability === undefined ? '' : ` (${finding.stability})`} | ${cell(findingSubject(finding))} | ${cell(finding.path)} | ${cell(finding.expected)} | ${cell(finding.actual)} |`,
        ),
    );
    if (violations.length > summaryFindingLimit)
      lines.push('', `…and ${violations.length - summaryFindingLimit} more: see the JSON or HTML report.`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
