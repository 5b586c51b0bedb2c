// Issue 59, item 3: no answer of a provider ends a command. An answer Prism's validator or the kit's own
// checks cannot read (two Content-Type fields, a broken media type parameter, a field line no HTTP
// recipient can read) is a finding on that exchange: in the default run (exit 1, not 2), in the proxy
// (which answers the client and goes on serving) and in `har`.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { unreadableFinding } from '../../core/finding.js';
import { withSecondOracle } from '../../core/second-oracle.js';
import { runVerifyInProcess, startProxyInProcess } from '../support/cli-support.js';
import { writeHar } from '../support/har-files.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-unreadable-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const slow = { timeout: 60_000 };
const listFailure = (actual: string) =>
  `expected content-type application/json, got ${JSON.stringify(actual)}, ${actual.includes(',') ? 'a list of media types: Content-Type is a singleton field, one media type (RFC 9110 §5.5, §8.3)' : 'not a media type as RFC 9110 §8.3.1 writes one (type/subtype, then parameters name=value)'} (at content-type)`;

/** Hostile answers: each Content-Type field line the provider sends, and the value the kit reads. */
const hostile: [string, string[], string][] = [
  ['two different Content-Type fields', ['application/json', 'text/plain'], 'application/json, text/plain'],
  ['two identical Content-Type fields', ['application/json', 'application/json'], 'application/json, application/json'],
  ['a charset parameter without a value', ['application/json; charset='], 'application/json; charset='],
  ['a Content-Type of semicolons', [';;;'], ';;;'],
  ['a parameter without a name', ['application/json; =x'], 'application/json; =x'],
];

/** Honest Content-Types: one media type, application/json, with parameters RFC 9110 allows. */
const honest: string[] = [
  'application/json; charset=utf-8',
  'application/json;charset="utf-8"',
  // An empty parameter: RFC 9110 §5.6.6 allows it; Prism's parser throws on it (a known Prism limit).
  'application/json; charset=utf-8;',
];

const listOnly = ['--suite', 'scenarios', '--scenario', 'list-orders'];

