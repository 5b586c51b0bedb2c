// The run as one self-contained HTML page: the verdict, the coverage matrix, each suite and case.
import type { Finding } from '../../core/finding.js';
import { escapeMarkup } from './escape-markup.js';
import type { CaseResult, CheckedExchange, SuiteResult } from '../base/results.js';
import { routeOfExchange, type Coverage, type RunReport } from '../run/run-report.js';
import { suiteLine } from './console.js';
/**
 * A finding split for a table: where, what was expected, what came (raw text: escape each cell).
 * @example
 * findingCells({ code: 'status-unexpected', path: 'status', expected: 'status 409', actual: '204' }) // ['status', 'status 409', '204']
 */
export function findingCells(finding: Finding): [string, string, string] {
  return [
    finding.path,
    `${finding.about === undefined ? '' : `${finding.about}: `}${finding.expected}`,
    finding.actual,
  ];
}

/**
 * A verdict as a coloured badge, escaped.
 * @example
 * verdictBadge('failed') // '<span class="verdict failed">failed</span>'
 */
export const verdictBadge = (verdict: string): string =>
  `<span class="verdict ${escapeMarkup(verdict)}">${escapeMarkup(verdict)}</span>`;

/** The coverage matrix as a table: an operation a row, a documented status a column, how often each was exercised. */
function coverageMatrix(coverage: Coverage): string {
  const statuses = [...new Set(coverage.responses.map((entry) => entry.status))].sort((left, right) => left - right);
  const operations = [...new Set(coverage.responses.map((entry) => entry.operation))];
  return [
    '<table class="coverage"><thead><tr><th>operation</th>',
    ...statuses.map((status) => `<th>${status}</th>`),
    '</tr></thead><tbody>',
    ...operations.map((operation) => {
      const route = coverage.responses.find((candidate) => candidate.operation === operation)!;
      const cells = statuses.map((status) => {
        const entry = coverage.responses.find(
          (candidate) => candidate.operation === operation && candidate.status === status,
        );
        if (entry === undefined) return '<td class="undocumented">–</td>';
        return entry.exercised > 0
          ? `<td class="exercised" title="exercised ${entry.exercised} times">✓ ${entry.exercised}</td>`
          : '<td class="missing" title="documented, not exercised">✗ not exercised</td>';
      });
      const marker = route.stability === null ? '' : ` <em>(${escapeMarkup(route.stability)})</em>`;
      return `<tr><th>${escapeMarkup(operation)}${marker}<br><code>${escapeMarkup(`${route.method} ${route.base === '/v1' ? '' : route.base}${route.path}`)}</code></th>${cells.join('')}</tr>`;
    }),
    '</tbody></table>',
  ].join('');
}

// Failures first: what a person opens the page for.
const verdictRank: Record<string, number> = { failed: 0, error: 1, skipped: 2, passed: 3 };

/** A suite as a section: its summary line, then its cases, failures first. */
function suiteSection(suite: SuiteResult, baseUrl: string): string {
  const cases = [...suite.cases]
    .sort((left, right) => (verdictRank[left.verdict] ?? 3) - (verdictRank[right.verdict] ?? 3))
    .map(caseDetails);
  return `<section class="suite"><h2>${verdictBadge(suite.verdict)} ${escapeMarkup(suite.suite)}</h2><p>${escapeMarkup(suiteLine(suite, baseUrl))}</p>${cases.join('')}</section>`;
}

