import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { VerifyError } from '../base/errors.js';

/**
 * Makes a folder and the folders above it that are missing. Not `mkdir`'s `recursive`: on Node 20 it
 * loops forever where the parent cannot hold a folder (under /proc), and a run that saves there would hang.
 * @throws the file system's error: `ENOENT` where no folder can be made, `ENOTDIR` where a file stands.
 */
export async function createDirectory(path: string): Promise<void> {
  try {
    await mkdir(path);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') {
      if (!(await stat(path)).isDirectory()) throw new VerifyError('ENOTDIR', `${path} is not a folder`);
      return;
    }
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
    await createDirectory(dirname(path));
    await mkdir(path);
  }
}
