#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { stringifyJson } from '../spec/json.js';
import { injectsFaults, loadScenarios, type Scenario } from '../spec/scenarios.js';
import { createValidatingProxy, type ProxyExchange } from '../verify/proxy.js';
import { disagreementLine, findingText, stepLines, summaryLines, toJunit } from '../verify/report.js';
import { TargetUnreachable, verify } from '../verify/run.js';
import { brokerFromEnvironment, listenOrExit, packageVersion, parseFlags, portFlag, stopOnSignals, usageFailure, UsageError } from './shared.js';

const usage = `Usage: petstore-verify [options]
       petstore-verify proxy --upstream URL [--port N] [--host HOST] [--no-prism] [--json FILE] [--quiet]
       petstore-verify publish-pact --consumer-version V [--branch B]

Checks an implementation of the pet store order interface against the specification, scenario by
scenario. Exit 0 when it conforms, 1 on any violation, 2 when it cannot be reached or the arguments
are wrong.

Options:
  --base-url URL        the implementation, ending with /v1
  --target NAME         production or staging: the base URL from $PETSTORE_BASE_URL or
                        $PETSTORE_STAGING_BASE_URL (instead of --base-url)
  --api-key KEY         an API key it accepts (default $PETSTORE_API_KEY)
  --state-url URL       where to POST Pact state-change requests (the kit's mock: /__mock/provider-state);
                        without it, the scenarios that set a provider state are skipped
  --suite NAME          ajv (the scenarios, checked with Ajv and Prism), pact (the shipped pact,
                        with Pact's Verifier; needs --state-url) or all (default: both; pact is
                        skipped, with a line saying so, when there is no --state-url)
  --scenario NAME       run this scenario (repeatable; default: all of them; ajv suite only)
  --provider-version V  with $PACT_BROKER_BASE_URL: publish the pact verification results as version V
  --provider-branch B   with $PACT_BROKER_BASE_URL: the provider version's branch
  --strict              count the kit's own decisions (advisory expectations) as violations
  --no-prism            do not check responses with Prism's validator too (saves ~0.5 s of start-up)
  --junit FILE          write a JUnit XML report
  --json FILE           write a JSON report
  --help                print this help
  --version             print the version

Proxy: petstore-verify proxy forwards every request unchanged to --upstream (requests under /v1 to
the upstream base URL, others to its origin), returns every response unaltered, and checks each
response with the same Ajv checks and Prism. It prints a line per exchange (violations below it),
serves what it saw as JSON at GET /__verify/report, and on SIGINT or SIGTERM prints a summary,
writes --json, and exits 1 if it saw a violation, else 0.
  --upstream URL        the implementation, ending with /v1
  --port N              the port to listen on (default 4020, 0 for any free port)
  --host HOST           the address to listen on (default 127.0.0.1)
  --quiet               print only the exchanges with a violation

Publish: petstore-verify publish-pact publishes the shipped pact to $PACT_BROKER_BASE_URL
($PACT_BROKER_TOKEN, or $PACT_BROKER_USERNAME and $PACT_BROKER_PASSWORD).
  --consumer-version V  the consumer version to publish the pact as
  --branch B            the consumer version's branch
`;

