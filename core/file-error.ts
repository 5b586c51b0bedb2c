import { KitError, type CoreErrorCode } from './errors.js';

/** The codes of `FileError`: one a cause, each in `coreErrorCodes`. */
export type FileErrorCode = Extract<
  CoreErrorCode,
  'path_too_long' | 'permission_refused' | 'not_a_regular_file' | 'not_a_folder' | 'no_space' | 'file_system_failure'
>;

/**
 * A pact or a scenario file the kit cannot read or write: the code says why, the message names the
 * path and what to do, `path` is the path that failed (the file, its folder or the lock beside it)
 * and `cause` the file system's own error, when there was one.
 * @example
 * try { await mock.pact({ consumer: 'web-app', dir: '/read-only' }); } catch (error) { if (error instanceof FileError) console.error(error.code, error.path); }
 */
export class FileError extends KitError<FileErrorCode> {
  override name = 'FileError';
  readonly path: string;

  constructor(code: FileErrorCode, message: string, options: { path: string; cause?: unknown }) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
  }
}

/** The file system's codes each cause stands for, what it is, and what to do about it. */
const causes: readonly { code: FileErrorCode; errnos: readonly string[]; is: string; advice: string }[] = [
  {
    code: 'path_too_long',
    errnos: ['ENAMETOOLONG'],
    is: 'is longer than the file system allows',
    advice: 'use a shorter folder or name',
  },
  {
    code: 'permission_refused',
    errnos: ['EACCES', 'EPERM'],
    is: 'may not be written or read by this user',
    advice: 'give this user write access to the folder, or choose another folder',
  },
  {
    code: 'permission_refused',
    errnos: ['EROFS'],
    is: 'is on a read-only file system',
    advice: 'choose a folder on a writable one',
  },
  {
    code: 'not_a_regular_file',
    errnos: ['EISDIR'],
    is: 'is a folder, not a file',
    advice: 'move it away, or choose another folder',
  },
  {
    // What opening a FIFO with no reader without waiting says (O_NONBLOCK), or a device that is not there.
    code: 'not_a_regular_file',
    errnos: ['ENXIO'],
    is: 'is a FIFO or a device, not a regular file',
    advice: 'move it away, or choose another folder',
  },
  {
    code: 'not_a_folder',
    errnos: ['ENOTDIR'],
    is: 'goes through a file where a folder should be',
    advice: 'move that file away, or choose another folder',
  },
  {
    code: 'no_space',
    errnos: ['ENOSPC', 'EDQUOT'],
    is: 'did not fit: no space is left on its file system',
    advice: 'free some space, or choose a folder on another file system',
  },
];

/**
 * The file system's error on `path` as a `FileError` of its cause, the message saying what could not
 * be done (`action`), the path, why and what to do. A `FileError` already is returned as it is.
 * @example
 * fileError(Object.assign(new Error('x'), { code: 'EACCES' }), { action: 'write the pact pacts/a-b.json', path: 'pacts' }).message
 * // 'cannot write the pact pacts/a-b.json: pacts may not be written or read by this user (EACCES); give this user write access to the folder, or choose another folder'
 */
export function fileError(error: unknown, context: { action: string; path: string }): FileError {
  if (error instanceof FileError) return error;
  const errno = (error as { code?: unknown } | null)?.code;
  const cause = causes.find((candidate) => typeof errno === 'string' && candidate.errnos.includes(errno));
  const { action, path } = context;
  if (cause === undefined) {
    const why = typeof errno === 'string' ? errno : (error as Error).message;
    return new FileError('file_system_failure', `cannot ${action}: ${path}: ${why}`, { path, cause: error });
  }
  return new FileError(cause.code, `cannot ${action}: ${path} ${cause.is} (${errno}); ${cause.advice}`, {
    path,
    cause: error,
  });
}

/** What a file system's `stat` tells of a file, as the kit reads it. */
export interface FileKind {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * What a file that is not a regular one is, in words; `undefined` for a regular file.
 * @example
 * specialFileKind(await lstat('/dev/null')) // 'a device'
 */
export function specialFileKind(stats: FileKind): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * The error for a special file where a regular one is to be read or written: refused at once, never
 * opened in a way that waits (a FIFO with no writer blocks a reader for ever, one with no reader a writer).
 * @example
 * throw notARegularFile({ action: 'write the pact pacts/a-b.json', path: 'pacts/a-b.json', kind: 'a FIFO (named pipe)' });
 */
export function notARegularFile(context: { action: string; path: string; kind: string }): FileError {
  const { action, path, kind } = context;
  return new FileError(
    'not_a_regular_file',
    `cannot ${action}: ${path} is ${kind}, not a regular file; move it away, or choose another folder`,
    { path },
  );
}
