import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Above this heap size a full collection pauses every request too long, and V8 frees the garbage later anyway.
const largestHeapToCollect = 256 * 1024 * 1024;
// The young generation's two halves together, at most, once they have grown (bench/RESULTS.md, "The young generation").
export const largestNewSpace = 16 * 1024 * 1024;

/** What the tuning needs of V8: given apart, so that a test can drive it without touching its own process. */
export interface V8Access {
  setFlags(flags: string): void;
  /** A full garbage collection. */
  collect(): void;
  heapUsed(): number;
  /** The bytes the young generation holds room for, both halves. */
  newSpaceSize(): number;
  /** Calls `listener` after garbage collections (soon after, not during); returns how to stop. */
  afterCollections(listener: () => void): () => void;
}

function processV8(): V8Access {
  // A context created once --expose-gc is set has the gc() function; the flag changes nothing else.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  return {
    setFlags: setFlagsFromString,
    collect,
    heapUsed: () => process.memoryUsage().heapUsed,
    newSpaceSize: () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
    afterCollections(listener) {
      const observer = new PerformanceObserver(listener);
      observer.observe({ entryTypes: ['gc'] });
      return () => observer.disconnect();
    },
  };
}

/** What the petstore-mock command does to V8's memory, and when. */
export interface MemoryTuning {
  /** After a big load has turned into garbage: a full collection, and the young generation may grow again. */
  collectGarbage(): void;
  /** Before a big load (a large request body): the young generation stops growing until the next collection. */
  holdYoungGeneration(): void;
  /** Once the mock answers: the young generation may grow, up to `largestNewSpace`, and then no more. */
  answering(): void;
}

/**
 * Tunes V8 for the standalone mock, a process that may hold a big store for hours. The figures are in
 * bench/RESULTS.md ("Scale", "Bounds" and "The young generation"). V8 grows its young generation while
 * a big load survives, and never shrinks it back, so it is kept at its smallest while the seed is read
 * and while a large request body is read into the store. Once the mock answers, it may grow, up to a
 * bound: at its smallest it collects so often that the list loses a quarter of its rate. A seed file's
 * text and the parser's garbage would stay resident until the heap next grows, so a full collection
 * is asked for after a big load. Only the petstore-mock command calls it: a library never sets the flags
 * of its user's process.
 * @example
 * const memory = tuneMemory();
 * const seed = await readSeedFile(path);
 * memory.collectGarbage();
 * await server.listen();
 * memory.answering();
 */
export function tuneMemory(v8: V8Access = processV8()): MemoryTuning {
  let answering = false;
  let bounded = false;
  let stopWatching: (() => void) | undefined;
  const hold = () => v8.setFlags('--semi-space-growth-factor=1');
  // V8 takes a bound on the young generation only at launch; at run time, only whether it grows.
  const grow = () => {
    if (bounded) return;
    v8.setFlags('--semi-space-growth-factor=2');
    stopWatching ??= v8.afterCollections(() => {
      if (v8.newSpaceSize() < largestNewSpace) return;
      bounded = true;
      hold();
      stopWatching?.();
    });
  };
  hold();
  return {
    collectGarbage() {
      if (v8.heapUsed() <= largestHeapToCollect) v8.collect();
      if (answering) grow();
    },
    holdYoungGeneration: hold,
    answering() {
      answering = true;
      grow();
    },
  };
}
