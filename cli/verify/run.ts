// petstore-verify and petstore-verify explore: a run of the suites, its console lines and its reports.
import { constants } from 'node:fs';
import { access, appendFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { loadScenarios, scenarioDirectory } from '../../core/scenario-files.js';
import { injectsFaults, type Scenario } from '../../core/scenario.js';
import { baselineText, readBaseline, type Baseline } from '../../verify/baseline.js';
import { defaultExplorationSeed } from '../../verify/explore/explore.js';
import { githubAnnotations, githubSummary } from '../../verify/github.js';
import { installHint, type OptionalDependency } from '../../verify/optional-dependencies.js';
import { exchangeLines, runLines, summaryLines, type LineOptions } from '../../verify/report/console.js';
import { toHtml } from '../../verify/report/html.js';
import { toJson } from '../../verify/report/json.js';
import { toJunit } from '../../verify/report/junit.js';
import type { RunReport } from '../../verify/report/run-report.js';
import { runVerification, type VerificationOptions } from '../../verify/verification.js';
import { packageVersion, usageFailure, UsageError } from '../shared.js';
import { exploreUsage, parse, usage, type RunFlags } from './run-options.js';

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
  };
}

/** The progress lines, printed as each exchange and each exploration run is judged. */
function progressPrinter(
  options: RunFlags,
  lineOptions: LineOptions,
): Pick<VerificationOptions, 'onExchange' | 'onRun'> {
  // Said when the first exploration run is reported: a run the preflight stops explores nothing.
  let exploreAnnounced = false;
  const announceExplore = () => {
    if (exploreAnnounced) return;
    exploreAnnounced = true;
    const seed = options.exploration.seed ?? defaultExplorationSeed;
    console.log(`explore: ${options.exploration.runs} runs, seed ${seed} (the same seed replays them: --seed ${seed})`);
  };
  return {
    onExchange: (suite, caseName, exchange) =>
      console.log(exchangeLines(suite, caseName, exchange, lineOptions).join('\n')),
    onRun: (result) => {
      announceExplore();
      const lines = runLines(result, lineOptions);
      if (lines.length > 0) console.log(lines.join('\n'));
    },
  };
}

/**
 * petstore-verify (the suites) or petstore-verify explore: reads the command line, runs, prints and
 * writes the reports; resolves with the exit code.
 */
export async function runCommand(argv: string[], exploreCommand: boolean): Promise<number> {
  let options;
  let scenarios: Scenario[];
  let baseline: Baseline | undefined;
  try {
    options = parse(argv, process.env, exploreCommand);
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
  const report = await runVerification({
    ...verificationOf(options, scenarios, baseline),
    ...progressPrinter(options, lineOptions),
  });
  if (report.setupError !== undefined) console.error(`petstore-verify: ${report.setupError.message}`);
  else if (report.unreachable !== undefined) console.error(`petstore-verify: ${report.unreachable}`);
  console.log(summaryLines(report, lineOptions).join('\n'));
  await writeReports(report, options);
  await reportToGitHub(report, process.env);
  return report.exitCode;
}
