#!/usr/bin/env node
import { constants } from 'node:fs';
import { access, appendFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { baselineText, readBaseline, type Baseline } from '../verify/baseline.js';
import { githubAnnotations, githubSummary } from '../verify/github.js';
import { stringifyJson } from '../spec/json.js';
import {
  injectsFaults,
  loadScenarioFile,
  loadScenarios,
  scenarioDirectory,
  type Scenario,
} from '../mocks/scenarios.js';
import {
  createValidatingProxy,
  newRecordingPath,
  reportPath,
  type ProxyExchange,
  type ProxyReport,
} from '../verify/proxy.js';
import { ScenarioRecorder, type KnownState, type RecordedStep } from '../verify/recorder/scenario-recorder.js';
import type { OrderInput } from '../spec/provider-state.js';
import { defaultExplorationSeed } from '../verify/explore/explore.js';
import { defaultRequestTimeout } from '../verify/observe.js';
import {
  disagreementLine,
  shownDisagreements,
  exchangeLines as suiteExchangeLines,
  findingText,
  runLines,
  summaryLines,
  toHtml,
  toJson,
  toJunit,
  type RunReport,
} from '../verify/report.js';
import { installHint, type OptionalDependency } from '../verify/optional-dependencies.js';
import type { PactBroker } from '../verify/pact.js';
import type { SuiteName } from '../verify/results.js';
import { runVerification } from '../verify/verification.js';
import {
  brokerFromEnvironment,
  type BrokerSettings,
  hostFlag,
  integerFlag,
  listenOrExit,
  packageVersion,
  parseFlags,
  portFlag,
  redactOutput,
  flagValues,
  stopOnSignals,
  usageFailure,
  UsageError,
} from './shared.js';
import { Redaction, type Confidences } from '../verify/redaction.js';

const exitCodes = `Exit 0 when every check passed; 1 on any violation; 2 when nothing could be judged:
the arguments are wrong, the preflight (before any suite) found the setup wrong (a base URL that
does not answer or does not end with /v1, a refused key, a state URL that refuses a setup), or no
check ran. The reason is printed, one line.`;

// The options of a run that say where the target is and how to reach it: the run's and explore's.
const targetOptions = `  --base-url URL        the implementation, ending with /v1
  --target NAME         production or staging: the base URL from $PETSTORE_BASE_URL or
                        $PETSTORE_STAGING_BASE_URL (instead of --base-url)
  --api-key KEY         an API key it accepts (default $PETSTORE_API_KEY)
  --state-url URL       where to POST Pact state-change requests (the kit's mock: /__mock/provider-state);
                        without it, what sets a provider state is skipped`;

// The options both the run and explore share after the target's: time limits, oracles and reports.
const reportOptions = `  --timeout S           seconds to wait for one whole answer, headers and body (default 10)
  --deadline S          seconds the whole run may take; what is left then fails the run (default 600)
  --strict              count the kit's own decisions (advisory expectations) as violations
  --no-prism            do not check responses with Prism's validator too (saves ~0.5 s of start-up)
  --verbose             also print where Prism disagrees with Ajv for a known Prism limit (int64 beyond
                        2^53); without it they are only counted
  --junit FILE          write a JUnit XML report of every suite that ran
  --json FILE           write the whole report as JSON
  --html FILE           write a self-contained HTML page of the report, with the coverage matrix
  --write-baseline FILE write the violations of this run as a baseline of known failures (JSON)
  --baseline FILE       known failures (from --write-baseline): reported as known, failing nothing;
                        the run fails only on new violations, and says which known ones are fixed`;

const usage = `Usage: petstore-verify [options]
       petstore-verify explore [options]                 (petstore-verify explore --help)
       petstore-verify proxy --upstream URL [options]    (petstore-verify proxy --help)
       petstore-verify publish-pact --consumer-version V (petstore-verify publish-pact --help)

Checks an implementation of the pet store order interface against the specification: the shipped
pact, then the scenarios, then a short exploration. ${exitCodes}

Options:
${targetOptions}
  --suite NAME          pact (the shipped pact, with Pact's verifier; needs --state-url), scenarios
                        (the scenarios, checked with Ajv, Prism and the kit's mock as model), explore
                        (generated states and command sequences against the model; needs --state-url)
                        or all (default: pact, the scenarios, then 25 exploration runs; what needs
                        --state-url is skipped, saying why, without it; with --scenario or
                        --scenarios, the default is the scenarios alone)
  --scenario NAME       run this scenario (repeatable; default: all of them); with --suite pact or
                        all, the pact verifies only this scenario's interactions
  --scenarios DIR       run the scenarios of this folder instead of the kit's
  --provider-version V  with $PACT_BROKER_BASE_URL: publish the pact verification results as version V
  --provider-branch B   with $PACT_BROKER_BASE_URL: the provider version's branch
  --require-coverage    fail the run when a documented response (operation and status) was not exercised
  --runs N              the exploration's runs (default 25)
  --seed N              the exploration's seed, which replays its runs exactly (default 20261123; random: a new one)
  --max-steps N         the most commands in one exploration run (default 12)
  --save DIR            write the exploration's shrunk failure as a scenario file in DIR
${reportOptions}
  --help                print this help
  --version             print the version

In GitHub Actions (GITHUB_ACTIONS=true) it also prints a workflow command per finding (::error,
::warning, ::notice for a known failure) and appends a Markdown summary to $GITHUB_STEP_SUMMARY.
`;

const exploreUsage = `Usage: petstore-verify explore [options]

Explores: generates provider states and sequences of calls, sends each to the implementation and to
the kit's mock seeded with the same state, and compares every answer; a difference is shrunk to the
smallest state and sequence that still differ. ${exitCodes}

Options:
${targetOptions}
  --runs N              how many generated runs (default 100)
  --seed N              the seed that replays the runs exactly (default 20261123; random: a new one)
  --max-steps N         the most commands in one run (default 12)
  --save DIR            write the shrunk failure as a scenario file in DIR
${reportOptions}
  --help                print this help
`;

/** The hint an upstream without the interface's version path gets: the proxy forwards to it anyway. */
function upstreamHint(upstream: string): string | undefined {
  if (/\/v1\/*$/.test(new URL(upstream).pathname)) return undefined;
  return `the upstream ${upstream} does not end with /v1: the interface's paths are below its version path (did you mean ${upstream.replace(/\/+$/, '')}/v1?)`;
}

function httpUrlFlag(value: string, name: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new UsageError(`--${name} is not an http(s) URL: ${JSON.stringify(value)}`);
  return value;
}

function secondsFlag(value: string, name: string, maximum: number): number {
  const seconds = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(seconds > 0) || seconds > maximum)
    throw new UsageError(
      `--${name} must be a number of seconds above 0 and at most ${maximum}, got ${JSON.stringify(value)}`,
    );
  return seconds * 1000;
}

const verifyFlags = {
  runs: { type: 'string' },
  seed: { type: 'string' },
  'max-steps': { type: 'string' },
  save: { type: 'string' },
  'base-url': { type: 'string' },
  target: { type: 'string' },
  'api-key': { type: 'string' },
  'state-url': { type: 'string' },
  scenario: { type: 'string', multiple: true },
  scenarios: { type: 'string' },
  suite: { type: 'string' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'provider-version': { type: 'string' },
  'provider-branch': { type: 'string' },
  strict: { type: 'boolean' },
  verbose: { type: 'boolean' },
  'no-prism': { type: 'boolean' },
  'require-coverage': { type: 'boolean' },
  junit: { type: 'string' },
  json: { type: 'string' },
  html: { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

/** The command line of a run as read, before any flag is checked. */
type VerifyFlags = ReturnType<typeof parseFlags<typeof verifyFlags>>;

/** The target's base URL: `--base-url`, or the variable `--target production|staging` names. */
function baseUrlOf(values: VerifyFlags, environment: NodeJS.ProcessEnv): string {
  let baseUrl = values['base-url'];
  if (values.target !== undefined) {
    if (baseUrl !== undefined) throw new UsageError('give --base-url or --target, not both');
    const variable = { production: 'PETSTORE_BASE_URL', staging: 'PETSTORE_STAGING_BASE_URL' }[values.target];
    if (variable === undefined)
      throw new UsageError(`--target must be production or staging, got ${JSON.stringify(values.target)}`);
    baseUrl = environment[variable];
    if (!baseUrl) throw new UsageError(`--target ${values.target} reads ${variable}, which is not set`);
  }
  if (baseUrl === undefined) throw new UsageError('--base-url (or --target) is required');
  return baseUrl;
}

const suitesByFlag: Record<string, SuiteName[]> = {
  pact: ['pact'],
  scenarios: ['scenarios'],
  explore: ['explore'],
  all: ['pact', 'scenarios', 'explore'],
};

// The flags of a run that explore has no use for: refused, so that its help lists all it takes.
const notForExplore = [
  'suite',
  'scenario',
  'scenarios',
  'provider-version',
  'provider-branch',
  'require-coverage',
  'version',
] as const;

/** The `--suite` asked for (`explore` for the explore command) and the suites it runs. */
function suitesOf(values: VerifyFlags, explore: boolean): { suite: string; suites: SuiteName[] } {
  // Scenarios named or given as a folder are run alone, unless --suite asks for more.
  const chosen = values.scenario !== undefined || values.scenarios !== undefined;
  let suite = explore ? 'explore' : (values.suite ?? (chosen ? 'scenarios' : 'all'));
  if (suite === 'ajv') {
    // The suite's name before it was one word everywhere: still taken, and said once.
    console.error('petstore-verify: --suite ajv is now --suite scenarios, its name in every report');
    suite = 'scenarios';
  }
  const suites = suitesByFlag[suite];
  if (suites === undefined)
    throw new UsageError(`--suite must be pact, scenarios, explore or all, got ${JSON.stringify(suite)}`);
  if (suite === 'pact' && values['state-url'] === undefined)
    throw new UsageError('--suite pact needs --state-url: every interaction of the pact sets a provider state');
  if (suite === 'explore' && values['state-url'] === undefined)
    throw new UsageError('exploration needs --state-url: every run sets a generated provider state');
  return { suite, suites };
}

/** `--seed N`, or a random one for `--seed random`. */
function seedOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return value === 'random' ? Math.floor(Math.random() * 2 ** 31) : integerFlag(value, 'seed', 0, 2 ** 31 - 1);
}

/** The Pact Broker of the environment, with the provider version and branch to publish results as. */
function brokerOf(values: VerifyFlags, environment: NodeJS.ProcessEnv): BrokerSettings | undefined {
  const broker = brokerFromEnvironment(environment);
  if ((values['provider-version'] ?? values['provider-branch']) !== undefined && broker === undefined) {
    throw new UsageError('--provider-version and --provider-branch publish to a Pact Broker: set PACT_BROKER_BASE_URL');
  }
  return broker;
}

function withProviderVersion(broker: BrokerSettings | undefined, values: VerifyFlags): PactBroker | undefined {
  return (
    broker && {
      ...broker,
      ...(values['provider-version'] !== undefined && { providerVersion: values['provider-version'] }),
      ...(values['provider-branch'] !== undefined && { providerBranch: values['provider-branch'] }),
    }
  );
}

/** The exploration's runs (100 for the explore command, else 25), seed, steps and folder to save a failure in. */
function explorationOf(values: VerifyFlags, suite: string, seed: number | undefined) {
  return {
    runs: values.runs === undefined ? (suite === 'explore' ? 100 : 25) : integerFlag(values.runs, 'runs', 1, 100_000),
    ...(seed !== undefined && { seed }),
    ...(values['max-steps'] !== undefined && { maxSteps: integerFlag(values['max-steps'], 'max-steps', 1, 100) }),
    ...(values.save !== undefined && { save: values.save }),
  };
}

function parse(argv: string[], environment: NodeJS.ProcessEnv, explore = false) {
  const values = parseFlags(argv, verifyFlags);
  if (values.help) return 'help' as const;
  const unused = explore ? notForExplore.find((name) => values[name] !== undefined) : undefined;
  if (unused !== undefined) throw new UsageError(`petstore-verify explore takes no --${unused}`);
  if (values.version) return 'version' as const;
  const baseUrl = baseUrlOf(values, environment);
  const apiKey = values['api-key'] ?? environment.PETSTORE_API_KEY;
  if (!apiKey) throw new UsageError('--api-key (or PETSTORE_API_KEY) is required');
  for (const [name, url] of [
    ['base-url', baseUrl],
    ['state-url', values['state-url']],
  ] as const)
    if (url !== undefined) httpUrlFlag(url, name);
  const { suite, suites } = suitesOf(values, explore);
  const seed = seedOf(values.seed);
  const broker = brokerOf(values, environment);
  return {
    ...values,
    baseUrl,
    apiKey,
    suites,
    broker: withProviderVersion(broker, values),
    timeout: values.timeout === undefined ? defaultRequestTimeout : secondsFlag(values.timeout, 'timeout', 600),
    deadline: values.deadline === undefined ? 600_000 : secondsFlag(values.deadline, 'deadline', 86_400),
    exploration: explorationOf(values, suite, seed),
  };
}

/** The files a run writes when it ends: the reports and the baseline. */
interface OutputFiles {
  junit?: string | undefined;
  json?: string | undefined;
  html?: string | undefined;
  'write-baseline'?: string | undefined;
}

/**
 * Checks, before the run, that every file it will write can be written: its folder exists and is
 * writable, and it is not a folder itself.
 * @throws UsageError naming the flag and the file.
 */
async function checkWritable(files: OutputFiles): Promise<void> {
  for (const [flag, file] of Object.entries(files)) {
    if (typeof file !== 'string' || !['junit', 'json', 'html', 'write-baseline'].includes(flag)) continue;
    const existing = await stat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw new UsageError(`--${flag} ${file} is a folder, not a file`);
    try {
      await access(existing === undefined ? dirname(resolve(file)) : file, constants.W_OK);
    } catch (error) {
      throw new UsageError(
        `--${flag} ${file} cannot be written: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : (error as NodeJS.ErrnoException).code}`,
      );
    }
  }
}

/**
 * In GitHub Actions (`GITHUB_ACTIONS=true`): a workflow command per finding on stdout, and the step
 * summary appended to `$GITHUB_STEP_SUMMARY`. A summary that cannot be written is said, not fatal.
 */
async function reportToGitHub(report: RunReport, environment: NodeJS.ProcessEnv): Promise<void> {
  if (environment.GITHUB_ACTIONS !== 'true') return;
  const annotations = githubAnnotations(report);
  if (annotations.length > 0) console.log(annotations.join('\n'));
  const summaryFile = environment.GITHUB_STEP_SUMMARY;
  if (!summaryFile) return;
  try {
    await appendFile(summaryFile, githubSummary(report));
  } catch (error) {
    console.error(
      `petstore-verify: cannot append the step summary to ${summaryFile}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

async function writeReports(report: RunReport, files: OutputFiles): Promise<void> {
  // A run that could not check everything (exit 2) would write a baseline that forgets what it did not see.
  if (files['write-baseline'] !== undefined) {
    if (report.exitCode === 2)
      console.error(`petstore-verify: --write-baseline ${files['write-baseline']} not written: the run did not finish`);
    else await writeFile(files['write-baseline'], baselineText(report.suites));
  }
  if (files.junit !== undefined) await writeFile(files.junit, toJunit(report));
  if (files.json !== undefined) await writeFile(files.json, toJson(report));
  if (files.html !== undefined) await writeFile(files.html, toHtml(report));
}

function exchangeLines(exchange: ProxyExchange, options: { quiet: boolean; verbose: boolean }): string[] {
  if (options.quiet && exchange.violations.length === 0) return [];
  const mark = exchange.unchecked !== undefined ? '-' : exchange.violations.length > 0 ? '✗' : '✓';
  const subject = `${exchange.method} ${exchange.operationPath ?? exchange.path} → ${exchange.status}`;
  return [
    `${mark} ${exchange.method} ${exchange.path} → ${exchange.status} (${exchange.durationMs.toFixed(0)} ms${exchange.unchecked !== undefined ? `; not checked: ${exchange.unchecked}` : ''})`,
    ...exchange.violations.map((finding) => `    ${subject}: ${findingText(finding)}`),
    ...shownDisagreements(exchange.disagreements, options).map(
      (disagreement) => `    note: ${subject}: ${disagreementLine(disagreement)}`,
    ),
  ];
}

const proxyUsage = `Usage: petstore-verify proxy --upstream URL [options]

Forwards every request to the implementation at URL and checks each answer against the
specification as it passes (Ajv, and Prism's validator as a second oracle), printing one line per
exchange. Stop it with Ctrl-C: it prints the totals and exits 1 if any answer broke the contract.

Options:
  --upstream URL   the implementation, ending with /v1
  --port N         port to listen on; 0 picks a free one (default 4020)
  --host HOST      address to bind (default 127.0.0.1)
  --record DIR     also write what passes as scenario files in DIR, one a run (POST /__record/new
                   starts the next, ?name=NAME names it): each call a step expecting what the
                   contract requires, never a key, header or query
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

const publishUsage = `Usage: petstore-verify publish-pact --consumer-version V [--branch B]

Publishes the pact the package ships to the Pact Broker at $PACT_BROKER_BASE_URL (with
$PACT_BROKER_TOKEN, or $PACT_BROKER_USERNAME and $PACT_BROKER_PASSWORD), as consumer version V.

Options:
  --consumer-version V  the consumer's version to publish the pact as
  --branch B            the consumer version's branch
  --help                print this help
`;

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

async function proxy(argv: string[]): Promise<number | undefined> {
  if (argv.includes('--help')) {
    process.stdout.write(proxyUsage);
    return 0;
  }
  let options;
  let recorder: ScenarioRecorder | undefined;
  try {
    options = parseProxy(argv, process.env);
    const knownState = await knownStateOf(options);
    if (options.record !== undefined)
      recorder = await ScenarioRecorder.open({
        directory: options.record,
        name: options['record-name'],
        apiKey: options['api-key'],
        upstream: options.upstream,
        knownState,
        onStep: (recorded) => {
          for (const line of disagreementLines(recorded)) console.log(line);
        },
        onError: (error) => console.error(`petstore-verify: ${error.message}`),
      });
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  const missing = options['no-prism'] ? undefined : installHint(['prism']);
  if (missing !== undefined) return usageFailure('petstore-verify', new UsageError(`the proxy ${missing}`));
  const lineOptions = { quiet: options.quiet ?? false, verbose: options.verbose ?? false };
  const server = createValidatingProxy({
    upstream: options.upstream,
    redaction: new Redaction(confidencesOf(argv, process.env)),
    prism: !options['no-prism'],
    onExchange: (exchange) => {
      const lines = exchangeLines(exchange, lineOptions);
      if (lines.length > 0) console.log(lines.join('\n'));
    },
    ...(recorder !== undefined && { recorder }),
  });
  stopOnSignals(async () => {
    await server.close();
    const report = server.report();
    console.log(proxySummaryLines(report).join('\n'));
    if (options.json !== undefined) await writeFile(options.json, stringifyJson(report) + '\n');
    return report.verdict === 'failed' ? 1 : 0;
  });
  const origin = await listenOrExit('petstore-verify', server, options.port, options.host);
  const hint = upstreamHint(options.upstream);
  if (hint !== undefined) console.log(`hint: ${hint}`);
  console.log(
    `petstore-verify proxy listening on ${origin}/v1, forwarding to ${options.upstream}; report at ${origin}${reportPath}`,
  );
  if (recorder !== undefined)
    console.log(
      `recording to ${recorder.current().file} (${recordingFrom(recorder)}; ${options['api-key'] === undefined ? 'key choices from the answers: give --api-key to tell them exactly' : 'key choices compared with --api-key'}); POST ${origin}${newRecordingPath} starts a new file`,
    );
  return undefined;
}

/** The state `--from-scenario` names (a shipped scenario, or a scenario file), to set before recording. */
async function knownStateOf(options: ReturnType<typeof parseProxy>): Promise<KnownState | undefined> {
  const wanted = options['from-scenario'];
  const stateUrl = options['state-url'];
  if (wanted === undefined || stateUrl === undefined) return undefined;
  const scenario = /[\\/]|\.ya?ml$/.test(wanted)
    ? await loadScenarioFile(wanted)
    : (await loadScenarios({ names: [wanted] }))[0]!;
  if (injectsFaults(scenario))
    throw new UsageError(`scenario ${scenario.name} injects faults: only the mock can replay it, no deployment`);
  if (scenario.state === undefined)
    throw new UsageError(`scenario ${scenario.name} sets no provider state: name one that does`);
  return { scenario: scenario.name, stateUrl, orders: scenario.state.params.orders as OrderInput[] };
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
    return [`  recorded ${step.name}${when}: no longer against the contract`];
  return disagreements.map(
    (finding) =>
      `  recorded ${step.name}${when}: the contract requires ${finding.expected}, the upstream answered ${finding.actual} [${finding.code}]`,
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The proxy's summary when it stops, from its report alone: the same counts as its JSON and its exit code. */
function proxySummaryLines(report: ProxyReport): string[] {
  const { recording } = report;
  const ofContract = recording === undefined ? 0 : recording.disagreements;
  const sources =
    recording === undefined
      ? ''
      : ` (${report.violations - ofContract} of the specification, ${ofContract} of the contract in the recording)`;
  const lines = [
    `${plural(report.exchanges, 'exchange')}, ${report.checked} checked, ${plural(report.violations, 'violation')}${sources}, ${plural(report.disagreements, 'disagreement')} between Ajv and Prism`,
  ];
  if (recording !== undefined) lines.push(...recordingSummaryLines(recording));
  lines.push(`verdict: ${report.verdict} (exit ${report.verdict === 'failed' ? 1 : 0})`);
  return lines;
}

function recordingSummaryLines({ files, against, inferred, failed }: NonNullable<ProxyReport['recording']>): string[] {
  if (files.length === 0) return [failed ?? 'recorded nothing: no call of an operation passed'];
  const each = files.map(({ file, steps }) => `${plural(steps, 'step')} in ${file}`).join(', ');
  const lines = [`recorded ${each}; ${plural(against.length, 'answer')} against the contract`];
  if (failed !== undefined) lines.push(failed);
  if (inferred.length > 0)
    lines.push(
      `inferred from the answers, not known: ${inferred.map(({ id, status, because }) => `order ${id} ${status} (from ${because})`).join(', ')}; ` +
        'a bug in these statuses cannot be caught (a 204 for a shipped order reads as a pending one): record from a known state with --from-scenario and --state-url',
    );
  return lines;
}

async function publish(argv: string[], environment: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes('--help')) {
    process.stdout.write(publishUsage);
    return 0;
  }
  let values;
  const broker = brokerFromEnvironment(environment);
  try {
    values = parseFlags(argv, { 'consumer-version': { type: 'string' }, branch: { type: 'string' } });
    if (broker === undefined) throw new UsageError('publish-pact needs PACT_BROKER_BASE_URL');
    if (!values['consumer-version']) throw new UsageError('publish-pact needs --consumer-version V');
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  const { publishPact } = await import('../verify/pact.js');
  try {
    const notices = await publishPact({
      broker,
      consumerVersion: values['consumer-version'],
      ...(values.branch !== undefined && { branch: values.branch }),
    });
    console.log(
      [`published the pact to ${broker.url} as version ${values['consumer-version']}`, ...notices].join('\n'),
    );
    return 0;
  } catch (error) {
    console.error(`petstore-verify: ${(error as Error).message}`);
    return (error as { cause?: unknown }).cause !== undefined ? 2 : 1;
  }
}

type RunFlags = Exclude<ReturnType<typeof parse>, 'help' | 'version'>;

/** What the suites asked for need, installed: else one line saying what to install, before anything runs. */
function requireNeededPackages(options: RunFlags): void {
  const needed: OptionalDependency[] = [];
  if (options.suites.includes('pact') && options['state-url'] !== undefined) needed.push('pact');
  if (!options['no-prism'] && options.suites.some((suite) => suite !== 'pact')) needed.push('prism');
  const hint = installHint(needed);
  if (hint !== undefined)
    throw new UsageError(`${options.suites.length > 1 ? 'this run' : `the ${options.suites[0]} suite`} ${hint}`);
}

/**
 * The scenarios `--scenario` names, else every contract scenario: scenarios that inject faults describe
 * the mock, not the contract (named with --scenario, they are reported as skipped).
 */
async function scenariosOf(options: RunFlags): Promise<Scenario[]> {
  const directory = options.scenarios ?? scenarioDirectory;
  return options.scenario
    ? await loadScenarios({ names: options.scenario, directory })
    : (await loadScenarios({ directory })).filter((scenario) => !injectsFaults(scenario));
}

async function main(): Promise<number | undefined> {
  if (process.argv[2] === 'proxy') return proxy(process.argv.slice(3));
  if (process.argv[2] === 'publish-pact') return publish(process.argv.slice(3), process.env);
  const exploreCommand = process.argv[2] === 'explore';
  let options;
  let scenarios: Scenario[];
  let baseline: Baseline | undefined;
  try {
    options = parse(process.argv.slice(exploreCommand ? 3 : 2), process.env, exploreCommand);
    if (options === 'help') {
      process.stdout.write(exploreCommand ? exploreUsage : usage);
      return 0;
    }
    if (options === 'version') {
      console.log(packageVersion());
      return 0;
    }
    requireNeededPackages(options);
    scenarios = await scenariosOf(options);
    await checkWritable(options);
    if (options.baseline !== undefined) baseline = await readBaseline(options.baseline);
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  const lineOptions = { verbose: options.verbose ?? false };
  // Said when the first exploration run is reported: a run the preflight stops explores nothing.
  let exploreAnnounced = false;
  const announceExplore = () => {
    if (exploreAnnounced) return;
    exploreAnnounced = true;
    const seed = options.exploration.seed ?? defaultExplorationSeed;
    console.log(`explore: ${options.exploration.runs} runs, seed ${seed} (the same seed replays them: --seed ${seed})`);
  };
  const report = await runVerification({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options['state-url'] !== undefined && { stateUrl: options['state-url'] }),
    suites: options.suites,
    scenarios,
    ...(options.broker !== undefined && { broker: options.broker }),
    ...(options.scenario !== undefined && { pactScenarios: options.scenario }),
    ...(baseline !== undefined && { baseline }),
    strict: options.strict ?? false,
    prism: !options['no-prism'],
    timeout: options.timeout,
    deadline: Date.now() + options.deadline,
    requireCoverage: options['require-coverage'] ?? false,
    version: packageVersion(),
    exploration: options.exploration,
    onExchange: (suite, caseName, exchange) =>
      console.log(suiteExchangeLines(suite, caseName, exchange, lineOptions).join('\n')),
    onRun: (result) => {
      announceExplore();
      const lines = runLines(result, lineOptions);
      if (lines.length > 0) console.log(lines.join('\n'));
    },
  });
  if (report.setupError !== undefined) console.error(`petstore-verify: ${report.setupError.message}`);
  else if (report.unreachable !== undefined) console.error(`petstore-verify: ${report.unreachable}`);
  console.log(summaryLines(report, lineOptions).join('\n'));
  await writeReports(report, options);
  await reportToGitHub(report, process.env);
  return report.exitCode;
}

/**
 * What this command line and environment give in confidence: the keys, tokens and passwords, and
 * every URL (its user information, password and query values).
 */
function confidencesOf(argv: readonly string[], environment: NodeJS.ProcessEnv): Confidences {
  return {
    secrets: [
      ...flagValues(argv, 'api-key'),
      environment.PETSTORE_API_KEY,
      environment.PACT_BROKER_TOKEN,
      environment.PACT_BROKER_PASSWORD,
    ],
    urls: [
      ...argv.filter((argument) => argument.includes('://')).map((argument) => argument.replace(/^--[a-z-]+=/, '')),
      environment.PETSTORE_BASE_URL,
      environment.PETSTORE_STAGING_BASE_URL,
      environment.PACT_BROKER_BASE_URL,
    ],
  };
}

// No secret the command was given in any line it prints; its report files are made from reports
// that are redacted already (runVerification's, the proxy's).
redactOutput(new Redaction(confidencesOf(process.argv.slice(2), process.env)));
// Whatever happens, one line and an exit code: never a stack trace (PETSTORE_VERIFY_DEBUG=1 prints it).
process.env.PACT_DO_NOT_TRACK ??= 'true';
try {
  const exitCode = await main();
  if (exitCode !== undefined) process.exitCode = exitCode;
} catch (error) {
  console.error(`petstore-verify: unexpected failure: ${(error as Error).message?.split('\n')[0] ?? String(error)}`);
  if (process.env.PETSTORE_VERIFY_DEBUG === '1') console.error(error);
  process.exitCode = 2;
}
