import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Tunes V8 for the standalone mock, a process that may hold a store of 100,000 orders for hours, and
 * returns a full garbage collection to ask for after reading a big seed. Two measured causes of
 * resident memory it removes (bench/RESULTS.md, "Scale"):
 * - V8 doubles its young generation, up to 32 MiB, while a big load survives its collections, and does
 *   not give that back. Here it keeps its initial size: a 100,000-order seed loads as fast, and the
 *   throughput of small requests does not change.
 * - The text of a seed file and the parser's garbage would stay resident until the heap next grows
 *   (tens of MiB at 100,000 orders). A collection after the load gives them back at once, in ~30 ms.
 * The collection is skipped while the heap holds more than 256 MiB (several big sessions): a full
 * collection pauses every request for as long as it marks the heap (0.7–0.8 s with 500,000 orders'
 * records, a 447 MiB heap, on the loaded 2-core machine: bench/RESULTS.md, "Bounds"), and V8's own
 * concurrent collection frees the garbage later anyway.
 * Called by the petstore-mock command only: a library never sets the flags of its user's process.
 * @example
 * const collectGarbage = tuneMemory();
 * const seed = await readSeedFile(path);
 * collectGarbage();
 */
const largestHeapToCollect = 256 * 1024 * 1024;

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
