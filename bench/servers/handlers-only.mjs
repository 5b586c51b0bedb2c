// The kit's standalone server answering every request through the MSW handlers (getResponse), as
// setupServer would, instead of the pipeline directly: the bench's own wrapper of mock.handle, as
// test/support/through-msw.ts is the differential test's (the server has no such mode of its own).
import { readFileSync } from 'node:fs';
import { getResponse } from 'msw';
import { createServer, MockError, parseJson } from '../../dist/mocks/index.js';
import { replyOfResponse } from '../../dist/mocks/reply.js';

const server = createServer({ seed: parseJson(readFileSync(process.env.SEED_FILE, 'utf8')) });
const { mock } = server;
const direct = mock.handle;
mock.handle = async (request, options) => {
  let fetchRequest;
  try {
    fetchRequest = request instanceof Request ? request : await request.toRequest();
  } catch (error) {
    if (error instanceof MockError) return error.toReply();
    return direct(request, options);
  }
  const response = await getResponse(mock.handlers, fetchRequest);
  return response === undefined ? direct(request, options) : replyOfResponse(response);
};
console.log(`listening on ${await server.listen(0, '127.0.0.1')}/v1`);
