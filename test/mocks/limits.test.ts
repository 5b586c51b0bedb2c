// Slow and oversized clients are bounded: each gets a 4xx Error record or a closed connection, the
// server stays up, and the store is unchanged. The limits are documented in docs/reference.md (Limits).
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { authorized, jsonOf, startServer } from '../support/support.js';

type Started = Awaited<ReturnType<typeof startServer>>;
let mock: Started;
afterEach(() => mock.close());

// Writes `parts` to a raw socket, `gap` ms apart, and resolves with all it reads until the server closes
// it, and how many parts were still unsent then (a server that waited for them all leaves none).
function dribble(origin: string, parts: string[], gap: number): Promise<{ reply: string; unsent: number }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let reply = '';
    let index = 0;
    const timer = setInterval(() => {
      if (index < parts.length && socket.writable) socket.write(parts[index++]!);
    }, gap);
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ reply, unsent: parts.length - index });
    });
    socket.on('error', reject);
  });
}

const errorOf = (reply: string) => JSON.parse(reply.split('\r\n\r\n')[1]!) as { code: string; status: number };

describe('limits of the standalone server', () => {
  it('closes a client that sends its headers too slowly with a 408 Error record', async () => {
    mock = await startServer({ headersTimeout: 300, requestTimeout: 600 });
    const parts = [
      'GET /v1/store/orders HTTP/1.1\r\n',
      'Host: x\r\n',
      ...Array.from({ length: 40 }, (_, index) => `X-Slow-${index}: 1\r\n`),
    ];
    // 40 header lines 50 ms apart take 2 s or more, whatever the load: the 408 comes while the client is still sending.
    const { reply, unsent } = await dribble(mock.origin, parts, 50);
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(errorOf(reply)).toEqual({
      code: 'request_timeout',
      message: 'The request was not received in time.',
      status: 408,
    });
    expect(unsent).toBeGreaterThan(0);
    expect((await mock.withKey('/store/orders')).status).toBe(200);
  });

  it('closes a client that sends its body too slowly with a 408, and changes nothing', async () => {
    mock = await startServer({ seed: [{ id: 1 }], headersTimeout: 300, requestTimeout: 500 });
    const body = JSON.stringify([{ id: 2 }, { id: 3 }]);
    const parts = [
      `PUT /__mock/orders HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`,
      ...body.split(''),
    ];
    const { reply, unsent } = await dribble(mock.origin, parts, 60);
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(unsent).toBeGreaterThan(0);
    expect(await jsonOf(await mock.control('/orders'))).toEqual([
      expect.objectContaining({ id: 1, status: 'pending' }),
    ]);
  });

  it('refuses a body over the limit with 413 before reading it all, and changes nothing', async () => {
    mock = await startServer({ seed: [{ id: 1 }], bodyLimit: 1024 });
    const big = JSON.stringify(Array.from({ length: 200 }, (_, index) => ({ id: index + 10 })));
    const response = await mock.control('/orders', { method: 'PUT', body: big });
    expect(response.status).toBe(413);
    expect(await jsonOf(response)).toEqual({
      code: 'payload_too_large',
      message: 'Request body too large: the limit is 1024 bytes.',
      status: 413,
    });
    expect(await jsonOf(await mock.control('/orders'))).toEqual([expect.objectContaining({ id: 1 })]);
  });

  it('refuses a chunked body that grows past the limit with 413 and closes the connection', async () => {
    mock = await startServer({ bodyLimit: 1024 });
    const chunk = 'a'.repeat(512);
    const parts = [
      'PUT /__mock/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
      ...Array.from({ length: 6 }, () => `200\r\n${chunk}\r\n`),
    ];
    const { reply } = await dribble(mock.origin, parts, 5);
    expect(reply).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(errorOf(reply).code).toBe('payload_too_large');
    expect((await mock.withKey('/store/orders')).status).toBe(200);
  });

  it('refuses a body over the limit on an API path too, with 413, and cancels nothing', async () => {
    mock = await startServer({ seed: [{ id: 1 }], bodyLimit: 1024 });
    const body = 'a'.repeat(2048);
    const parts = [
      `DELETE /v1/store/orders/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer petstore-dev-key\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    ];
    const { reply } = await dribble(mock.origin, parts, 5);
    expect(reply).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(errorOf(reply).code).toBe('payload_too_large');
    expect(await jsonOf(await mock.withKey('/store/orders'))).toEqual([{ id: 1 }]);
  });

  it('answers 431 to a thousand headers of 20 bytes each, and keeps answering', async () => {
    mock = await startServer();
    const headers = Array.from({ length: 1000 }, (_, index) => `X-H${index}: ${'v'.repeat(12)}\r\n`).join('');
    const { reply } = await dribble(
      mock.origin,
      [`GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer petstore-dev-key\r\n${headers}\r\n`],
      1,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect((await mock.api('/store/orders', { headers: authorized })).status).toBe(200);
  });
});
