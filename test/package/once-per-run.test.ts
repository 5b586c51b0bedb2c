// oncePerRun (test/support/once-per-run.ts), which the end-to-end files use to make the packed kit and
// the Node 24 projects once a run. Two module instances stand for two worker processes: each has its
// own memory of what it made (loaded under URLs of their own), so only the lock file and the outcome file in the run's folder join them.
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { scratchFolder } from '../support/cli-support.js';

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
