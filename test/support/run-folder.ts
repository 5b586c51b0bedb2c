// The end-to-end project's globalSetup (vitest.config.ts): one folder for the whole vitest run, which
// every worker process is told of (`inject('runFolder')`), so that work several files need (the packed
// kit, the Node 24 projects) is done once a run by whichever file asks first (oncePerRun), and removed
// with everything in it when the run ends. A run that never reaches its end (vitest killed, the machine
// out of memory) leaves its folder: the next run removes it, once it knows its owner has ended.
import { readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { scratchFolder } from './cli-support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared folder (test/support/run-folder.ts): what oncePerRun makes lives there. */
    runFolder: string;
  }
}

const prefix = 'petstore-run-';

/** The file in a run's folder that names the process whose run it is (vitest's main process). */
const ownerFile = '.owner.json';

/** A process, told apart from a later one given the same pid by when it started. */
interface Owner {
  pid: number;
  /** /proc/PID/stat's start time (clock ticks after boot); absent where there is no /proc. */
  started?: string;
}

/**
 * Makes the run's folder, with its owner named in it, and provides it to the project's files; first
 * removes the folders earlier runs left whose owner has ended. The returned teardown removes the run's.
 *
 * @example
 * // vitest.config.ts, a project's options
 * { globalSetup: ['test/support/run-folder.ts'] }
 */
export default async function runFolder(project: TestProject): Promise<() => Promise<void>> {
  const folder = await scratchFolder(prefix);
  const started = processStart(process.pid);
  await writeFile(
    join(folder, ownerFile),
    JSON.stringify({ pid: process.pid, ...(started !== undefined && { started }) }),
  );
  await removeEndedRuns(dirname(folder));
  project.provide('runFolder', folder);
  return () => rm(folder, { recursive: true, force: true });
}

/**
 * Removes each run folder in `parent` whose owner has ended. A folder without an owner file is kept:
 * a run that has just made its folder has not written it yet, and runs before the file existed never do.
 */
async function removeEndedRuns(parent: string): Promise<void> {
  for (const entry of await readdir(parent, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(prefix)) continue;
    const folder = join(parent, basename(entry.name));
    let owner: Owner;
    try {
      owner = JSON.parse(await readFile(join(folder, ownerFile), 'utf8')) as Owner;
    } catch {
      continue; // no owner file (yet), or another user's folder
    }
    if (!alive(owner)) await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Whether the owner still runs: a process under its pid that started when it did (a pid is reused
 * once its process has ended); where there is no /proc, whether any process has that pid.
 */
function alive(owner: Owner): boolean {
  if (owner.started !== undefined) return processStart(owner.pid) === owner.started;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it runs, as another user
  }
}

/** When process `pid` started, from /proc/PID/stat (its 22nd field), or undefined if none runs or there is no /proc. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name, in parentheses, may hold spaces: the fields are counted after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
