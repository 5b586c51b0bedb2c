// petstore-verify publish-pact: publishes the shipped pact, or a consumer's own, to a Pact Broker.
import { printable } from '../../core/printable.js';
import { existsSync, statSync } from 'node:fs';
import { ciBuild, type CiValue } from '../../verify/pact/ci-environment.js';
import { defaultRequestTimeout } from '../../verify/http/observe.js';
import { brokerFromEnvironment, type BrokerSettings, parseFlags, usageFailure, UsageError } from '../shared.js';
import { secondsFlag, timeoutOption } from './run-options.js';
import { type CommandOutput, processOutput } from './run.js';

const publishUsage = `Usage: petstore-verify publish-pact [--consumer-version V] [--branch B] [--tag T] [--build-url URL] [--pact FILE]

Publishes the pact the package ships, or the pact file given, to the Pact Broker at
$PACT_BROKER_BASE_URL (with $PACT_BROKER_TOKEN, or $PACT_BROKER_USERNAME and $PACT_BROKER_PASSWORD),
as consumer version V. What is not given is read from the CI's environment, and the line printed
says which variable it came from: GitHub Actions' $GITHUB_SHA, $GITHUB_HEAD_REF (a pull request) or
$GITHUB_REF_NAME, and the run's page from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY and $GITHUB_RUN_ID;
GitLab CI's $CI_COMMIT_SHA, $CI_COMMIT_REF_NAME and $CI_JOB_URL. Exit 0 when the broker took it; 1
when it refused (its status and answer, one line); 2 on wrong arguments, or a broker that cannot be
reached within the timeout or does not answer as a Pact Broker (one line naming the URL).

Options:
  --consumer-version V  the consumer's version to publish the pact as (default: the CI's commit)
  --branch B            the consumer version's branch (default: the CI's branch)
  --tag T               a tag of the consumer version (repeatable; the broker prefers branches)
  --build-url URL       the CI build that published it (default: the CI's build page)
  --pact FILE           publish this pact file (a consumer's own, such as mock.pact() writes), as the
                        consumer and for the provider it names
${timeoutOption}
  --help                print this help
`;

/** What to publish, read from the flags and, where not given, from the CI's environment. */
interface PublishArguments {
  broker: BrokerSettings;
  consumerVersion: CiValue;
  branch: CiValue | undefined;
  tags: string[];
  buildUrl: CiValue | undefined;
  pact: string | undefined;
  timeout: number;
}

/** A flag's value, else the CI's, with where it came from. */
function flagOrCi(value: string | undefined, flag: string, ci: CiValue | undefined): CiValue | undefined {
  return value !== undefined ? { value, source: `--${flag}` } : ci;
}

function publishArguments(argv: string[], environment: NodeJS.ProcessEnv): PublishArguments {
  const values = parseFlags(argv, {
    'consumer-version': { type: 'string' },
    branch: { type: 'string' },
    tag: { type: 'string', multiple: true },
    'build-url': { type: 'string' },
    pact: { type: 'string' },
    timeout: { type: 'string' },
  });
  const broker = brokerFromEnvironment(environment);
  if (broker === undefined) throw new UsageError('publish-pact needs PACT_BROKER_BASE_URL');
  const ci = ciBuild(environment);
  const consumerVersion = flagOrCi(values['consumer-version'], 'consumer-version', ci.version);
  if (!consumerVersion?.value)
    throw new UsageError('publish-pact needs --consumer-version V (or a CI commit: $GITHUB_SHA, $CI_COMMIT_SHA)');
  if (values.pact !== undefined && (!existsSync(values.pact) || !statSync(values.pact).isFile()))
    throw new UsageError(`--pact ${JSON.stringify(values.pact)} is not a file: give the path of a pact file`);
  if ((values.tag ?? []).some((tag) => tag.trim() === '')) throw new UsageError('--tag must not be empty');
  return {
    broker,
    consumerVersion,
    branch: flagOrCi(values.branch, 'branch', ci.branch),
    tags: values.tag ?? [],
    buildUrl: flagOrCi(values['build-url'], 'build-url', ci.buildUrl),
    pact: values.pact,
    timeout: values.timeout === undefined ? defaultRequestTimeout : secondsFlag(values.timeout, 'timeout', 600),
  };
}

/** `version abc123 (GITHUB_SHA), branch main (GITHUB_REF_NAME), …`: what was published, and where each came from. */
function publishedLine(published: PublishArguments): string {
  const said = (label: string, value: CiValue) =>
    `${label} ${value.value}${value.source.startsWith('--') ? '' : ` (from ${value.source})`}`;
  const parts = [
    said('version', published.consumerVersion),
    ...(published.branch === undefined ? [] : [said('branch', published.branch)]),
    ...(published.tags.length === 0 ? [] : [`tags ${published.tags.join(', ')}`]),
    ...(published.buildUrl === undefined ? [] : [said('build URL', published.buildUrl)]),
  ];
  return `published the pact to ${published.broker.url} as ${parts.join(', ')}`;
}

/** The exit code of a publication that failed: 1 when the broker refused it, 2 when nothing could be judged. */
function failureExit(error: unknown): 1 | 2 {
  return (error as { code?: unknown }).code === 'broker_refused' ? 1 : 2;
}

/**
 * petstore-verify publish-pact: reads the command line and `environment`, publishes, prints one line
 * (to `output`, the process's own unless given); resolves with the exit code.
 */
export async function publishCommand(
  argv: string[],
  environment: NodeJS.ProcessEnv,
  output: CommandOutput = processOutput,
): Promise<number> {
  if (argv.includes('--help')) {
    output.stdout(publishUsage);
    return 0;
  }
  let published: PublishArguments;
  try {
    published = publishArguments(argv, environment);
  } catch (error) {
    return usageFailure('petstore-verify', error, (line) => output.stderr(`${line}\n`));
  }
  const { publishPact } = await import('../../verify/pact/pact-broker.js');
  try {
    const notices = await publishPact({
      broker: published.broker,
      consumerVersion: published.consumerVersion.value,
      ...(published.branch !== undefined && { branch: published.branch.value }),
      tags: published.tags,
      ...(published.buildUrl !== undefined && { buildUrl: published.buildUrl.value }),
      ...(published.pact !== undefined && { pactFile: published.pact }),
      timeout: published.timeout,
    });
    // The broker's notices are its own words: printed so that none acts in a terminal or a CI log.
    output.stdout(`${[publishedLine(published), ...notices].map((line) => printable(line)).join('\n')}\n`);
    return 0;
  } catch (error) {
    output.stderr(`petstore-verify: ${printable((error as Error).message.split('\n')[0] ?? '')}\n`);
    return failureExit(error);
  }
}
