// The one place a reply meets the socket: the header fields it writes, in their order, read as raw bytes.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Answer } from '../../mocks/pipeline/pipeline.js';
import { networkError } from '../../mocks/base/reply.js';
import { createReplyWriter } from '../../mocks/server/reply-writer.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** What a server that writes `answer` with `cors` sends for one request, as text; '' when it drops the connection. */
async function written(answer: Answer, cors: Record<string, string>, method = 'GET'): Promise<string> {
  const writeReply = createReplyWriter();
  server = createServer((_, outgoing) => {
    outgoing.sendDate = false;
    writeReply(outgoing, answer, cors);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(`${method} / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`),
    );
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

const cors = { 'access-control-allow-origin': '*', vary: 'Origin' };

describe('the reply writer', () => {
  it('writes the CORS fields, then the reply’s own, then the body’s length', async () => {
    const answer = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: [new TextEncoder().encode('[]')],
    };
    expect(await written(answer, cors)).toBe(
      'HTTP/1.1 200 OK\r\naccess-control-allow-origin: *\r\nvary: Origin\r\ncontent-type: application/json\r\n' +
        'content-length: 2\r\nConnection: close\r\n\r\n[]',
    );
  });

  it('gives a field the reply sets itself the reply’s value, in the CORS field’s place', async () => {
    const answer = { status: 200, headers: { 'x-own': 'yes', vary: 'Accept' }, body: 'é' };
    expect(await written(answer, cors)).toBe(
      'HTTP/1.1 200 OK\r\naccess-control-allow-origin: *\r\nvary: Accept\r\nx-own: yes\r\n' +
        'content-length: 2\r\nConnection: close\r\n\r\n\u00c3\u00a9',
    );
  });

  it('keeps a length the reply gives itself, as the answer to HEAD does', async () => {
    const answer = { status: 200, headers: { 'content-length': '120' }, body: null };
    expect(await written(answer, {}, 'HEAD')).toBe(
      'HTTP/1.1 200 OK\r\ncontent-length: 120\r\nConnection: close\r\n\r\n',
    );
  });

  it('gives a 204 no length', async () => {
    expect(await written({ status: 204, headers: {}, body: null }, cors)).toBe(
      'HTTP/1.1 204 No Content\r\naccess-control-allow-origin: *\r\nvary: Origin\r\nConnection: close\r\n\r\n',
    );
  });

  it('drops the connection for a network error', async () => {
    expect(await written(networkError, cors)).toBe('');
  });
});
