// Reading and writing a pact or a scenario file without ever waiting on a special file: a FIFO opened
// to read waits for a writer, one opened to write for a reader, for ever, and the file-system thread it
// holds keeps even process.exit() from ending the process. The file system is given, not imported:
// the pact's writer also loads in browsers, where there is none.
import { fileError, type FileKind, notARegularFile, specialFileKind } from './file-error.js';

/** An open file, as the kit uses one. */
export interface RegularFileHandle {
  stat(): Promise<FileKind>;
  readFile(encoding: 'utf8'): Promise<string>;
  writeFile(text: string): Promise<void>;
  close(): Promise<void>;
}

/** The part of `node:fs/promises` these functions use. */
export interface RegularFileSystem {
  mkdir(path: string): Promise<unknown>;
  lstat(path: string): Promise<FileKind>;
  stat(path: string): Promise<FileKind>;
  realpath(path: string): Promise<string>;
  open(path: string, flags: number): Promise<RegularFileHandle>;
  writeFile(path: string, text: string, options: { flag: 'wx' }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  constants: { O_RDONLY: number; O_WRONLY: number; O_CREAT: number; O_TRUNC: number; O_NONBLOCK: number };
}

const errnoOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * The file to read or replace for `path`: `path` itself when it is a regular file or nothing is there
 * (`exists` false), the file a symbolic link leads to when it leads to a regular one. Looks without
 * opening (lstat), so it never waits. Throws `FileError` `not_a_regular_file` for a FIFO, a folder, a
 * socket, a device or a link to none of those or to nothing, and the `FileError` of its cause else.
 * @example
 * await regularFileAt(fs, { path: 'pacts/a-b.json', action: 'write the pact pacts/a-b.json' }) // { file: 'pacts/a-b.json', exists: false }
 */
export async function regularFileAt(
  fileSystem: RegularFileSystem,
  context: { path: string; action: string },
): Promise<{ file: string; exists: boolean }> {
  const { path, action } = context;
  let kind: string | undefined;
  try {
    const stats = await fileSystem.lstat(path);
    kind = specialFileKind(stats);
    if (kind === undefined) return { file: path, exists: true };
    if (!stats.isSymbolicLink()) throw notARegularFile({ action, path, kind });
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { file: path, exists: false };
    throw fileError(error, { action, path });
  }
  // A link: followed, so that a pact kept elsewhere and linked into the folder is updated where it is.
  let target: string;
  try {
    target = await fileSystem.realpath(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') throw notARegularFile({ action, path, kind: 'a symbolic link to nothing' });
    throw fileError(error, { action, path });
  }
  const targetKind = specialFileKind(
    await fileSystem.stat(target).catch((error) => {
      throw fileError(error, { action, path: target });
    }),
  );
  if (targetKind !== undefined)
    throw notARegularFile({ action, path, kind: `a symbolic link to ${targetKind} (${target})` });
  return { file: target, exists: true };
}

/**
 * The text of a regular file, or `undefined` when nothing is at `path`. Opened without blocking and
 * checked on the open file (fstat) before a byte is read, so a special file put there since it was
 * looked at is refused rather than waited on. Throws `FileError`.
 * @example
 * const text = await readRegularFile(fs, { path: 'pacts/a-b.json', action: 'read the pact pacts/a-b.json' });
 */
export async function readRegularFile(
  fileSystem: RegularFileSystem,
  context: { path: string; action: string },
): Promise<string | undefined> {
  const { path, action } = context;
  let handle: RegularFileHandle;
  try {
    handle = await fileSystem.open(path, fileSystem.constants.O_RDONLY | fileSystem.constants.O_NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw fileError(error, { action, path });
  }
  try {
    const kind = specialFileKind(await handle.stat());
    if (kind !== undefined) throw notARegularFile({ action, path, kind });
    return await handle.readFile('utf8');
  } catch (error) {
    throw fileError(error, { action, path });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Puts `text` at `file` whole or not at all: written to a new file beside it (`temporary`, made
 * exclusively, so never a special file), then renamed over it. What is left of the new file after a
 * failure (no space) is removed. Throws `FileError`.
 * @example
 * await replaceFile(fs, { file: 'pacts/a-b.json', temporary: 'pacts/.a-b.1.partial', text, action: 'write the pact pacts/a-b.json' });
 */
export async function replaceFile(
  fileSystem: RegularFileSystem,
  context: { file: string; temporary: string; text: string; action: string },
): Promise<void> {
  const { file, temporary, text, action } = context;
  try {
    await fileSystem.writeFile(temporary, text, { flag: 'wx' });
  } catch (error) {
    // Never another's: a name taken already (EEXIST) is not this writer's to remove.
    if (errnoOf(error) !== 'EEXIST') await fileSystem.unlink(temporary).catch(() => undefined);
    throw fileError(error, { action, path: temporary });
  }
  try {
    await fileSystem.rename(temporary, file);
  } catch (error) {
    await fileSystem.unlink(temporary).catch(() => undefined);
    throw fileError(error, { action, path: file });
  }
}

/**
 * Writes `text` to `path` in place, made or emptied first: opened without waiting (a FIFO with no reader
 * fails at once, ENXIO) and checked on the open file (fstat) before a byte is written, so a special
 * file is refused rather than written to or waited on. For a file only this writer uses (a temporary
 * one); a file others read is put in place with `replaceFile`. Throws `FileError`.
 * @example
 * await writeRegularFile(fs, { path: 'recordings/.a.yaml.tmp', text, action: 'save the recording recordings/a.yaml' });
 */
export async function writeRegularFile(
  fileSystem: RegularFileSystem,
  context: { path: string; text: string; action: string },
): Promise<void> {
  const { path, text, action } = context;
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NONBLOCK } = fileSystem.constants;
  let handle: RegularFileHandle;
  try {
    handle = await fileSystem.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK);
  } catch (error) {
    throw fileError(error, { action, path });
  }
  try {
    const kind = specialFileKind(await handle.stat());
    if (kind !== undefined) throw notARegularFile({ action, path, kind });
    await handle.writeFile(text);
  } catch (error) {
    throw fileError(error, { action, path });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

// The folder a path is in, by its text: '/' for '/a', 'C:\\' for 'C:\\a', '.' for 'a'.
function parentOf(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const slash = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (slash < 0) return '.';
  const parent = trimmed.slice(0, slash);
  return parent === '' || /^[A-Za-z]:$/.test(parent) ? trimmed.slice(0, slash + 1) : parent;
}

/**
 * Makes a folder and the folders above it that are missing, one `mkdir` each. Not `mkdir`'s
 * `recursive`, which on Node 20 loops for ever where no folder can be made (under /proc). Throws
 * `FileError` naming the folder: `not_a_folder` where a file stands, and the cause of any other failure.
 * @example
 * await makeFolder(fs, { path: 'pacts/web', action: 'write the pact pacts/web/a-b.json' });
 */
export async function makeFolder(
  fileSystem: RegularFileSystem,
  context: { path: string; action: string },
): Promise<void> {
  const { path, action } = context;
  try {
    await fileSystem.mkdir(path);
    return;
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === 'EEXIST') {
      const stats = await fileSystem.stat(path).catch((failure: unknown) => {
        throw fileError(failure, { action, path });
      });
      if (stats.isDirectory()) return;
      throw fileError(Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR' }), { action, path });
    }
    const parent = parentOf(path);
    if (errno !== 'ENOENT' || parent === path || parent === '.') throw fileError(error, { action, path });
  }
  await makeFolder(fileSystem, { path: parentOf(path), action });
  try {
    await fileSystem.mkdir(path);
  } catch (error) {
    // Made by another writer meanwhile: as good as made here.
    if (errnoOf(error) !== 'EEXIST') throw fileError(error, { action, path });
  }
}
