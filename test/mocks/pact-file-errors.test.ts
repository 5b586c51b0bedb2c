// mock.pact() where the pact cannot be written (issue 59): each file-system cause is a FileError with
// a code of its own and a message naming the path and what to do; a special file at the pact's path
// is refused at once, before the lock is taken, so no writer waits on it. Honest writes, through a
// link included, are written as before.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileError } from '../../core/file-error.js';
import { parseJson } from '../../core/parse-json.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { asUnprivileged } from '../support/unprivileged.js';

const withKey = { authorization: 'Bearer petstore-dev-key' };
let directory: string;
let dirs = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-pact-errors-'));
  // Others may pass through: the read-only folder's test writes as another user when run as root.
  await chmod(directory, 0o755);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const freshDir = () => join(directory, `pacts-${dirs++}`);

/** A mock that saw one cancel of order `id`, ready to write its pact. */
async function mockWithACall(id = 1) {
  const mock = createOrderMock();
  await mock.handle(new Request(`http://localhost/v1/store/orders/${id}`, { method: 'DELETE', headers: withKey }));
  return mock;
}

async function refusal(write: () => Promise<unknown>): Promise<FileError> {
  const error = await write().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FileError);
  return error as FileError;
}

const descriptions = async (file: string) =>
  (parseJson(await readFile(file, 'utf8')) as unknown as { interactions: { description: string }[] }).interactions.map(
    (interaction) => interaction.description,
  );

describe('a pact the file system refuses is a FileError naming the path', () => {
  it('a consumer name of 226 characters makes a file name past 255 bytes: path_too_long, nothing left behind', async () => {
    const dir = freshDir();
    const consumer = 'c'.repeat(226);
    const file = `${dir}/${consumer}-petstore-order-interface.json`;
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer, dir }));
    expect([error.code, error.path, error.message]).toEqual([
      'path_too_long',
      file,
      `cannot write the pact ${file}: ${file} is longer than the file system allows (ENAMETOOLONG); use a shorter folder or name`,
    ]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a dir with a folder name past 255 bytes is path_too_long, naming the dir', async () => {
    const dir = join(freshDir(), 'd'.repeat(256));
    const file = `${dir}/web-app-petstore-order-interface.json`;
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer: 'web-app', dir }));
    expect([error.code, error.message]).toEqual([
      'path_too_long',
      `cannot write the pact ${file}: ${dir} is longer than the file system allows (ENAMETOOLONG); use a shorter folder or name`,
    ]);
  });

  it('a read-only folder is permission_refused, naming the folder', async () => {
    const dir = freshDir();
    await mkdir(dir);
    await chmod(dir, 0o555);
    const mock = await mockWithACall();
    const error = await refusal(() => asUnprivileged(() => mock.pact({ consumer: 'web-app', dir })));
    expect([error.code, error.message]).toEqual([
      'permission_refused',
      `cannot write the pact ${dir}/web-app-petstore-order-interface.json: ${dir} may not be written or read by this user (EACCES); give this user write access to the folder, or choose another folder`,
    ]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a file where the dir should be is not_a_folder', async () => {
    const dir = freshDir();
    await writeFile(dir, 'a file');
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer: 'web-app', dir }));
    expect([error.code, error.message]).toEqual([
      'not_a_folder',
      `cannot write the pact ${dir}/web-app-petstore-order-interface.json: ${dir} goes through a file where a folder should be (ENOTDIR); move that file away, or choose another folder`,
    ]);
  });
});

describe('a dir where no folder can be made', () => {
  // mkdir's recursive option loops for ever there on Node 20: the folders are made one at a time.
  it('under /proc is file_system_failure at once, naming the folder that could not be made', async () => {
    const dir = '/proc/self/no-such/pacts';
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer: 'web-app', dir }));
    expect([error.code, error.message]).toEqual([
      'file_system_failure',
      `cannot write the pact ${dir}/web-app-petstore-order-interface.json: /proc/self/no-such: ENOENT`,
    ]);
  });

  it('a dir of new folders in a writable one is made, folder by folder', async () => {
    const dir = join(freshDir(), 'a', 'b', 'c');
    const file = await (await mockWithACall()).pact({ consumer: 'web-app', dir });
    expect(await descriptions(file)).toEqual(['DELETE /store/orders/1 204 (with the key)']);
  });
});

