import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Above this heap size a full collection pauses every request too long, and V8 frees the garbage later anyway.
const largestHeapToCollect = 256 * 1024 * 1024;

/**
 * Tunes V8 for the standalone mock, a process that may hold a big store for hours, and returns a full
 * garbage collection to ask for after reading a big seed. It removes two causes of resident memory
 * (the figures are in bench/RESULTS.md, "Scale" and "Bounds"): V8 growing its young generation while a
 * big load survives, and never shrinking it back; and a seed file's text and the parser's garbage staying
 * resident until the heap next grows. Only the petstore-mock command calls it: a library never sets the
 * flags of its user's process.
 * @example
 * const collectGarbage = tuneMemory();
 * const seed = await readSeedFile(path);
 * collectGarbage();
 */
export function tuneMemory(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  // A context created once --expose-gc is set has the gc() function; the flag changes nothing else.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  return () => {
    if (process.memoryUsage().heapUsed <= largestHeapToCollect) collect();
  };
}
