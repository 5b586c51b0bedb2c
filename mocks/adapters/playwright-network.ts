// The in-page mock's own route source: Playwright's `context.route()` hands every request of the
// test's pages to the test's process, where the test's own MSW handlers (`network.use`) are asked
// through MSW's `getResponse`, then the mock's pipeline through `mock.handle`. Nothing of
// @msw/playwright is needed: it peers msw 2 only, and `getResponse` is the same in msw 2 and 3.
import type { BrowserContext, Request as PlaywrightRequest, Route } from '@playwright/test';
import type { AnyHandler, RequestHandler } from 'msw';
import { MockUsageError } from '../base/errors.js';
import { networkError, type Reply } from '../base/reply.js';
import type { MockedResponseEvent, OrderMock } from './order-mock.js';

/**
 * The in-page mock's network: handlers of your own in front of the kit's, for one test.
 * @example
 * test('shows an empty list', async ({ page, network }) => {
 *   network.use(http.get('*\/v1/store/orders', () => HttpResponse.json([])));
 *   await page.goto('/');
 * });
 */
export interface OrderMockNetwork {
  /** Puts MSW request handlers in front of the kit's (the last added first, as MSW's `use`). */
  use(...handlers: AnyHandler[]): void;
  /** Drops the handlers `use` added, or replaces them with the ones given; the kit's answers stay behind. */
  resetHandlers(...handlers: AnyHandler[]): void;
  /** Makes the `{ once: true }` handlers answer again. */
  restoreHandlers(): void;
  /** The handlers in front of the kit's, in the order they are asked. */
  listHandlers(): readonly RequestHandler[];
  /** Routes the context's requests through the handlers and the mock (the fixture does it before each test). */
  enable(): Promise<void>;
  /** Takes the route off again (the fixture does it after each test). */
  disable(): Promise<void>;
}

/** What the network needs of MSW: loaded by the caller, so that this module loads no MSW itself. */
export interface MswForNetwork {
  getResponse: typeof import('msw').getResponse;
  isCommonAssetRequest: typeof import('msw').isCommonAssetRequest;
  RequestHandler: abstract new (...args: never[]) => RequestHandler;
}

/** The part of Playwright's `BrowserContext` the network uses. */
export type RouteTarget = Pick<BrowserContext, 'route' | 'unroute'>;

// Every URL: the pipeline and the handlers decide, as @msw/playwright's route did.
const everyUrl = /.+/;

const isPassthrough = (response: Response) =>
  response.status === 302 && response.headers.get('x-msw-intention') === 'passthrough';

async function fetchRequestOf(request: PlaywrightRequest): Promise<Request> {
  const method = request.method();
  const body = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer();
  return new Request(request.url(), {
    method,
    headers: new Headers(await request.allHeaders()),
    ...(body !== null && { body: new Uint8Array(body) }),
  });
}

function bodyOf(reply: Reply): Buffer | undefined {
  if (reply.body === null) return undefined;
  return typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.concat(reply.body);
}

// Playwright throws when a page navigates away while a route is answered: the page no longer waits for it.
async function settled(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof Error && /route is already handled/i.test(error.message)) return;
    throw error;
  }
}

async function fulfillWithResponse(route: Route, response: Response): Promise<void> {
  if (response.type === 'error' || response.status === 0) return settled(() => route.abort());
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  return settled(() => route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body }));
}

function requestHandlersOnly(handlers: readonly AnyHandler[], msw: MswForNetwork): RequestHandler[] {
  return handlers.map((handler) => {
    if (handler instanceof msw.RequestHandler) return handler as RequestHandler;
    throw new MockUsageError(
      'unsupported_handler',
      "network.use() takes MSW request handlers (http, graphql, sse): the in-page mock routes HTTP only. For a WebSocket handler, route it with Playwright's context.routeWebSocket() in the test.",
    );
  });
}

/**
 * The in-page mock's network on a browser context: the test's handlers first (journaled when they
 * answer), then `mock.handle`, then the real network. Common assets (scripts, styles, images) go
 * to the network at once, as with @msw/playwright.
 * @example
 * const network = createPageNetwork(context, orderMock, await import('msw'));
 * await network.enable();
 */
export function createPageNetwork(context: RouteTarget, mock: OrderMock, msw: MswForNetwork): OrderMockNetwork {
  let inFront: RequestHandler[] = [];
  let report: ((event: MockedResponseEvent) => void) | undefined;
  // The mock's own observer journals what a handler in front answers, as for setupServer's server.use.
  const disconnect = mock.observe({
    events: { on: (_event, listener) => void (report = listener), removeListener: () => void (report = undefined) },
  });

  async function answerByHandlers(request: Request, baseUrl: string | undefined): Promise<Response | undefined> {
    if (inFront.length === 0) return undefined;
    const response = await msw.getResponse([...inFront], request.clone(), { baseUrl, quiet: true });
    if (response === undefined || isPassthrough(response)) return response;
    report?.({ request, requestId: `override-${crypto.randomUUID()}`, response });
    return response;
  }

  const onRoute = async (route: Route, request: PlaywrightRequest): Promise<void> => {
    const fetchRequest = await fetchRequestOf(request);
    if (msw.isCommonAssetRequest(fetchRequest)) return settled(() => route.fallback());
    // Relative paths of the test's handlers resolve against the page that asks, as in the browser.
    const referer = request.headers().referer;
    const handlers = await answerByHandlers(fetchRequest, referer ? new URL(referer).origin : undefined);
    if (handlers !== undefined)
      return isPassthrough(handlers) ? settled(() => route.fallback()) : fulfillWithResponse(route, handlers);
    const answer = await mock.handle(fetchRequest);
    if (answer === undefined) return settled(() => route.fallback());
    if (answer === networkError) return settled(() => route.abort());
    return settled(() => route.fulfill({ status: answer.status, headers: answer.headers, body: bodyOf(answer) }));
  };

  return {
    use: (...handlers) => {
      inFront = [...requestHandlersOnly(handlers, msw), ...inFront];
    },
    resetHandlers: (...handlers) => {
      inFront = requestHandlersOnly(handlers, msw);
    },
    restoreHandlers: () => {
      // Public in msw 3, protected in msw 2's types; the same method in both.
      for (const handler of inFront) (handler as unknown as { restore(): void }).restore();
    },
    listHandlers: () => [...inFront],
    enable: async () => {
      await context.route(everyUrl, onRoute);
    },
    disable: async () => {
      await context.unroute(everyUrl, onRoute);
      disconnect();
    },
  };
}
