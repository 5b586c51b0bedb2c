// petstore-verify har: its help, its flags, and the lines it prints of a HAR file's verdicts.
import { writeFile } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { findingText } from '../../core/finding.js';
import { printable } from '../../core/printable.js';
import { printableJson } from '../../core/printable-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { judgeHar, type HarExchangeVerdict, type HarReport } from '../../verify/har/judge-har.js';
import type { Redaction } from '../../verify/base/redaction.js';
import { harLimits } from '../../verify/har/har-file.js';
import { installHint } from '../../verify/base/optional-dependencies.js';
import { loadPrismOracle } from '../../verify/base/prism.js';
import { disagreementLine, shownDisagreements } from '../../verify/report/console.js';
import { droppedValueLine } from '../../verify/report/dropped-value-line.js';
import { unreplayableLine } from '../../verify/report/unreplayable-line.js';
import { harToHtml } from '../../verify/report/har-html.js';
import { redactOutput, httpUrlFlag, usageFailure, UsageError } from '../shared.js';
import { checkWritable, type CommandOutput, processOutput } from './run.js';
import { scenarioState } from './scenario-state.js';

const harUsage = `Usage: petstore-verify har FILE [options]

Judges the order interface's calls in a HAR file (DevTools' "Save all as HAR", Playwright's
recordHar, a proxy's export), in the order their answers ended, as the proxy judges live traffic:
each answer against the specification (Ajv, and Prism's validator as a second oracle), and against
what the contract requires in the state the deployment held, named with --from-scenario, or else
inferred from the HAR's own answers (a bug in an inferred status cannot be caught: the summary names
each). Entries of other hosts and paths are ignored (one line says how many); a path near the
interface's (a trailing slash, a second slash, another case) is judged by rule near-path-refusals;
CORS preflights, aborted requests and answers from the browser's cache are listed, not judged; an
answer whose body the HAR left out or cut is judged by its status and headers, and says so. Nothing
is sent anywhere: a HAR is past traffic. No key, cookie, token or URL secret of the file appears in
any line, report or saved scenario.
Exits 1 if any answer breaks the specification or the contract, 2 if no entry could be judged or
the file cannot be read as a HAR (one line says why), else 0.

Options:
  --base-url URL   the interface's base URL in the HAR (default: the first one ending with /v1
                   below which a path of the interface comes; entries of another are ignored)
  --from-scenario NAME  judge from the state of scenario NAME (a shipped scenario's name, or a
                   scenario file): what the deployment held when the HAR began; every status is
                   then known, and a 204 for a shipped order is caught at once
  --api-key KEY    the key the deployment accepts (default $PETSTORE_API_KEY), to tell each
                   key choice exactly; without it, or when no call holds it, from the answers
  --save DIR       also write the HAR as a scenario file in DIR, in the recorder's format (each
                   call a step expecting what the contract requires, never a key, header or
                   query but v2's status and limit; a v2 page asked with the cursor of the page
                   before it follows that page's): replay it with petstore-verify --scenarios DIR
                   --scenario NAME
  --name NAME      the saved scenario's name (default: recording-DATE-TIME, the HAR's start)
  --no-prism       do not check with Prism's validator too
  --json FILE      write the report as JSON
  --html FILE      write the report as one self-contained HTML page, for a bug report: each entry
                   and its verdict, what the specification and the contract expected beside what
                   the HAR showed, the starting state, what the saved file could not hold
  --quiet          print only the entries that break the specification
  --verbose        also print where Prism disagrees with Ajv for a known Prism limit
  --help           print this help

Limits: a file of at most ${harLimits.maxBytes / 1024 / 1024} MiB, ${harLimits.maxEntries.toLocaleString('en-US')} entries and ${harLimits.maxDepth} levels of nesting.
`;

function parseHar(argv: string[], environment: NodeJS.ProcessEnv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        'base-url': { type: 'string' },
        'from-scenario': { type: 'string' },
        'api-key': { type: 'string' },
        save: { type: 'string' },
        name: { type: 'string' },
        'no-prism': { type: 'boolean' },
        json: { type: 'string' },
        html: { type: 'string' },
        quiet: { type: 'boolean' },
        verbose: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'har needs a HAR FILE' : 'har judges one HAR FILE at a time');
  if (values.name !== undefined && values.save === undefined) throw new UsageError('--name needs --save DIR');
  if (values['base-url'] !== undefined) httpUrlFlag(values['base-url'], 'base-url');
  return {
    ...values,
    file: positionals[0]!,
    'api-key': values['api-key'] ?? (environment.PETSTORE_API_KEY || undefined),
  };
}

