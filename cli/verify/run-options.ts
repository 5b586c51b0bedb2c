// The command line of a run and of explore: their help, their flags, and what they are read into.
import { existsSync, statSync } from 'node:fs';
import { defaultRequestTimeout } from '../../verify/http/observe.js';
import { ciBuild } from '../../verify/pact/ci-environment.js';
import type { ConsumerVersionSelector, PactBroker } from '../../verify/pact/pact-broker.js';
import type { SuiteName } from '../../verify/base/results.js';
import {
  brokerFromEnvironment,
  type BrokerSettings,
  httpUrlFlag,
  integerFlag,
  parseFlags,
  UsageError,
} from '../shared.js';

const exitCodes = `Exit 0 when every check passed; 1 on any violation; 2 when nothing could be judged:
the arguments are wrong, the preflight (before any suite) found the setup wrong (a base URL that
does not answer or does not end with /v1, a refused key, a state URL that refuses a setup), or no
check ran. The reason is printed, one line.`;

// Explore's own: it runs no suites, only its runs, each setting a state through --state-url.
const exploreExitCodes = `Exit 0 when every run passed; 1 on a difference (with --baseline,
a new one); 2 when nothing could be judged: the arguments are wrong, the setup is wrong before the
first run (a base URL that does not answer or does not end with /v1, a refused key, a state URL that
refuses a setup), or no run sent a call. The reason is printed, one line.`;

// The options of a run that say where the target is and how to reach it: the run's and explore's.
const targetOptions = `  --base-url URL        the implementation, ending with /v1
  --target NAME         production or staging: the base URL from $PETSTORE_BASE_URL or
                        $PETSTORE_STAGING_BASE_URL (instead of --base-url)
  --api-key KEY         an API key it accepts (default $PETSTORE_API_KEY)
  --state-url URL       where to POST Pact state-change requests (the kit's mock: /__mock/provider-state);
                        without it, what sets a provider state is skipped`;

/** The `--timeout` option's help line: the run's, explore's and publish-pact's. */
export const timeoutOption =
  '  --timeout S           seconds to wait for one whole answer, headers and body (default 10)';

// The options both the run and explore share after the target's: time limits, oracles and reports.
const reportOptions = `${timeoutOption}
  --deadline S          seconds the whole run may take; what is left then fails the run (default 600)
  --strict              count the kit's own decisions (advisory expectations) as violations
  --no-prism            do not check responses with Prism's validator too (saves ~0.5 s of start-up)
  --verbose             also print where Prism disagrees with Ajv for a known Prism limit (int64 beyond
                        2^53); without it they are only counted
  --junit FILE          write a JUnit XML report of every suite that ran
  --json FILE           write the whole report as JSON
  --html FILE           write a self-contained HTML page of the report, with the coverage matrix
  --write-baseline FILE write the violations of this run as a baseline of known failures (JSON);
                        exploration goes past every difference, as a run reading it does
  --baseline FILE       known failures (from --write-baseline): reported as known, failing nothing;
                        the run fails only on new violations, and says which known ones are fixed`;

// The options of a run with a Pact Broker ($PACT_BROKER_BASE_URL): which pacts, and what is published.
const brokerOptions = `  --pact-broker-consumer NAME  with $PACT_BROKER_BASE_URL: verify the pacts of this consumer the broker
                        holds (its main branch's, and what is deployed or released)
  --provider-name NAME  with $PACT_BROKER_BASE_URL: the provider whose pacts the broker gives
                        (default petstore-order-interface)
  --consumer-version-selector JSON  with $PACT_BROKER_BASE_URL: which consumer versions' pacts, a
                        selector of the broker's API such as '{"branch":"main"}' (repeatable; default
                        {"mainBranch":true} and {"deployedOrReleased":true})
  --enable-pending      with $PACT_BROKER_BASE_URL: a pending pact that fails is reported, named, and
                        fails nothing (Pact's pending pacts)
  --include-wip-pacts-since DATE  with $PACT_BROKER_BASE_URL: also verify the work-in-progress pacts
                        published since DATE (2026-01-01), as pending
  --provider-version V  with $PACT_BROKER_BASE_URL: publish the pact verification results as version V
                        (with the build's URL from the CI's environment, as publish-pact reads it)
  --provider-branch B   with $PACT_BROKER_BASE_URL: the provider version's branch
                        A broker that cannot be reached within --timeout, refuses, or answers no Pact
                        Broker's HAL stops the run with exit 2 and one line naming the URL; a
                        publication it refuses is an error of the run. No wait on the broker passes
                        --deadline: the pacts it served are judged, each one it did not is named
                        (exit 2, never a violation of the provider's).`;