/** A case as a details element (open when it failed): its violations and warnings in a table, its exchanges. */
function caseDetails(result: CaseResult): string {
  const rows = result.exchanges.flatMap((exchange) =>
    [
      ...exchange.violations.map((finding) => ['violation', finding] as const),
      ...(exchange.known ?? []).map((finding) => ['known', finding] as const),
      ...(exchange.pending ?? []).map((finding) => ['known pending', finding] as const),
      ...exchange.warnings.map((finding) => ['warning', finding] as const),
    ].map(([kind, finding]) => {
      const [where, expected, actual] = findingCells(finding);
      return `<tr class="${kind}"><td>${escapeMarkup(exchange.name)}</td><td><code>${escapeMarkup(finding.code)}</code></td><td><code>${escapeMarkup(where)}</code></td><td>${escapeMarkup(expected)}</td><td>${escapeMarkup(actual)}</td></tr>`;
    }),
  );
  const exchanges = result.exchanges.map(
    (exchange) =>
      `<li>${exchange.violations.length > 0 ? '✗' : '✓'} ${escapeMarkup(exchange.name)}${exchange.method === '' ? '' : ` <code>${escapeMarkup(`${exchange.method} ${exchange.path} → ${exchange.status ?? 'no answer'}`)}</code>${stabilityMark(exchange)}`}</li>`,
  );
  return (
    `<details class="case ${escapeMarkup(result.verdict)}"${result.verdict === 'failed' || result.verdict === 'error' ? ' open' : ''}><summary>${verdictBadge(result.verdict)} ${escapeMarkup(result.name)}` +
    `${result.reason === undefined ? '' : ` <em>${escapeMarkup(result.reason)}</em>`}</summary>` +
    `${result.description === undefined ? '' : `<p>${escapeMarkup(result.description)}</p>`}` +
    (rows.length > 0
      ? `<table class="findings"><thead><tr><th>step</th><th>rule</th><th>where</th><th>expected</th><th>actual</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '') +
    `<ul>${exchanges.join('')}</ul></details>`
  );
}

// The document's stability marker of an exchange's operation, beside its call: ` <em>(beta)</em>`.
function stabilityMark(exchange: CheckedExchange): string {
  const stability = routeOfExchange(exchange)?.stability ?? null;
  return stability === null ? '' : ` <em>(${escapeMarkup(stability)})</em>`;
}

// The operations the run did not judge, each with why: v2's not verified yet, or left out (--leave-out-beta).
function unjudgedList(report: RunReport): string {
  const items = [
    ...report.notVerified.map((item) => ['not verified', item] as const),
    ...report.leftOut.map((item) => ['left out', item] as const),
  ];
  if (report.setupError !== undefined || items.length === 0) return '';
  return `<ul class="unjudged">${items
    .map(
      ([kind, item]) =>
        `<li>${kind}: ${escapeMarkup(item.operation)}${item.stability === null ? '' : ` <em>(${escapeMarkup(item.stability)})</em>`} <code>${escapeMarkup(`${item.method} ${item.base}${item.path}`)}</code>: ${escapeMarkup(item.reason)}</li>`,
    )
    .join('')}</ul>`;
}

/**
 * The report as one self-contained HTML page (no external assets): the verdict, each suite with its
 * cases and every violation (where, expected, actual), and the coverage matrix of the documented responses.
 */
export function toHtml(report: RunReport): string {
  const matrix = coverageMatrix(report.coverage);
  const suites = report.suites.map((suite) => suiteSection(suite, report.baseUrl));
  return htmlPage({
    title: `petstore-verify: ${report.verdict}`,
    heading: `${verdictBadge(report.verdict)} petstore-verify`,
    body: `<p>${escapeMarkup(report.baseUrl)} · ${escapeMarkup(report.startedAt)} · exit ${report.exitCode} · ${report.checks} checks · ${report.violations} violations${report.betaViolations > 0 ? ` (${report.betaViolations} in beta operations)` : ''} · ${report.warnings} warnings · ${(report.durationMs / 1000).toFixed(1)} s</p>
${report.reasons.length > 0 && report.exitCode !== 0 ? `<ul class="reasons">${report.reasons.map((reason) => `<li>${escapeMarkup(reason)}</li>`).join('')}</ul>` : ''}
${unjudgedList(report)}
<h2>Coverage of the documented responses: ${report.coverage.covered} of ${report.coverage.total}</h2>
${matrix}
${suites.join('\n')}`,
  });
}

/** What a page of the kit's reports holds: its title (text), its heading and body (markup, escaped by the caller). */
export interface HtmlPageParts {
  title: string;
  heading: string;
  body: string;
}

/**
 * The kit's reports' page: one self-contained HTML file, its style inline, no script and no external
 * asset (a report is opened from a bug tracker's attachment, offline). `heading` and `body` are markup
 * the caller escaped; `title` is text, escaped here.
 * @example
 * htmlPage({ title: 'petstore-verify har: failed', heading: verdictBadge('failed'), body: '<p>1 finding</p>' })
 */
export function htmlPage(parts: HtmlPageParts): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeMarkup(parts.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1c1c1c}
h1{margin-bottom:.2rem}code{font:13px ui-monospace,monospace}
.verdict{display:inline-block;padding:.05rem .5rem;border-radius:.3rem;color:#fff;font-weight:600;font-size:.85em}
.verdict.passed{background:#1f7a3a}.verdict.failed{background:#b3261e}.verdict.not-run,.verdict.error{background:#8a5a00}.verdict.skipped{background:#666}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
.coverage td.exercised{background:#e3f4e8}.coverage td.missing{background:#fbe4e2;font-weight:600}.coverage td.undocumented{color:#999}
tr.violation td{background:#fdf0ef}tr.warning td{background:#fff7e0}tr.known td{background:#eef1f6}details.case{margin:.3rem 0}summary{cursor:pointer}
tr.unjudged td{color:#666}
</style></head><body>
<h1>${parts.heading}</h1>
${parts.body}
</body></html>
`;
}
