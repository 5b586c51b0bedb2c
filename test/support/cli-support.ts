import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync, statfsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const cliPath = fileURLToPath(new URL('../../dist/bin/petstore-mock.js', import.meta.url));
/** The built petstore-verify, as the package's bin runs it. */
export const verifyCliPath = fileURLToPath(new URL('../../dist/bin/petstore-verify.js', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killed after `timeout` ms) and collects what it printed. */
export function runToExit(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {},
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? projectRoot,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A command that runs until it is stopped (a mock, the proxy), as a process or in this process. */
export interface RunningCommand {
  baseUrl: string;
  origin: string;
  output: () => string;
  /**
   * Resolves with the output once it contains `pattern` (a string) or matches it (a RegExp), which it may
   * already; rejects if the command ends first. No clock: the test's own timeout bounds the wait.
   */
  outputMatching: (pattern: string | RegExp) => Promise<string>;
  stop: (signal?: NodeJS.Signals) => Promise<Exit>;
}

/** A running mock started from a command line; resolves once it prints the URL it listens on. */
export interface RunningMock extends RunningCommand {
  child: ChildProcess;
}

/** What a command has printed so far, and waits for what it will print until it ends. */
class Printed {
  stdout = '';
  stderr = '';
  #ended = false;
  readonly #waiters = new Set<{ check: () => void; end: () => void }>();

  add(stream: 'stdout' | 'stderr', text: string): void {
    this[stream] += text;
    for (const waiter of this.#waiters) waiter.check();
  }

  /** No more output: every wait still pending rejects. */
  end(): void {
    this.#ended = true;
    for (const waiter of this.#waiters) waiter.end();
  }

  matching(pattern: string | RegExp): Promise<string> {
    return new Promise<string>((found, ended) => {
      const waiter = {
        check: () => {
          const output = this.stdout + this.stderr;
          if (typeof pattern === 'string' ? !output.includes(pattern) : !pattern.test(output)) return;
          this.#waiters.delete(waiter);
          found(output);
        },
        end: () => {
          if (this.#waiters.delete(waiter))
            ended(new Error(`exited before printing ${String(pattern)}; output: ${this.stdout}${this.stderr}`));
        },
      };
      this.#waiters.add(waiter);
      waiter.check();
      if (this.#ended) waiter.end();
    });
  }
}

const listeningLine = /listening on (http:\/\/\S+)\/v1/;

export function startCommand(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<RunningMock> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that a signal reaches the server behind a wrapper such as npm or npx.
    const child = spawn(command, args, {
      cwd: options.cwd ?? projectRoot,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    const printed = new Printed();
    const exited = new Promise<Exit>((done) =>
      child.on('close', (code, signal) => {
        printed.end();
        done({ code, signal, stdout: printed.stdout, stderr: printed.stderr });
      }),
    );
    const timer = setTimeout(() => {
      signalGroup('SIGKILL');
      reject(new Error(`no "listening on" line within 30 s; output: ${printed.stdout}${printed.stderr}`));
    }, 30_000);
    child.stdout!.on('data', (chunk) => {
      printed.add('stdout', String(chunk));
      const match = listeningLine.exec(printed.stdout);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          origin: match[1]!,
          baseUrl: `${match[1]}/v1`,
          output: () => printed.stdout + printed.stderr,
          outputMatching: (pattern) => printed.matching(pattern),
          stop: (signal = 'SIGTERM') => {
            signalGroup(signal);
            return exited;
          },
        });
      }
    });
    child.stderr!.on('data', (chunk) => printed.add('stderr', String(chunk)));
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${exit.code} before listening: ${exit.stdout}${exit.stderr}`));
    });
  });
}

/**
 * Starts `petstore-verify proxy ARGS` in this process, as its command line does (`env` over this
 * process's environment), printing what the command prints, redacted as the command redacts it;
 * resolves once it listens. `stop()` does what SIGINT, SIGTERM and SIGHUP do to the command (the
 * same summary, report and exit code), without a process (and its own load of Prism) for each proxy.
 * What only a process shows (the signal itself, exiting at once) is tested with the real command.
 */
export async function startProxyInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningCommand> {
  const [{ proxyCommand }, { confidencesOf }, { Redaction }] = await Promise.all([
    import('../../cli/verify/proxy.js'),
    import('../../cli/verify/confidences.js'),
    import('../../verify/base/redaction.js'),
  ]);
  const environment = { ...process.env, ...env };
  const redaction = new Redaction(confidencesOf(['proxy', ...args], environment));
  const printed = new Printed();
  const controller = new AbortController();
  const exited = proxyCommand(args, {
    output: {
      stdout: (text) => printed.add('stdout', redaction.text(text)),
      stderr: (text) => printed.add('stderr', redaction.text(text)),
    },
    environment,
    stop: controller.signal,
  })
    .then((code): Exit => ({ code, signal: null, stdout: printed.stdout, stderr: printed.stderr }))
    .finally(() => printed.end());
  await printed.matching(listeningLine);
  const origin = listeningLine.exec(printed.stdout)![1]!;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    output: () => printed.stdout + printed.stderr,
    outputMatching: (pattern) => printed.matching(pattern),
    stop: () => {
      controller.abort();
      return exited;
    },
  };
}

/**
 * Runs `petstore-verify ARGS` (or its `explore`, `har` and `publish-pact` commands, or a
 * `petstore-verify proxy ARGS` that stops at once, a usage error) in this process, as its command
 * line does (`env` over this process's environment), and collects what it prints, redacted as the
 * command redacts it: the same exit code,
 * stdout and stderr as `node dist/bin/petstore-verify.js ARGS`, without a process (and its second load
 * of Prism) for each run. What only a process shows (a crash's one line instead of a stack trace,
 * signals) is tested with the real command.
 */
export async function runVerifyInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  const [{ runCommand }, { proxyCommand }, { harCommand }, { publishCommand }, { confidencesOf }, { Redaction }] =
    await Promise.all([
      import('../../cli/verify/run.js'),
      import('../../cli/verify/proxy.js'),
      import('../../cli/verify/har.js'),
      import('../../cli/verify/publish-pact.js'),
      import('../../cli/verify/confidences.js'),
      import('../../verify/base/redaction.js'),
    ]);
  const environment = { ...process.env, ...env };
  const redaction = new Redaction(confidencesOf(args, environment));
  let stdout = '';
  let stderr = '';
  const output = {
    stdout: (text: string) => void (stdout += redaction.text(text)),
    stderr: (text: string) => void (stderr += redaction.text(text)),
  };
  const [command, ...rest] = args;
  const code =
    command === 'proxy'
      ? // Never stopped: a proxy that starts runs until the test ends, as the command does.
        await proxyCommand(rest, { output, environment, stop: new AbortController().signal })
      : command === 'har'
        ? await harCommand(rest, { output, environment })
        : command === 'publish-pact'
          ? await publishCommand(rest, environment, output)
          : await runCommand(command === 'explore' ? rest : args, command === 'explore', output, environment);
  return { code, signal: null, stdout, stderr };
}

/** A RAM file system this process can write and run programs from, with room for a few installs. */
function ramFolder(): string | undefined {
  const folder = '/dev/shm';
  try {
    const mount = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find(([, point]) => point === folder);
    if (mount?.[2] !== 'tmpfs' || mount[3]!.split(',').some((option) => option === 'ro' || option === 'noexec'))
      return undefined;
    accessSync(folder, constants.W_OK);
    const { bavail, bsize } = statfsSync(folder);
    return bavail * bsize >= 2 * 1024 ** 3 ? folder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A new folder for a test's many and large files (an npm install's node_modules): on a RAM file system
 * when the machine has one that fits, else in the system's temporary folder. On the project's machines
 * /tmp is on a virtual disk, where an install spends two to three times the CPU it spends on tmpfs
 * (nearly all of it in the kernel). Nothing under test depends on where the folder is.
 */
export function scratchFolder(prefix: string): Promise<string> {
  return mkdtemp(join(ramFolder() ?? tmpdir(), prefix));
}
