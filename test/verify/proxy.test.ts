// The proxy runs in this process (startProxyInProcess: the command's own code, stopped as SIGINT stops it)
// but in the two tests of a signal's summary and exit code and one usage error, which only a process shows.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { connect } from 'node:net';
import { isList, startBrokenProvider } from '../support/broken-provider.js';
import { startHostileProvider, type Switches } from '../support/hostile-provider.js';
import {
  type RunningCommand,
  runToExit,
  runVerifyInProcess,
  startCommand,
  startProxyInProcess,
  verifyCliPath as verifyCli,
} from '../support/cli-support.js';
import { authorized, listenLocally, startServer } from '../support/support.js';

const proxyArgs = (upstream: string, args: string[]) => ['proxy', '--upstream', upstream, '--port', '0', ...args];
/** The proxy command run in this process: stopping it does what SIGINT does to the command. */
const startProxy = (upstream: string, args: string[] = []) => startProxyInProcess(proxyArgs(upstream, args).slice(1));
/** The proxy as the process a user starts, for what only a process shows: a signal's summary and exit code. */
const startProxyProcess = (upstream: string, args: string[] = []) =>
  startCommand(process.execPath, [verifyCli, ...proxyArgs(upstream, args)]);

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-proxy-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

let reports = 0;

/**
 * Runs `test` with a proxy in front of `upstream`, then stops it and checks that its summary, its
 * --json, GET /__verify/report and its exit code say the same: they are made from one report.
 */
async function withProxy(upstream: string, args: string[], test: (proxy: RunningCommand) => Promise<void>) {
  const jsonFile = join(directory, `report-${++reports}.json`);
  const proxy = await startProxy(upstream, [...args, '--json', jsonFile]);
  let served: { violations: number; verdict: string; exitCode: number } | undefined;
  try {
    await test(proxy);
    served = (await (await fetch(`${proxy.origin}/__verify/report`)).json()) as typeof served;
  } finally {
    const exit = await proxy.stop('SIGINT');
    if (served !== undefined) expectOneCount(exit, served, parseJson(await readFile(jsonFile, 'utf8')));
  }
}

function expectOneCount(
  exit: { code: number | null; stdout: string },
  served: { violations: number; verdict: string; exitCode: number },
  written: unknown,
): void {
  expect(written).toEqual(parseJson(JSON.stringify(served)));
  const summary =
    /\n\d+ exchanges?, \d+ checked, (\d+) violations?[^\n]*\n(?:no exchange was judged: [^\n]*\n)?verdict: ([\w-]+) \(exit (\d)\)\n$/.exec(
      exit.stdout,
    );
  expect(summary, exit.stdout).not.toBeNull();
  expect([Number(summary![1]), summary![2], Number(summary![3])]).toEqual([
    served.violations,
    served.verdict,
    exit.code,
  ]);
  expect(exit.code).toBe({ failed: 1, passed: 0, 'not-run': 2 }[served.verdict]);
  expect(exit.code).toBe(served.exitCode);
}

/** Waits until the proxy has printed `text` (it logs an exchange once the response has gone out), and returns its output. */
const printed = (proxy: RunningCommand, text: string): Promise<string> => proxy.outputMatching(text);

