// Writing a consumer's pact to a file, apart from judging it, so that the control client (which
// fetches a pact the server judged) writes it the same way without loading the judge.
import { fileError } from '../../core/file-error.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import {
  makeFolder,
  readRegularFile,
  regularFileAt,
  replaceFile,
  type RegularFileSystem,
} from '../../core/regular-file.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { MockOptionError, MockUsageError } from '../base/errors.js';
import type { RequestFilter } from '../journal/request-filter.js';
import { inFileOrder, mergePactDocuments, type PactConflict } from './pact-merge.js';
import { checkedFilter } from '../journal/request-filter.js';

/** The provider a consumer's pact names unless told otherwise: the interface's own name. */
export const defaultPactProvider = 'petstore-order-interface';

/** Who the pact is between, and which calls of the journal it holds. */
export interface PactSelection {
  consumer: string;
  provider?: string;
  /** Only the calls this filter picks, as `requests(filter)` does; the others are left out. Default: every call. */
  filter?: RequestFilter;
}

/** Where and between whom `mock.pact()` writes: `dir/CONSUMER-PROVIDER.json`, `dir` being `pacts` unless given. */
export interface PactOptions extends PactSelection {
  dir?: string;
}

/** What a pact's consumer or provider may be named: it becomes part of a file's name. */
export const pactParticipantName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

interface FileSystem extends RegularFileSystem {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  stat(path: string): Promise<Awaited<ReturnType<RegularFileSystem['stat']>> & { mtimeMs: number }>;
}

/** How long a writer waits for another to finish the same pact file before it gives up. */
export const pactLockPatience = 30_000;

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

// Node's file system without an import: this module also runs in browsers, where a pact has no file to go to.
function nodeFileSystem(): FileSystem {
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fileSystem = node?.getBuiltinModule?.('node:fs/promises') as FileSystem | undefined;
  if (fileSystem === undefined)
    throw new MockUsageError(
      'node_only',
      'mock.pact() writes a file, which needs Node.js 20.16 or later; in a browser, use mock.pactDocument() and save what it returns.',
    );
  return fileSystem;
}

/**
 * The pact's consumer and provider (the interface's own name unless given), each checked to be a
 * plain name, and its filter (every call unless given). Throws `MockOptionError` (`invalid_option`) otherwise.
 * @example
 * checkedParties({ consumer: 'web-app' }) // { consumer: 'web-app', provider: 'petstore-order-interface', filter: {} }
 */
export function checkedParties(parties: PactSelection): { consumer: string; provider: string; filter: RequestFilter } {
  if (parties === null || typeof parties !== 'object')
    throw new MockOptionError(
      'invalid_option',
      `the pact's options must be an object such as { consumer: 'web-app' }, not ${JSON.stringify(parties) ?? String(parties)}`,
    );
  const provider = parties.provider ?? defaultPactProvider;
  for (const [role, name] of [
    ['consumer', parties.consumer],
    ['provider', provider],
  ] as const)
    if (typeof name !== 'string' || !pactParticipantName.test(name))
      throw new MockOptionError(
        'invalid_option',
        `the pact's ${role} must be a name of letters, digits, '.', '_' and '-', not ${JSON.stringify(name)}`,
      );
  return { consumer: parties.consumer, provider, filter: checkedFilter(parties.filter, "the pact's filter") };
}

/** The tests the two answers came from, when the mock was told (`mock.testStarted`): `; in test "a", then in test "b"`. */
function madeIn({ keptIn, addedIn }: PactConflict): string {
  if (keptIn === undefined && addedIn === undefined) return '';
  const test = (name: string | undefined) => (name === undefined ? 'before any test began' : `in test "${name}"`);
  return `; ${test(keptIn)}, then ${test(addedIn)}`;
}

/**
 * The error for interactions that answer the same request under the same provider state differently:
 * a provider cannot honour both. `MockUsageError` with the code `pact_conflict`.
 * @example
 * throw conflictError([{ kept: 'DELETE /store/orders/3 409 (with the key)', added: 'DELETE /store/orders/3 404 (with the key)', difference: 'status 409, then 404' }]);
 */
