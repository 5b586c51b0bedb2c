// Scenario files the file system refuses (issue 59): a scenario read or saved where a FIFO, a folder,
// a read-only folder or an over-long name is, is a coded error naming the path, at once, never a wait
// on a FIFO; honest saves are written whole, and replaced whole.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileError, fileError } from '../../core/file-error.js';
import { ScenarioError } from '../../core/scenario-error.js';
import { loadScenarioFile } from '../../core/scenario-files.js';
import { explore } from '../../verify/explore/explore.js';
import { ScenarioRecorder } from '../../verify/recorder/scenario-recorder.js';
import { checkScenarioFolder, saveScenarioFile } from '../../verify/scenario/save-scenario-file.js';
import { cliPath, runToExit, runVerifyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';
import { asUnprivileged } from '../support/unprivileged.js';

let directory: string;
let dirs = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-scenario-errors-'));
  await chmod(directory, 0o755);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const freshDir = async () => {
  const dir = join(directory, `scenarios-${dirs++}`);
  await mkdir(dir);
  return dir;
};

const caught = (run: () => Promise<unknown>) =>
  run().then(
    () => undefined,
    (error: unknown) => error as Error & { code: string },
  );

const text = 'description: saved\nsteps: []\n';

describe('reading a scenario', () => {
  it('a FIFO named NAME.yaml is invalid_scenario at once, caused by not_a_regular_file', async () => {
    const file = join(await freshDir(), 'stuck.yaml');
    execFileSync('mkfifo', [file]);
    const error = await caught(() => loadScenarioFile(file));
    expect(error).toBeInstanceOf(ScenarioError);
    expect([error!.code, error!.message, (error!.cause as FileError).code]).toEqual([
      'invalid_scenario',
      `cannot read the scenario ${file}: ${file} is a FIFO (named pipe), not a regular file; move it away, or choose another folder`,
      'not_a_regular_file',
    ]);
  });

  it('petstore-mock --scenarios with a FIFO among the files says so in one line and exits 2', async () => {
    const dir = await freshDir();
    execFileSync('mkfifo', [join(dir, 'stuck.yaml')]);
    const exit = await runToExit(process.execPath, [cliPath, '--scenarios', dir, '--port', '0', '--no-follow-parent']);
    expect([exit.code, exit.stdout, exit.stderr]).toEqual([
      2,
      '',
      `petstore-mock: --scenarios ${dir}: cannot read the scenario ${join(dir, 'stuck.yaml')}: ${join(dir, 'stuck.yaml')} is a FIFO (named pipe), not a regular file; move it away, or choose another folder (see --help)\n`,
    ]);
  });
});

describe('saving a scenario', () => {
  it('writes the file, then replaces it whole, leaving nothing else in the folder', async () => {
    const folder = await freshDir();
    const file = await saveScenarioFile({ folder, name: 'explore-1-run-2', text });
    await saveScenarioFile({ folder, name: 'explore-1-run-2', text: `${text}# again\n` });
    expect(file).toBe(join(folder, 'explore-1-run-2.yaml'));
    expect(await readFile(file, 'utf8')).toBe(`${text}# again\n`);
    expect(await readdir(folder)).toEqual(['explore-1-run-2.yaml']);
  });

  it('a FIFO at the scenario’s path is not_a_regular_file at once, and is left as it is', async () => {
    const folder = await freshDir();
    const file = join(folder, 'explore-1-run-2.yaml');
    execFileSync('mkfifo', [file]);
    const error = await caught(() => saveScenarioFile({ folder, name: 'explore-1-run-2', text }));
    expect(error).toBeInstanceOf(FileError);
    expect([error!.code, error!.message]).toEqual([
      'not_a_regular_file',
      `cannot save the scenario ${file}: ${file} is a FIFO (named pipe), not a regular file; move it away, or choose another folder`,
    ]);
    expect((await stat(file)).isFIFO()).toBe(true);
    expect(await readdir(folder)).toEqual(['explore-1-run-2.yaml']);
  });

  it('a name past 255 bytes is path_too_long', async () => {
    const folder = await freshDir();
    const file = join(folder, `${'n'.repeat(251)}.yaml`);
    const error = await caught(() => saveScenarioFile({ folder, name: 'n'.repeat(251), text }));
    expect([error!.code, error!.message]).toEqual([
      'path_too_long',
      `cannot save the scenario ${file}: ${file} is longer than the file system allows (ENAMETOOLONG); use a shorter folder or name`,
    ]);
  });

  it('a read-only folder is permission_refused, and nothing is left in it', async () => {
    const folder = await freshDir();
    await chmod(folder, 0o555);
    const file = join(folder, 'explore-1-run-2.yaml');
    const error = await caught(() => asUnprivileged(() => saveScenarioFile({ folder, name: 'explore-1-run-2', text })));
    expect(error!.code).toBe('permission_refused');
    expect(error!.message).toMatch(
      new RegExp(
        `^cannot save the scenario ${file}: ${folder}/\\.explore-1-run-2\\.\\d+\\.[a-z0-9]+\\.partial may not be written or read by this user \\(EACCES\\); give this user write access to the folder, or choose another folder$`,
      ),
    );
    expect(await readdir(folder)).toEqual([]);
  });

  it('a file where the folder is to be is not_a_folder', async () => {
    const folder = join(await freshDir(), 'a-file');
    await writeFile(folder, 'not a folder');
    const error = await caught(() => saveScenarioFile({ folder, name: 'explore-1-run-2', text }));
    expect([error!.code, error!.message]).toEqual([
      'not_a_folder',
      `cannot save the scenario ${join(folder, 'explore-1-run-2.yaml')}: ${folder} goes through a file where a folder should be (ENOTDIR); move that file away, or choose another folder`,
    ]);
  });
});

describe('exploration’s --save where the file system refuses', () => {
  it('keeps the verdict: the provider failed, and the shrunk case says what was not saved and why', async () => {
    const provider = await startHostileProvider({ wrongField: 'petId' });
    try {
      const notAFolder = join(await freshDir(), 'a-file');
      await writeFile(notAFolder, 'not a folder');
      const result = await explore({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        stateUrl: `${provider.origin}/__state`,
        runs: 10,
        maxSteps: 2,
        seed: 7,
        save: notAFolder,
        prism: false,
      });
      const shrunk = result.cases.at(-1)!;
      expect([result.verdict, result.failure?.scenarioFile]).toEqual(['failed', undefined]);
      expect(shrunk.reason).toMatch(
        new RegExp(
          `; not saved: cannot save the scenario ${notAFolder}/explore-7-run-\\d+\\.yaml: ${notAFolder} goes through a file where a folder should be \\(ENOTDIR\\); move that file away, or choose another folder$`,
        ),
      );
    } finally {
      await provider.close();
    }
  });
});

describe('the recorder’s folder', () => {
  it('with a FIFO where it checks the folder is writable is refused at once, not waited on', async () => {
    const dir = await freshDir();
    const probe = join(dir, `.petstore-record-probe-${process.pid}`);
    execFileSync('mkfifo', [probe]);
    const error = await caught(() => ScenarioRecorder.open({ directory: dir, upstream: 'http://127.0.0.1:9/v1' }));
    expect([error!.code, error!.message]).toEqual([
      'recording_refused',
      `cannot write recordings to ${dir}: ${probe} is a FIFO or a device, not a regular file (ENXIO); move it away, or choose another folder`,
    ]);
  });
});

describe('petstore-verify explore --save DIR', () => {
  it('that cannot take a scenario is refused before any call: one line, exit 2', async () => {
    const notAFolder = join(await freshDir(), 'a-file');
    await writeFile(notAFolder, 'not a folder');
    // Port 9 (discard) answers nothing: a call made would show as an unreachable target, not this line.
    const exit = await runVerifyInProcess([
      'explore',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--state-url',
      'http://127.0.0.1:9/__state',
      '--api-key',
      'k',
      '--save',
      notAFolder,
    ]);
    expect([exit.code, exit.stdout, exit.stderr]).toEqual([
      2,
      '',
      `petstore-verify: cannot save scenarios in ${notAFolder}: ${notAFolder} goes through a file where a folder should be (ENOTDIR); move that file away, or choose another folder (see --help)\n`,
    ]);
  });

  it('that can is made, and left without the file that checked it', async () => {
    const folder = join(await freshDir(), 'new', 'found');
    await checkScenarioFolder(folder);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('the causes no test can make happen here, by their errno', () => {
  it.each([
    [
      'ENOSPC',
      'no_space',
      'did not fit: no space is left on its file system (ENOSPC); free some space, or choose a folder on another file system',
    ],
    [
      'EDQUOT',
      'no_space',
      'did not fit: no space is left on its file system (EDQUOT); free some space, or choose a folder on another file system',
    ],
    ['EROFS', 'permission_refused', 'is on a read-only file system (EROFS); choose a folder on a writable one'],
    [
      'EPERM',
      'permission_refused',
      'may not be written or read by this user (EPERM); give this user write access to the folder, or choose another folder',
    ],
    ['EIO', 'file_system_failure', undefined],
  ])('%s is %s', (errno, code, says) => {
    const error = fileError(Object.assign(new Error(`${errno}: failed`), { code: errno }), {
      action: 'write the pact pacts/a-b.json',
      path: 'pacts',
    });
    expect([error.code, error.path, error.message]).toEqual([
      code,
      'pacts',
      `cannot write the pact pacts/a-b.json: pacts${says === undefined ? `: ${errno}` : ` ${says}`}`,
    ]);
  });
});