describe('a special file at the pact’s path', () => {
  it('a FIFO is refused at once without taking the lock, and the next write succeeds once it is gone', async () => {
    const dir = freshDir();
    await mkdir(dir);
    const file = `${dir}/web-app-petstore-order-interface.json`;
    execFileSync('mkfifo', [file]);
    const mock = await mockWithACall();
    const error = await refusal(() => mock.pact({ consumer: 'web-app', dir }));
    expect([error.code, error.path, error.message]).toEqual([
      'not_a_regular_file',
      file,
      `cannot write the pact ${file}: ${file} is a FIFO (named pipe), not a regular file; move it away, or choose another folder`,
    ]);
    // No lock, no new file: a lock left behind would make the next writer wait 30 s, then fail.
    expect(await readdir(dir)).toEqual(['web-app-petstore-order-interface.json']);
    await rm(file);
    expect(await mock.pact({ consumer: 'web-app', dir })).toBe(file);
    expect(await descriptions(file)).toEqual(['DELETE /store/orders/1 204 (with the key)']);
  });

  it('a folder is refused as not a regular file', async () => {
    const dir = freshDir();
    const file = `${dir}/web-app-petstore-order-interface.json`;
    await mkdir(file, { recursive: true });
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer: 'web-app', dir }));
    expect([error.code, error.message]).toEqual([
      'not_a_regular_file',
      `cannot write the pact ${file}: ${file} is a folder, not a regular file; move it away, or choose another folder`,
    ]);
  });

  it('a symbolic link to nothing is refused, and left as it is', async () => {
    const dir = freshDir();
    await mkdir(dir);
    const file = `${dir}/web-app-petstore-order-interface.json`;
    await symlink(join(directory, 'nowhere.json'), file);
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer: 'web-app', dir }));
    expect([error.code, error.message]).toEqual([
      'not_a_regular_file',
      `cannot write the pact ${file}: ${file} is a symbolic link to nothing, not a regular file; move it away, or choose another folder`,
    ]);
    expect(await readdir(dir)).toEqual(['web-app-petstore-order-interface.json']);
  });
});

describe('a symbolic link to a special file', () => {
  it('a link to a FIFO is refused at once, naming where it leads', async () => {
    const dir = freshDir();
    await mkdir(dir);
    const fifo = join(directory, `fifo-${dirs}`);
    execFileSync('mkfifo', [fifo]);
    const file = `${dir}/web-app-petstore-order-interface.json`;
    await symlink(fifo, file);
    const error = await refusal(async () => (await mockWithACall()).pact({ consumer: 'web-app', dir }));
    expect([error.code, error.message]).toEqual([
      'not_a_regular_file',
      `cannot write the pact ${file}: ${file} is a symbolic link to a FIFO (named pipe) (${fifo}), not a regular file; move it away, or choose another folder`,
    ]);
  });
});

describe('honest writes', () => {
  it('a symbolic link to a pact kept elsewhere: merged there, the link kept', async () => {
    const dir = freshDir();
    const elsewhere = freshDir();
    await mkdir(dir);
    const kept = await (await mockWithACall(1)).pact({ consumer: 'web-app', dir: elsewhere });
    const file = `${dir}/web-app-petstore-order-interface.json`;
    await symlink(kept, file);
    expect(await (await mockWithACall(3)).pact({ consumer: 'web-app', dir })).toBe(file);
    expect(await descriptions(kept)).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
    ]);
    expect(await readdir(dir)).toEqual(['web-app-petstore-order-interface.json']);
    expect(await descriptions(file)).toEqual(await descriptions(kept));
  });

  it('a consumer name of 200 characters is written, and merged into on the next write', async () => {
    const consumer = 'c'.repeat(200);
    const dir = freshDir();
    await (await mockWithACall(1)).pact({ consumer, dir });
    const file = await (await mockWithACall(3)).pact({ consumer, dir });
    expect(await descriptions(file)).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
    ]);
  });
});
