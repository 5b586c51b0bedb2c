// petstore-verify and petstore-verify explore: a run of the suites, its console lines and its reports.
import { constants } from 'node:fs';
import { access, appendFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { printable } from '../../core/printable.js';
import { loadScenarios, scenarioDirectory } from '../../core/scenario-files.js';
import { injectsFaults, type Scenario } from '../../core/scenario.js';
import { baselineText, readBaseline, type Baseline } from '../../verify/run/baseline.js';
import { defaultExplorationSeed, explorationSettings, type ExplorationSettings } from '../../verify/explore/explore.js';
import { githubAnnotations, githubSummary } from '../../verify/report/github.js';
import { checkPactFiles } from '../../verify/pact/pact-document.js';
import { installHint, type OptionalDependency } from '../../verify/base/optional-dependencies.js';
import { exchangeLines, runLines, summaryLines, type LineOptions } from '../../verify/report/console.js';
import { toHtml } from '../../verify/report/html.js';
import { toJson } from '../../verify/report/json.js';
import { toJunit } from '../../verify/report/junit.js';
import { unstableMarkers, type RunReport } from '../../verify/run/run-report.js';
import { checkScenarioFolder } from '../../verify/scenario/save-scenario-file.js';
import { runVerification, type VerificationOptions } from '../../verify/run/verification.js';
import { packageVersion, usageFailure, UsageError } from '../shared.js';
import { exploreUsage, parse, usage, type RunFlags } from './run-options.js';

/**
 * Where the command prints: the process's stdout and stderr, or (a test running the command in
 * process) anything that collects the text. Each call is whole lines, the newline included.
 */
export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * The process's own stdout and stderr, where the commands print unless given another output.
 * @example
 * processOutput.stdout('a line\n');
 */
export const processOutput: CommandOutput = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

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
export async function checkWritable(files: OutputFiles): Promise<void> {
  for (const [flag, file] of Object.entries(files)) {
    if (typeof file !== 'string' || !['junit', 'json', 'html', 'write-baseline'].includes(flag)) continue;
    if (file === '') throw new UsageError(`--${flag} needs a file name, got ""`);
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
async function reportToGitHub(report: RunReport, environment: NodeJS.ProcessEnv, output: CommandOutput): Promise<void> {
  if (environment.GITHUB_ACTIONS !== 'true') return;
  const annotations = githubAnnotations(report);
  if (annotations.length > 0) output.stdout(`${annotations.join('\n')}\n`);
  const summaryFile = environment.GITHUB_STEP_SUMMARY;
  if (!summaryFile) return;
  try {
    await appendFile(summaryFile, githubSummary(report));
  } catch (error) {
    output.stderr(
      `petstore-verify: cannot append the step summary to ${summaryFile}: ${(error as NodeJS.ErrnoException).code ?? error}\n`,
    );
  }
}

async function writeReports(
  report: RunReport,
  files: OutputFiles & { explored: ExplorationSettings },
  output: CommandOutput,
): Promise<void> {
  const { explored } = files;
  // A run that could not check everything (exit 2) would write a baseline that forgets what it did not see.
  if (files['write-baseline'] !== undefined) {
    if (report.exitCode === 2)
      output.stderr(
        `petstore-verify: --write-baseline ${files['write-baseline']} not written: the run did not finish\n`,
      );
    else await writeFile(files['write-baseline'], baselineText(report.suites, { explored }));
  }
  if (files.junit !== undefined) await writeFile(files.junit, toJunit(report));
  if (files.json !== undefined) await writeFile(files.json, toJson(report));
  if (files.html !== undefined) await writeFile(files.html, toHtml(report));
}

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

/** What runVerification needs from the command line: the target, the suites and their settings. */
function verificationOf(options: RunFlags, scenarios: Scenario[], baseline: Baseline | undefined) {
  return {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options['state-url'] !== undefined && { stateUrl: options['state-url'] }),
    suites: options.suites,
    scenarios,
    // Pact files given are what the pact suite verifies: a broker in the environment is not asked for pacts then.
    ...(options.pact !== undefined
      ? { pactFiles: options.pact }
      : options.broker !== undefined && { broker: options.broker }),
    ...(options.scenario !== undefined && { pactScenarios: options.scenario }),
    ...(baseline !== undefined && { baseline }),
    writesBaseline: options['write-baseline'] !== undefined,
    strict: options.strict ?? false,
    prism: !options['no-prism'],
    timeout: options.timeout,
    deadline: Date.now() + options.deadline,
    requireCoverage: options['require-coverage'] ?? false,
    ...(options['leave-out-beta'] === true && { leaveOut: unstableMarkers }),
    version: packageVersion(),
    exploration: options.exploration,
  };
}

// Each line as printed: what the provider sent, quoted in a finding, neither acts nor starts a line of its own.
const printableLines = (lines: readonly string[]) => lines.map((line) => printable(line)).join('\n');

/** The progress lines, printed as each exchange and each exploration run is judged. */
function progressPrinter(
  options: RunFlags,
  lineOptions: LineOptions,
  output: CommandOutput,
): Pick<VerificationOptions, 'onExchange' | 'onRun'> {
  // Said when the first exploration run is reported: a run the preflight stops explores nothing.
  let exploreAnnounced = false;
  const announceExplore = () => {
    if (exploreAnnounced) return;
    exploreAnnounced = true;
    const seed = options.exploration.seed ?? defaultExplorationSeed;
    output.stdout(
      `explore: ${options.exploration.runs} runs, seed ${seed} (the same seed replays them: --seed ${seed})\n`,
    );
  };
  return {
    onExchange: (suite, caseName, exchange) =>
      output.stdout(`${printableLines(exchangeLines(suite, caseName, exchange, lineOptions))}\n`),
    onRun: (result) => {
      announceExplore();
      const lines = runLines(result, lineOptions);
      if (lines.length > 0) output.stdout(`${printableLines(lines)}\n`);
    },
  };
}

/**
 * petstore-verify (the suites) or petstore-verify explore: reads the command line, runs, prints and
 * writes the reports; resolves with the exit code. It prints to `output` and reads `environment`
 * (the process's own unless given).
 */
export async function runCommand(
  argv: string[],
  exploreCommand: boolean,
  output: CommandOutput = processOutput,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let options;
  let scenarios: Scenario[];
  let baseline: Baseline | undefined;
  try {
    options = parse(argv, environment, exploreCommand, (line) => output.stderr(`${line}\n`));
    if (options === 'help') {
      output.stdout(exploreCommand ? exploreUsage : usage);
      return 0;
    }
    if (options === 'version') {
      output.stdout(`${packageVersion()}\n`);
      return 0;
    }
    requireNeededPackages(options);
    scenarios = await scenariosOf(options);
    await checkWritable(options);
    // A --save DIR that cannot take the scenario is the command line's error, said before any call.
    if (options.exploration.save !== undefined) await checkScenarioFolder(options.exploration.save);
    if (options.baseline !== undefined) baseline = await readBaseline(options.baseline);
    // A consumer's pact that cannot be used is the input's error, said before any call to the provider.
    if (options.pact !== undefined) await checkPactFiles(options.pact);
  } catch (error) {
    return usageFailure('petstore-verify', error, (line) => output.stderr(`${line}\n`));
  }
  const lineOptions = { verbose: options.verbose ?? false };
  const report = await runVerification({
    ...verificationOf(options, scenarios, baseline),
    ...progressPrinter(options, lineOptions, output),
  });
  if (report.setupError !== undefined) output.stderr(`petstore-verify: ${printable(report.setupError.message)}\n`);
  else if (report.unreachable !== undefined) output.stderr(`petstore-verify: ${printable(report.unreachable)}\n`);
  output.stdout(`${printableLines(summaryLines(report, lineOptions))}\n`);
  await writeReports(report, { ...options, explored: explorationSettings(options.exploration) }, output);
  await reportToGitHub(report, environment, output);
  return report.exitCode;
}
