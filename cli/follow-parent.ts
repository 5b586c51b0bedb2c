// A server started by npx, a shell or any wrapper must not outlive it: npx does not pass a signal on
// to its command, so `npx petstore-mock &` then `kill $!` left the server on its port (issue 48).

/** How often the parent is looked at, in milliseconds: one cheap system call a second. */
export const parentCheckInterval = 1000;

/** What `followParent` reads and how it waits; a test gives its own. */
export interface ParentWatch {
  /** The parent's pid now. Default: `process.ppid`. */
  parentPid?: () => number;
  /** Default: every `parentCheckInterval` ms, on an unref'd timer that never keeps the process alive. */
  every?: (check: () => void) => () => void;
}

const unrefInterval = (check: () => void) => {
  const timer = setInterval(check, parentCheckInterval);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Calls `gone` once, with the first parent's pid, when the process that started this one has ended:
 * the parent's pid changes, as an orphan is adopted by init (pid 1) or a subreaper. A process started
 * by init itself (pid 1 from the start) never sees its parent go. Returns a function that stops watching.
 * @example
 * followParent((parent) => { console.error(`parent ${parent} ended`); void server.close(); });
 */
export function followParent(gone: (parent: number) => void, watch: ParentWatch = {}): () => void {
  const parentPid = watch.parentPid ?? (() => process.ppid);
  const first = parentPid();
  let watching = true;
  const stop = (watch.every ?? unrefInterval)(() => {
    if (!watching || parentPid() === first) return;
    watching = false;
    stop();
    gone(first);
  });
  return () => {
    watching = false;
    stop();
  };
}

/**
 * Calls `ended` once standard input ends or closes: for a parent that holds a pipe to it, whose end
 * closes it however the parent ends (`--stop-on-stdin-end`). Reads and drops what comes meanwhile.
 * @example
 * stopOnStdinEnd(process.stdin, () => void server.close());
 */
export function stopOnStdinEnd(input: NodeJS.ReadableStream, ended: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    ended();
  };
  input.on('end', once);
  input.on('close', once);
  input.on('error', once);
  input.resume();
}
