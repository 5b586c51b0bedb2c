import * as fileSystem from 'node:fs/promises';
import { join } from 'node:path';
import { fileError } from '../../core/file-error.js';
import { regularFileAt, replaceFile } from '../../core/regular-file.js';
import { createDirectory } from './create-directory.js';

/**
 * Writes a scenario file `folder/name.yaml` whole, making the folder where it is missing: a file
 * there already is replaced (a link to a regular file: the file it leads to), a special file (a FIFO,
 * a folder, a socket, a device) is refused without being opened. Resolves with the file's path.
 * @throws FileError naming the path: `path_too_long`, `permission_refused`, `not_a_regular_file`,
 * `not_a_folder`, `no_space` or `file_system_failure`.
 * @example
 * await saveScenarioFile({ folder: 'found', name: 'explore-42-run-3', text: toYaml(scenario) }) // 'found/explore-42-run-3.yaml'
 */
export async function saveScenarioFile(options: { folder: string; name: string; text: string }): Promise<string> {
  const { folder, name, text } = options;
  const file = join(folder, `${name}.yaml`);
  const action = `save the scenario ${file}`;
  try {
    await createDirectory(folder);
  } catch (error) {
    throw fileError(error, { action, path: folder });
  }
  const target = await regularFileAt(fileSystem, { path: file, action });
  const temporary = join(target.file, '..', `.${name}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`);
  await replaceFile(fileSystem, { file: target.file, temporary, text, action });
  return file;
}

/**
 * Makes `folder` where it is missing and checks that a scenario can be written in it now, before a run
 * that may save one: a file made there exclusively, then removed. For `--save DIR`: a folder that
 * cannot take the scenario is the command line's error, said before any call to the provider.
 * @throws FileError naming the path, as `saveScenarioFile` does.
 * @example
 * await checkScenarioFolder('found'); // then explore({ ..., save: 'found' })
 */
export async function checkScenarioFolder(folder: string): Promise<void> {
  const action = `save scenarios in ${folder}`;
  try {
    await createDirectory(folder);
  } catch (error) {
    throw fileError(error, { action, path: folder });
  }
  const probe = join(folder, `.petstore-save-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    await fileSystem.writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    throw fileError(error, { action, path: folder });
  }
  await fileSystem.unlink(probe).catch(() => undefined);
}
