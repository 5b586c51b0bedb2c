// A HAR file's judgement as one self-contained HTML page, for a tester's bug report (`petstore-verify har --html`).
import type { Finding } from '../../core/finding.js';
import { escapeMarkup } from './escape-markup.js';
import type { HarExchangeVerdict, HarReport } from '../har/judge-har.js';
import { droppedValueLine, droppedValueText } from './dropped-value-line.js';
import { findingCells, htmlPage, verdictBadge } from './html.js';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const entries = (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`;

/** An entry's mark, as the console prints it: `-` not judged, `✗` it breaks the specification, `·` it does not. */
function entryMark(exchange: HarExchangeVerdict): { mark: string; kind: string } {
  if (exchange.unjudged !== undefined) return { mark: '-', kind: 'unjudged' };
  return exchange.violations.length > 0 ? { mark: '✗', kind: 'failed' } : { mark: '·', kind: 'passed' };
}

/** Findings as rows after `first` (markup): the rule, where, what was expected, what the HAR showed. */
function findingRows(findings: readonly Finding[], first: string): string[] {
  return findings.map((finding) => {
    const [where, expected, actual] = findingCells(finding);
    return `<tr class="violation"><td>${first}</td><td><code>${escapeMarkup(finding.code)}</code></td><td><code>${escapeMarkup(where)}</code></td><td>${escapeMarkup(expected)}</td><td>${escapeMarkup(actual)}</td></tr>`;
  });
}

/** What was not judged of an entry, or judged only in part, and why. */
function entryNotes(exchange: HarExchangeVerdict): string[] {
  return [
    ...(exchange.unjudged !== undefined ? [`not judged: ${exchange.unjudged}`] : []),
    ...(exchange.unjudged === undefined && exchange.near !== undefined
      ? [`a path near ${exchange.near}: judged against the contract, rule near-path-refusals`]
      : []),
    ...(exchange.unjudged === undefined && exchange.bodyUnjudged !== undefined
      ? [`judged on its status and headers only: ${exchange.bodyUnjudged}`]
      : []),
  ];
}

function entriesTable(report: HarReport): string {
  const rows = report.exchanges.map((exchange) => {
    const { mark, kind } = entryMark(exchange);
    const notes = entryNotes(exchange);
    return (
      `<tr class="entry ${kind}" id="entry-${exchange.entry + 1}"><td>#${exchange.entry + 1}</td><td class="mark">${mark}</td>` +
      `<td><code>${escapeMarkup(`${exchange.method} ${exchange.url}`)}</code></td><td>${exchange.status}</td>` +
      `<td>${notes.map((note) => escapeMarkup(note)).join('<br>')}</td></tr>`
    );
  });
  return `<table class="entries"><thead><tr><th>entry</th><th>verdict</th><th>call</th><th>status</th><th>not judged, and why</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function specificationTable(report: HarReport): string {
  const rows = report.exchanges.flatMap((exchange) => findingRows(exchange.violations, `#${exchange.entry + 1}`));
  if (rows.length === 0) return '<p class="specification">No answer breaks the specification.</p>';
  return `<table class="findings specification"><thead><tr><th>entry</th><th>rule</th><th>where</th><th>the specification expects</th><th>the HAR showed</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function contractTable(report: HarReport): string {
  const rows = report.contract.against.flatMap(({ step, findings }) => findingRows(findings, escapeMarkup(step)));
  if (rows.length === 0) return '<p class="contract">No answer is against the contract.</p>';
  return `<table class="findings contract"><thead><tr><th>step</th><th>rule</th><th>where</th><th>the contract requires</th><th>the HAR showed</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function stateSection(report: HarReport): string {
  const { inferred } = report.contract;
  const known =
    report.state === 'inferred'
      ? 'Judged in the state the answers imply (no --from-scenario): a bug in an inferred status cannot be caught.'
      : `Judged from the state of scenario ${report.state.scenario}: what the deployment held when the HAR began.`;
  const notes = [
    ...(report.sanitized
      ? ['No call kept its Authorization header (a sanitized export): each key is taken from its answer.']
      : []),
    ...(report.keyNotInHar ? ['The key given is in no call of the HAR: each key is taken from its answer.'] : []),
  ];
  const items = inferred.map(
    ({ id, status, because }) =>
      `<li>order ${escapeMarkup(String(id))} ${escapeMarkup(status)} (from ${escapeMarkup(because)})</li>`,
  );
  return (
    `<section class="state"><h2>The starting state</h2><p>${escapeMarkup(known)}</p>` +
    notes.map((note) => `<p>${escapeMarkup(note)}</p>`).join('') +
    (items.length > 0
      ? `<p>Inferred from the answers, not known:</p><ul class="inferred">${items.join('')}</ul>`
      : '') +
    '</section>'
  );
}

