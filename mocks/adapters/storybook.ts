import type { RequestHandler } from 'msw';
import type { SetupWorker } from 'msw/browser';
import { MockUsageError } from '../base/errors.js';
import { createOrderMock, type OrderMock, type OrderMockOptions } from './order-mock.js';

/** What the kit reads of a story's context, and where it leaves the mock. */
export interface OrderMockStoryContext {
  msw?: Pick<SetupWorker, 'use' | 'events'>;
  /** The story's mock, for a `play` function. */
  orderMock?: OrderMock;
  /** CSF 3's `parameters.msw` handlers are put back in front of the kit's. */
  parameters?: { msw?: unknown };
}

// As msw-storybook-addon reads them: a list, or `{ handlers }` as a list or groups.
function storyHandlers(parameter: unknown): RequestHandler[] {
  if (Array.isArray(parameter)) return parameter as RequestHandler[];
  const handlers = (parameter as { handlers?: unknown } | undefined)?.handlers;
  if (handlers === undefined || handlers === null) return [];
  const groups = Array.isArray(handlers) ? handlers : Object.values(handlers as Record<string, unknown>);
  return groups.flat().filter(Boolean) as RequestHandler[];
}

/**
 * A story's `beforeEach`: a fresh order mock from the story's scenario, on msw-storybook-addon's worker,
 * left in `context.orderMock`.
 * @example
 * import { withOrderMock } from 'petstore-contract-kit/storybook';
 *
 * export const AlreadyShipped = { beforeEach: withOrderMock('cancel-shipped-order') };
 * export const Outage = { beforeEach: withOrderMock({ faults: [{ operation: 'listOrders', status: 503 }] }) };
 */
export function withOrderMock(scenarioOrOptions: string | OrderMockOptions = {}): (context: object) => () => void {
  const options = typeof scenarioOrOptions === 'string' ? { scenario: scenarioOrOptions } : scenarioOrOptions;
  // Any context: the kit does not depend on Storybook's types.
  return (storyContext) => {
    const context = storyContext as OrderMockStoryContext;
    const worker = context.msw;
    if (worker === undefined)
      throw new MockUsageError(
        'missing_storybook_worker',
        "withOrderMock needs msw-storybook-addon's worker in the story's context: add mswLoader() to the loaders of .storybook/preview (CSF 3), or addonMsw() to its addons (CSF Next).",
      );
    const mock = createOrderMock(options);
    worker.use(...mock.handlers);
    // The addon applied the story's parameters.msw before this beforeEach: they stay in front of the kit's.
    const own = storyHandlers(context.parameters?.msw);
    if (own.length > 0) worker.use(...own);
    const disconnect = mock.observe(worker);
    context.orderMock = mock;
    return disconnect;
  };
}
