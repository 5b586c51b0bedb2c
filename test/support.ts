import { expect } from 'vitest';
import { parseJson, type JsonValue } from '../mocks/json.js';
import { createServer, type ServerOptions } from '../mocks/server.js';

/** The development key, as a user would type it from the README. */
export const developmentKey = 'petstore-dev-key';
export const authorized = { authorization: `Bearer ${developmentKey}` };

/** A real standalone server on 127.0.0.1, port 0, with helpers to call the API and the control plane. */
export async function startServer(options: ServerOptions = {}) {
  const server = createServer(options);
  const origin = await server.listen(0, '127.0.0.1');
  return {
    server,
    origin,
    api: (path: string, init: RequestInit = {}) => fetch(`${origin}/v1${path}`, init),
    withKey: (path: string, init: RequestInit = {}) =>
      fetch(`${origin}/v1${path}`, { ...init, headers: { ...authorized, ...(init.headers as Record<string, string>) } }),
    control: (path: string, init: RequestInit = {}) => fetch(`${origin}/__mock${path}`, init),
    storedOrders: async () => parseJson(await (await fetch(`${origin}/__mock/orders`)).text()),
    close: () => server.close(),
  };
}

/** Reads a response body losslessly (ids beyond 2^53 stay exact). */
export async function jsonOf(response: Response): Promise<JsonValue> {
  return parseJson(await response.text());
}

/** Asserts the response is an Error record with this status and code (and message, when given), as JSON. */
export async function expectError(response: Response, status: number, code: string, message?: string | RegExp): Promise<Record<string, JsonValue>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = parseJson(text) as Record<string, JsonValue>;
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe('string');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}
