// What petstore-mock and petstore-verify share: how a usage error is reported, how flags are read, how a
// server is started and stopped, and where broker settings come from. Each CLI stays a thin parser.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { packageFolder } from '../core/package-folder.js';
import type { Redaction } from '../verify/base/redaction.js';
import { KitError } from '../core/errors.js';

/** A command line that cannot be run as given: told in one line, with exit code 2. */
export class UsageError extends KitError<CliErrorCode> {
  override name = 'UsageError';

  constructor(message: string) {
    super('usage', message);
  }
}

/**
 * The codes of the errors the command-line tools throw, and what each means.
 * @example
 * cliErrorCodes.usage // 'a command line that cannot be run as given: told in one line, with exit code 2'
 */
export const cliErrorCodes = {
  usage: 'a command line that cannot be run as given: told in one line, with exit code 2',
} as const;

/** A code of `cliErrorCodes`. */
export type CliErrorCode = keyof typeof cliErrorCodes;

/**
 * `parseArgs`, strict and without positionals, its errors as one-line `UsageError`s.
 * @example
 * const values = parseFlags(process.argv.slice(2), { port: { type: 'string' } });
 */
export function parseFlags<Options extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: Options) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    const line = (error as Error).message.split('\n')[0]!;
    const unknown = /^Unknown option '--([^'=]+)'/.exec(line)?.[1];
    const near = unknown === undefined ? undefined : nearestFlag(unknown, Object.keys(options));
    throw new UsageError(near === undefined ? line : `${line}: did you mean --${near}?`);
  }
}

/**
 * The flag a mistyped one most likely meant: the one fewest edits away (at most a third of its
 * letters, and never more than 3), or one that differs only in case.
 * @example
 * nearestFlag('prot', ['port', 'host']) // 'port'
 * nearestFlag('banana', ['port', 'host']) // undefined
 */