/** Where the har command prints and the environment it reads: the process's own unless given. */
export interface HarCommandOptions {
  output?: CommandOutput;
  environment?: NodeJS.ProcessEnv;
}

/** petstore-verify har: reads the command line, judges the file, prints and writes the report; resolves with the exit code. */
export async function harCommand(argv: string[], commandOptions: HarCommandOptions = {}): Promise<number> {
  const { output = processOutput, environment = process.env } = commandOptions;
  if (argv.includes('--help')) {
    output.stdout(harUsage);
    return 0;
  }
  const printLine = (line: string) => output.stderr(`${line}\n`);
  let options;
  let knownState;
  try {
    options = parseHar(argv, environment);
    // Before the file is judged, as the other commands do: not a verdict printed, then a failure.
    await checkWritable({ json: options.json, html: options.html });
    knownState = options['from-scenario'] === undefined ? undefined : await scenarioState(options['from-scenario']);
  } catch (error) {
    return usageFailure('petstore-verify', error, printLine);
  }
  const missing = options['no-prism'] ? undefined : installHint(['prism']);
  if (missing !== undefined) return usageFailure('petstore-verify', new UsageError(`har ${missing}`), printLine);
  const judged = await judgeHarFile(options, knownState, output);
  if (judged === undefined) return 2;
  // No line from here on shows a credential the HAR holds.
  const shown = redactedOutput(output, judged.redaction);
  const { report } = judged;
  const lineOptions = { quiet: options.quiet ?? false, verbose: options.verbose ?? false };
  // Every line printable: a method, an `_error` or a body the HAR holds may carry ESC, CR or `::error::`.
  shown.stdout(
    `${harLines(report, lineOptions)
      .map((line) => printable(line))
      .join('\n')}\n`,
  );
  if (options.json !== undefined) await writeFile(options.json, printableJson(stringifyJson(report)) + '\n');
  // Made from the redacted report, then redacted as a whole as the console is: no secret of the HAR in the page.
  if (options.html !== undefined) await writeFile(options.html, judged.redaction.text(harToHtml(report)));
  return report.exitCode;
}

/** The file judged, or undefined once it said in one line why it cannot be (not a HAR, nothing to record). */
async function judgeHarFile(
  options: ReturnType<typeof parseHar>,
  knownState: Awaited<ReturnType<typeof scenarioState>> | undefined,
  output: CommandOutput,
) {
  try {
    return await judgeHar({
      file: options.file,
      baseUrl: options['base-url'],
      knownState,
      apiKey: options['api-key'],
      save: options.save === undefined ? undefined : { directory: options.save, name: options.name },
      prism: options['no-prism'] ? undefined : loadPrismOracle,
    });
  } catch (error) {
    const { code } = error as { code?: string };
    if (code === 'invalid_har' || code === 'recording_refused') {
      output.stderr(`petstore-verify: ${printable((error as Error).message)}\n`);
      return undefined;
    }
    throw error;
  }
}

/**
 * `output` with `redaction` applied: the process's own streams are redacted from now on (so that a
 * crash's line is too), any other output line by line.
 */
function redactedOutput(output: CommandOutput, redaction: Redaction): CommandOutput {
  if (output === processOutput) {
    redactOutput(redaction);
    return output;
  }
  return {
    stdout: (text) => output.stdout(redaction.text(text)),
    stderr: (text) => output.stderr(redaction.text(text)),
  };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const entries = (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`;

/** Every line the command prints of a report: what it read, each entry's verdict, the contract's, the summary. */
function harLines(report: HarReport, options: { quiet: boolean; verbose: boolean }): string[] {
  return [
    ...headLines(report),
    ...report.exchanges.flatMap((exchange) => exchangeLines(exchange, options)),
    ...report.contract.against.flatMap(({ step, findings }) =>
      findings.map(
        (finding) =>
          `✗ contract: ${step}: the contract requires ${finding.expected}, the HAR's answer was ${finding.actual} [${finding.code}]`,
      ),
    ),
    ...summaryLines(report),
  ];
}

