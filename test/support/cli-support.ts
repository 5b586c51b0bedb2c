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

/** A running mock started from a command line; resolves once it prints the URL it listens on. */
export interface RunningMock {
  child: ChildProcess;
  baseUrl: string;
  origin: string;
  output: () => string;
  /**
   * Resolves with the output once it contains `pattern` (a string) or matches it (a RegExp), which it may
   * already; rejects if the process ends first. No clock: the test's own timeout bounds the wait.
   */
  outputMatching: (pattern: string | RegExp) => Promise<string>;
  stop: (signal?: NodeJS.Signals) => Promise<Exit>;
}

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
    let stdout = '';
    let stderr = '';
    const exited = new Promise<Exit>((done) =>
      child.on('close', (code, signal) => done({ code, signal, stdout, stderr })),
    );
    const waiters = new Set<() => void>();
    const printed = () => {
      for (const check of waiters) check();
    };
    const outputMatching = (pattern: string | RegExp) =>
      new Promise<string>((found, ended) => {
        const check = () => {
          const output = stdout + stderr;
          if (typeof pattern === 'string' ? !output.includes(pattern) : !pattern.test(output)) return;
          waiters.delete(check);
          found(output);
        };
        waiters.add(check);
        check();
        void exited.then(() => {
          if (waiters.delete(check))
            ended(new Error(`exited before printing ${String(pattern)}; output: ${stdout}${stderr}`));
        });
      });
    const timer = setTimeout(() => {
      signalGroup('SIGKILL');
      reject(new Error(`no "listening on" line within 30 s; output: ${stdout}${stderr}`));
    }, 30_000);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      printed();
      const match = /listening on (http:\/\/\S+)\/v1/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          origin: match[1]!,
          baseUrl: `${match[1]}/v1`,
          output: () => stdout + stderr,
          outputMatching,
          stop: (signal = 'SIGTERM') => {
            signalGroup(signal);
            return exited;
          },
        });
      }
    });
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      printed();
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${exit.code} before listening: ${exit.stdout}${exit.stderr}`));
    });
  });
}

/**
 * Runs `petstore-verify ARGS` (or `petstore-verify explore ARGS`) in this process, as its command
 * line does (`env` over this process's environment), and collects what it prints, redacted as the
 * command redacts it: the same exit code,
 * stdout and stderr as `node dist/bin/petstore-verify.js ARGS`, without a process (and its second load
 * of Prism) for each run. What only a process shows (a crash's one line instead of a stack trace,
 * signals) is tested with the real command.
 */
export async function runVerifyInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  const [{ runCommand }, { confidencesOf }, { Redaction }] = await Promise.all([
    import('../../cli/verify/run.js'),
    import('../../cli/verify/confidences.js'),
    import('../../verify/redaction.js'),
  ]);
  const environment = { ...process.env, ...env };
  const redaction = new Redaction(confidencesOf(args, environment));
  let stdout = '';
  let stderr = '';
  const explore = args[0] === 'explore';
  const code = await runCommand(
    explore ? args.slice(1) : args,
    explore,
    {
      stdout: (text) => void (stdout += redaction.text(text)),
      stderr: (text) => void (stderr += redaction.text(text)),
    },
    environment,
  );
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
