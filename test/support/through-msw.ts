import { getResponse } from 'msw';
import { vi } from 'vitest';
import { MockError, noOperation } from '../../mocks/base/errors.js';
import type { MockServer } from '../../mocks/server/server.js';
import { replyOfResponse } from '../../mocks/base/reply.js';
// The MSW adapter, which gives a mock its handlers as it loads: the standalone server never loads it.
import '../../mocks/adapters/order-mock.js';

/**
 * Makes a standalone server answer through MSW's `getResponse` over its mock's handlers, as
 * `setupServer` would, instead of handing requests to the pipeline directly. The differential test
 * compares such a server with a plain one. What Fetch cannot carry (TRACE, CONNECT, a path with dot
 * segments or backslashes) still goes to the pipeline, as it does under MSW in a real runtime.
 */
export function answerThroughMsw(server: MockServer): MockServer {
  const mock = server.mock;
  const direct = mock.handle;
  vi.spyOn(mock, 'handle').mockImplementation(async (request, options) => {
    let fetchRequest: Request;
    try {
      fetchRequest = request instanceof Request ? request : await request.toRequest!();
    } catch (error) {
      if (error instanceof MockError) return error.toReply();
      return direct(request, options);
    }
    const response = await getResponse(mock.handlers, fetchRequest);
    return response === undefined
      ? noOperation(request.method, new URL(request.url).pathname).toReply()
      : replyOfResponse(response);
  });
  return server;
}