function parse(argv: string[], environment: NodeJS.ProcessEnv) {
  const values = parseFlags(argv, {
    'base-url': { type: 'string' },
    target: { type: 'string' },
    'api-key': { type: 'string' },
    'state-url': { type: 'string' },
    scenario: { type: 'string', multiple: true },
    suite: { type: 'string' },
    'provider-version': { type: 'string' },
    'provider-branch': { type: 'string' },
    strict: { type: 'boolean' },
    'no-prism': { type: 'boolean' },
    junit: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean' },
    version: { type: 'boolean' },
  });
  if (values.help) return 'help' as const;
  if (values.version) return 'version' as const;
  let baseUrl = values['base-url'];
  if (values.target !== undefined) {
    if (baseUrl !== undefined) throw new UsageError('give --base-url or --target, not both');
    const variable = { production: 'PETSTORE_BASE_URL', staging: 'PETSTORE_STAGING_BASE_URL' }[values.target];
    if (variable === undefined) throw new UsageError(`--target must be production or staging, got ${JSON.stringify(values.target)}`);
    baseUrl = environment[variable];
    if (!baseUrl) throw new UsageError(`--target ${values.target} reads ${variable}, which is not set`);
  }
  if (baseUrl === undefined) throw new UsageError('--base-url (or --target) is required');
  const apiKey = values['api-key'] ?? environment.PETSTORE_API_KEY;
  if (!apiKey) throw new UsageError('--api-key (or PETSTORE_API_KEY) is required');
  for (const [name, url] of [['base-url', baseUrl], ['state-url', values['state-url']]] as const) {
    if (url !== undefined && !URL.canParse(url)) throw new UsageError(`--${name} is not a URL: ${JSON.stringify(url)}`);
  }
  const suite = values.suite ?? 'all';
  if (!['ajv', 'pact', 'all'].includes(suite)) throw new UsageError(`--suite must be ajv, pact or all, got ${JSON.stringify(suite)}`);
  if (suite === 'pact' && values['state-url'] === undefined) throw new UsageError('--suite pact needs --state-url: every interaction of the pact sets a provider state');
  if ((values['provider-version'] ?? values['provider-branch']) !== undefined && brokerFromEnvironment(environment) === undefined) {
    throw new UsageError('--provider-version and --provider-branch publish to a Pact Broker: set PACT_BROKER_BASE_URL');
  }
  return { ...values, baseUrl, apiKey, suite: suite as 'ajv' | 'pact' | 'all' };
}

