// A compatibility check as JUnit XML, for a CI that shows test reports.
import { escapeMarkup } from './escape-markup.js';
import type { CompatReport } from '../compat/check-compatibility.js';
import type { CompatFinding } from '../compat/compat-finding.js';
import { compatFindingLine } from './compat-lines.js';

interface Suite {
  name: string;
  cases: string[];
  failures: number;
}

function testcase(suite: string, finding: CompatFinding): string {
  const where = [finding.interaction, finding.operation, finding.path].filter(
    (part) => part !== undefined && part !== '',
  );
  const name = escapeMarkup(`${finding.code}: ${where.join(' ') || 'the document'}`);
  const line = escapeMarkup(compatFindingLine(finding));
  const open = `    <testcase classname="${escapeMarkup(suite)}" name="${name}">`;
  if (finding.severity === 'error') return `${open}<failure type="${finding.code}" message="${line}"/></testcase>`;
  return `${open}<system-out>${line}</system-out></testcase>`;
}

function suiteXml(suite: Suite): string {
  return [
    `  <testsuite name="${escapeMarkup(suite.name)}" tests="${suite.cases.length}" failures="${suite.failures}" errors="0" skipped="0">`,
    ...suite.cases,
    '  </testsuite>',
  ].join('\n');
}

function document(suites: Suite[]): string {
  const total = (pick: (suite: Suite) => number) => suites.reduce((sum, suite) => sum + pick(suite), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-verify compat" tests="${total((suite) => suite.cases.length)}" failures="${total((suite) => suite.failures)}" errors="0" skipped="0">`,
    ...suites.map(suiteXml),
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The report as JUnit XML: a testsuite for the documents' changes and one per consumer's pact, a
 * testcase per finding (an error is a failure; a warning or info passes, its line as output), and a
 * passing testcase where a suite found nothing, so that what was compared shows.
 * @example
 * await writeFile('compat.xml', compatToJunit(report));
 */
export function compatToJunit(report: CompatReport): string {
  const suites: Suite[] = [];
  const add = (name: string, findings: CompatFinding[], nothing: string) => {
    const cases = findings.map((finding) => testcase(name, finding));
    if (cases.length === 0)
      cases.push(`    <testcase classname="${escapeMarkup(name)}" name="${escapeMarkup(nothing)}"/>`);
    suites.push({ name, cases, failures: findings.filter((finding) => finding.severity === 'error').length });
  };
  if (report.old !== undefined) {
    const findings = report.findings.filter((finding) => finding.consumer === undefined);
    add(`compat › ${report.old} → ${report.new}`, findings, 'no change a consumer could notice');
  }
  for (const pact of report.pacts) {
    const findings = report.findings.filter((finding) => finding.consumer === pact.consumer);
    add(
      `compat › pact of ${pact.consumer}`,
      findings,
      `its ${pact.interactions} interactions hold against ${report.new}`,
    );
  }
  return document(suites);
}

/**
 * A check that could not judge (exit 2) as JUnit XML: one error testcase with the reason, for a file
 * with no failure would read as green.
 * @example
 * await writeFile('compat.xml', compatErrorJunit('cannot read the document old.yaml: ENOENT (no such file)'));
 */
export function compatErrorJunit(reason: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="petstore-verify compat" tests="1" failures="0" errors="1" skipped="0">',
    '  <testsuite name="compat › verdict" tests="1" failures="0" errors="1" skipped="0">',
    `    <testcase classname="compat › verdict" name="the check judged what it was given"><error message="${escapeMarkup(`exit 2: ${reason}`)}"/></testcase>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
