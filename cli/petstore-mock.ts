#!/usr/bin/env node
import { isValidBearerToken } from '../mocks/base/auth.js';
import { checkedControlOrigin } from '../mocks/control/control-access.js';
import { MockError } from '../mocks/base/errors.js';
import { toFaultInputs } from '../mocks/session/faults.js';
import { conflictBodies, scenarioFaults } from '../mocks/session/mock-session.js';
import { readSeedFile } from '../mocks/store/seed-file.js';
import { createServer, type ServerOptions } from '../mocks/server/server.js';
import { bundledScenarios } from '../mocks/generated/scenarios.js';
import { parseJson } from '../core/parse-json.js';
import { printable } from '../core/printable.js';
import { loadScenarios } from '../core/scenario-files.js';
import { controlPlaneLines } from './control-plane-lines.js';
import { followParent, stopOnStdinEnd } from './follow-parent.js';
import { loadHandlersFile } from './handlers-file.js';
import { tuneMemory } from './memory.js';
import {
  hostFlag,
  integerFlag,
  listenOrExit,
  packageVersion,
  parseFlags,
  portFlag,
  stopOnSignals,
  usageFailure,
  UsageError,
} from './shared.js';

const usage = `Usage: petstore-mock [options]

Serves a stateful mock of the pet store order interface at http://HOST:PORT/v1.

Options:
  --port N                 port to listen on; 0 picks a free one (default 4010, or $PORT)
  --host HOST              address to bind (default 127.0.0.1)
  --api-key KEY            accept this bearer key; repeat for more
                           (default $PETSTORE_API_KEYS, comma-separated, else the development key)
  --seed FILE              start with the orders in this YAML or JSON file (default: the built-in seed)
  --scenario NAME          start with the provider state and the step faults of this scenario (scenarios/NAME.yaml)
  --scenarios DIR          the scenarios of this folder instead of the kit's (for --scenario and POST /__mock/scenarios/NAME),
                           such as those petstore-verify explore --save writes
  --fault JSON             start with this fault, e.g. '{"operation":"listOrders","status":503,"times":1}';
                           repeat for more (see docs/frontend.md, Faults and latency)
  --max-sessions N         most sessions named by X-Mock-Session at once; 0 refuses the header (default 100);
                           a control read (GET /__mock/...) starts none and sees the seed, at the limit too
  --session-idle-timeout S seconds a named session may go unused before it is dropped (default 1800)
  --max-orders N           most orders all sessions hold together; a replacement past it is 409 (default 500000)
  --max-pact-bytes N       most bytes of JSON text a session's pact may have (GET /__mock/pact); past it, 409
                           pact_too_large (default 67108864, 64 MiB)
  --conflict-body SHAPE    what the 409 of a shipped order's cancel carries: error (an Error record, the
                           default) or none (no body); per session: PUT /__mock/settings
  --no-control             do not serve the control plane under /__mock (nor its page, /__mock/)
  --control-origin ORIGIN  let web pages of this origin call the control plane too (loopback origins
                           always may, other sites never); repeat for more
  --control-key KEY        require Authorization: Bearer KEY on the control plane (the page asks for it);
                           worth setting with a --host other than loopback
  --handlers FILE          serve your own MSW handlers first: an ES module or CommonJS file whose default
                           export is an array of handlers, or a function (mock) => handlers
  --pet-deprecation DATE   deprecation date announced by GET /pets/{petId} (default 2026-01-01T00:00:00Z)
  --pet-sunset DATE        sunset date announced by GET /pets/{petId} (default 2027-06-30T23:59:59Z)
  --body-limit BYTES       largest request body accepted (default 33554432)
  --journal-size N         calls each session's journal keeps (GET /__mock/requests), oldest dropped first;
                           0 keeps none (default 1000)
  --headers-timeout MS     time a client may take to send its headers, then 408 (default 10000)
  --request-timeout MS     time a client may take to send its whole request, then 408 (default 30000)
  --verbose                print one line per request (never a header or a key)
  --no-follow-parent       keep serving once the process that started it has ended (by default it stops
                           then, as on SIGTERM, so that \`npx petstore-mock &\` then \`kill $!\` frees the port)
  --stop-on-stdin-end      also stop when its standard input ends: for a parent that holds a pipe to it
  --help                   print this help
  --version                print the version
`;