/** Sends raw bytes and reads every byte the other side sends until it closes. */
function rawExchange(origin: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

/** Sets the hostile provider's store through its state URL. */
async function changeState(origin: string, orders: unknown[]): Promise<void> {
  const response = await fetch(`${origin}/__state`, {
    method: 'POST',
    body: JSON.stringify({ state: 'the store holds orders', params: { orders } }),
  });
  expect(response.status).toBe(200);
}

/** Status, the headers a client reads, and the body bytes as text. */
async function observed(response: Response) {
  const headers = [
    'content-type',
    'content-length',
    'www-authenticate',
    'allow',
    'deprecation',
    'sunset',
    'access-control-allow-origin',
  ];
  return {
    status: response.status,
    headers: headers.map((name) => [name, response.headers.get(name)]),
    text: await response.text(),
  };
}

describe('petstore-verify proxy', () => {
  it('answers exactly what the upstream answers, for every outcome', async () => {
    const mock = await startServer();
    try {
      await withProxy(`${mock.origin}/v1`, [], async (proxy) => {
        expect(proxy.output()).toMatch(
          /^petstore-verify proxy listening on http:\/\/127\.0\.0\.1:\d+\/v1, forwarding to http:\/\/127\.0\.0\.1:\d+\/v1; report at http:\/\/127\.0\.0\.1:\d+\/__verify\/report\n/,
        );
        const requests: [string, RequestInit][] = [
          ['/store/orders', { headers: authorized }],
          ['/store/orders', {}],
          ['/store/orders', { headers: { authorization: 'Bearer wrong' } }],
          ['/pets/1', { headers: authorized }],
          ['/store/orders/999', { method: 'DELETE', headers: authorized }],
          ['/store/orders/3', { method: 'DELETE', headers: authorized }],
          ['/store/orders', { method: 'POST', headers: authorized }],
        ];
        for (const [path, init] of requests) {
          expect(
            await observed(await fetch(`${proxy.baseUrl}${path}`, init)),
            `${init.method ?? 'GET'} ${path}`,
          ).toEqual(await observed(await fetch(`${mock.origin}/v1${path}`, init)));
        }
      });
    } finally {
      await mock.close();
    }
  });

  it("forwards methods, bodies and paths outside /v1, so the upstream's state changes", async () => {
    const mock = await startServer();
    try {
      await withProxy(`${mock.origin}/v1`, [], async (proxy) => {
        const replaced = await fetch(`${proxy.origin}/__mock/orders`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: '[{"id":9007199254740993}]',
        });
        expect(replaced.status).toBe(204);
        expect(
          (await fetch(`${proxy.baseUrl}/store/orders/9007199254740993`, { method: 'DELETE', headers: authorized }))
            .status,
        ).toBe(204);
        expect(await mock.storedOrders()).toEqual([{ id: 9007199254740993n, status: 'cancelled' }]);
        await printed(proxy, '✓ DELETE /v1/store/orders/9007199254740993 → 204 (');
        expect(proxy.output()).toMatch(
          /\n- PUT \/__mock\/orders → 204 \(\d+ ms; not checked: no operation of the specification\)\n/,
        );
      });
    } finally {
      await mock.close();
    }
  });

  it('reports a violation without altering the response, serves the report, and exits 1 with a summary', async () => {
    const provider = await startBrokenProvider(async (request, response) =>
      isList(request) && response.status === 200
        ? new Response(await response.text(), { status: 200, headers: { 'content-type': 'text/plain' } })
        : response,
    );
    const reportFile = join(directory, 'proxy-report.json');
    const proxy = await startProxyProcess(`${provider.origin}/v1`, ['--json', reportFile]);
    try {
      const response = await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized });
      expect(response.headers.get('content-type')).toBe('text/plain');
      expect(await response.text()).toMatch(/^\[\{"id":1,/);
      const report = parseJson(await (await fetch(`${proxy.origin}/__verify/report`)).text()) as {
        exchanges: number;
        violations: number;
        violated: { path: string; violations: { message: string }[] }[];
      };
      expect(report.exchanges).toBe(1);
      expect(report.violations).toBeGreaterThan(0);
      expect(report.violated[0]!.violations[0]!).toEqual({
        code: 'media-type',
        path: 'content-type',
        expected: 'content-type application/json',
        actual: 'text/plain',
        area: 'content-type',
      });
    } finally {
      const exit = await proxy.stop('SIGTERM');
      await provider.close();
      expect(exit.stdout).toContain('✗ GET /v1/store/orders → 200 (');
      expect(exit.stdout).toContain(
        '    GET /store/orders → 200: expected content-type application/json, got text/plain (at content-type) [media-type]\n',
      );
      expect(exit.stdout).toMatch(
        /\n1 exchange, 1 checked, [1-9]\d* violations?, 0 disagreements between Ajv and Prism\nverdict: failed \(exit 1\)\n$/,
      );
      expect(exit.code).toBe(1);
      expect((parseJson(await readFile(reportFile, 'utf8')) as { checked: number }).checked).toBe(1);
    }
  });

  it('exits 0 on SIGINT when nothing broke the contract', async () => {
    const mock = await startServer();
    const proxy = await startProxyProcess(`${mock.origin}/v1`);
    await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized });
    const exit = await proxy.stop('SIGINT');
    await mock.close();
    expect(exit.stdout).toContain(
      '\n1 exchange, 1 checked, 0 violations, 0 disagreements between Ajv and Prism\nverdict: passed (exit 0)\n',
    );
    expect(exit.code).toBe(0);
  });

  it('never passes having judged nothing: upstream down, 7 exchanges, 0 checked is exit 2 with one line why, everywhere', async () => {
    const closed = await startServer();
    const origin = closed.origin;
    await closed.close();
    const jsonFile = join(directory, 'nothing-judged.json');
    const proxy = await startProxy(`${origin}/v1`, ['--json', jsonFile]);
    let served: { verdict: string; exitCode: number; reason: string; checked: number; unchecked: unknown };
    let exit: Awaited<ReturnType<typeof proxy.stop>>;
    try {
      for (let sent = 0; sent < 7; sent++)
        expect((await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized })).status).toBe(502);
      await proxy.outputMatching(/(- GET \/v1\/store\/orders → 502[\s\S]*){7}/);
      served = (await (await fetch(`${proxy.origin}/__verify/report`)).json()) as typeof served;
    } finally {
      exit = await proxy.stop('SIGINT');
    }
    const why = 'no exchange was judged: 7 exchanges, 0 checked (7 upstream unreachable: ECONNREFUSED)';
    expect(served).toMatchObject({ checked: 0, verdict: 'not-run', exitCode: 2, reason: why });
    expect(served.unchecked).toEqual([{ reason: 'upstream unreachable: ECONNREFUSED', exchanges: 7 }]);
    expect(exit.stdout).toContain(
      `\n7 exchanges, 0 checked, 0 violations, 0 disagreements between Ajv and Prism\n${why}\nverdict: not-run (exit 2)\n`,
    );
    expect(exit.stdout).not.toContain('verdict: passed');
    expect(exit.code).toBe(2);
    expect(parseJson(await readFile(jsonFile, 'utf8'))).toMatchObject({ verdict: 'not-run', exitCode: 2, reason: why });
  });

  it('never passes when no request came through at all, and passes once one answer was judged', async () => {
    const mock = await startServer();
    try {
      const idle = await startProxy(`${mock.origin}/v1`);
      const idleExit = await idle.stop('SIGINT');
      expect(idleExit.stdout).toContain(
        '\nno exchange was judged: no request came through the proxy\nverdict: not-run (exit 2)\n',
      );
      expect(idleExit.code).toBe(2);
      const judged = await startProxy(`${mock.origin}/v1`);
      await fetch(`${judged.baseUrl}/store/orders`, { headers: authorized });
      const judgedExit = await judged.stop('SIGINT');
      expect(judgedExit.stdout).toContain('\nverdict: passed (exit 0)\n');
      expect(judgedExit.code).toBe(0);
    } finally {
      await mock.close();
    }
  });

  it('forwards to an upstream base path, passes compressed bytes through and checks the decoded body', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const compressed = gzipSync('[{"id":"7"}]');
    const upstream = await listenLocally((request, response) => {
      seen.push({ url: request.url!, headers: request.headers });
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': compressed.length,
      });
      response.end(compressed);
    });
    const upstreamOrigin = upstream.origin;
    try {
      await withProxy(`${upstreamOrigin}/petstore/v1`, [], async (proxy) => {
        const response = await fetch(`${proxy.baseUrl}/store/orders?page=2`, {
          headers: { ...authorized, 'x-trace': 'abc' },
        });
        expect(response.headers.get('content-encoding')).toBe('gzip');
        expect(response.headers.get('content-length')).toBe(String(compressed.length));
        expect(await response.text()).toBe('[{"id":"7"}]');
        expect(seen[0]!.url).toBe('/petstore/v1/store/orders?page=2');
        expect(seen[0]!.headers['x-trace']).toBe('abc');
        expect(seen[0]!.headers.authorization).toBe(authorized.authorization);
        expect(seen[0]!.headers.host).toBe(upstreamOrigin.slice('http://'.length));
        await printed(proxy, '    GET /store/orders → 200: expected integer, got "7" (at /0/id) [body-schema]\n');
      });
    } finally {
      await upstream.close();
    }
  });

  it('answers 502 with an Error record when the upstream cannot be reached', async () => {
    const closed = await startServer();
    const origin = closed.origin;
    await closed.close();
    await withProxy(`${origin}/v1`, [], async (proxy) => {
      const response = await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        code: 'upstream_unreachable',
        message: `The proxy cannot reach ${origin}: ECONNREFUSED.`,
        status: 502,
      });
      await printed(proxy, '- GET /v1/store/orders → 502 (');
      expect(proxy.output()).toContain('not checked: upstream unreachable: ECONNREFUSED)');
    });
  });

  it('passes a 204 followed by bytes to the client exactly as the upstream sent it, and reports it', async () => {
    const provider = await startHostileProvider({ bytesAfter204: true });
    try {
      await changeState(provider.origin, [{ id: 1, status: 'pending' }]);
      await withProxy(`${provider.origin}/v1`, [], async (proxy) => {
        const raw = await rawExchange(
          proxy.origin,
          'DELETE /v1/store/orders/1 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer hostile-provider-key\r\nconnection: close\r\n\r\n',
        );
        expect(raw).toBe('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n{"ok":true}');
        await printed(
          proxy,
          '    DELETE /store/orders/1 → 204: expected nothing after the end of the response (a 204 cannot carry content, RFC 9110 §15.3.5), got more bytes on the connection [framing]\n',
        );
      });
    } finally {
      await provider.close();
    }
  });

  it.each<[string, Switches, string]>([
    [
      'a body cut short',
      { closeMidBody: true },
      '    GET /store/orders → 200: expected a whole response, got the connection closed before the whole body came [no-answer]\n',
    ],
    [
      'a gzip body that is not gzip',
      { badGzip: true },
      '    GET /store/orders → 200: expected a body encoded as its Content-Encoding says, got one that cannot be decoded (incorrect header check) (at content-encoding) [no-answer]\n',
    ],
    [
      'an order listed twice',
      { duplicateIds: true },
      '    GET /store/orders → 200: expected each order id once, got 1 again (first at /0) (at /1/id) [id-unique]\n',
    ],
    [
      'a 401 without a challenge',
      { noChallenge: true },
      '    GET /store/orders → 401: expected a Bearer challenge in WWW-Authenticate with 401 (RFC 6750 §3), got no WWW-Authenticate (at www-authenticate) [auth-challenge]\n',
    ],
    [
      'a body in invalid UTF-8',
      { invalidUtf8: true },
      '    GET /store/orders → 200: expected a body in UTF-8 (RFC 8259 §8.1), got bytes that are not valid UTF-8 [encoding]\n',
    ],
  ])('reports %s instead of dropping it', async (_, switches, line) => {
    const provider = await startHostileProvider(switches);
    try {
      await changeState(provider.origin, [{ id: 1, status: 'pending' }]);
      await withProxy(`${provider.origin}/v1`, [], async (proxy) => {
        await rawExchange(
          proxy.origin,
          `GET /v1/store/orders HTTP/1.1\r\nhost: x\r\n${switches.noChallenge ? '' : 'authorization: Bearer hostile-provider-key\r\n'}connection: close\r\n\r\n`,
        );
        await printed(proxy, line);
      });
    } finally {
      await provider.close();
    }
  });

  it('gives a hint when the upstream does not end with /v1', async () => {
    const mock = await startServer();
    try {
      await withProxy(mock.origin, [], async (proxy) => {
        expect(proxy.output()).toContain(
          `hint: the upstream ${mock.origin} does not end with /v1: the interface's paths are below its version path (did you mean ${mock.origin}/v1?)\n`,
        );
      });
    } finally {
      await mock.close();
    }
  });

  it.each([
    [[], 'petstore-verify: proxy needs --upstream URL (see --help)\n', 'process'],
    [
      ['--upstream', 'ftp://example.invalid/v1'],
      'petstore-verify: --upstream is not an http(s) URL: "ftp://example.invalid/v1" (see --help)\n',
    ],
    [
      ['--upstream', 'http://127.0.0.1:9/v1', '--port', 'x'],
      'petstore-verify: --port must be an integer from 0 to 65535, got "x" (see --help)\n',
    ],
    [
      ['--upstream', 'http://127.0.0.1:9/v1', '--json', '/no-such-folder-of-the-kit/report.json'],
      'petstore-verify: --json /no-such-folder-of-the-kit/report.json cannot be written: its folder does not exist (see --help)\n',
    ],
  ])('refuses %j with one line and exit code 2', async (args, message, how = 'in process') => {
    const exit =
      how === 'process'
        ? await runToExit(process.execPath, [verifyCli, 'proxy', ...args])
        : await runVerifyInProcess(['proxy', ...args]);
    expect(exit.stderr).toBe(message);
    expect(exit.code).toBe(2);
  });
});
