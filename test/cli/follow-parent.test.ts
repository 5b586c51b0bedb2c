// followParent (cli/follow-parent.ts): petstore-mock stops once the process that started it has ended.
// The parent's pid and the timer are the test's own, so nothing waits on a clock.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { followParent, stopOnStdinEnd } from '../../cli/follow-parent.js';

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