function date(value: string, name: string): Date {
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime()))
    throw new UsageError(`--${name} must be a date such as 2027-06-30T23:59:59Z, got ${JSON.stringify(value)}`);
  return parsed;
}

const flagConfig = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  seed: { type: 'string' },
  scenario: { type: 'string' },
  scenarios: { type: 'string' },
  fault: { type: 'string', multiple: true },
  'max-sessions': { type: 'string' },
  'session-idle-timeout': { type: 'string' },
  'no-control': { type: 'boolean' },
  'control-origin': { type: 'string', multiple: true },
  'control-key': { type: 'string' },
  'conflict-body': { type: 'string' },
  handlers: { type: 'string' },
  'pet-deprecation': { type: 'string' },
  'pet-sunset': { type: 'string' },
  'body-limit': { type: 'string' },
  'journal-size': { type: 'string' },
  'max-orders': { type: 'string' },
  'max-pact-bytes': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  verbose: { type: 'boolean' },
  'no-follow-parent': { type: 'boolean' },
  'stop-on-stdin-end': { type: 'boolean' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

/** The command line as read, before any flag is checked. */
type MockFlags = ReturnType<typeof parseFlags<typeof flagConfig>>;

type MockOptions = ServerOptions & {
  port: number;
  host: string;
  /** What ends the command besides a signal. */
  lifetime: { followParent: boolean; stopOnStdinEnd: boolean };
};

/** The bearer keys to accept: `--api-key`, else `$PETSTORE_API_KEYS` (comma-separated), each a bearer token. */
function apiKeysOf(values: MockFlags, environment: NodeJS.ProcessEnv): string[] | undefined {
  const apiKeys =
    values['api-key'] ??
    environment.PETSTORE_API_KEYS?.split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '');
  for (const key of apiKeys ?? []) {
    if (!isValidBearerToken(key))
      throw new UsageError('an API key must be a bearer token: letters, digits and - . _ ~ + / (then = padding)');
  }
  return apiKeys;
}