function headLines(report: HarReport): string[] {
  const { ignored, otherBases } = report;
  const interfaceEntries = report.exchanges.length;
  const lines = [
    `${report.file}: ${entries(report.entries)}, ${interfaceEntries} of the order interface${report.baseUrl === undefined ? '' : ` at ${report.baseUrl}`}`,
  ];
  if (ignored.entries > 0)
    lines.push(
      `ignored ${entries(ignored.entries)} of other hosts and paths (${ignored.hosts.slice(0, 5).join(', ')}${ignored.hosts.length > 5 ? ', …' : ''})`,
    );
  if (otherBases.entries > 0)
    lines.push(
      `ignored ${entries(otherBases.entries)} of the interface at another base URL (${otherBases.bases.slice(0, 3).join(', ')}): give --base-url to judge those`,
    );
  if (interfaceEntries > 0)
    lines.push(
      report.state === 'inferred'
        ? 'judging in the state the answers imply: give --from-scenario NAME, what the deployment held when the HAR began, to know it'
        : `judging from the state of scenario ${report.state.scenario}: what the deployment held when the HAR began`,
    );
  if (report.keyNotInHar)
    lines.push(
      'the key given (--api-key or $PETSTORE_API_KEY) is in no call of the HAR, so it is not the key the app used: each key is taken from its answer (401: refused, else accepted)',
    );
  if (report.keyFromHar !== undefined)
    lines.push(
      `the key of entry #${report.keyFromHar.accepted + 1}, the only one accepted, was refused in entry #${report.keyFromHar.refused + 1} under another spelling of the Bearer scheme, which is case-insensitive (RFC 9110 §11.1): each key is compared with it`,
    );
  if (report.sanitized)
    lines.push(
      'no call of the interface kept its Authorization header (a sanitized export): none is judged as a call without a key; ' +
        'each key is taken from its answer (401: refused, else accepted). Export "with sensitive data" to judge the keys',
    );
  return lines;
}

/** An entry's lines: `·` the specification allows it (the contract's lines follow), `✗` it breaks it, `-` not judged. */
function exchangeLines(exchange: HarExchangeVerdict, options: { quiet: boolean; verbose: boolean }): string[] {
  if (options.quiet && exchange.violations.length === 0) return [];
  const mark = exchange.unjudged !== undefined ? '-' : exchange.violations.length > 0 ? '✗' : '·';
  const subject = `${exchange.method} ${exchange.url} → ${exchange.status}`;
  const notes = [
    ...(exchange.unjudged !== undefined
      ? [`not judged: ${exchange.unjudged}`]
      : exchange.near === undefined
        ? []
        : [`a path near ${exchange.near}: judged against the contract, rule near-path-refusals`]),
    ...(exchange.unjudged === undefined && exchange.bodyUnjudged !== undefined
      ? [`judged on its status and headers only: ${exchange.bodyUnjudged}`]
      : []),
  ];
  return [
    `${mark} #${exchange.entry + 1} ${subject}${notes.map((note) => ` (${note})`).join('')}`,
    // The rule id last, as the contract's lines and petstore-verify's give it.
    ...exchange.violations.map((finding) => `    ${findingText(finding)} [${finding.code}]`),
    ...shownDisagreements(exchange.disagreements, options).map((item) => `    note: ${disagreementLine(item)}`),
  ];
}

function summaryLines(report: HarReport): string[] {
  const { contract } = report;
  const lines = [
    `${entries(report.exchanges.length)} of the interface, ${report.judged} judged, ${plural(report.violations, 'violation')} of the specification, ${plural(contract.disagreements, 'finding')} against the contract`,
  ];
  if (contract.inferred.length > 0)
    lines.push(
      `inferred from the answers, not known: ${contract.inferred.map(({ id, status, because }) => `order ${id} ${status} (from ${because})`).join(', ')}; ` +
        'a bug in these statuses cannot be caught (a 204 for a shipped order reads as a pending one): give --from-scenario NAME',
    );
  // Only of a file saved: a finding the replay cannot show again is named, never dropped.
  if (contract.saved.length > 0)
    for (const finding of contract.unreplayable ?? []) lines.push(unreplayableLine(finding));
  for (const { file, steps } of contract.saved)
    lines.push(
      // Its own folder and name: a name taken already is saved as NAME-2, which --scenario NAME would not replay.
      `saved ${plural(steps, 'step')} in ${file}: replay it with petstore-verify --scenarios ${dirname(file)} --scenario ${basename(file, extname(file))}`,
    );
  // A value the saved state could not hold is named: the file would replay green where the HAR showed it.
  for (const { file } of contract.saved)
    for (const item of contract.dropped ?? []) lines.push(droppedValueLine(item, file));
  if (contract.failed !== undefined) lines.push(contract.failed);
  if (report.reason !== undefined && report.verdict === 'not-run') lines.push(report.reason);
  lines.push(`verdict: ${report.verdict} (exit ${report.exitCode})`);
  return lines;
}
