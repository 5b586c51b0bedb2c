// oncePerRun (test/support/once-per-run.ts), which the end-to-end files use to make the packed kit and
// the Node 24 projects once a run. Two module instances stand for two worker processes: each has its
// own memory of what it made (loaded under URLs of their own), so only the lock file, the maker's socket
// and the outcome file in the run's folder join them. A maker that dies is a real process (the module
// bundled by esbuild, run by node), killed or exiting while it makes; and the run's folder
// (test/support/run-folder.ts, the globalSetup) is removed by a later run once its owner has ended.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import { scratchFolder } from '../support/cli-support.js';
import runFolderSetup from '../support/run-folder.js';

type OncePerRun = typeof import('../support/once-per-run.js').oncePerRun;

let runFolder: string;

let instances = 0;

/**
 * oncePerRun from a module instance of its own, as another worker process would have: the module under
 * a URL of its own (a query), which the module runner loads again, leaving every other module as it is.
 */
async function anotherProcess(): Promise<OncePerRun> {
  instances += 1;
  const url = `${new URL('../support/once-per-run.ts', import.meta.url).href}?process=${instances}`;
  const module = (await import(/* @vite-ignore */ url)) as {
    oncePerRun: OncePerRun;
  };
  return module.oncePerRun;
}

beforeEach(async () => {
  runFolder = await scratchFolder('petstore-once-per-run-');
});

afterEach(async () => {
  await rm(runFolder, { recursive: true, force: true });
});

it('makes the value once for askers in two processes at once, in a folder of its own, and gives both the value', async () => {
  const [first, second] = [await anotherProcess(), await anotherProcess()];
  const folders: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const make = async (folder: string) => {
    folders.push(folder);
    await released; // the second asks while the first is still making it
    return { tarball: join(folder, 'kit.tgz') };
  };
  const asked = [first('kit', make, { runFolder }), second('kit', make, { runFolder })];
  await vi.waitFor(() => expect(folders).toHaveLength(1));
  release();
  expect(await Promise.all(asked)).toEqual([
    { tarball: join(runFolder, 'kit', 'kit.tgz') },
    { tarball: join(runFolder, 'kit', 'kit.tgz') },
  ]);
  expect(folders).toEqual([join(runFolder, 'kit')]);
  expect(existsSync(join(runFolder, 'kit'))).toBe(true);
});

it('gives an asker that comes after the value was made the same value, making nothing', async () => {
  const make = vi.fn(async () => 42);
  expect(await (await anotherProcess())('answer', make, { runFolder })).toBe(42);
  expect(await (await anotherProcess())('answer', make, { runFolder })).toBe(42);
  expect(make).toHaveBeenCalledTimes(1);
  expect((await readdir(runFolder)).sort()).toEqual(['answer', 'answer.json', 'answer.lock']);
});

it("fails every asker with the maker's message, in the process that made it and in another", async () => {
  const make = async () => {
    throw new Error('npm pack failed: ENOSPC');
  };
  const [first, second] = [await anotherProcess(), await anotherProcess()];
  const asked = [first('kit', make, { runFolder }), second('kit', make, { runFolder })];
  for (const outcome of await Promise.allSettled(asked)) {
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason.message).toMatch(
      /^kit, made once for the run, failed: Error: npm pack failed: ENOSPC\n/,
    );
  }
});

it('keeps what was made apart by name: two names, two makers, two folders', async () => {
  const oncePerRun = await anotherProcess();
  const [kit, project] = await Promise.all([
    oncePerRun('kit', async (folder) => folder, { runFolder }),
    oncePerRun('node24-provider', async (folder) => folder, { runFolder }),
  ]);
  expect([kit, project]).toEqual([join(runFolder, 'kit'), join(runFolder, 'node24-provider')]);
});

it('says so when no run folder was provided (a file outside the end-to-end project)', async () => {
  const oncePerRun = await anotherProcess();
  expect(() => oncePerRun('kit', async () => 1)).toThrow(
    'no run folder: oncePerRun runs in the end-to-end project only',
  );
});