/** The orders of a `--seed` file, then a full collection to give back what reading it took. */
async function seedFileOf(path: string, collectGarbage: () => void): Promise<ServerOptions['seed']> {
  let seed: ServerOptions['seed'];
  try {
    seed = await readSeedFile(path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  collectGarbage();
  return seed;
}

/** The scenarios of `--scenarios DIR`, or the kit's as bundled at build time. */
async function scenariosOf(directory: string | undefined): Promise<NonNullable<ServerOptions['scenarios']>> {
  // The kit's scenarios as bundled at build time: the same as scenarios/*.yaml (a test compares them),
  // without reading and checking 18 files at every start.
  if (directory === undefined) return bundledScenarios;
  try {
    return await loadScenarios({ directory });
  } catch (error) {
    throw new UsageError(`--scenarios ${directory}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** `--scenario NAME`, checked: a scenario of the set that sets a provider state or a fault (the mock starts from it). */
function checkedScenario(name: string, scenarios: NonNullable<ServerOptions['scenarios']>): string {
  const scenario = scenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined)
    throw new UsageError(
      `unknown scenario ${JSON.stringify(name)}; known: ${scenarios.map((known) => known.name).join(', ')}`,
    );
  if (scenario.state === undefined && scenarioFaults(scenario).length === 0) {
    throw new UsageError(`scenario ${name} sets no provider state and no fault; it runs against any store`);
  }
  return name;
}

/** The store and the scenarios to start with: `--seed`, `--scenarios`, `--scenario` (not with `--seed`). */
async function startingState(
  values: MockFlags,
  collectGarbage: () => void,
): Promise<Pick<ServerOptions, 'seed' | 'scenarios' | 'scenario'>> {
  if (values.scenario !== undefined && values.seed !== undefined)
    throw new UsageError('--seed and --scenario cannot be used together');
  const seed = values.seed === undefined ? undefined : await seedFileOf(values.seed, collectGarbage);
  const scenarios = await scenariosOf(values.scenarios);
  if (values.scenario === undefined) return { ...(seed !== undefined && { seed }), scenarios };
  return { scenarios, scenario: checkedScenario(values.scenario, scenarios) };
}

/** The faults to start with, after the scenario's: each `--fault JSON`. */
function faultsOf(texts: readonly string[]): ServerOptions['faults'] {
  let faults: ServerOptions['faults'];
  for (const text of texts) {
    try {
      faults = [...(faults ?? []), ...toFaultInputs(parseJson(text))];
    } catch (error) {
      const message =
        error instanceof MockError ? error.message.replace(/^Invalid fault: /, '') : (error as Error).message;
      throw new UsageError(`--fault ${text}: ${message}`);
    }
  }
  return faults;
}

/** `--max-sessions` and `--session-idle-timeout` (seconds), when either is given. */
function sessionsOf(values: MockFlags): ServerOptions['sessions'] {
  if (values['max-sessions'] === undefined && values['session-idle-timeout'] === undefined) return undefined;
  const sessions: NonNullable<ServerOptions['sessions']> = {};
  if (values['max-sessions'] !== undefined)
    sessions.limit = integerFlag(values['max-sessions'], 'max-sessions', 0, 100_000);
  if (values['session-idle-timeout'] !== undefined) {
    sessions.idleTimeout = integerFlag(values['session-idle-timeout'], 'session-idle-timeout', 1, 7 * 24 * 3600) * 1000;
  }
  return sessions;
}

/** The pet dates, the journal's size, the order budget, the body limit and the timeouts that were given. */
function limitsOf(
  values: MockFlags,
): Pick<
  ServerOptions,
  | 'petDeprecation'
  | 'petSunset'
  | 'journalSize'
  | 'maxOrders'
  | 'maxPactBytes'
  | 'bodyLimit'
  | 'headersTimeout'
  | 'requestTimeout'
> {
  const limits: ReturnType<typeof limitsOf> = {};
  if (values['pet-deprecation'] !== undefined)
    limits.petDeprecation = date(values['pet-deprecation'], 'pet-deprecation');
  if (values['pet-sunset'] !== undefined) limits.petSunset = date(values['pet-sunset'], 'pet-sunset');
  if (values['journal-size'] !== undefined)
    limits.journalSize = integerFlag(values['journal-size'], 'journal-size', 0, 1_000_000);
  if (values['max-orders'] !== undefined)
    limits.maxOrders = integerFlag(values['max-orders'], 'max-orders', 1, 100_000_000);
  if (values['max-pact-bytes'] !== undefined)
    limits.maxPactBytes = integerFlag(values['max-pact-bytes'], 'max-pact-bytes', 1, 2 ** 31 - 1);
  if (values['body-limit'] !== undefined)
    limits.bodyLimit = integerFlag(values['body-limit'], 'body-limit', 1, 2 ** 31 - 1);
  if (values['headers-timeout'] !== undefined)
    limits.headersTimeout = integerFlag(values['headers-timeout'], 'headers-timeout', 100, 3_600_000);
  if (values['request-timeout'] !== undefined)
    limits.requestTimeout = integerFlag(values['request-timeout'], 'request-timeout', 100, 3_600_000);
  return limits;
}

/** Who may use the control plane besides this machine's own pages: `--control-origin`, `--control-key`. */
function controlAccessOf(values: MockFlags): Pick<ServerOptions, 'controlOrigins' | 'controlKey'> {
  const access: Pick<ServerOptions, 'controlOrigins' | 'controlKey'> = {};
  if (values['control-origin'] !== undefined)
    access.controlOrigins = values['control-origin'].map((origin) => {
      try {
        return checkedControlOrigin(origin);
      } catch (error) {
        throw new UsageError(`--control-origin: ${(error as Error).message}`);
      }
    });
  const key = values['control-key'];
  if (key !== undefined) {
    if (!isValidBearerToken(key))
      throw new UsageError('--control-key must be a bearer token: letters, digits and - . _ ~ + / (then = padding)');
    access.controlKey = key;
  }
  return access;
}

/** What the 409 of a shipped order carries: `--conflict-body`, one of the mock's `conflictBodies`. */
function conflictBodyOf(values: MockFlags): Pick<ServerOptions, 'conflictBody'> {
  const value = values['conflict-body'];
  if (value === undefined) return {};
  const conflictBody = conflictBodies.find((body) => body === value);
  if (conflictBody === undefined)
    throw new UsageError(`--conflict-body must be ${conflictBodies.join(' or ')}, got ${JSON.stringify(value)}`);
  return { conflictBody };
}

/** What the command runs with: the process's environment, and what it does to V8's memory around big loads. */
interface CommandContext {
  environment: NodeJS.ProcessEnv;
  collectGarbage: () => void;
  holdYoungGeneration: () => void;
  /** Called once the flags are read, before anything slow (a seed, scenarios, a handlers file) is loaded. */
  follow: (lifetime: MockOptions['lifetime']) => void;
}

async function parseOptions(argv: string[], context: CommandContext): Promise<MockOptions | 'help' | 'version'> {
  const values = parseFlags(argv, flagConfig);
  if (values.help) return 'help';
  if (values.version) return 'version';
  const { environment, collectGarbage } = context;
  // Checked in the order of the flags' concerns: keys, address, starting state, faults, sessions, limits, handlers.
  const apiKeys = apiKeysOf(values, environment);
  const options: MockOptions = {
    port: portFlag(values.port ?? environment.PORT ?? '4010'),
    host: hostFlag(values.host ?? '127.0.0.1'),
    control: !values['no-control'],
    lifetime: { followParent: !values['no-follow-parent'], stopOnStdinEnd: values['stop-on-stdin-end'] === true },
  };
  context.follow(options.lifetime);
  if (apiKeys !== undefined && apiKeys.length > 0) options.apiKeys = apiKeys;
  Object.assign(options, await startingState(values, collectGarbage));
  const faults = faultsOf(values.fault ?? []);
  if (faults !== undefined) options.faults = faults;
  const sessions = sessionsOf(values);
  if (sessions !== undefined) options.sessions = sessions;
  Object.assign(options, limitsOf(values));
  Object.assign(options, controlAccessOf(values), conflictBodyOf(values));
  if (values.handlers !== undefined) options.handlers = await loadHandlersFile(values.handlers);
  if (values.verbose) options.log = (line) => console.log(line);
  // A line may quote what a client sent (a test's name, a consumer's): written with its control characters escaped.
  options.warn = (line) => console.error(`petstore-mock: ${printable(line)}`);
  options.collectGarbage = collectGarbage;
  options.onLargeBody = context.holdYoungGeneration;
  return options;
}

/** Stops the server as a signal would when the process that started it ends, or its standard input (where asked). */
function stopWith(lifetime: MockOptions['lifetime'], stop: () => void): void {
  if (lifetime.followParent)
    followParent((parent) => {
      console.error(`petstore-mock: the process that started it (pid ${parent}) has ended; stopping`);
      stop();
    });
  if (lifetime.stopOnStdinEnd)
    stopOnStdinEnd(process.stdin, () => {
      console.error('petstore-mock: its standard input ended (--stop-on-stdin-end); stopping');
      stop();
    });
}

async function main(): Promise<void> {
  // Before any seed is read: the young generation must not grow while a big one loads.
  const memory = tuneMemory();
  const collectGarbage = () => memory.collectGarbage();
  // Until the server exists there is nothing to close: the process ends as an unhandled SIGTERM ends
  // it. Not process.exit(), which waits for the file-system threads, and one may be blocked for ever
  // (a seed that is a FIFO no one writes to, a hung network mount).
  let stop: () => void = () => void process.kill(process.pid, 'SIGTERM');
  let options;
  try {
    options = await parseOptions(process.argv.slice(2), {
      environment: process.env,
      collectGarbage,
      holdYoungGeneration: () => memory.holdYoungGeneration(),
      // From the first instant, not once the seed is loaded: a wrapper killed while a big seed loads
      // must not leave the mock serving for ever (issue 59).
      follow: (lifetime) => stopWith(lifetime, () => stop()),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.exit(usageFailure('petstore-mock', error));
  }
  if (options === 'help') return void process.stdout.write(usage);
  if (options === 'version') return void console.log(packageVersion());

  let server;
  try {
    server = createServer(options);
  } catch (error) {
    // The options were each well formed but do not fit together (a sunset before the deprecation), or
    // the handlers file's function did not return handlers.
    process.exit(usageFailure('petstore-mock', error));
  }
  stop = stopOnSignals(() => server.close());
  const origin = await listenOrExit('petstore-mock', server, options.port, options.host);
  memory.answering();
  process.stdout.write(
    [
      `petstore-mock listening on ${origin}/v1`,
      ...controlPlaneLines(options, origin),
      options.apiKeys
        ? `accepting ${options.apiKeys.length} configured API key(s)`
        : 'accepting the development API key (see README)',
    ].join('\n') + '\n',
  );
}

await main();
