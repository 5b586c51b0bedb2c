import * as fileSystem from 'node:fs/promises';
import { link, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { KitError } from '../../core/errors.js';
import { writeRegularFile } from '../../core/regular-file.js';

/**
 * A folder the recorder cannot write, or a name it cannot take: the message says which and why.
 * @example
 * await ScenarioRecorder.open({ directory: '/proc/x', upstream }).catch((error) => error.message) // 'cannot write recordings to /proc/x: ENOENT'
 */
export class RecordingError extends KitError<'recording_refused'> {
  override name = 'RecordingError';

  constructor(message: string) {
    super('recording_refused', message);
  }
}

/** Where a recording goes: its scenario name, its file, and whether the file is on disk yet. */
export interface RecordingFile {
  name: string;
  file: string;
  /** Its first write must not replace a file someone else made. */
  created: boolean;
}

const scenarioName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * Writes the whole file to a temporary file, then into place: renamed over the file it wrote before,
 * or, for its first write, linked where no file is (a file made since the name was chosen takes the
 * next name, added to `names`, and `target` says which).
 */
export async function writeRecording(target: RecordingFile, text: string, names: Set<string>): Promise<void> {
  const temporary = join(target.file, '..', `.${target.name}.yaml.${process.pid}.tmp`);
  try {
    // Without waiting: a FIFO at the temporary name is refused, not written to for ever.
    await writeRegularFile(fileSystem, { path: temporary, text, action: `save the recording ${target.file}` });
    if (target.created) await rename(temporary, target.file);
    else await claimName(target, temporary, names);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Places the temporary file at `target`'s file where no file is, else at the next free name (`-2`, `-3`, …). */
export async function claimName(target: RecordingFile, temporary: string, names: Set<string>): Promise<void> {
  const base = target.name;
  for (let suffix = 2; ; suffix++) {
    try {
      await moveWithoutOverwriting(temporary, target.file);
      target.created = true;
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      target.name = unusedName(`${base}-${suffix}`, names);
      names.add(target.name);
      target.file = join(target.file, '..', `${target.name}.yaml`);
    }
  }
}

/**
 * Puts the temporary file's text at `file`, only where no file is (EEXIST else): a hard link, or where
 * the file system has none (FAT, some network mounts), an empty file made exclusively, then renamed over.
 */
export async function moveWithoutOverwriting(temporary: string, file: string): Promise<void> {
  try {
    await link(temporary, file);
    await unlink(temporary);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
    await (await open(file, 'wx')).close();
    await rename(temporary, file);
  }
}

/**
 * A name not among `taken`: the name itself, else with `-2`, `-3`, … after it (a trailing `.yaml` is dropped).
 * @throws RecordingError when it is not a scenario name (letters, digits, `.`, `_`, `-`).
 */
export function unusedName(wanted: string, taken: ReadonlySet<string>): string {
  const name = wanted.replace(/\.ya?ml$/, '');
  if (!scenarioName.test(name))
    throw new RecordingError(
      `${JSON.stringify(wanted)} is not a scenario name: letters, digits, '.', '_' and '-', starting with a letter or digit`,
    );
  let free = name;
  for (let suffix = 2; taken.has(free); suffix++) free = `${name}-${suffix}`;
  return free;
}

/** A readable name for a recording started at `date` (UTC). */
export function timestampedName(date: Date): string {
  const iso = date.toISOString();
  return `recording-${iso.slice(0, 10)}-${iso.slice(11, 19).replaceAll(':', '')}`;
}