describe('a maker that dies while making', () => {
  let bundled: string;

  // oncePerRun in a process of its own: the module as it is (vitest's inject stubbed: the run folder is
  // given), making 'kit' until the test writes a line to it, then returning its pid, or exiting when told.
  beforeAll(async () => {
    const result = await build({
      stdin: {
        contents: `import { oncePerRun } from '../support/once-per-run.js';
const [runFolder, ending] = process.argv.slice(2);
await oncePerRun('kit', async () => {
  console.log('making');
  await new Promise((told) => process.stdin.once('data', told));
  if (ending === 'exit') process.exit(3);
  return { madeBy: process.pid };
}, { runFolder });
process.stdin.destroy();`,
        resolveDir: import.meta.dirname,
        sourcefile: 'maker.ts',
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'no-vitest',
          setup(builder) {
            builder.onResolve({ filter: /^vitest$/ }, () => ({ path: 'vitest', namespace: 'stub' }));
            builder.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
              contents: 'export const inject = () => undefined;',
            }));
          },
        },
      ],
    });
    bundled = result.outputFiles[0]!.text;
  });

  /** The maker process, once it has taken the lock and is making. */
  async function makerProcess(ending: 'return' | 'exit'): Promise<ChildProcessWithoutNullStreams> {
    const script = join(runFolder, 'maker.mjs');
    await writeFile(script, bundled);
    const child = spawn(process.execPath, [script, runFolder, ending]);
    await new Promise<void>((making, failed) => {
      let printed = '';
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        if (printed.includes('making\n')) making();
      });
      child.on('exit', (code) => failed(new Error(`the maker exited (${code}) before making: ${printed}`)));
    });
    return child;
  }

  const ended = (child: ChildProcessWithoutNullStreams) =>
    new Promise<void>((exited) =>
      child.exitCode !== null || child.signalCode !== null ? exited() : child.once('exit', () => exited()),
    );

  const deadMaker = (pid: number | undefined) =>
    `kit, made once for the run, failed: its maker (pid ${pid}) ended while making it, leaving no outcome (killed, or its process exited)`;

  it('fails an asker waiting on it, naming its pid, when it is killed', async () => {
    const maker = await makerProcess('return');
    let connected!: () => void;
    const waiting = new Promise<void>((resolve) => (connected = resolve));
    const asked = (await anotherProcess())('kit', async () => 'made twice', { runFolder, waiting: connected });
    await waiting;
    maker.kill('SIGKILL');
    await expect(asked).rejects.toThrow(deadMaker(maker.pid));
  });

  it('fails an asker that comes after it exited (process.exit while making), naming its pid', async () => {
    const maker = await makerProcess('exit');
    maker.stdin.write('exit now\n');
    await ended(maker);
    expect(maker.exitCode).toBe(3);
    const asked = (await anotherProcess())('kit', async () => 'made twice', { runFolder });
    await expect(asked).rejects.toThrow(deadMaker(maker.pid));
  });

  it('gives an asker waiting on a maker in another process its value when it finishes, then ends', async () => {
    const maker = await makerProcess('return');
    let connected!: () => void;
    const waiting = new Promise<void>((resolve) => (connected = resolve));
    const asked = (await anotherProcess())('kit', async () => 'made twice', { runFolder, waiting: connected });
    await waiting;
    maker.stdin.write('done\n');
    expect(await asked).toEqual({ madeBy: maker.pid });
    await ended(maker);
    expect(maker.exitCode).toBe(0);
  });
});

describe("the run's folder, when a run starts (the globalSetup)", () => {
  const project = () => ({ provide: vi.fn() }) as unknown as TestProject;
  const left: string[] = [];

  /** A folder as a run leaves it, beside the ones runs make, its owner file written as given. */
  async function leftBehind(owner: string | undefined): Promise<string> {
    const folder = await scratchFolder('petstore-run-');
    left.push(folder);
    await mkdir(join(folder, 'kit'));
    if (owner !== undefined) await writeFile(join(folder, '.owner.json'), owner);
    return folder;
  }

  /** The pid of a process that has ended. */
  async function endedPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((exited) => child.once('exit', exited));
    return child.pid!;
  }

  afterAll(async () => {
    for (const folder of left) await rm(folder, { recursive: true, force: true });
  });

  it('removes the folder of a run whose owner process has ended', async () => {
    const crashed = await leftBehind(JSON.stringify({ pid: await endedPid() }));
    const teardown = await runFolderSetup(project());
    await teardown();
    expect(existsSync(crashed)).toBe(false);
  });

  it('removes the folder of a run whose pid now belongs to a process that started later', async () => {
    const crashed = await leftBehind(JSON.stringify({ pid: process.pid, started: '1' }));
    const teardown = await runFolderSetup(project());
    await teardown();
    expect(existsSync(crashed)).toBe(false);
  });

  it("keeps a running run's folder, and one that names no owner", async () => {
    const running = project();
    const teardown = await runFolderSetup(running);
    const [[, folder]] = vi.mocked(running.provide).mock.calls as [[string, string]];
    const unowned = await leftBehind(undefined);
    await (await runFolderSetup(project()))();
    expect([existsSync(folder), existsSync(unowned)]).toEqual([true, true]);
    await teardown();
  });

  it('provides a new folder, naming this process as its owner', async () => {
    const running = project();
    const teardown = await runFolderSetup(running);
    const [[name, folder]] = vi.mocked(running.provide).mock.calls as [[string, string]];
    expect(name).toBe('runFolder');
    expect(JSON.parse(await readFile(join(folder, '.owner.json'), 'utf8')).pid).toBe(process.pid);
    await teardown();
  });
});
