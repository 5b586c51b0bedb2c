import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { inject } from 'vitest';

const made = new Map<string, Promise<unknown>>();

/** What the maker left in the run's folder: its value, or why it failed. */
type Outcome<T> = { value: T } | { error: string };

/** What the lock file holds: who is making the thing, and the socket it keeps open while it does. */
interface Maker {
  pid: number;
  socket: string;
}

/** How oncePerRun is told where to work, and (for its own tests) when an asker is waiting on another's maker. */
export interface OncePerRunOptions {
  /** The run's folder; by default the one the end-to-end project's globalSetup provides. */
  runFolder?: string;
  /** Called once this asker is connected to another asker's maker and waits for it to end. */
  waiting?: () => void;
}

/**
 * Runs `make` once for the whole vitest run, whichever test file and worker process asks first, and
 * gives every asker its value (JSON, so that other processes can read it). The first asker listens on
 * a Unix socket, then takes the lock file in the run's folder (test/support/run-folder.ts, or
 * `runFolder`) naming its pid and that socket, makes the value in a folder of its own (`folder`, kept
 * until the run ends), writes the outcome beside it and only then closes the socket. The others connect
 * to the socket and wait for it to close: the kernel closes it when the maker's process ends, however
 * it ends, so a waiter needs no clock. The outcome file is there when it closes if the maker finished;
 * if not, the maker died while making (killed, or its process exited), and every asker fails saying so,
 * with its pid. A maker that throws fails every asker, with its message.
 *
 * @example
 * const tarball = await oncePerRun('kit', (folder) => packKit(folder));
 */
export function oncePerRun<T>(
  name: string,
  make: (folder: string) => Promise<T>,
  options: OncePerRunOptions = {},
): Promise<T> {
  const runFolder = options.runFolder ?? inject('runFolder');
  if (runFolder === undefined) throw new Error('no run folder: oncePerRun runs in the end-to-end project only');
  const key = join(runFolder, name);
  let value = made.get(key) as Promise<T> | undefined;
  if (value === undefined) {
    value = madeOnce({ runFolder, name, make, waiting: options.waiting });
    made.set(key, value);
  }
  return value;
}

async function madeOnce<T>(ask: {
  runFolder: string;
  name: string;
  make: (folder: string) => Promise<T>;
  waiting: (() => void) | undefined;
}): Promise<T> {
  const { runFolder, name } = ask;
  const outcomeFile = join(runFolder, `${name}.json`);
  const lockFile = join(runFolder, `${name}.lock`);
  // Made already: no socket to open.
  let outcome = await readOutcome<T>(outcomeFile);
  if (outcome === undefined) {
    const maker = await takeLock(runFolder, name, lockFile);
    if ('pid' in maker) outcome = await makerEnded(maker, outcomeFile, ask);
    else {
      try {
        try {
          const folder = join(runFolder, name);
          await mkdir(folder);
          outcome = { value: await ask.make(folder) };
        } catch (error) {
          outcome = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
        }
        // Written whole, then renamed: a waiter never reads half a file.
        await writeFile(`${outcomeFile}.partial`, JSON.stringify(outcome));
        await rename(`${outcomeFile}.partial`, outcomeFile);
      } finally {
        // Then the socket closes, and every waiter reads the outcome (or, if it could not be written,
        // learns at once that there is none).
        await new Promise<void>((closed) => {
          maker.server.close(() => closed());
          for (const connection of maker.connections) connection.destroy();
        });
        await rm(maker.socket, { force: true });
      }
    }
  }
  if ('error' in outcome) throw new Error(`${name}, made once for the run, failed: ${outcome.error}`);
  return outcome.value;
}

/**
 * The lock, taken with this process's socket already listening (so that a waiter who reads the lock
 * can always connect while the maker lives), or the maker named in it when another asker took it first.
 * The lock appears whole (written aside, then hard-linked, which fails if it exists): never half a pid.
 */
async function takeLock(
  runFolder: string,
  name: string,
  lockFile: string,
): Promise<{ server: Server; socket: string; connections: Set<Socket> } | Maker> {
  const mine = randomUUID().slice(0, 8);
  // Named without the thing's name: a Unix socket's path is limited to about 100 bytes.
  const socket = join(runFolder, `${mine}.sock`);
  // Every connection is kept from the first, so that the maker can end them all: the server's close
  // waits for the ones left open.
  const connections = new Set<Socket>();
  const server = createServer((connection) => {
    connections.add(connection);
    connection.unref();
    connection.on('error', () => undefined).on('close', () => connections.delete(connection));
  });
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(socket, listening));
  server.unref();
  const aside = join(runFolder, `${name}.${mine}.lock`);
  await writeFile(aside, JSON.stringify({ pid: process.pid, socket } satisfies Maker));
  try {
    await link(aside, lockFile);
    return { server, socket, connections };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await new Promise((closed) => server.close(closed));
    await rm(socket, { force: true });
    return JSON.parse(await readFile(lockFile, 'utf8')) as Maker;
  } finally {
    await rm(aside, { force: true });
  }
}

/**
 * Waits on another asker's maker: connects to its socket and waits for the connection to end (or to be
 * refused: it ended before). Its outcome is there then, unless it died while making.
 */
async function makerEnded<T>(
  maker: Maker,
  outcomeFile: string,
  ask: { waiting: (() => void) | undefined },
): Promise<Outcome<T>> {
  await new Promise<void>((ended) => {
    const connection = connect(maker.socket);
    connection.on('connect', () => ask.waiting?.());
    connection.on('error', () => undefined).on('close', () => ended());
    connection.resume();
  });
  return (
    (await readOutcome<T>(outcomeFile)) ?? {
      error: `its maker (pid ${maker.pid}) ended while making it, leaving no outcome (killed, or its process exited)`,
    }
  );
}

async function readOutcome<T>(outcomeFile: string): Promise<Outcome<T> | undefined> {
  try {
    return JSON.parse(await readFile(outcomeFile, 'utf8')) as Outcome<T>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
