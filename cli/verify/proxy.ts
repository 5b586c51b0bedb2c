// petstore-verify proxy: its help, its flags, and the proxy it runs until a signal stops it.
import { writeFile } from 'node:fs/promises';
import { printable } from '../../core/printable.js';
import { printableJson } from '../../core/printable-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { installHint } from '../../verify/base/optional-dependencies.js';
import { createValidatingProxy, newRecordingPath, reportPath } from '../../verify/proxy/proxy.js';
import type { ProxyExchange, ProxyReport } from '../../verify/proxy/proxy-report.js';
import { ScenarioRecorder, type KnownState, type RecordedStep } from '../../verify/recorder/scenario-recorder.js';
import { Redaction } from '../../verify/base/redaction.js';
import { findingText } from '../../core/finding.js';
import { disagreementLine, shownDisagreements } from '../../verify/report/console.js';
import { droppedValueLine } from '../../verify/report/dropped-value-line.js';
import { unreplayableLine } from '../../verify/report/unreplayable-line.js';
import { hostFlag, httpUrlFlag, listenOrFail, parseFlags, portFlag, usageFailure, UsageError } from '../shared.js';
import { confidencesOf } from './confidences.js';
import { scenarioState } from './scenario-state.js';
import { checkWritable, type CommandOutput, processOutput } from './run.js';

const proxyUsage = `Usage: petstore-verify proxy --upstream URL [options]

Forwards every request to the implementation at URL and checks each answer against the
specification as it passes (Ajv, and Prism's validator as a second oracle), printing one line per
exchange. Stop it with Ctrl-C: it prints the totals and exits 1 if any answer broke the contract,
2 if it judged no exchange at all (one line says why: none came, or none could be checked), else 0.

Options:
  --upstream URL   the implementation, ending with /v1
  --port N         port to listen on; 0 picks a free one (default 4020)
  --host HOST      address to bind (default 127.0.0.1)
  --record DIR     also write what passes as scenario files in DIR, one a run (POST /__record/new
                   starts the next, ?name=NAME names it): each call a step expecting what the
                   contract requires, never a key, header or query but v2's status and limit
                   (a v2 page asked with the cursor of the page before it follows that page's)
  --record-name NAME  the first file's scenario name (default: recording-DATE-TIME)
  --api-key KEY    the key the upstream accepts (default $PETSTORE_API_KEY), to tell each
                   recorded key choice exactly; without it, from the upstream's answers
  --from-scenario NAME  record from a known state: set the state of scenario NAME (a shipped
                   scenario's name, or a scenario file) on the upstream through --state-url before
                   the first exchange and at each new file, and judge every step in it from the
                   first; without it the state is inferred from the answers, and a bug in a status
                   inferred from an answer cannot be caught
  --state-url URL  where to POST Pact's state change (with --from-scenario)
  --no-prism       do not check with Prism's validator too
  --json FILE      write the report as JSON when stopped
  --quiet          print only the exchanges that break the contract
  --verbose        also print where Prism disagrees with Ajv for a known Prism limit
  --help           print this help
`;

