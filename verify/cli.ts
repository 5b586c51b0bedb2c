#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { stringifyJson } from '../mocks/json.js';
import { loadScenarios, type Scenario } from '../mocks/scenarios.js';
import { stepLines, summaryLines, toJunit } from './report.js';
import { TargetUnreachable, verify } from './run.js';

const usage = `Usage: petstore-verify [options]

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
  --scenario NAME       run this scenario (repeatable; default: all of them)
  --strict              count the kit's own decisions (advisory expectations) as violations
  --junit FILE          write a JUnit XML report
  --json FILE           write a JSON report
  --help                print this help
`;

class UsageError extends Error {}

function parse(argv: string[], environment: NodeJS.ProcessEnv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        target: { type: 'string' },
        'api-key': { type: 'string' },
        'state-url': { type: 'string' },
        scenario: { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        junit: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (values.help) return 'help' as const;
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
  return { ...values, baseUrl, apiKey };
}

async function main(): Promise<number> {
  let options;
  let scenarios: Scenario[];
  try {
    options = parse(process.argv.slice(2), process.env);
    if (options === 'help') {
      process.stdout.write(usage);
      return 0;
    }
    scenarios = await loadScenarios(options.scenario ? { names: options.scenario } : {});
  } catch (error) {
    console.error(`petstore-verify: ${(error as Error).message} (see --help)`);
    return 2;
  }
  let report;
  try {
    report = await verify({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      ...(options['state-url'] !== undefined ? { stateUrl: options['state-url'] } : {}),
      scenarios,
      strict: options.strict ?? false,
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
  if (report.violations > 0) return 1;
  return report.errors > 0 ? 2 : 0;
}

process.exitCode = await main();
