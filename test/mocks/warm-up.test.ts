import { EventEmitter } from 'node:events';
import { expect, it, vi } from 'vitest';
import { createWarmUp } from '../../mocks/server/warm-up.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function storeOf(size: number) {
  return { size, materialize: vi.fn(async () => {}) };
}

// Fake timers for this test only: the suite's files share their workers.
function withFakeTimers(test: () => void): void {
  vi.useFakeTimers();
  try {
    test();
  } finally {
    vi.useRealTimers();
  }
}

it('waits for the first answer to be written out before creating the records', async () => {
  const store = storeOf(100);
  const outgoing = new EventEmitter();
  createWarmUp(store).afterAnswer(outgoing);
  await nextTurn();
  await nextTurn();
  expect(store.materialize).not.toHaveBeenCalled();
  outgoing.emit('close');
  await nextTurn();
  expect(store.materialize).toHaveBeenCalledTimes(1);
});

it('creates the records once, however many answers were under way', async () => {
  const store = storeOf(100);
  const warmUp = createWarmUp(store);
  const answers = [new EventEmitter(), new EventEmitter(), new EventEmitter()];
  for (const outgoing of answers) warmUp.afterAnswer(outgoing);
  for (const outgoing of answers) outgoing.emit('close');
  await nextTurn();
  const later = new EventEmitter();
  warmUp.afterAnswer(later);
  expect(later.listenerCount('close')).toBe(0);
  expect(store.materialize).toHaveBeenCalledTimes(1);
});

it('starts after the delay when no answer came first, and not before', () => {
  withFakeTimers(() => {
    const store = storeOf(100);
    createWarmUp(store).after(250);
    vi.advanceTimersByTime(249);
    expect(store.materialize).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(store.materialize).toHaveBeenCalledTimes(1);
  });
});

it('does not start once cancelled', () => {
  withFakeTimers(() => {
    const store = storeOf(100);
    const warmUp = createWarmUp(store);
    warmUp.after(250);
    warmUp.cancel();
    vi.advanceTimersByTime(1000);
    expect(store.materialize).not.toHaveBeenCalled();
  });
});

it('asks for a garbage collection after creating the records of a big store only', async () => {
  for (const [size, collections] of [
    [10_000, 1],
    [9_999, 0],
  ] as const) {
    const collectGarbage = vi.fn();
    const outgoing = new EventEmitter();
    createWarmUp(storeOf(size), collectGarbage).afterAnswer(outgoing);
    outgoing.emit('close');
    await vi.waitFor(() => expect(collectGarbage).toHaveBeenCalledTimes(collections));
    await nextTurn();
    expect(collectGarbage).toHaveBeenCalledTimes(collections);
  }
});
