/** What the warm-up needs of a store: a way to create its records, and how many orders it holds. */
export interface WarmStore {
  materialize(): Promise<void>;
  readonly size: number;
}

/** An answer being written: it emits `close` once written out, or once its connection is gone. */
export interface AnswerOutgoing {
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Creates the default session's records in the background, so that its first change does not wait
 * for them: once the first answer is written out, or after a delay with no request. Reads use the
 * seed meanwhile. Not as soon as the first answer is handed over: the warm-up works in slices between
 * turns of the event loop, and a big first list is written a part at each turn, after those slices.
 * @example
 * const warmUp = createWarmUp(mock.store);
 * warmUp.after(250); // once listening
 * warmUp.afterAnswer(outgoing); // after each answer
 */
export function createWarmUp(store: WarmStore, collectGarbage?: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    void store.materialize().then(
      () => store.size >= 10_000 && collectGarbage?.(),
      () => {},
    );
  };
  const soon = () => started || setImmediate(start);
  return {
    /** Starts the warm-up once this answer is written out, unless it has started. */
    afterAnswer(outgoing: AnswerOutgoing): void {
      if (!started) outgoing.once('close', soon);
    },
    /** Starts the warm-up after this delay, if nothing has started it before. */
    after(milliseconds: number): void {
      timer = setTimeout(start, milliseconds).unref();
    },
    cancel(): void {
      clearTimeout(timer);
    },
  };
}