/** The hint an upstream without the interface's version path gets: the proxy forwards to it anyway. */
function upstreamHint(upstream: string): string | undefined {
  if (/\/v1\/*$/.test(new URL(upstream).pathname)) return undefined;
  return `the upstream ${upstream} does not end with /v1: the interface's paths are below its version path (did you mean ${upstream.replace(/\/+$/, '')}/v1?)`;
}

/**
 * An exchange's lines: `✓` passed the specification's checks, `✗` broke them, `-` not checked. Recording,
 * an answer that passes the specification is only `·`: the contract judges it as it is recorded, and a
 * `✗ recorded …` line follows when it breaks the contract, so no answer is shown both passed and failed.
 */
function proxyExchangeLines(
  exchange: ProxyExchange,
  options: { quiet: boolean; verbose: boolean; recording: boolean },
): string[] {
  if (options.quiet && exchange.violations.length === 0) return [];
  const passed = options.recording ? '·' : '✓';
  const mark = exchange.unchecked !== undefined ? '-' : exchange.violations.length > 0 ? '✗' : passed;
  const subject = `${exchange.method} ${exchange.operationPath === undefined ? exchange.path : `${exchange.base ?? ''}${exchange.operationPath}`} → ${exchange.status}`;
  return [
    `${mark} ${exchange.method} ${exchange.path} → ${exchange.status} (${exchange.durationMs.toFixed(0)} ms${exchange.unchecked !== undefined ? `; not checked: ${exchange.unchecked}` : ''})`,
    // The rule id last, as petstore-verify's run gives it.
    ...exchange.violations.map((finding) => `    ${subject}: ${findingText(finding)} [${finding.code}]`),
    ...shownDisagreements(exchange.disagreements, options).map(
      (disagreement) => `    note: ${subject}: ${disagreementLine(disagreement)}`,
    ),
  ];
}

function parseProxy(argv: string[], environment: NodeJS.ProcessEnv) {
  const values = parseFlags(argv, {
    upstream: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    record: { type: 'string' },
    'record-name': { type: 'string' },
    'api-key': { type: 'string' },
    'from-scenario': { type: 'string' },
    'state-url': { type: 'string' },
    'no-prism': { type: 'boolean' },
    json: { type: 'string' },
    quiet: { type: 'boolean' },
    verbose: { type: 'boolean' },
  });
  if (values.upstream === undefined) throw new UsageError('proxy needs --upstream URL');
  if (values['record-name'] !== undefined && values.record === undefined)
    throw new UsageError('--record-name needs --record DIR');
  if (values['from-scenario'] !== undefined && values.record === undefined)
    throw new UsageError('--from-scenario needs --record DIR');
  if (values['from-scenario'] !== undefined && values['state-url'] === undefined)
    throw new UsageError('--from-scenario needs --state-url URL, where the upstream takes a provider state');
  if (values['state-url'] !== undefined && values['from-scenario'] === undefined)
    throw new UsageError('--state-url needs --from-scenario NAME, the scenario whose state to set');
  if (values['state-url'] !== undefined) httpUrlFlag(values['state-url'], 'state-url');
  return {
    ...values,
    'api-key': values['api-key'] ?? (environment.PETSTORE_API_KEY || undefined),
    upstream: httpUrlFlag(values.upstream, 'upstream'),
    port: portFlag(values.port ?? '4020'),
    host: hostFlag(values.host ?? '127.0.0.1'),
  };
}

/** The recorder `--record DIR` writes with: each step's disagreements printed once it is on disk. */
function openRecorder(
  options: ReturnType<typeof parseProxy>,
  directory: string,
  knownState: KnownState | undefined,
  output: CommandOutput,
): Promise<ScenarioRecorder> {
  return ScenarioRecorder.open({
    directory,
    name: options['record-name'],
    apiKey: options['api-key'],
    upstream: options.upstream,
    knownState,
    onStep: (recorded) => {
      for (const line of disagreementLines(recorded)) output.stdout(`${printable(line)}\n`);
    },
    onError: (error) => output.stderr(`petstore-verify: ${printable(error.message)}\n`),
  });
}

/** Where the proxy command prints, what environment it reads, and what stops it. */
export interface ProxyCommandOptions {
  /** The process's stdout and stderr unless given. */
  output?: CommandOutput;
  /** The process's environment unless given. */
  environment?: NodeJS.ProcessEnv;
  /** Stops the proxy once aborted, as SIGINT does (the command line aborts it on SIGINT, SIGTERM or SIGHUP). */
  stop?: AbortSignal;
}

/**
 * petstore-verify proxy: reads the command line, runs the proxy until `stop` is aborted, then prints
 * its summary and writes its report; resolves with the exit code (at once for a usage error).
 */
export async function proxyCommand(argv: string[], commandOptions: ProxyCommandOptions = {}): Promise<number> {
  const { output = processOutput, environment = process.env, stop } = commandOptions;
  if (argv.includes('--help')) {
    output.stdout(proxyUsage);
    return 0;
  }
  let options;
  let recorder: ScenarioRecorder | undefined;
  const printLine = (line: string) => output.stderr(`${line}\n`);
  try {
    options = parseProxy(argv, environment);
    // Found now, not when the proxy is stopped and its report is all there is to show.
    await checkWritable({ json: options.json });
    const knownState = await knownStateOf(options);
    if (options.record !== undefined) recorder = await openRecorder(options, options.record, knownState, output);
  } catch (error) {
    return usageFailure('petstore-verify', error, printLine);
  }
  const missing = options['no-prism'] ? undefined : installHint(['prism']);
  if (missing !== undefined) return usageFailure('petstore-verify', new UsageError(`the proxy ${missing}`), printLine);
  const server = proxyServer(options, recorder, { argv, environment, output });
  const json = options.json;
  // Waited for from now, so that a stop at any moment after start-up closes cleanly.
  const stopped = whenAborted(stop).then(async () => {
    await server.close();
    const report = server.report();
    output.stdout(
      `${proxySummaryLines(report)
        .map((line) => printable(line))
        .join('\n')}\n`,
    );
    if (json !== undefined) await writeFile(json, printableJson(stringifyJson(report)) + '\n');
    return report.exitCode;
  });
  const origin = await listenOrFail('petstore-verify', server, options, printLine);
  if (typeof origin === 'number') return origin;
  output.stdout(startLines(options, origin, recorder).join('\n') + '\n');
  return stopped;
}

/** The validating proxy the flags describe, printing each exchange's lines as it is judged. */
function proxyServer(
  options: ReturnType<typeof parseProxy>,
  recorder: ScenarioRecorder | undefined,
  { argv, environment, output }: { argv: string[]; environment: NodeJS.ProcessEnv; output: CommandOutput },
) {
  const lineOptions = {
    quiet: options.quiet ?? false,
    verbose: options.verbose ?? false,
    recording: recorder !== undefined,
  };
  return createValidatingProxy({
    upstream: options.upstream,
    redaction: new Redaction(confidencesOf(argv, environment)),
    prism: !options['no-prism'],
    onExchange: (exchange) => {
      const lines = proxyExchangeLines(exchange, lineOptions);
      // What the upstream sent, quoted in a line, neither acts in a terminal nor starts a workflow command.
      if (lines.length > 0) output.stdout(`${lines.map((line) => printable(line)).join('\n')}\n`);
    },
    ...(recorder !== undefined && { recorder }),
  });
}

/** Resolves once `signal` is aborted (never without one). */
function whenAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** What the proxy prints once it listens: the hint, where it listens, and where it records. */
function startLines(options: ReturnType<typeof parseProxy>, origin: string, recorder: ScenarioRecorder | undefined) {
  const hint = upstreamHint(options.upstream);
  const lines = hint === undefined ? [] : [`hint: ${hint}`];
  lines.push(
    `petstore-verify proxy listening on ${origin}/v1, forwarding to ${options.upstream}; report at ${origin}${reportPath}`,
  );
  if (recorder !== undefined)
    lines.push(
      `recording to ${recorder.current().file} (${recordingFrom(recorder)}; ${options['api-key'] === undefined ? 'key choices from the answers: give --api-key to tell them exactly' : 'key choices compared with --api-key'}); POST ${origin}${newRecordingPath} starts a new file`,
    );
  return lines;
}

/** The state `--from-scenario` names (a shipped scenario, or a scenario file), to set before recording. */
async function knownStateOf(options: ReturnType<typeof parseProxy>): Promise<KnownState | undefined> {
  const wanted = options['from-scenario'];
  const stateUrl = options['state-url'];
  if (wanted === undefined || stateUrl === undefined) return undefined;
  return { ...(await scenarioState(wanted)), stateUrl };
}

function recordingFrom(recorder: ScenarioRecorder): string {
  const known = recorder.knownState;
  return known === undefined
    ? 'the state inferred from the answers: give --from-scenario and --state-url to record from a known one'
    : `from the state of scenario ${known.scenario}, set on the upstream`;
}

/** One line for each way an answer the proxy recorded disagrees with what the contract requires there. */
function disagreementLines({ step, disagreements, again }: RecordedStep): string[] {
  const when = again === true ? ' (judged again: a later answer told more of the state)' : '';
  if (again === true && disagreements.length === 0)
    return [`✓ recorded ${step.name}${when}: no longer against the contract`];
  return disagreements.map(
    (finding) =>
      `✗ recorded ${step.name}${when}: the contract requires ${finding.expected}, the upstream answered ${finding.actual} [${finding.code}]`,
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The proxy's summary when it stops, from its report alone: the same counts as its JSON and its exit code. */
function proxySummaryLines(report: ProxyReport): string[] {
  const { recording } = report;
  const lines = [
    `${plural(report.exchanges, 'exchange')}, ${report.checked} checked, ${plural(report.violations, 'violation')}${recording === undefined ? '' : ' of the specification'}, ${plural(report.disagreements, 'disagreement')} between Ajv and Prism`,
  ];
  if (recording !== undefined) lines.push(...recordingSummaryLines(recording));
  if (report.verdict === 'not-run' && report.reason !== undefined) lines.push(report.reason);
  lines.push(`verdict: ${report.verdict} (exit ${report.exitCode})`);
  return lines;
}

function recordingSummaryLines({
  files,
  against,
  inferred,
  dropped,
  unreplayable,
  failed,
}: NonNullable<ProxyReport['recording']>): string[] {
  if (files.length === 0) return [failed ?? 'recorded nothing: no call of an operation passed'];
  const each = files.map(({ file, steps }) => `${plural(steps, 'step')} in ${file}`).join(', ');
  const findings = against.reduce((sum, { findings }) => sum + findings.length, 0);
  const lines = [
    `recorded ${each}; ${plural(against.length, 'answer')} against the contract${findings === against.length ? '' : ` (${plural(findings, 'finding')})`}`,
  ];
  if (failed !== undefined) lines.push(failed);
  if (inferred.length > 0)
    lines.push(
      `inferred from the answers, not known: ${inferred.map(({ id, status, because }) => `order ${id} ${status} (from ${because})`).join(', ')}; ` +
        'a bug in these statuses cannot be caught (a 204 for a shipped order reads as a pending one): record from a known state with --from-scenario and --state-url',
    );
  for (const item of dropped ?? []) lines.push(droppedValueLine(item, item.file));
  for (const finding of unreplayable ?? []) lines.push(`${unreplayableLine(finding)} (${finding.file})`);
  return lines;
}
