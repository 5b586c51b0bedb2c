// followParent (cli/follow-parent.ts): petstore-mock stops once the process that started it has ended.
// The parent's pid and the timer are the test's own, so nothing waits on a clock.
import { execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, type ExpectStatic, it } from 'vitest';
import { followParent, stopOnStdinEnd } from '../../cli/follow-parent.js';
import { cliPath } from '../support/cli-support.js';
import { authorized } from '../support/support.js';

function watched(pids: number[]) {
  let check: (() => void) | undefined;
  let stopped = false;
  const gone: number[] = [];
  const stopWatching = followParent((parent) => gone.push(parent), {
    parentPid: () => pids[0]!,
    every: (each) => {
      check = each;
      return () => void (stopped = true);
    },
  });
  return { tick: () => check?.(), gone, stopped: () => stopped, stopWatching };
}

describe('followParent', () => {
  it('says nothing while the parent is the one that started it', () => {
    const pids = [4242];
    const watch = watched(pids);
    for (let tick = 0; tick < 5; tick++) watch.tick();
    expect(watch.gone).toEqual([]);
    expect(watch.stopped()).toBe(false);
  });

  it.each([
    ['init', 1],
    ['a subreaper', 77],
  ])('calls once, with the first parent, when the process is adopted by %s, and stops watching', (_by, adopter) => {
    const pids = [4242];
    const watch = watched(pids);
    watch.tick();
    pids[0] = adopter;
    watch.tick();
    watch.tick();
    expect(watch.gone).toEqual([4242]);
    expect(watch.stopped()).toBe(true);
  });

  it('never fires for a process whose parent was init from the start', () => {
    const watch = watched([1]);
    for (let tick = 0; tick < 5; tick++) watch.tick();
    expect(watch.gone).toEqual([]);
  });

  it('uses an unref’d timer by default, which keeps no process alive, and stops it when asked', () => {
    const stop = followParent(() => {});
    stop();
  });
});

describe('stopOnStdinEnd', () => {
  it('calls once when standard input ends, reading and dropping what came before', async () => {
    const input = new PassThrough();
    const ended = new Promise<number>((resolve) => {
      let calls = 0;
      stopOnStdinEnd(input, () => resolve(++calls));
    });
    input.write('anything');
    input.end();
    expect(await ended).toBe(1);
  });
});

// petstore-mock as a wrapper (npx) starts it, its seed a FIFO: the seed loads for as long as the test
// holds the FIFO's writing end, a slow seed the test controls without a clock.
describe.concurrent('petstore-mock while its seed loads', () => {
  // The wrapper passes no signal on and idles; the mock shares its output pipes.
  const wrapper = `require('node:child_process').spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit' });
    setInterval(() => {}, 1 << 30);`;

  async function loadingMock(expect: ExpectStatic) {
    const folder = await mkdtemp(join(tmpdir(), 'petstore-slow-seed-'));
    const seed = join(folder, 'orders.json');
    execFileSync('mkfifo', [seed]);
    const child = spawn(process.execPath, ['-e', wrapper, cliPath, '--port', '0', '--seed', seed], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Both pipes close once every process holding them has ended: the wrapper and the mock.
    const ended = Promise.all([
      new Promise((resolve) => child.stdout.on('close', resolve)),
      new Promise((resolve) => child.stderr.on('close', resolve)),
    ]);
    // A FIFO opens for writing, without blocking, only once a reader has it open: the mock is loading it.
    let writer: FileHandle | undefined;
    await expect
      .poll(async () => {
        writer = await open(seed, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
        return writer !== undefined;
      })
      .toBe(true);
    return {
      child,
      writer: writer!,
      ended,
      output: () => ({ stdout, stderr }),
      remove: () => rm(folder, { recursive: true, force: true }),
    };
  }

  // Concurrent: each waits a second for the parent check; the test context's expect is each one's own.
  it('ends when the process that started it ends before the seed has loaded', async ({ expect }) => {
    const mock = await loadingMock(expect);
    try {
      mock.child.kill('SIGKILL');
      await mock.ended;
      expect(mock.output().stderr).toMatch(
        /^petstore-mock: the process that started it \(pid \d+\) has ended; stopping\n$/,
      );
      expect(mock.output().stdout).not.toContain('listening');
    } finally {
      mock.child.kill('SIGKILL');
      await mock.writer.close();
      await mock.remove();
    }
  });

  it('serves the seed once it has loaded while the process that started it lives, and ends with it', async ({
    expect,
  }) => {
    const mock = await loadingMock(expect);
    try {
      await mock.writer.write('[{ "id": 9007199254740993, "petId": 7 }]');
      await mock.writer.close();
      await expect.poll(() => /listening on (\S+)\n/.exec(mock.output().stdout)?.[1]).toBeDefined();
      const baseUrl = /listening on (\S+)\n/.exec(mock.output().stdout)![1]!;
      const orders = await fetch(`${baseUrl}/store/orders`, { headers: authorized });
      expect(await orders.text()).toContain('9007199254740993');
      mock.child.kill('SIGKILL');
      await mock.ended;
      expect(mock.output().stderr).toMatch(
        /^petstore-mock: the process that started it \(pid \d+\) has ended; stopping\n$/,
      );
    } finally {
      mock.child.kill('SIGKILL');
      await mock.remove();
    }
  });
});
