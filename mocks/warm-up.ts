import type { OrderMock } from './order-mock.js';

/**
 * Creates the default session's records in the background, so that its first change does not wait for
 * them: after the first answer, or after a delay with no request. Reads use the seed meanwhile.
 */
export function createWarmUp(mock: OrderMock, collectGarbage: (() => void) | undefined) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    void mock.store.materialize().then(
      () => mock.store.size >= 10_000 && collectGarbage?.(),
      () => {},
    );
  };
  return {
    soon: () => started || setImmediate(start),
    after: (milliseconds: number) => (timer = setTimeout(start, milliseconds).unref()),
    cancel: () => clearTimeout(timer),
  };
}
