// The run as JUnit XML: a testsuite per case, a testcase per judged response.
import { escapeMarkup } from './escape-markup.js';
import type { CaseResult, CheckedExchange, SuiteResult } from '../base/results.js';
import { routeOfExchange, type NotVerified, type RunReport } from '../run/run-report.js';
import { disagreementLine, findingLine } from './console.js';
import { findingText } from '../../core/finding.js';
/**
 * The report as JUnit XML: a testsuite per suite and case (`pact › interaction`, `scenarios › scenario`,
 * `explore › run 3`), a testcase per exchange, a failure per violated exchange; skipped cases are
 * skipped testcases, cases that could not run are errors.
 */
export function toJunit(report: RunReport): string {
  const suites = [
    ...report.suites.flatMap((suite) => junitCases(suite).map((result) => junitSuite(suite, result))),
    ...namedOperationsSuite(report, 'not verified', report.notVerified),
    ...namedOperationsSuite(report, 'left out', report.leftOut),
    ...notRunSuite(report),
  ];
  const total = (pick: (suite: JunitSuite) => number) => suites.reduce((sum, suite) => sum + pick(suite), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-verify" tests="${total((suite) => suite.tests)}" failures="${total((suite) => suite.failures)}" errors="${total((suite) => suite.errors)}" skipped="${total((suite) => suite.skipped)}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites.map((suite) => suite.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The documents' operations no suite judged (v2's, issue 56; those `--leave-out-beta` left out) as
 * skipped testcases, one each with why, so that a CI's test view names them; none when the preflight
 * stopped the run (it judged nothing).
 */
function namedOperationsSuite(report: RunReport, title: string, items: readonly NotVerified[]): JunitSuite[] {
  if (report.setupError !== undefined || items.length === 0) return [];
  const name = `petstore-verify › ${title}`;
  const xml = [
    `  <testsuite name="${name}" tests="${items.length}" failures="0" errors="0" skipped="${items.length}">`,
    ...items.map(
      (item) =>
        `    <testcase classname="${name}" name="${escapeMarkup(`${item.operation} (${item.method} ${item.base}${item.path}${item.stability === null ? '' : `, ${item.stability}`})`)}"><skipped message="${escapeMarkup(item.reason)}"/></testcase>`,
    ),
    '  </testsuite>',
  ].join('\n');
  return [{ xml, tests: items.length, failures: 0, errors: 0, skipped: items.length }];
}

/**
 * A run that judged nothing, or not everything (exit 2), as one error testcase with the reasons: a
 * JUnit file of skipped testcases alone reads as green, and such a run never is.
 */
function notRunSuite(report: RunReport): JunitSuite[] {
  if (report.exitCode !== 2) return [];
  const reason = report.reasons.join('; ') || 'nothing was judged';
  const xml = [
    '  <testsuite name="petstore-verify › verdict" tests="1" failures="0" errors="1" skipped="0">',
    `    <testcase classname="petstore-verify › verdict" name="the run judged what it was asked to"><error message="${escapeMarkup(`${report.verdict} (exit 2): ${reason}`)}"/></testcase>`,
    '  </testsuite>',
  ].join('\n');
  return [{ xml, tests: 1, failures: 0, errors: 1, skipped: 0 }];
}

/** A suite's cases, or one case standing for a suite that ran none (skipped, or could not run). */
function junitCases(suite: SuiteResult): CaseResult[] {
  if (suite.cases.length > 0) return suite.cases;
  return [
    {
      name: suite.suite,
      verdict: suite.verdict,
      ...(suite.reason !== undefined && { reason: suite.reason }),
      exchanges: [],
    },
  ];
}

/** One case as a JUnit testsuite, with its counts. */
interface JunitSuite {
  xml: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function junitSuite(suite: SuiteResult, result: CaseResult): JunitSuite {
  const name = `${suite.suite} › ${result.name}`;
  const testcases =
    result.exchanges.length === 0
      ? [
          `    <testcase classname="${escapeMarkup(name)}" name="${escapeMarkup(result.name)}">` +
            (result.verdict === 'error'
              ? `<error message="${escapeMarkup(result.reason ?? 'could not run')}"/>`
              : `<skipped message="${escapeMarkup(result.reason ?? 'not run')}"/>`) +
            '</testcase>',
        ]
      : result.exchanges.map((exchange) => junitTestcase(name, result.name, exchange));
  const failures = result.exchanges.filter((exchange) => exchange.violations.length > 0).length;
  const errors = result.exchanges.length === 0 && result.verdict === 'error' ? 1 : 0;
  const skipped =
    result.exchanges.length === 0
      ? result.verdict !== 'error'
        ? 1
        : 0
      : result.exchanges.filter(hasOnlyKnownFindings).length;
  const xml = [
    `  <testsuite name="${escapeMarkup(name)}" tests="${testcases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...testcases,
    '  </testsuite>',
  ].join('\n');
  return { xml, tests: testcases.length, failures, errors, skipped };
}

// An exchange that failed only by failures the baseline knows, or a pending pact's: JUnit's skipped, not its failures.
const hasOnlyKnownFindings = (exchange: CheckedExchange) =>
  exchange.violations.length === 0 && [...(exchange.known ?? []), ...(exchange.pending ?? [])].length > 0;

/**
 * An exchange as a JUnit testcase: a failure with its violations, skipped when it failed only by
 * known failures (`--baseline`), its warnings and disagreements as output.
 */
function junitTestcase(classname: string, caseName: string, exchange: CheckedExchange): string {
  const known = exchange.known ?? [];
  const pending = exchange.pending ?? [];
  const firstSetApart = () =>
    known.length > 0
      ? `known failure (baseline): ${findingLine(caseName, exchange.name, known[0]!)}`
      : `pending pact (fails nothing): ${findingLine(caseName, exchange.name, pending[0]!)}`;
  const skipped = hasOnlyKnownFindings(exchange) ? `<skipped message="${escapeMarkup(firstSetApart())}"/>` : '';
  const failure = exchange.violations.length
    ? `<failure message="${escapeMarkup(findingLine(caseName, exchange.name, exchange.violations[0]!))}" type="${escapeMarkup([...new Set(exchange.violations.map((finding) => finding.code))].join(' '))}">${escapeMarkup(exchange.violations.map((finding) => findingLine(caseName, exchange.name, finding)).join('\n'))}</failure>`
    : '';
  const notes = [
    ...known.map((finding) => `known failure (baseline): ${findingText(finding)}`),
    ...pending.map((finding) => `pending pact (fails nothing): ${findingText(finding)}`),
    ...exchange.warnings.map((finding) => `warning: ${findingText(finding)}`),
    ...exchange.disagreements.map(disagreementLine),
  ];
  // The document's stability marker beside the name, where the operation has one: `list page 2 (beta)`.
  const stability = exchange.method === '' ? null : (routeOfExchange(exchange)?.stability ?? null);
  const name = stability === null ? exchange.name : `${exchange.name} (${stability})`;
  return `    <testcase classname="${escapeMarkup(classname)}" name="${escapeMarkup(name)}" time="${(exchange.durationMs / 1000).toFixed(3)}">${failure}${skipped}${notes.length > 0 ? `<system-out>${escapeMarkup(notes.join('\n'))}</system-out>` : ''}</testcase>`;
}