describe.concurrent('the default run judges an answer it cannot read, and goes on', slow, () => {
  it.each(hostile)('%s: exit 1 with the finding', async (_name, contentTypes, value) => {
    const provider = await startHostileProvider({ contentTypes });
    try {
      const exit = await runVerifyInProcess([...provider.args, ...listOnly]);
      expect(exit.stdout).toContain(`list-orders › list the orders: ${listFailure(value)} [media-type]\n`);
      expect(exit.stdout + exit.stderr).not.toMatch(/unexpected failure|TypeError/);
      expect(exit.code, exit.stdout + exit.stderr).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it.each(honest)('passes one Content-Type %s', async (contentType) => {
    const provider = await startHostileProvider({ contentTypes: [contentType] });
    try {
      const exit = await runVerifyInProcess([...provider.args, ...listOnly]);
      expect(exit.code, exit.stdout + exit.stderr).toBe(0);
    } finally {
      await provider.close();
    }
  });
});

const authorization = { authorization: `Bearer ${hostileKey}` };

describe.concurrent('the proxy judges an answer it cannot read, answers the client and goes on serving', slow, () => {
  it.each(hostile)('%s', async (_name, contentTypes, value) => {
    const provider = await startHostileProvider({ contentTypes });
    const proxy = await startProxyInProcess(['--upstream', provider.args[1]!, '--port', '0']);
    try {
      for (const _ of [1, 2]) {
        const answer = await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorization });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe(value);
        expect(await answer.json()).toHaveLength(2);
      }
      const output = await proxy.outputMatching(/(✗ GET \/v1\/store\/orders → 200[^\n]*\n(?: {4}[^\n]*\n)+){2}/);
      expect(output).toContain(`    GET /store/orders → 200: ${listFailure(value)} [media-type]\n`);
      const exit = await proxy.stop();
      expect(exit.stdout).toContain('2 exchanges, 2 checked, 2 violations');
      expect(exit.code).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('passes one Content-Type with parameters', async () => {
    const provider = await startHostileProvider({ contentTypes: ['application/json; charset=utf-8'] });
    const proxy = await startProxyInProcess(['--upstream', provider.args[1]!, '--port', '0']);
    try {
      expect((await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorization })).status).toBe(200);
      await proxy.outputMatching(/✓ GET \/v1\/store\/orders → 200/);
      expect((await proxy.stop()).code).toBe(0);
    } finally {
      await provider.close();
    }
  });
});

/** An upstream on raw sockets that answers every request with `head` and a JSON list. */
async function rawUpstream(head: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const body = '[]';
  const server: Server = createServer((socket) => {
    socket.once('data', () =>
      socket.end(`HTTP/1.1 200 OK\r\n${head}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sends a request's raw bytes and reads every byte the other side sends until it closes. */
function rawExchange(origin: string, path: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer k\r\nconnection: close\r\n\r\n`);
  });
}

describe.concurrent('the proxy judges a field line no HTTP recipient can read', slow, () => {
  it.each([
    ['a field name with a space', 'content type: application/json'],
    ['a line without a colon', 'content-type: application/json\r\nno colon here'],
  ])('%s: the client gets the bytes, the finding is reported, the next request is served', async (_name, head) => {
    const upstream = await rawUpstream(head);
    const proxy = await startProxyInProcess(['--upstream', `${upstream.origin}/v1`, '--port', '0']);
    try {
      for (const _ of [1, 2])
        expect(await rawExchange(proxy.origin, '/v1/store/orders')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const output = await proxy.outputMatching(/(✗ GET \/v1\/store\/orders → 200[^\n]*\n(?: {4}[^\n]*\n)+){2}/);
      expect(output).toMatch(
        /GET \/store\/orders → 200: expected header fields an HTTP recipient can read \(a token, a colon, a value of visible characters: RFC 9110 §5\), got the field line "[^\n]*" \(at [^\n]*\) \[unreadable\]\n/,
      );
      expect((await proxy.stop()).code).toBe(1);
    } finally {
      await upstream.close();
    }
  });
});

describe.concurrent('har judges an answer it cannot read', slow, () => {
  it.each(hostile)('%s: exit 1 with the finding', async (name, contentTypes, value) => {
    const file = await writeHar(
      join(directory, `${name.replaceAll(' ', '-')}.har`),
      [
        {
          url: 'https://staging.example.com/v1/store/orders',
          status: 200,
          requestHeaders: authorization,
          responseFieldLines: contentTypes.map((contentType) => ['Content-Type', contentType]),
          body: '[]',
        },
      ],
      { browser: 'chrome' },
    );
    const exit = await runVerifyInProcess(['har', file]);
    expect(exit.stdout).toContain(`    ${listFailure(value)} [media-type]\n`);
    expect(exit.stdout + exit.stderr).not.toMatch(/unexpected failure|TypeError/);
    expect(exit.code, exit.stdout + exit.stderr).toBe(1);
  });

  it('passes one Content-Type with parameters', async () => {
    const file = await writeHar(
      join(directory, 'honest.har'),
      [
        {
          url: 'https://staging.example.com/v1/store/orders',
          status: 200,
          requestHeaders: authorization,
          responseFieldLines: [['Content-Type', 'application/json; charset=utf-8']],
          body: '[]',
        },
      ],
      { browser: 'chrome' },
    );
    const exit = await runVerifyInProcess(['har', file]);
    expect(exit.code, exit.stdout + exit.stderr).toBe(0);
  });
});

describe('whatever Prism throws on is a finding, never an exception', () => {
  const observed = { status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: '[]' };
  const throwing = {
    check: () => {
      throw new TypeError('something Prism cannot read');
    },
  };

  it('is an unreadable finding where the kit finds the answer well formed', () => {
    const findings: ReturnType<typeof unreadableFinding>[] = [];
    expect(withSecondOracle(throwing, 'GET', '/store/orders', observed, findings)).toEqual([]);
    expect(findings).toEqual([
      {
        code: 'unreadable',
        path: '',
        expected: "an answer Prism's validator can read",
        actual: 'one it throws on (TypeError: something Prism cannot read)',
      },
    ]);
  });
});