export const usage = `Usage: petstore-verify [options]
       petstore-verify explore [options]                 (petstore-verify explore --help)
       petstore-verify proxy --upstream URL [options]    (petstore-verify proxy --help)
       petstore-verify har FILE [options]                (petstore-verify har --help)
       petstore-verify compat OLD NEW [options]          (petstore-verify compat --help)
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
  --pact FILE           verify this pact file instead of the shipped pact: a consumer's own, such as
                        mock.pact() writes (repeatable; the default suite is then pact alone); checked
                        whole before any call: one that cannot be used (not JSON, an unknown Pact
                        version, a wrong shape) is a wrong argument, exit 2 with one line
${brokerOptions}
  --require-coverage    fail the run when a documented response (operation and status) of either major
                        was not exercised, v2's included when v2 was not verified (not those
                        --leave-out-beta leaves out)
  --leave-out-beta      leave out the operations the document marks beta or experimental (x-stability):
                        none is judged, and each is named as left out (by default they are judged,
                        and their failures fail the run, counted apart)
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

export const exploreUsage = `Usage: petstore-verify explore [options]

Explores: generates provider states and sequences of calls, sends each to the implementation and to
the kit's mock seeded with the same state, and compares every answer; a difference is shrunk to the
smallest state and sequence that still differ. A difference a --baseline knows ends its run, set
apart, and the other runs go on: every run is made. With --write-baseline, every difference is set
apart so (none shrunk): the same seed reads the baseline back green. ${exploreExitCodes}

Options:
${targetOptions}
  --runs N              how many generated runs (default 100)
  --seed N              the seed that replays the runs exactly (default 20261123; random: a new one)
  --max-steps N         the most commands in one run (default 12)
  --save DIR            write the shrunk failure as a scenario file in DIR
${reportOptions}
  --help                print this help
  --version             print the version
