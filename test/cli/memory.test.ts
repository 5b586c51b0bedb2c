import { expect, it } from 'vitest';
import { largestNewSpace, tuneMemory, type V8Access } from '../../cli/memory.js';

const held = '--semi-space-growth-factor=1';
const growing = '--semi-space-growth-factor=2';

// A V8 that records what is asked of it; `collected(size)` plays a garbage collection leaving the young generation that big.
function fakeV8({ heapUsed = 10 * 1024 * 1024 } = {}) {
  const flags: string[] = [];
  let newSpace = 2 * 1024 * 1024;
  let listener: (() => void) | undefined;
  const v8: V8Access & { collections: number } = {
    collections: 0,
    setFlags: (flag) => void flags.push(flag),
    collect: () => void v8.collections++,
    heapUsed: () => heapUsed,
    newSpaceSize: () => newSpace,
    afterCollections(next) {
      listener = next;
      return () => {
        listener = undefined;
      };
    },
  };
  const collected = (size: number) => {
    newSpace = size;
    listener?.();
  };
  const growth = () => flags.at(-1);
  return { v8, flags, collected, growth, watching: () => listener !== undefined };
}

it('keeps the young generation from growing until the mock answers', () => {
  const { v8, growth } = fakeV8();
  const memory = tuneMemory(v8);
  expect(growth()).toBe(held);
  memory.collectGarbage();
  expect(growth()).toBe(held);
  memory.answering();
  expect(growth()).toBe(growing);
});

it('stops the growth for good once the young generation reaches its bound', () => {
  const { v8, collected, growth, watching } = fakeV8();
  const memory = tuneMemory(v8);
  memory.answering();
  collected(largestNewSpace / 2);
  expect(growth()).toBe(growing);
  collected(largestNewSpace);
  expect(growth()).toBe(held);
  expect(watching()).toBe(false);
  memory.collectGarbage();
  expect(growth()).toBe(held);
});

it('holds the growth from a large body until the collection after it', () => {
  const { v8, growth } = fakeV8();
  const memory = tuneMemory(v8);
  memory.answering();
  memory.holdYoungGeneration();
  expect(growth()).toBe(held);
  memory.collectGarbage();
  expect(v8.collections).toBe(1);
  expect(growth()).toBe(growing);
});

it('skips the full collection of a heap too big for its pause, and still lets the young generation grow', () => {
  const { v8, growth } = fakeV8({ heapUsed: 300 * 1024 * 1024 });
  const memory = tuneMemory(v8);
  memory.answering();
  memory.holdYoungGeneration();
  memory.collectGarbage();
  expect(v8.collections).toBe(0);
  expect(growth()).toBe(growing);
});

it('watches the collections once, however often the growth resumes', () => {
  const { v8, flags } = fakeV8();
  let watches = 0;
  const afterCollections = v8.afterCollections.bind(v8);
  v8.afterCollections = (listener) => {
    watches++;
    return afterCollections(listener);
  };
  const memory = tuneMemory(v8);
  memory.answering();
  for (let round = 0; round < 3; round++) {
    memory.holdYoungGeneration();
    memory.collectGarbage();
  }
  expect(watches).toBe(1);
  expect(flags.filter((flag) => flag === growing)).toHaveLength(4);
});
