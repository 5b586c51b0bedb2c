// petstore-verify har runs in this process (runVerifyInProcess), but where a process is at stake: no secret
// in what the process prints (its streams are redacted), a usage error's exit code, and petstore-mock
// started from a saved scenario (the command line reads it).
// petstore-verify har: a tester's HAR file judged with the proxy's judge and recorder, saved as a
// scenario that replays anywhere; every shape real HAR files hold; bad files; no secret in any output.
import { gzipSync } from 'node:zlib';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../core/scenario-files.js';
import type { ContractStep } from '../../core/scenario.js';
import type { OrderInput } from '../../core/provider-state.js';
import { judgeHar } from '../../verify/har/judge-har.js';
import { loadPrismOracle } from '../../verify/base/prism.js';
import { startBrokenProvider } from '../support/broken-provider.js';
import {
  cliPath as mockCli,
  runToExit,
  runVerifyInProcess,
  startCommand,
  verifyCliPath as verifyCli,
} from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec, type HarShape } from '../support/har-files.js';
import { replaySaved, replayedOnMock } from '../support/har-replay.js';
import { authorized, developmentKey, startServer } from '../support/support.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-test-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const shippedState: OrderInput[] = [
  { id: 1, petId: 101, quantity: 1, status: 'pending' },
  { id: 3, petId: 103, quantity: 1, status: 'shipped' },
];
const listed = '[{"id":1,"petId":101,"quantity":1},{"id":3,"petId":103,"quantity":1}]';
const json = { 'content-type': 'application/json' };
const error = (code: string, status: number) => JSON.stringify({ code, message: code, status });
const unauthorized = {
  ...json,
  'www-authenticate': 'Bearer realm="petstore"',
};