`;

/**
 * A flag in seconds, above 0 and at most `maximum`, in milliseconds.
 * @throws UsageError `--name must be a number of seconds above 0 and at most maximum, got "value"`.
 * @example
 * secondsFlag('2.5', 'timeout', 600) // 2500
 */
export function secondsFlag(value: string, name: string, maximum: number): number {
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
  pact: { type: 'string', multiple: true },
  suite: { type: 'string' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'provider-version': { type: 'string' },
  'provider-branch': { type: 'string' },
  'pact-broker-consumer': { type: 'string' },
  'provider-name': { type: 'string' },
  'consumer-version-selector': { type: 'string', multiple: true },
  'enable-pending': { type: 'boolean' },
  'include-wip-pacts-since': { type: 'string' },
  strict: { type: 'boolean' },
  verbose: { type: 'boolean' },
  'no-prism': { type: 'boolean' },
  'require-coverage': { type: 'boolean' },
  'leave-out-beta': { type: 'boolean' },
  junit: { type: 'string' },
  json: { type: 'string' },
  html: { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

/** The command line of a run as read, before any flag is checked. */
export type VerifyFlags = ReturnType<typeof parseFlags<typeof verifyFlags>>;

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
  'pact',
  'provider-version',
  'provider-branch',
  'pact-broker-consumer',
  'provider-name',
  'consumer-version-selector',
  'enable-pending',
  'include-wip-pacts-since',
  'require-coverage',
  'leave-out-beta',
] as const;

/** The `--suite` asked for (`explore` for the explore command) and the suites it runs. */
function suitesOf(
  values: VerifyFlags,
  explore: boolean,
  warn: (line: string) => void,
): { suite: string; suites: SuiteName[] } {
  // Scenarios named or given as a folder are run alone, and so are pact files, unless --suite asks for more.
  const chosen = values.scenario !== undefined || values.scenarios !== undefined;
  // Pact files, or a broker's flag saying which pacts: the pact suite alone, unless --suite asks for more.
  const pacts =
    values.pact !== undefined ||
    brokerFlags.some((name) => !name.startsWith('provider-') && values[name] !== undefined) ||
    values['provider-name'] !== undefined;
  let suite = explore ? 'explore' : (values.suite ?? (pacts ? 'pact' : chosen ? 'scenarios' : 'all'));
  if (suite === 'ajv') {
    // The suite's name before it was one word everywhere: still taken, and said once.
    warn('petstore-verify: --suite ajv is now --suite scenarios, its name in every report');
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

// The flags that need a Pact Broker: refused, naming the first, without one, or beside --pact files.
const brokerFlags = [
  'provider-version',
  'provider-branch',
  'pact-broker-consumer',
  'provider-name',
  'consumer-version-selector',
  'enable-pending',
  'include-wip-pacts-since',
] as const;

/** The Pact Broker of the environment, when one is set; the broker's flags refused without one. */
function brokerOf(values: VerifyFlags, environment: NodeJS.ProcessEnv): BrokerSettings | undefined {
  const broker = brokerFromEnvironment(environment);
  if ((values['provider-version'] ?? values['provider-branch']) !== undefined && broker === undefined) {
    throw new UsageError('--provider-version and --provider-branch publish to a Pact Broker: set PACT_BROKER_BASE_URL');
  }
  const given = brokerFlags.find((name) => values[name] !== undefined);
  if (given !== undefined && broker === undefined)
    throw new UsageError(`--${given} is about the pacts of a Pact Broker: set PACT_BROKER_BASE_URL`);
  if (given !== undefined && values.pact !== undefined)
    throw new UsageError(`give --pact FILE or --${given}, not both: --pact files are verified without the broker`);
  return broker;
}

/**
 * A `--consumer-version-selector`: a JSON object of the broker's selector fields (strings and booleans).
 * @throws UsageError naming the flag and the value.
 */
function selectorFlag(value: string): ConsumerVersionSelector {
  let selector: unknown;
  try {
    selector = JSON.parse(value);
  } catch {
    selector = undefined;
  }
  const fields = typeof selector === 'object' && selector !== null && !Array.isArray(selector) ? selector : undefined;
  if (
    fields === undefined ||
    Object.keys(fields).length === 0 ||
    !Object.values(fields).every((field) => typeof field === 'string' || typeof field === 'boolean')
  )
    throw new UsageError(
      `--consumer-version-selector must be a JSON object of strings and booleans, such as '{"branch":"main"}', got ${JSON.stringify(value)}`,
    );
  return fields as ConsumerVersionSelector;
}

/** `--include-wip-pacts-since DATE`: a date (2026-01-01) or a date-time with its offset. */
function wipDateFlag(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(value) || Number.isNaN(Date.parse(value)))
    throw new UsageError(`--include-wip-pacts-since must be a date such as 2026-01-01, got ${JSON.stringify(value)}`);
  return value;
}

/** The broker's settings from the flags (and the build's URL from the CI's environment). */
function withBrokerFlags(
  broker: BrokerSettings | undefined,
  values: VerifyFlags,
  environment: NodeJS.ProcessEnv,
): PactBroker | undefined {
  if (broker === undefined) return undefined;
  const buildUrl = ciBuild(environment).buildUrl?.value;
  const selectors = values['consumer-version-selector'];
  return {
    ...broker,
    ...(values['provider-version'] !== undefined && { providerVersion: values['provider-version'] }),
    ...(values['provider-branch'] !== undefined && { providerBranch: values['provider-branch'] }),
    ...(values['pact-broker-consumer'] !== undefined && { consumer: values['pact-broker-consumer'] }),
    ...(values['provider-name'] !== undefined && { provider: values['provider-name'] }),
    ...(selectors !== undefined && { consumerVersionSelectors: selectors.map(selectorFlag) }),
    ...(values['enable-pending'] === true && { enablePending: true }),
    ...(values['include-wip-pacts-since'] !== undefined && {
      includeWipPactsSince: wipDateFlag(values['include-wip-pacts-since']),
    }),
    ...(buildUrl !== undefined && { buildUrl }),
  };
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

/**
 * A run's command line, read and checked; `warn` prints a line about a flag that is still taken but
 * has a new name (to stderr unless given).
 * @throws UsageError saying what cannot be run as given.
 * @example
 * parse(['--help'], process.env) // 'help'
 */
export function parse(
  argv: string[],
  environment: NodeJS.ProcessEnv,
  explore = false,
  warn: (line: string) => void = (line) => console.error(line),
) {
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
  for (const file of values.pact ?? [])
    if (!existsSync(file) || !statSync(file).isFile())
      throw new UsageError(
        `--pact ${JSON.stringify(file)} is not a file: give the path of a pact file, such as mock.pact() writes`,
      );
  const { suite, suites } = suitesOf(values, explore, warn);
  // The run that writes a baseline explores as the run reading it will: past every difference, none shrunk.
  if (values.save !== undefined && values['write-baseline'] !== undefined)
    throw new UsageError(
      '--save has nothing to save with --write-baseline: a run that writes a baseline explores past every difference and shrinks none (save from a run that reads the baseline)',
    );
  const seed = seedOf(values.seed);
  const broker = brokerOf(values, environment);
  return {
    ...values,
    baseUrl,
    apiKey,
    suites,
    broker: withBrokerFlags(broker, values, environment),
    timeout: values.timeout === undefined ? defaultRequestTimeout : secondsFlag(values.timeout, 'timeout', 600),
    deadline: values.deadline === undefined ? 600_000 : secondsFlag(values.deadline, 'deadline', 86_400),
    exploration: explorationOf(values, suite, seed),
  };
}

/** A run's command line, read: what `parse` gives when it asks for no help or version. */
export type RunFlags = Exclude<ReturnType<typeof parse>, 'help' | 'version'>;
