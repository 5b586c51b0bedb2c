import type { Finding } from './checks.js';
import type { Disagreement } from './prism.js';
import type { StepResult, VerifyReport } from './run.js';

/**
 * One violation as a line: `scenario › step: expected …, got … (at /0/id)`.
 * @example
 * findingLine(step, { path: '/0/id', message: 'expected integer, got "1"' })
 * // 'list-orders › list the orders: expected integer, got "1" (at /0/id)'
 */
export function findingLine(step: Pick<StepResult, 'scenario' | 'step'>, finding: Finding): string {
  return `${step.scenario} › ${step.step}: ${findingText(finding)}`;
}

/**
 * A finding's message with where it is: `expected integer, got "1" (at /0/id)`.
 * @example
 * findingText({ path: '', message: 'expected a JSON body, got "oops"' }) // 'expected a JSON body, got "oops"'
 */
export function findingText(finding: Finding): string {
  return `${finding.message}${finding.path === '' ? '' : ` (at ${finding.path})`}`;
}

/**
 * A disagreement between the two oracles as a line.
 * @example
 * disagreementLine({ area: 'body', ajv: [], prism: ['Response body property 0.id must be <= 9007199254740991'], knownPrismLimit: 'Prism caps ...' })
 * // 'Ajv and Prism disagree on the body: Ajv finds nothing; Prism: Response body property 0.id must be <= 9007199254740991 (known Prism limit: Prism caps ...)'
 */
export function disagreementLine(disagreement: Disagreement): string {
  const side = (name: string, messages: string[]) => (messages.length > 0 ? `${name}: ${messages.join('; ')}` : `${name} finds nothing`);
  const known = disagreement.knownPrismLimit !== undefined ? ` (known Prism limit: ${disagreement.knownPrismLimit})` : '';
  return `Ajv and Prism disagree on the ${disagreement.area}: ${side('Ajv', disagreement.ajv)}; ${side('Prism', disagreement.prism)}${known}`;
}

/** The progress line of a step, then one line per violation, per warning and per disagreement. */
export function stepLines(step: StepResult): string[] {
  const mark = step.violations.length > 0 ? '✗' : '✓';
  return [
    `${mark} ${step.scenario} › ${step.step} (${step.method} ${step.path} → ${step.status}, ${step.durationMs.toFixed(0)} ms)`,
    ...step.violations.map((finding) => `    ${findingLine(step, finding)}`),
    ...step.warnings.map((finding) => `    warning (advisory; --strict makes it a violation): ${findingLine(step, finding)}`),
    ...step.disagreements.map((disagreement) => `    note: ${step.scenario} › ${step.step}: ${disagreementLine(disagreement)}`),
  ];
}

/** The closing summary: skipped and failed scenarios, then the counts. */
export function summaryLines(report: VerifyReport): string[] {
  const lines: string[] = [];
  for (const scenario of report.scenarios) {
    if (scenario.skipped !== undefined) lines.push(`- skipped ${scenario.name}: ${scenario.skipped}`);
    if (scenario.error !== undefined) lines.push(`! error in ${scenario.name}: ${scenario.error}`);
  }
  const ran = report.scenarios.filter((scenario) => scenario.skipped === undefined && scenario.error === undefined);
  const failed = ran.filter((scenario) => scenario.steps.some((step) => step.violations.length > 0));
  lines.push(
    `${ran.length - failed.length} passed, ${failed.length} failed` +
      `${report.skipped ? `, ${report.skipped} skipped` : ''}${report.errors ? `, ${report.errors} errors` : ''}` +
      ` (scenarios; ${report.violations} violations, ${report.warnings} warnings, ${(report.durationMs / 1000).toFixed(1)} s, ${report.baseUrl})`,
  );
  lines.push(
    report.prism
      ? `second oracle, Prism: ${report.disagreements} disagreements with Ajv` +
          (report.disagreements > 0 ? `, ${report.knownPrismLimits} of them known Prism limits (docs/harness.md)` : '')
      : 'second oracle, Prism: off (--no-prism)',
  );
  return lines;
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The report as JUnit XML: a testsuite per scenario, a testcase per step, a failure per violated
 * step; skipped scenarios are skipped testcases, scenarios that could not run are errors.
 */
export function toJunit(report: VerifyReport): string {
  const suites = report.scenarios.map((scenario) => {
    const cases =
      scenario.skipped !== undefined || scenario.error !== undefined
        ? [`    <testcase classname="${xml(scenario.name)}" name="${xml(scenario.description)}">` +
            (scenario.skipped !== undefined ? `<skipped message="${xml(scenario.skipped)}"/>` : `<error message="${xml(scenario.error!)}"/>`) +
            '</testcase>']
        : scenario.steps.map((step) => {
            const failure = step.violations.length
              ? `<failure message="${xml(findingLine(step, step.violations[0]!))}">${xml(step.violations.map((finding) => findingLine(step, finding)).join('\n'))}</failure>`
              : '';
            const notes = step.disagreements.length ? `<system-out>${xml(step.disagreements.map(disagreementLine).join('\n'))}</system-out>` : '';
            return `    <testcase classname="${xml(scenario.name)}" name="${xml(step.step)}" time="${(step.durationMs / 1000).toFixed(3)}">${failure}${notes}</testcase>`;
          });
    const failures = scenario.steps.filter((step) => step.violations.length > 0).length;
    return [
      `  <testsuite name="${xml(scenario.name)}" tests="${cases.length}" failures="${failures}" errors="${scenario.error ? 1 : 0}" skipped="${scenario.skipped ? 1 : 0}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const tests = report.scenarios.reduce((sum, scenario) => sum + Math.max(scenario.steps.length, 1), 0);
  const failures = report.scenarios.reduce((sum, scenario) => sum + scenario.steps.filter((step) => step.violations.length > 0).length, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-verify" tests="${tests}" failures="${failures}" errors="${report.errors}" skipped="${report.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