export function nearestFlag(typed: string, flags: readonly string[]): string | undefined {
  let best: { flag: string; distance: number } | undefined;
  for (const flag of flags) {
    const distance = editDistance(typed.toLowerCase(), flag.toLowerCase());
    if (best === undefined || distance < best.distance) best = { flag, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.min(3, Math.ceil(best.flag.length / 3)) ? best.flag : undefined;
}

/** Levenshtein's distance, where a swap of two neighbouring letters counts one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const at = (row: number, column: number) => rows[row]![column]!;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * A whole number flag within bounds.
 * @throws UsageError `--name must be an integer from minimum to maximum, got "value"`.
 * @example
 * integerFlag('30', 'timeout', 1, 600) // 30
 */
export function integerFlag(value: string, name: string, minimum: number, maximum: number): number {
  const number = Number(value);
  if (!/^[0-9]+$/.test(value) || number < minimum || number > maximum) {
    throw new UsageError(`--${name} must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(value)}`);
  }
  return number;
}

/**
 * A port flag: 0 (any free port) to 65535.
 * @example
 * portFlag('4010') // 4010
 */
export function portFlag(value: string, name = 'port'): number {
  return integerFlag(value, name, 0, 65535);
}

const hostname =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * A host flag: an IPv4 or IPv6 address (brackets allowed), or a host name (RFC 1123). Digits and dots
 * alone must make an IPv4 address: 999.1.1.1 is refused, not looked up.
 * @throws UsageError `--name must be an IP address or a host name, got "value"`.
 * @example
 * hostFlag('127.0.0.1') // '127.0.0.1'
 * hostFlag('[::1]') // '::1'
 */
export function hostFlag(value: string, name = 'host'): string {
  const bare = value.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return bare;
  if (!/^[0-9.]+$/.test(value) && hostname.test(value)) return value;
  throw new UsageError(`--${name} must be an IP address or a host name, got ${JSON.stringify(value)}`);
}

/**
 * The package's version, from its package.json.
 * @example
 * packageVersion() // '0.1.0'
 */
export function packageVersion(): string {
  const packageJson = JSON.parse(
    readFileSync(join(packageFolder(import.meta.url, '', 'package.json'), 'package.json'), 'utf8'),
  ) as { version: string };
  return packageJson.version;
}

/**
 * Prints a usage error as one line, `command: message (see --help)`, and gives the exit code, 2.
 * @example
 * return usageFailure('petstore-verify', error);
 */
export function usageFailure(
  command: string,
  error: unknown,
  printLine: (line: string) => void = (line) => console.error(line),
): 2 {
  printLine(`${command}: ${(error as Error).message.split('\n')[0]} (see --help)`);
  return 2;
}

// Listen errors that say the --host flag names no address of this machine: a bad flag value, exit 2.
const badAddress = new Set(['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EINVAL']);

/**
 * Starts listening, or prints why it cannot and exits: 1 when the port is taken or not allowed
 * (`command: cannot listen on HOST:PORT: EADDRINUSE`), 2 when the host is no address of this machine
 * or the server's setup before listening failed (its message as it is).
 * @example
 * const origin = await listenOrExit('petstore-mock', server, 4010, '127.0.0.1');
 */
export async function listenOrExit(
  command: string,
  server: { listen(port: number, host: string): Promise<string> },
  port: number,
  host: string,
): Promise<string> {
  const listened = await listenOrFail(command, server, { port, host });
  if (typeof listened === 'number') process.exit(listened);
  return listened;
}

/**
 * Starts listening and resolves with the origin, or prints why it cannot (as `listenOrExit` does, to
 * `printLine`) and resolves with the exit code: for a command that ends by returning its code.
 * @example
 * const listened = await listenOrFail('petstore-verify', proxy, { port: 0, host: '127.0.0.1' });
 * if (typeof listened === 'number') return listened;
 */
export async function listenOrFail(
  command: string,
  server: { listen(port: number, host: string): Promise<string> },
  where: { port: number; host: string; flag?: string },
  printLine: (line: string) => void = (line) => console.error(line),
): Promise<string | 1 | 2> {
  const { port, host } = where;
  try {
    return await server.listen(port, host);
  } catch (error) {
    // A kit error (a state it must set) is the server's own setup failing, reported as it is.
    if (error instanceof KitError) {
      printLine(`${command}: ${error.message}`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) {
      printLine(`${command}: ${(error as Error).message}`);
      return 2;
    }
    if (badAddress.has(code)) {
      printLine(`${command}: --host ${host} is no address of this machine (${code}) (see --help)`);
      return 2;
    }
    printLine(`${command}: cannot listen on ${host}:${port}: ${code}${listenAdvice(code, where.flag ?? 'port')}`);
    return 1;
  }
}

/** What to do about a port that cannot be listened on, for the flag that chose it. */
function listenAdvice(code: string, flag: string): string {
  if (code === 'EADDRINUSE')
    return ` (another process has that port: choose another with --${flag}, or --${flag} 0 for any free one)`;
  if (code === 'EACCES')
    return ` (a port below 1024 needs privileges: choose one from 1024 with --${flag}, or --${flag} 0 for any free one)`;
  return '';
}

/**
 * Runs `stop` once on SIGINT, SIGTERM or SIGHUP (a closed terminal), then exits with the code it
 * resolves with (0 by default). Returns the same stop, for other reasons to stop (the parent gone).
 * Install it before listening, so that a signal at any moment after start-up closes cleanly.
 * @example
 * stopOnSignals(async () => { await server.close(); return 0; });
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a stop callback may be `() => server.close()`, a Promise<void>
export function stopOnSignals(stop: () => Promise<number | void>): () => void {
  let stopping = false;
  const handle = () => {
    if (stopping) return;
    stopping = true;
    void stop().then((code) => process.exit(code ?? 0));
  };
  process.once('SIGINT', handle);
  process.once('SIGTERM', handle);
  process.once('SIGHUP', handle);
  return handle;
}

/**
 * A signal aborted on the first SIGINT, SIGTERM or SIGHUP (a closed terminal): what stops a command
 * that runs until it is stopped, given as an AbortSignal so that a test can stop the same code in its
 * own process. Create it before listening, so that a signal at any moment after start-up is seen.
 * @example
 * const code = await proxyCommand(argv, { stop: stopSignal() });
 * process.exit(code);
 */
export function stopSignal(): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  process.once('SIGHUP', abort);
  return controller.signal;
}

/** A Pact Broker's address and credentials, as the environment gives them. */
export interface BrokerSettings {
  url: string;
  token?: string;
  username?: string;
  password?: string;
}

/**
 * The Pact Broker the environment names: `PACT_BROKER_BASE_URL`, with `PACT_BROKER_TOKEN` or
 * `PACT_BROKER_USERNAME` and `PACT_BROKER_PASSWORD`; undefined without a base URL.
 * @example
 * brokerFromEnvironment(process.env) // { url: 'https://broker.example.com', token: '…' }
 */
export function brokerFromEnvironment(environment: NodeJS.ProcessEnv): BrokerSettings | undefined {
  const url = environment.PACT_BROKER_BASE_URL;
  if (!url) return undefined;
  return {
    url,
    ...(environment.PACT_BROKER_TOKEN && { token: environment.PACT_BROKER_TOKEN }),
    ...(environment.PACT_BROKER_USERNAME && { username: environment.PACT_BROKER_USERNAME }),
    ...(environment.PACT_BROKER_PASSWORD && { password: environment.PACT_BROKER_PASSWORD }),
  };
}

/**
 * Passes everything the command prints, on stdout and stderr, through `redaction`: whatever a line
 * was made from (a provider's answer, an error's message), no secret the command was given reaches a
 * terminal or a CI log.
 * @example
 * redactOutput(new Redaction({ secrets: [apiKey], urls: [baseUrl] }));
 */
export function redactOutput(redaction: Redaction): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: string, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
      write(
        redaction.text(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()),
        ...rest,
      )) as typeof stream.write;
  }
}

/**
 * The values a command line gives a flag, as `--name value` or `--name=value`.
 * @example
 * flagValues(['--api-key', 'k', '--api-key=j'], 'api-key') // ['k', 'j']
 */
export function flagValues(argv: readonly string[], name: string): string[] {
  return argv.flatMap((argument, index) =>
    argument === `--${name}`
      ? argv.slice(index + 1, index + 2)
      : argument.startsWith(`--${name}=`)
        ? [argument.slice(name.length + 3)]
        : [],
  );
}

/**
 * A flag that must be an http(s) URL.
 * @throws UsageError `--name is not an http(s) URL: "value"`.
 * @example
 * httpUrlFlag('http://127.0.0.1:4010/v1', 'base-url') // 'http://127.0.0.1:4010/v1'
 */
export function httpUrlFlag(value: string, name: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new UsageError(`--${name} is not an http(s) URL: ${JSON.stringify(value)}`);
  return value;
}
