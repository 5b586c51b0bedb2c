import { existsSync, watch } from 'node:fs';
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';

const made = new Map<string, Promise<unknown>>();

/** What the maker left in the run's folder: its value, or why it failed. */
type Outcome<T> = { value: T } | { error: string };

/**
 * Runs `make` once for the whole vitest run, whichever test file and worker process asks first, and
 * gives every asker its value (JSON, so that other processes can read it). The first asker takes a
 * lock file in the run's folder (test/support/run-folder.ts, or `runFolder`), makes the value in a
 * folder of its own (`folder`, kept until the run ends) and writes the outcome beside it; the others
 * wait for that file to appear, watching the folder: no clock, the test's own timeout bounds the wait.
 * A maker that throws fails every asker, with its message.
 *
 * @example
 * const tarball = await oncePerRun('kit', (folder) => packKit(folder));
 */
export function oncePerRun<T>(
  name: string,
  make: (folder: string) => Promise<T>,
  options: { runFolder?: string } = {},
): Promise<T> {
  const runFolder = options.runFolder ?? inject('runFolder');
  if (runFolder === undefined) throw new Error('no run folder: oncePerRun runs in the end-to-end project only');
  const key = join(runFolder, name);
  let value = made.get(key) as Promise<T> | undefined;
  if (value === undefined) {
    value = madeOnce(runFolder, name, make);
    made.set(key, value);
  }
  return value;
}

async function madeOnce<T>(runFolder: string, name: string, make: (folder: string) => Promise<T>): Promise<T> {
  const outcomeFile = join(runFolder, `${name}.json`);
  const lock = await open(join(runFolder, `${name}.lock`), 'wx').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return undefined;
    throw error;
  });
  let outcome: Outcome<T>;
  if (lock === undefined) outcome = JSON.parse(await appeared(runFolder, `${name}.json`)) as Outcome<T>;
  else {
    await lock.close();
    const folder = join(runFolder, name);
    await mkdir(folder);
    try {
      outcome = { value: await make(folder) };
    } catch (error) {
      outcome = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    // Written whole, then renamed: a waiter never reads half a file.
    await writeFile(`${outcomeFile}.partial`, JSON.stringify(outcome));
    await rename(`${outcomeFile}.partial`, outcomeFile);
  }
  if ('error' in outcome) throw new Error(`${name}, made once for the run, failed: ${outcome.error}`);
  return outcome.value;
}

/** The text of `file` in `folder` once it exists: the watch starts before the first look, so no rename is missed. */
function appeared(folder: string, file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let done = false;
    const watcher = watch(folder);
    const look = () => {
      if (done || !existsSync(join(folder, file))) return;
      done = true;
      watcher.close();
      readFile(join(folder, file), 'utf8').then(resolve, reject);
    };
    watcher.on('change', (_event, changed) => {
      if (changed === file) look();
    });
    watcher.on('error', (error) => {
      watcher.close();
      reject(error);
    });
    look();
  });
}