/** Runs the pact suite; Pact prints its own report. Resolves with whether every interaction passed. */
async function runPact(options: { baseUrl: string; apiKey: string; stateUrl: string; providerVersion?: string; providerBranch?: string }, environment: NodeJS.ProcessEnv): Promise<boolean> {
  const { verifyPact, pactProviderBaseUrl } = await import('../verify/pact.js');
  pactProviderBaseUrl(options.baseUrl); // refuses a base URL without /v1 before Pact starts
  const broker = brokerFromEnvironment(environment);
  const started = performance.now();
  console.log(broker ? `pact: verifying the pacts of ${broker.url}` : 'pact: verifying the shipped pact (contracts/pacts/)');
  try {
    await verifyPact({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      stateUrl: options.stateUrl,
      ...(broker && {
        broker: {
          ...broker,
          ...(options.providerVersion !== undefined && { providerVersion: options.providerVersion }),
          ...(options.providerBranch !== undefined && { providerBranch: options.providerBranch }),
        },
      }),
    });
    console.log(`pact: every interaction passed (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (error) {
    console.log(`pact: verification failed: ${(error as Error).message.split('\n')[0]} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return false;
  }
}

function exchangeLines(exchange: ProxyExchange, quiet: boolean): string[] {
  if (quiet && exchange.violations.length === 0) return [];
  const mark = exchange.unchecked !== undefined ? '-' : exchange.violations.length > 0 ? '✗' : '✓';
  const subject = `${exchange.method} ${exchange.operationPath ?? exchange.path} → ${exchange.status}`;
  return [
    `${mark} ${exchange.method} ${exchange.path} → ${exchange.status} (${exchange.durationMs.toFixed(0)} ms${exchange.unchecked !== undefined ? `; not checked: ${exchange.unchecked}` : ''})`,
    ...exchange.violations.map((finding) => `    ${subject}: ${findingText(finding)}`),
    ...exchange.disagreements.map((disagreement) => `    note: ${subject}: ${disagreementLine(disagreement)}`),
  ];
}

function parseProxy(argv: string[]) {
  const values = parseFlags(argv, {
    upstream: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'no-prism': { type: 'boolean' },
    json: { type: 'string' },
    quiet: { type: 'boolean' },
  });
  if (values.upstream === undefined) throw new UsageError('proxy needs --upstream URL');
  if (!URL.canParse(values.upstream) || !/^https?:$/.test(new URL(values.upstream).protocol)) throw new UsageError(`--upstream is not an http(s) URL: ${JSON.stringify(values.upstream)}`);
  return { ...values, upstream: values.upstream, port: portFlag(values.port ?? '4020'), host: values.host ?? '127.0.0.1' };
}

async function proxy(argv: string[]): Promise<number | undefined> {
  let options;
  try {
    options = parseProxy(argv);
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  const quiet = options.quiet ?? false;
  const server = createValidatingProxy({
    upstream: options.upstream,
    prism: !options['no-prism'],
    onExchange: (exchange) => {
      const lines = exchangeLines(exchange, quiet);
      if (lines.length > 0) console.log(lines.join('\n'));
    },
  });
  stopOnSignals(async () => {
    await server.close();
    const report = server.report();
    console.log(`${report.exchanges} exchanges, ${report.checked} checked, ${report.violations} violations, ${report.disagreements} disagreements between Ajv and Prism`);
    if (options.json !== undefined) await writeFile(options.json, stringifyJson(report) + '\n');
    return report.violations > 0 ? 1 : 0;
  });
  const origin = await listenOrExit('petstore-verify', server, options.port, options.host);
  console.log(`petstore-verify proxy listening on ${origin}/v1, forwarding to ${options.upstream}; report at ${origin}${'/__verify/report'}`);
  return undefined;
}

async function publish(argv: string[], environment: NodeJS.ProcessEnv): Promise<number> {
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
    const notices = await publishPact({ broker, consumerVersion: values['consumer-version'], ...(values.branch !== undefined && { branch: values.branch }) });
    console.log([`published the pact to ${broker.url} as version ${values['consumer-version']}`, ...notices].join('\n'));
    return 0;
  } catch (error) {
    console.error(`petstore-verify: ${(error as Error).message}`);
    return (error as { cause?: unknown }).cause !== undefined ? 2 : 1;
  }
}

async function main(): Promise<number | undefined> {
  if (process.argv[2] === 'proxy') return proxy(process.argv.slice(3));
  if (process.argv[2] === 'publish-pact') return publish(process.argv.slice(3), process.env);
  let options;
  let scenarios: Scenario[];
  try {
    options = parse(process.argv.slice(2), process.env);
    if (options === 'help') {
      process.stdout.write(usage);
      return 0;
    }
    if (options === 'version') {
      console.log(packageVersion());
      return 0;
    }
    // Every contract scenario by default; scenarios that inject faults describe the mock, not the contract
    // (named with --scenario, they are reported as skipped).
    scenarios = options.scenario ? await loadScenarios({ names: options.scenario }) : (await loadScenarios()).filter((scenario) => !injectsFaults(scenario));
    if (options.suite !== 'ajv') (await import('../verify/pact.js')).pactProviderBaseUrl(options.baseUrl);
  } catch (error) {
    return usageFailure('petstore-verify', error);
  }
  let pactPassed = true;
  if (options.suite !== 'ajv') {
    if (options['state-url'] === undefined) console.log('- skipped the pact suite: every interaction sets a provider state, and no --state-url was given');
    else {
      pactPassed = await runPact(
        {
          baseUrl: options.baseUrl,
          apiKey: options.apiKey,
          stateUrl: options['state-url'],
          ...(options['provider-version'] !== undefined && { providerVersion: options['provider-version'] }),
          ...(options['provider-branch'] !== undefined && { providerBranch: options['provider-branch'] }),
        },
        process.env,
      );
    }
    if (options.suite === 'pact') return pactPassed ? 0 : 1;
  }
  let report;
  try {
    report = await verify({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      ...(options['state-url'] !== undefined ? { stateUrl: options['state-url'] } : {}),
      scenarios,
      strict: options.strict ?? false,
      prism: !options['no-prism'],
      onStep: (step) => console.log(stepLines(step).join('\n')),
    });
  } catch (error) {
    if (!(error instanceof TargetUnreachable)) throw error;
    console.error(`petstore-verify: ${error.message}`);
    return 2;
  }
  console.log(summaryLines(report).join('\n'));
  if (options.junit !== undefined) await writeFile(options.junit, toJunit(report));
  if (options.json !== undefined) await writeFile(options.json, stringifyJson(report) + '\n');
  if (report.violations > 0 || !pactPassed) return 1;
  return report.errors > 0 ? 2 : 0;
}

const exitCode = await main();
if (exitCode !== undefined) process.exitCode = exitCode;