function savedSection(report: HarReport): string {
  const { saved, dropped = [], failed } = report.contract;
  if (saved.length === 0 && dropped.length === 0 && failed === undefined) return '';
  const files = saved.map(({ file, steps }) => `<li><code>${escapeMarkup(file)}</code>: ${plural(steps, 'step')}</li>`);
  // Without --save the values were still left out of the state the contract was judged in.
  const lines = dropped.map(
    (item) =>
      `<li>${escapeMarkup(saved[0] === undefined ? `left out of the state judged in: ${droppedValueText(item)}` : droppedValueLine(item, saved[0].file))}</li>`,
  );
  return (
    `<section class="saved"><h2>${saved.length > 0 ? 'The saved scenario' : 'What the state left out'}</h2>` +
    (files.length > 0 ? `<ul class="files">${files.join('')}</ul>` : '') +
    (lines.length > 0 ? `<p>What the state could not hold:</p><ul class="dropped">${lines.join('')}</ul>` : '') +
    (failed === undefined ? '' : `<p>${escapeMarkup(failed)}</p>`) +
    '</section>'
  );
}

/**
 * A HAR's judgement as one self-contained page (the suites' page, `htmlPage`): each entry with its
 * number, call, status and verdict mark, and what was not judged and why; the specification's findings
 * and the contract's, each expected value beside what the HAR showed; the starting state and what was
 * inferred; the saved file and what it could not hold. Every text is escaped; give it a report
 * `judgeHar` returned (redacted), and redact the page with the same `Redaction` again.
 * @example
 * const { report, redaction } = await judgeHar({ file: 'bug.har' });
 * await writeFile('bug.html', redaction.text(harToHtml(report)));
 */
export function harToHtml(report: HarReport): string {
  const others = report.ignored.entries + report.otherBases.entries;
  const ignored = others > 0 ? ` · ${entries(others)} of other hosts, paths or base URLs ignored` : '';
  const summary = `${report.file} · ${report.baseUrl ?? 'no base URL of the interface'} · ${report.exchanges.length} of ${entries(report.entries)} of the interface, ${report.judged} judged · ${plural(report.violations, 'violation')} of the specification · ${plural(report.contract.disagreements, 'finding')} against the contract · exit ${report.exitCode}${ignored}`;
  return htmlPage({
    title: `petstore-verify har: ${report.verdict}`,
    heading: `${verdictBadge(report.verdict)} petstore-verify har`,
    body: [
      `<p class="summary">${escapeMarkup(summary)}</p>`,
      report.reason === undefined || report.exitCode === 0
        ? ''
        : `<ul class="reasons"><li>${escapeMarkup(report.reason)}</li></ul>`,
      stateSection(report),
      `<section><h2>The entries, in the order their answers ended</h2>${entriesTable(report)}</section>`,
      `<section><h2>Against the specification</h2>${specificationTable(report)}</section>`,
      `<section><h2>Against the contract</h2>${contractTable(report)}</section>`,
      savedSection(report),
    ].join('\n'),
  });
}