/** The README's bug as a browser saw it: the list, then a 204 for the shipped order 3. */
const readmeBug: HarExchangeSpec[] = [
  { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
  { method: 'DELETE', url: `${base}/store/orders/3`, status: 204, requestHeaders: authorized },
];

const har = (name: string, exchanges: readonly HarExchangeSpec[], shape: HarShape = { browser: 'chrome' }) =>
  writeHar(join(directory, name), exchanges, shape);

const verifyHar = (args: string[]) => runVerifyInProcess(['har', ...args, '--no-prism']);
/** The command as a process: for the redaction of its own output streams and a usage error's exit code. */
const verifyHarProcess = (args: string[]) => runToExit(process.execPath, [verifyCli, 'har', ...args, '--no-prism']);

describe('petstore-verify har: the README bug from a HAR', () => {
  it('holds the 204 for the shipped order against the contract at once from --from-scenario, and the saved scenario replays red against the buggy provider, green against an honest one', async () => {
    const file = await har('bug.har', readmeBug);
    const saved = join(directory, 'saved');
    const run = await verifyHar([
      file,
      '--from-scenario',
      'cancel-shipped-order',
      '--save',
      saved,
      '--name',
      'shipped-order-cancelled-in-browser',
    ]);
    expect(run.stdout).toContain(
      'judging from the state of scenario cancel-shipped-order: what the deployment held when the HAR began',
    );
    expect(run.stdout).toContain(
      "✗ contract: 2. cancel order 3: the contract requires status 409, the HAR's answer was 204 [status-unexpected]",
    );
    expect(run.stdout).toContain(
      '2 entries of the interface, 2 judged, 0 violations of the specification, 1 finding against the contract',
    );
    expect(run.stdout).not.toContain('inferred from the answers');
    expect(run.stdout).toMatch(/\nverdict: failed \(exit 1\)\n$/);
    expect(run.code).toBe(1);
    const [scenario] = await loadScenarios({ directory: saved });
    expect(scenario!.name).toBe('shipped-order-cancelled-in-browser');
    expect(scenario!.state!.params.orders).toEqual(shippedState);
    expect(scenario!.recording!.from).toEqual({ scenario: 'cancel-shipped-order' });
    expect(scenario!.recording!.upstream).toBe(base);
    expect(scenario!.recording!.started).toBe('2026-11-27T10:00:00.000Z');
    expect((scenario!.steps[1] as ContractStep).expect.status).toBe(409);
    expect((scenario!.steps[1] as ContractStep).recorded?.status).toBe(204);
    expect(await readFile(join(saved, 'shipped-order-cancelled-in-browser.yaml'), 'utf8')).toMatch(
      /^# Recorded by petstore-verify har\. /,
    );

    const replayed = (origin: string) => replaySaved({ saved, name: 'shipped-order-cancelled-in-browser', origin });
    const buggy = await startBrokenProvider(async (request, response) =>
      request.method === 'DELETE' && response.status === 409 ? new Response(null, { status: 204 }) : response,
    );
    try {
      const red = await replayed(buggy.origin);
      expect(red.stdout).toContain(
        'shipped-order-cancelled-in-browser › 2. cancel order 3: expected status 409, got 204 (at status)',
      );
      expect(red.code).toBe(1);
    } finally {
      await buggy.close();
    }
    const honest = await startServer();
    try {
      expect((await replayed(honest.origin)).code).toBe(0);
    } finally {
      await honest.close();
    }
    // petstore-mock starts in the saved scenario's state.
    const mock = await startCommand(process.execPath, [
      mockCli,
      '--port',
      '0',
      '--scenarios',
      saved,
      '--scenario',
      'shipped-order-cancelled-in-browser',
    ]);
    try {
      expect(await (await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized })).text()).toBe(listed);
      expect((await fetch(`${mock.baseUrl}/store/orders/3`, { method: 'DELETE', headers: authorized })).status).toBe(
        409,
      );
    } finally {
      await mock.stop();
    }
  });

  it('says, without --from-scenario, which status it only inferred and that a bug in it cannot be caught', async () => {
    const run = await verifyHar([await har('bug.har', readmeBug)]);
    expect(run.stdout).toContain('judging in the state the answers imply: give --from-scenario NAME');
    expect(run.stdout).toContain(
      'inferred from the answers, not known: order 3 pending (from 2. cancel order 3); a bug in these statuses cannot be caught',
    );
    expect(run.stdout).toMatch(/\nverdict: passed \(exit 0\)\n$/);
    expect(run.code).toBe(0);
  });

  it('judges with the same judge in process: the report as data', async () => {
    const { report } = await judgeHar({
      file: await har('bug.har', readmeBug),
      knownState: { scenario: 'cancel-shipped-order', orders: shippedState },
    });
    expect([report.verdict, report.exitCode, report.judged, report.violations]).toEqual(['failed', 1, 2, 0]);
    expect(report.contract).toEqual({
      steps: 2,
      disagreements: 1,
      against: [
        {
          step: '2. cancel order 3',
          findings: [{ code: 'status-unexpected', path: 'status', expected: 'status 409', actual: '204' }],
        },
      ],
      inferred: [],
      saved: [], // judged in a folder of its own, removed after
    });
  });
});