export function conflictError(conflicts: readonly PactConflict[], file?: string): MockUsageError {
  const named = conflicts
    .map(
      (conflict) =>
        `${conflict.added === conflict.kept ? `"${conflict.added}"` : `"${conflict.added}" against "${conflict.kept}"`} (${conflict.difference}${madeIn(conflict)})`,
    )
    .join('; ');
  return new MockUsageError(
    'pact_conflict',
    `the pact was not written: the same request under the same provider state is answered differently${file === undefined ? '' : ` in ${file} and in this run`}: ${named}`,
  );
}

// A short name for the lock and the new file beside the pact, whose own name may be near the limit.
function shortName(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The document to write: the one given, merged into the file's when there is one. */
async function mergedDocument(
  fileSystem: FileSystem,
  file: string,
  document: Record<string, JsonValue>,
  action: string,
): Promise<Record<string, JsonValue>> {
  const text = await readRegularFile(fileSystem, { path: file, action });
  if (text === undefined) return document;
  let existing: JsonValue;
  try {
    existing = parseJson(text);
  } catch {
    throw new MockUsageError('unmergeable_pact_file', `${file} is there and is not JSON; move it away or delete it`);
  }
  const merged = mergePactDocuments(existing, document, file);
  if (merged.conflicts.length > 0) throw conflictError(merged.conflicts, file);
  return merged.document;
}

/**
 * The lock file beside a pact, which its writers take in turn: short, whatever the pact's own name.
 * @example
 * pactLockFile('pacts', { consumer: 'web-app', provider: 'petstore-order-interface' }) // 'pacts/.1x2y3z.pact.lock'
 */
export function pactLockFile(dir: string, parties: { consumer: string; provider: string }): string {
  const lock = `.${shortName(`${parties.consumer}-${parties.provider}`)}.pact.lock`;
  return /[\\/]$/.test(dir) ? `${dir}${lock}` : `${dir}/${lock}`;
}

/** How long ago a file was last written, in milliseconds; 0 when it is not there. */
const ageOf = (fileSystem: FileSystem, path: string) =>
  fileSystem.stat(path).then(
    (stat) => Date.now() - stat.mtimeMs,
    () => 0,
  );

/**
 * Breaks a lock a writer left behind (it died holding it), if it is still the one seen: under a
 * breaker lock of its own, so that two waiters that both saw it stale cannot remove the new lock one
 * of them takes after the other broke it.
 */
async function breakStaleLock(fileSystem: FileSystem, lock: string, seen: string): Promise<void> {
  const breaker = `${lock}.break`;
  try {
    await fileSystem.writeFile(breaker, '', { flag: 'wx' });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    // Another waiter is breaking it; a breaker left by one that died while breaking is old itself.
    if ((await ageOf(fileSystem, breaker)) > pactLockPatience) await fileSystem.unlink(breaker).catch(() => undefined);
    return;
  }
  try {
    const now = await fileSystem.readFile(lock, 'utf8').catch(() => undefined);
    if (now === seen) await fileSystem.unlink(lock).catch(() => undefined);
  } finally {
    await fileSystem.unlink(breaker).catch(() => undefined);
  }
}

/** Holds the pact's lock while `work` runs: one writer at a time, across workers and processes. */
async function withLock<T>(
  fileSystem: FileSystem,
  lock: { path: string; folder: string; action: string },
  work: () => Promise<T>,
): Promise<T> {
  let token: string;
  try {
    token = await takeLock(fileSystem, lock.path);
  } catch (error) {
    // The lock's own refusal (held too long) as it is; the file system's (no permission, no space) coded,
    // named by its folder, which is what the user chose and can change.
    throw error instanceof MockUsageError ? error : fileError(error, { action: lock.action, path: lock.folder });
  }
  try {
    return await work();
  } finally {
    // Only its own: a lock broken as stale (a writer slower than the patience) may be another's by now.
    if ((await fileSystem.readFile(lock.path, 'utf8').catch(() => undefined)) === token)
      await fileSystem.unlink(lock.path).catch(() => undefined);
  }
}

/** Takes the lock, waiting for another writer's turn to end; resolves with the token it wrote. */
async function takeLock(fileSystem: FileSystem, lock: string): Promise<string> {
  const started = Date.now();
  const token = `${Date.now()} ${Math.random().toString(36).slice(2)}`;
  for (;;) {
    try {
      await fileSystem.writeFile(lock, token, { flag: 'wx' });
      return token;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const seen = await fileSystem.readFile(lock, 'utf8').catch(() => undefined);
    if (seen === undefined) continue;
    const age = await ageOf(fileSystem, lock);
    if (age > pactLockPatience) await breakStaleLock(fileSystem, lock, seen);
    else if (Date.now() - started > pactLockPatience)
      throw new MockUsageError(
        'pact_file_locked',
        `${lock} has been held for ${Math.round(age / 1000)} s by another writer of the same pact; delete it if no test run is writing`,
      );
    else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

// A folder without the slashes it ends with, but a root: '/' stays '/', 'C:\\' stays 'C:\\'.
function folderOf(dir: string): string {
  const trimmed = dir.replace(/[\\/]+$/, '');
  if (trimmed === '') return dir.slice(0, 1);
  return /^[A-Za-z]:$/.test(trimmed) && trimmed.length < dir.length ? dir.slice(0, 3) : trimmed;
}

/**
 * Where a pact is written: the folder (`pacts` unless given; a root such as `/` is kept), the file in it,
 * and the file's name without `.json`. Throws `MockOptionError` (`invalid_option`) for bad parties or a
 * `dir` that is not a folder's path.
 * @example
 * pactFilePath({ consumer: 'web-app', dir: '/' }).file // '/web-app-petstore-order-interface.json'
 * pactFilePath({ consumer: 'web-app', dir: 'out//' }).file // 'out/web-app-petstore-order-interface.json'
 */
export function pactFilePath(options: PactOptions): { dir: string; file: string; name: string } {
  const parties = checkedParties(options);
  const given = options.dir === undefined ? 'pacts' : options.dir;
  if (typeof given !== 'string' || given === '' || given.includes('\0'))
    throw new MockOptionError(
      'invalid_option',
      `the pact's dir must be a folder's path such as 'pacts' or '/tmp/pacts', not ${JSON.stringify(given) ?? String(given)}`,
    );
  const dir = folderOf(given);
  const name = `${parties.consumer}-${parties.provider}`;
  return { dir, file: /[\\/]$/.test(dir) ? `${dir}${name}.json` : `${dir}/${name}.json`, name };
}

/**
 * Writes a pact document to `dir/CONSUMER-PROVIDER.json` (`dir` is `pacts` unless given), merged as
 * Pact merges: the interactions a file already holds for the same consumer and provider stay, one
 * with the same request and provider state is written once, and one answered differently is refused
 * (`MockUsageError` `pact_conflict`, naming both). Safe under concurrent writers (workers, processes):
 * one at a time under a lock file, each writing a new file and renaming it over the old one. Resolves
 * with the file's path. Node.js only. A path the file system refuses is a `FileError` of its cause
 * (`path_too_long`, `permission_refused`, `not_a_folder`, `no_space`, ...); a FIFO, a folder, a socket
 * or a device at the pact's path is refused (`not_a_regular_file`) before the lock is taken, and a
 * symbolic link to a regular file is followed: the file it leads to is the one merged into and replaced.
 * @example
 * await writePactFile(document, { consumer: 'web-app' }) // 'pacts/web-app-petstore-order-interface.json'
 */
export async function writePactFile(document: JsonValue, options: PactOptions): Promise<string> {
  const { dir, file, name } = pactFilePath(options);
  const fileSystem = nodeFileSystem();
  const action = `write the pact ${file}`;
  await makeFolder(fileSystem, { path: dir, action });
  // Looked at before the lock is taken, without opening it: a special file is refused, never waited on
  // while other writers wait for the lock; a link to a regular file is followed.
  const target = await regularFileAt(fileSystem, { path: file, action });
  const lock = { path: pactLockFile(dir, checkedParties(options)), folder: dir, action };
  await withLock(fileSystem, lock, async () => {
    const merged = await mergedDocument(fileSystem, target.file, document as Record<string, JsonValue>, action);
    const folder = target.file.slice(0, Math.max(target.file.lastIndexOf('/'), target.file.lastIndexOf('\\')) + 1);
    await replaceFile(fileSystem, {
      file: target.file,
      temporary: `${folder}.${shortName(name)}.${Math.random().toString(36).slice(2)}.partial`,
      text: `${stringifyJson(inFileOrder(merged))}\n`,
      action,
    });
  });
  return file;
}
