import { createServer as createHttpServer } from 'node:http';
import { getResponse } from 'msw';
import { createOrderMock, type OrderMockOptions } from '../../mocks/adapters/order-mock.js';
import { operationOf } from '../../core/routes.js';

/** A fault answers a Response, or raw bytes to write on the socket (for what Fetch cannot build, such as a 204 with a body). */
export type Fault = (
  request: Request,
  response: Response,
  calls: Map<string, number>,
) => Response | { raw: string } | Promise<Response | { raw: string }>;

/**
 * A provider that is the kit's mock with one fault: every answer passes through `fault` first.
 * Its control plane (and so its provider-state URL) is the mock's own.
 */
export async function startBrokenProvider(fault: Fault, options: OrderMockOptions = {}) {
  const mock = createOrderMock(options);
  const calls = new Map<string, number>();
  const server = createHttpServer(async (incoming, outgoing) => {
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method,
      headers: incoming.headers as Record<string, string>,
      body: incoming.method === 'POST' ? await new Response(incoming as unknown as ReadableStream).text() : null,
    });
    const key = `${request.method} ${new URL(request.url).pathname}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
    let response: Response | { raw: string } = (await getResponse(mock.handlers, request.clone()))!;
    if (!request.url.includes('/__mock/')) response = await fault(request, response, calls);
    if ('raw' in response) {
      outgoing.socket!.end(response.raw);
      return;
    }
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    args: [
      '--base-url',
      `${origin}/v1`,
      '--api-key',
      'petstore-dev-key',
      '--state-url',
      `${origin}/__mock/provider-state`,
    ],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A JSON response (a string body is sent as it is). */
export const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
const operation = (request: Request) => {
  const { pathname } = new URL(request.url);
  return pathname.startsWith('/v1/') ? operationOf(request.method, pathname.slice('/v1'.length)) : undefined;
};
export const isList = (request: Request) => operation(request) === 'listOrders';
export const isCancel = (request: Request) => operation(request) === 'cancelOrder';
