// petstore-verify compat: its help, its flags, and the lines it prints of a compatibility check.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { printable } from '../../core/printable.js';
import { printableJson } from '../../core/printable-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { CompatError, calendarDay, checkCompatibility } from '../../verify/compat/index.js';
import { compatErrorJunit, compatToJunit } from '../../verify/report/compat-junit.js';
import { compatLines } from '../../verify/report/compat-lines.js';
import { UsageError, usageFailure } from '../shared.js';
import { type CommandOutput, checkWritable, processOutput } from './run.js';

const compatUsage = `Usage: petstore-verify compat OLD NEW [options]
       petstore-verify compat NEW --pact FILE [--pact FILE...] [options]

Compares two OpenAPI 3.x documents (YAML or JSON, $refs followed, also into files beside them) and
names each change a consumer could notice, with a rule id and a level: error (it breaks a consumer:
an operation, a base path, a status or a response field removed, a type or format changed, a
response enum value removed, a parameter added as required or made required, a request's values
narrowed, a list parameter's explode changed, security added), warning (it may: a new response
status or enum value, a response field narrowed, a parameter removed or its default changed) or info (additive: an operation, an optional field or parameter
added). An operation is its method, base path (a server URL's path) and path. With --pact, each
interaction of a consumer's pact is also checked against NEW: its operation, its status, the fields
its body and matching rules rely on, its parameters and credentials; each finding names the consumer
and the interaction.
Exits 1 on any error, 2 if a file cannot be read as a document or a pact, or nothing was compared
(an OLD with no operation, a pact with no interaction), else 0 (warnings and info allowed).

Options:
  --pact FILE      a consumer's Pact file (V2 to V4) to check against NEW (repeatable); with one
                   document only, the pacts alone are checked
  --beside DOC     a document the provider serves beside NEW, unchanged (another major; repeatable):
                   the pacts' interactions of its operations are checked against it, not called
                   removed
  --date DATE      the day a deprecated operation's sunset date (x-sunset) is compared with: removed
                   after it is a warning, before it (or with none) an error (default: today, UTC)
  --format FORMAT  console (the default) or json: the report as JSON on standard output
  --json FILE      also write the report as JSON
  --junit FILE     also write the report as JUnit XML: a testcase per finding, an error a failure
                   (a check that could not judge writes one error testcase)
  --help           print this help
`;

function parseCompat(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        pact: { type: 'string', multiple: true },
        beside: { type: 'string', multiple: true },
        date: { type: 'string' },
        format: { type: 'string' },
        json: { type: 'string' },
        junit: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const { values, positionals } = parsed;
  const pacts = values.pact ?? [];
  if (positionals.length === 0 || positionals.length > 2) {
    throw new UsageError(
      positionals.length === 0
        ? 'compat needs two documents, OLD and NEW (or NEW and --pact FILE)'
        : 'compat compares two documents, OLD and NEW',
    );
  }
  if (positionals.length === 1 && pacts.length === 0) {
    throw new UsageError('compat with one document checks pacts against it: give --pact FILE, or OLD and NEW');
  }
  const format = values.format ?? 'console';
  if (format !== 'console' && format !== 'json')
    throw new UsageError(`--format must be console or json, not ${format}`);
  let today: Date | undefined;
  if (values.date !== undefined) {
    const day = calendarDay(values.date, { dayOnly: true });
    if (day === undefined) throw new UsageError(`--date must be a day as YYYY-MM-DD (RFC 3339), not ${values.date}`);
    today = new Date(day);
  }
  const [first, second] = positionals as [string, string | undefined];
  return {
    ...(second === undefined ? { newFile: first } : { oldFile: first, newFile: second }),
    pactFiles: pacts,
    besideFiles: values.beside ?? [],
    format,
    ...(today === undefined ? {} : { today }),
    ...(values.json === undefined ? {} : { json: values.json }),
    ...(values.junit === undefined ? {} : { junit: values.junit }),
  };
}

/**
 * petstore-verify compat: reads the command line, compares the documents and checks the pacts, prints
 * the findings (or the JSON report) and resolves with the exit code: 0, 1 on a breaking change, 2 when
 * it could not judge.
 * @example
 * process.exitCode = await compatCommand(['spec/openapi.yaml', 'changed.yaml']);
 */
export async function compatCommand(argv: string[], output: CommandOutput = processOutput): Promise<number> {
  if (argv.includes('--help')) {
    output.stdout(compatUsage);
    return 0;
  }
  const printLine = (line: string) => output.stderr(`${line}\n`);
  let options;
  try {
    options = parseCompat(argv);
    await checkWritable({ json: options.json, junit: options.junit });
  } catch (error) {
    return usageFailure('petstore-verify', error, printLine);
  }
  let report;
  try {
    report = await checkCompatibility(options);
  } catch (error) {
    if (!(error instanceof CompatError)) throw error;
    printLine(printable(`petstore-verify compat: ${error.message} (${error.code})`));
    if (options.junit !== undefined)
      await writeFile(options.junit, compatErrorJunit(`${error.message} (${error.code})`));
    return 2;
  }
  const json = `${printableJson(stringifyJson(report))}\n`;
  if (options.format === 'json') output.stdout(json);
  else
    output.stdout(
      `${compatLines(report)
        .map((line) => printable(line))
        .join('\n')}\n`,
    );
  if (options.json !== undefined) await writeFile(options.json, json);
  if (options.junit !== undefined) await writeFile(options.junit, compatToJunit(report));
  return report.exitCode;
}
