// The MSW adapter over the mock's parts: the one module that loads MSW to build the kit's handler.
import { http, type RequestHandler } from 'msw';
import { judgeInteraction } from '../pipeline/judge-interaction.js';
import { createMockParts, useMswHandler, type OrderMock, type OrderMockOptions } from '../pipeline/mock-parts.js';
import { kitAnswers } from '../pipeline/observer.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { networkError, replyToResponse } from '../base/reply.js';

export {
  defaultMaxOrders,
  defaultPetDeprecation,
  defaultPetSunset,
  type OrderMock,
  type OrderMockOptions,
  type PactControls,
} from '../pipeline/mock-parts.js';
export type { MockedResponseEvent, MswEvents } from '../pipeline/observer.js';

// Matches only the mock's namespaces, so that MSW's `onUnhandledRequest` still sees every other request.
function pipelineHandler(pipeline: Pipeline): RequestHandler {
  return http.all(
    ({ request }) => pipeline.covers(request.url),
    async ({ request, requestId }) => {
      const answer = await pipeline.handle(request);
      if (answer === undefined) return undefined;
      if (answer === networkError) return Response.error();
      kitAnswers.note(requestId);
      return replyToResponse(answer);
    },
  );
}

/**
 * Creates a stateful mock of the order interface. Its handlers are plain MSW handlers, and the mock
 * itself controls its default session.
 * @example
 * import { setupServer } from 'msw/node';
 * import { createOrderMock } from 'petstore-contract-kit/msw';
 *
 * const mock = createOrderMock({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * await fetch('https://api.example.com/v1/store/orders/2', {
 *   method: 'DELETE',
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }); // 409
 */
export function createOrderMock(options: OrderMockOptions = {}): OrderMock {
  return createMockParts(options, judgeInteraction);
}

useMswHandler(pipelineHandler);