describe('petstore-verify har: what real HAR files hold', () => {
  /** An honest session of every outcome, as Firefox exports it. */
  const honestSession = (): HarExchangeSpec[] => [
    { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
    { method: 'DELETE', url: `${base}/store/orders/1`, status: 204, requestHeaders: authorized },
    {
      method: 'DELETE',
      url: `${base}/store/orders/3`,
      status: 409,
      requestHeaders: authorized,
      responseHeaders: json,
      body: error('order_already_shipped', 409),
    },
    {
      method: 'DELETE',
      url: `${base}/store/orders/42`,
      status: 404,
      requestHeaders: authorized,
      responseHeaders: json,
      body: error('order_not_found', 404),
    },
    { url: `${base}/store/orders`, status: 401, responseHeaders: unauthorized, body: error('missing_api_key', 401) },
  ];

  it('judges a Firefox export of an honest session green, and its saved scenario replays green against the mock', async () => {
    const file = await har('firefox.har', honestSession(), { browser: 'firefox' });
    const saved = join(directory, 'saved');
    const run = await verifyHar([
      file,
      '--from-scenario',
      'cancel-shipped-order',
      '--api-key',
      developmentKey,
      '--save',
      saved,
      '--name',
      'firefox-session',
    ]);
    expect(run.stdout).toContain(
      '5 entries of the interface, 5 judged, 0 violations of the specification, 0 findings against the contract',
    );
    expect(run.code).toBe(0);
    const [scenario] = await loadScenarios({ directory: saved });
    expect(scenario!.steps.map((step) => step.name)).toEqual([
      '1. list the orders',
      '2. cancel order 1',
      '3. cancel order 3',
      '4. cancel order 42',
      '5. list the orders without a key',
    ]);
    expect(await replayedOnMock({ saved, name: 'firefox-session' })).toBe(0);
  });

  it('does not judge the calls of a sanitized Chrome export as calls without a key, and says so', async () => {
    const file = await har('sanitized.har', honestSession().slice(0, 4), { browser: 'chrome', sanitized: true });
    const saved = join(directory, 'saved');
    const run = await verifyHar([
      file,
      '--from-scenario',
      'cancel-shipped-order',
      '--save',
      saved,
      '--name',
      'sanitized',
    ]);
    expect(run.stdout).toContain(
      'no call of the interface kept its Authorization header (a sanitized export): none is judged as a call without a key',
    );
    expect(run.code).toBe(0);
    const [scenario] = await loadScenarios({ directory: saved });
    expect(scenario!.steps.map((step) => step.request.key ?? 'valid')).toEqual(['valid', 'valid', 'valid', 'valid']);
  });

  it("catches the README's bug in a sanitized Chrome export too: the key is not in the file, the 204 is", async () => {
    const file = await har('sanitized-bug.har', readmeBug, { browser: 'chrome', sanitized: true });
    const { report } = await judgeHar({
      file,
      knownState: { scenario: 'cancel-shipped-order', orders: shippedState },
    });
    expect(report.sanitized).toBe(true);
    expect(report.contract.against.map(({ step }) => step)).toEqual(['2. cancel order 3']);
    expect(report.exitCode).toBe(1);
  });

  it('reads base64 bodies, bodies still compressed, HTTP/2 pseudo-headers and Chrome private fields', async () => {
    const file = await har(
      'h2.har',
      [
        {
          url: `${base}/store/orders`,
          status: 200,
          requestHeaders: authorized,
          responseHeaders: json,
          content: { text: Buffer.from(listed).toString('base64'), encoding: 'base64' },
        },
        {
          url: `${base}/store/orders`,
          status: 200,
          requestHeaders: authorized,
          responseHeaders: { ...json, 'content-encoding': 'gzip' },
          content: { text: gzipSync(listed).toString('base64'), encoding: 'base64', size: listed.length },
          at: 500,
        },
        // A browser keeps the body decoded, whatever its Content-Encoding says.
        {
          url: `${base}/store/orders`,
          status: 200,
          requestHeaders: authorized,
          responseHeaders: { ...json, 'content-encoding': 'br' },
          body: listed,
          at: 700,
        },
      ],
      { browser: 'chrome', http2: true },
    );
    const { report } = await judgeHar({ file, knownState: { scenario: 'cancel-shipped-order', orders: shippedState } });
    expect(report.exchanges.map((exchange) => [exchange.unjudged, exchange.violations])).toEqual([
      [undefined, []],
      [undefined, []],
      [undefined, []],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('lists and does not judge preflights, aborted requests and cached answers; judges bodies the HAR cut or left out by their status and headers', async () => {
    const file = await har('odd.har', [
      { method: 'OPTIONS', url: `${base}/store/orders/1`, status: 204 },
      {
        method: 'DELETE',
        url: `${base}/store/orders/1`,
        status: 0,
        requestHeaders: authorized,
        entry: { response: undefined },
      },
      { url: `${base}/store/orders`, status: 304, requestHeaders: authorized },
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: listed,
        entry: { _fromCache: 'memory' },
      },
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: listed.slice(0, 20),
        content: { size: listed.length },
      },
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        content: { size: listed.length },
      },
      { url: 'https://fonts.example.net/roboto.woff2', status: 200 },
      { url: 'http://127.0.0.1:5173/src/main.ts', status: 200 },
    ]);
    // Chrome's aborted request: status 0 and _error.
    const parsed = JSON.parse(await readFile(file, 'utf8'));
    parsed.log.entries[1].response = {
      status: 0,
      statusText: '',
      headers: [],
      content: { size: 0 },
      _error: 'net::ERR_ABORTED',
    };
    // Playwright's failed request: status -1 and _failureText.
    parsed.log.entries.push({
      ...parsed.log.entries[1],
      request: { ...parsed.log.entries[1].request, method: 'GET', url: `${base}/store/orders` },
      response: {
        status: -1,
        statusText: '',
        headers: [],
        content: { size: -1 },
        _failureText: 'net::ERR_CONNECTION_REFUSED',
      },
    });
    await writeFile(file, JSON.stringify(parsed));
    const run = await verifyHar([file]);
    const lines = run.stdout.split('\n');
    expect(lines).toContain('ignored 2 entries of other hosts and paths (fonts.example.net, 127.0.0.1:5173)');
    expect(lines).toEqual(
      expect.arrayContaining([
        `- #1 OPTIONS ${base}/store/orders/1 → 204 (not judged: a CORS preflight, not a call of the interface)`,
        `- #2 DELETE ${base}/store/orders/1 → 0 (not judged: no answer came (aborted: net::ERR_ABORTED))`,
        `- #3 GET ${base}/store/orders → 304 (not judged: the browser's cache answered it (a 304 or _fromCache), not the deployment)`,
        `- #4 GET ${base}/store/orders → 200 (not judged: the browser's cache answered it (a 304 or _fromCache), not the deployment)`,
        `· #5 GET ${base}/store/orders → 200 (judged on its status and headers only: its body is cut in the HAR (20 of ${listed.length} bytes kept))`,
        `· #6 GET ${base}/store/orders → 200 (judged on its status and headers only: its body (${listed.length} bytes) is not in the HAR: export with content, or record the session again)`,
        `- #9 GET ${base}/store/orders → -1 (not judged: no answer came (aborted: net::ERR_CONNECTION_REFUSED))`,
      ]),
    );
    // What the two bodies the HAR cut or left out still show, their status and headers, is judged.
    expect(run.stdout).toMatch(
      /\n7 entries of the interface, 2 judged, 0 violations of the specification, 0 findings against the contract\nverdict: passed \(exit 0\)\n$/,
    );
    expect(run.code).toBe(0);
  });

  it('judges entries in the order their answers ended, whatever the file order, and allows what overlapping calls allow', async () => {
    // The file lists the cancel first; the list started before it and overlapped it, and still shows order 1.
    const file = await har('parallel.har', [
      { method: 'DELETE', url: `${base}/store/orders/1`, status: 204, requestHeaders: authorized, at: 110, time: 30 },
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: listed,
        at: 100,
        time: 30,
      },
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: '[{"id":3,"petId":103,"quantity":1}]',
        at: 300,
      },
    ]);
    const saved = join(directory, 'saved');
    const { report } = await judgeHar({
      file,
      knownState: { scenario: 'cancel-shipped-order', orders: shippedState },
      save: { directory: saved, name: 'parallel' },
    });
    expect(report.exchanges.map((exchange) => exchange.entry)).toEqual([1, 0, 2]);
    expect(report.contract.against).toEqual([]);
    expect(report.exitCode).toBe(0);
    const [scenario] = await loadScenarios({ directory: saved });
    expect(scenario!.steps.map((step) => step.name)).toEqual([
      '1. list the orders',
      '2. cancel order 1',
      '3. list the orders',
    ]);
  });

  it('keeps ids beyond 2^53 exact, from the HAR to the saved state and steps', async () => {
    const big = '9007199254740993';
    const file = await har('int64.har', [
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: `[{"id":${big},"petId":7,"quantity":2}]`,
      },
      { method: 'DELETE', url: `${base}/store/orders/${big}`, status: 204, requestHeaders: authorized },
      {
        method: 'DELETE',
        url: `${base}/store/orders/9007199254740992`,
        status: 404,
        requestHeaders: authorized,
        responseHeaders: json,
        body: error('order_not_found', 404),
      },
    ]);
    const saved = join(directory, 'saved');
    const { report } = await judgeHar({ file, save: { directory: saved, name: 'beyond' } });
    expect([report.exitCode, report.contract.disagreements]).toEqual([0, 0]);
    expect(report.contract.inferred).toEqual([
      { id: 9007199254740993n, status: 'pending', because: `2. cancel order ${big}` },
    ]);
    const [scenario] = await loadScenarios({ directory: saved });
    expect(scenario!.state!.params.orders).toEqual([
      { id: 9007199254740993n, petId: 7, quantity: 2, status: 'pending' },
    ]);
    expect(scenario!.steps.map((step) => step.request.path)).toEqual([
      '/store/orders',
      `/store/orders/${big}`,
      '/store/orders/9007199254740992',
    ]);
  });

  it("asks Prism's validator too, loaded once the file is read, and keeps where it disagrees with Ajv", async () => {
    const file = await har('prism.har', [
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: '[{"id":9223372036854775807}]',
      },
    ]);
    let loads = 0;
    const prism = () => {
      loads++;
      return loadPrismOracle();
    };
    const { report } = await judgeHar({ file, prism });
    expect(loads).toBe(1);
    expect(report.exchanges[0]!.violations).toEqual([]);
    expect(report.exchanges[0]!.disagreements).toEqual([
      expect.objectContaining({ area: 'body', ajv: [], knownPrismLimit: expect.stringContaining('int64') }),
    ]);
    await expect(judgeHar({ file: join(directory, 'missing.har'), prism })).rejects.toThrow('cannot be read: ENOENT');
    expect(loads).toBe(1);
  });

  it('prints with --quiet only the entries that break the specification', async () => {
    const file = await har('quiet.har', [
      ...readmeBug,
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: '[{"id":"1"}]',
        at: 900,
      },
    ]);
    const run = await verifyHar([file, '--quiet']);
    expect(run.stdout.split('\n').filter((line) => /^[·✗-] #/.test(line))).toEqual([
      `✗ #3 GET ${base}/store/orders → 200`,
    ]);
    expect(run.code).toBe(1);
  });

  it('picks the base URL given with --base-url, and ignores the interface at another base URL', async () => {
    const other = 'https://prod.example.com/api/v1';
    const file = await har('two.har', [
      {
        url: `${other}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: 'not json',
      },
      ...readmeBug,
    ]);
    const run = await verifyHar([file, '--base-url', base]);
    expect(run.stdout).toContain(`2 of the order interface at ${base}`);
    expect(run.stdout).toContain('ignored 1 entry of other hosts and paths (prod.example.com)');
    expect(run.code).toBe(0);
    const redirected = await har('redirect.har', [
      {
        url: `${base}/store/orders`,
        status: 302,
        requestHeaders: authorized,
        responseHeaders: { location: 'https://login.example.com/?next=orders&state=3f9a8b7c6d5e4f3a2b1c' },
      },
    ]);
    const { report } = await judgeHar({ file: redirected });
    expect(report.exchanges[0]!.violations).toEqual([
      expect.objectContaining({
        code: 'status-undocumented',
        actual:
          '302 (a redirect to https://login.example.com/?next=orders&state=[redacted]; the specification documents none)',
      }),
    ]);
    const first = await verifyHar([file]);
    expect(first.stdout).toContain(
      `ignored 2 entries of the interface at another base URL (${base}): give --base-url to judge those`,
    );
    expect(first.stdout).toContain('✗ #1 GET https://prod.example.com/api/v1/store/orders → 200');
    expect(first.code).toBe(1);
  });
});

describe('petstore-verify har: bad files', () => {
  const refused = async (file: string, line: RegExp) => {
    const run = await verifyHar([file]);
    expect(run.stderr.trim()).toMatch(line);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  };

  it('refuses a file that is not JSON, not a HAR, missing, or has an entry without a request', async () => {
    const write = async (name: string, text: string) => {
      await writeFile(join(directory, name), text);
      return join(directory, name);
    };
    await refused(
      await write('text.har', 'GET /v1/store/orders'),
      /^petstore-verify: .*text\.har is not JSON: a HAR file is JSON$/,
    );
    // The parser's words would quote the text around the error: here, a key.
    await refused(
      await write('cut.har', '{"log":{"entries":[{"request":{"headers":[{"value":"Bearer sk-secret-123"},}'),
      /cut\.har is not JSON: a HAR file is JSON$/,
    );
    await refused(
      await write('other.har', '{"orders":[]}'),
      /other\.har is JSON but not a HAR: it has no log\.entries list$/,
    );
    await refused(join(directory, 'missing.har'), /missing\.har cannot be read: ENOENT$/);
    await refused(
      await write('entry.har', '{"log":{"entries":[{"startedDateTime":"2026-11-27T10:00:00Z"}]}}'),
      /entry\.har is not a HAR: log\.entries\[0\] has no request with a method and a url$/,
    );
  });

  it('refuses a 50 MB file before reading it, 100,000 entries, and deep nesting, in one line', async () => {
    const big = join(directory, 'big.har');
    await writeFile(big, '');
    await truncate(big, 50_000_000);
    await refused(big, /big\.har is 50000000 bytes, more than the 33554432 a HAR may be here: save a shorter session$/);
    const many = join(directory, 'many.har');
    await writeFile(many, `{"log":{"version":"1.2","entries":[${Array(100_000).fill('{}').join(',')}]}}`);
    await refused(
      many,
      /many\.har holds 100000 entries, more than the 20000 a HAR may hold here: save a shorter session$/,
    );
    const deep = join(directory, 'deep.har');
    await writeFile(deep, `{"log":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    await refused(deep, /deep\.har nests arrays and objects more than 64 levels deep: no HAR does$/);
  });

  it('gives exit 2 when nothing of the interface is in the file', async () => {
    const run = await verifyHar([await har('none.har', [{ url: 'https://example.org/index.html', status: 200 }])]);
    expect(run.stdout).toContain('no entry was judged: none of the 1 is a call of the order interface');
    expect(run.code).toBe(2);
  });

  it('gives exit 2 with one line for a usage error', async () => {
    const run = await runToExit(process.execPath, [verifyCli, 'har']);
    expect(run.stderr).toBe('petstore-verify: har needs a HAR FILE (see --help)\n');
    expect(run.code).toBe(2);
  });
});

describe('petstore-verify har: no secret of the HAR leaves it', () => {
  it('shows no key, cookie, token or URL credential in any line, report or saved scenario', async () => {
    const secrets = {
      key: 'staging-api-key-7f3a9c',
      cookie: 'session-cookie-5e1b2d',
      setCookie: 'fresh-session-9d8c7b',
      query: 'query-token-4a6f2e',
      password: 'url-password-3c2b1a',
      user: 'url-user-0a9b8c',
      header: 'x-api-token-6d5e4f',
    };
    const withCredentials = `https://${secrets.user}:${secrets.password}@staging.example.com/v1`;
    const sent = {
      authorization: `Bearer ${secrets.key}`,
      cookie: `sid=${secrets.cookie}; theme=dark`,
      'x-api-token': secrets.header,
    };
    const file = await har('secrets.har', [
      {
        url: `${withCredentials}/store/orders?access_token=${secrets.query}`,
        status: 200,
        requestHeaders: sent,
        responseHeaders: { ...json, 'set-cookie': `sid=${secrets.setCookie}; Path=/; HttpOnly` },
        body: listed,
      },
      // An answer that quotes the key back: its findings quote the body.
      {
        method: 'DELETE',
        url: `${withCredentials}/store/orders/3`,
        status: 204,
        requestHeaders: sent,
        body: `{"token":"${secrets.key}"}`,
      },
      {
        method: 'DELETE',
        url: `${withCredentials}/store/orders/9`,
        status: 500,
        requestHeaders: sent,
        responseHeaders: json,
        body: `{"error":"bad key ${secrets.key}, cookie ${secrets.cookie}"}`,
      },
    ]);
    const saved = join(directory, 'saved');
    const report = join(directory, 'report.json');
    const run = await verifyHarProcess([
      file,
      '--from-scenario',
      'cancel-shipped-order',
      '--save',
      saved,
      '--json',
      report,
    ]);
    expect(run.code).toBe(1);
    const outputs = [run.stdout, run.stderr, await readFile(report, 'utf8')];
    for (const name of await readdir(saved)) outputs.push(await readFile(join(saved, name), 'utf8'));
    expect(outputs).toHaveLength(4);
    for (const output of outputs) for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
    expect(run.stdout).toContain('✗ #2 DELETE https://staging.example.com/v1/store/orders/3 → 204');
  });
});
