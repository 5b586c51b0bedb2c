// petstore-verify har judges every entry of the interface on what it shows (issue 58, items 1-3): an
// answer whose body the page never read by its status and headers, a near path by the rule
// near-path-refusals, and an inferred state that never holds an order no answer showed. Each minimal HAR
// is judged with and without --from-scenario, saved, and replayed red on the provider that produced it
// and green on the kit's honest mock.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../core/scenario-files.js';
import type { ContractStep } from '../../core/scenario.js';
import { isCancel, json as jsonResponse, startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { createValidatingProxy } from '../../verify/proxy/proxy.js';
import { ScenarioRecorder } from '../../verify/recorder/scenario-recorder.js';
import { withResponseFields, writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { replayedRedAndGreen } from '../support/har-replay.js';
import { authorized, developmentKey } from '../support/support.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-judged-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const json = { 'content-type': 'application/json' };
const verifyHar = (args: string[]) => runVerifyInProcess(['har', ...args, '--no-prism']);
/** Writes a Chrome HAR; the entries at `cutOff` get Chromium's `_failureText` of an answer cut off after its status. */
const har = (name: string, exchanges: readonly HarExchangeSpec[], cutOff: readonly number[] = []) =>
  writeHar(join(directory, name), withResponseFields(exchanges, cutOff, { _failureText: 'net::ERR_ABORTED' }), {
    browser: 'chrome',
  });

/** Judges `exchanges` (from `state` when given), saves them as `name`, and returns the run and the saved steps. */
async function judgedAndSaved(
  name: string,
  exchanges: readonly HarExchangeSpec[],
  options: { state?: string | undefined; cutOff?: number[] } = {},
) {
  const { state, cutOff } = options;
  const file = await har(`${name}.har`, exchanges, cutOff);
  const saved = join(directory, 'saved');
  const run = await verifyHar([
    file,
    ...(state === undefined ? [] : ['--from-scenario', state]),
    '--save',
    saved,
    '--name',
    name,
  ]);
  const scenario = (await loadScenarios({ directory: saved })).find((loaded) => loaded.name === name)!;
  return { run, saved, scenario, steps: scenario.steps as ContractStep[] };
}

/** The exit codes of the saved scenario replayed on a provider broken by `fault`, then on the kit's honest mock. */
const replayed = (saved: string, name: string, fault: Fault) => replayedRedAndGreen({ saved, name, fault });

const twoOrders = '[{"id":1,"petId":101,"quantity":1},{"id":2,"petId":102,"quantity":1}]';
const listOf = (body: string, at: number): HarExchangeSpec => ({
  url: `${base}/store/orders`,
  status: 200,
  requestHeaders: authorized,
  responseHeaders: json,
  body,
  at,
});

describe('an answer the page never read is judged by its status and headers', () => {
  // Chromium's record of a cancel answered 200 whose body the app ignored: its status, no body.
  const unreadCancel = (status: number): HarExchangeSpec => ({
    method: 'DELETE',
    url: `${base}/store/orders/1`,
    status,
    requestHeaders: authorized,
    responseHeaders: json,
    content: { size: -1, mimeType: 'application/json' },
    at: 100,
  });
  const unreadHar = (status: number): HarExchangeSpec[] => [
    listOf(twoOrders, 0),
    unreadCancel(status),
    listOf('[{"id":2,"petId":102,"quantity":1}]', 200),
  ];
  // The provider that produced it: a cancel answers 200 with the order instead of 204.
  const answers200: Fault = (request, response) =>
    isCancel(request) && response.status === 204 ? jsonResponse({ id: 1 }, 200) : response;

  it.each([
    ['without --from-scenario', undefined],
    ['from scenario cancel-pending-order', 'cancel-pending-order'],
  ])('holds the 200 against the specification and the contract on its own step, %s, and saves it', async (_, state) => {
    const { run, saved, steps } = await judgedAndSaved('unread-200', unreadHar(200), { state, cutOff: [1] });
    const lines = run.stdout.split('\n');
    expect(lines).toContain(
      `✗ #2 DELETE ${base}/store/orders/1 → 200 (judged on its status and headers only: its answer was cut off after its status (aborted: net::ERR_ABORTED): its body is not in the HAR)`,
    );
    expect(lines).toContain(
      '    expected a status DELETE /store/orders/{orderId} documents (204, 401, 404, 409), got 200 (at status) [status-undocumented]',
    );
    expect(lines).toContain(
      "✗ contract: 2. cancel order 1: the contract requires status 204, the HAR's answer was 200 [status-unexpected]",
    );
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(steps.map((step) => [step.name, step.expect.status, step.recorded?.status])).toEqual([
      ['1. list the orders', 200, 200],
      ['2. cancel order 1', 204, 200],
      ['3. list the orders', 200, 200],
    ]);
    expect(await replayed(saved, 'unread-200', answers200)).toEqual([1, 0]);
  });

  it("holds an answer Chromium says ended before its Content-Length as the deployment's no-answer, on its own step", async () => {
    const ended = {
      ...listOf(twoOrders.slice(0, 40), 100),
      responseHeaders: { ...json, 'content-length': String(twoOrders.length) },
      response: { _error: 'net::ERR_CONTENT_LENGTH_MISMATCH' },
    };
    const file = await har('ended-early.har', [listOf(twoOrders, 0), ended]);
    const run = await verifyHar([file]);
    const lines = run.stdout.split('\n');
    expect(lines).toContain(
      `✗ #2 GET ${base}/store/orders → 200 (judged on its status and headers only: its answer ended before its whole body came (net::ERR_CONTENT_LENGTH_MISMATCH): its body is not judged)`,
    );
    expect(lines).toContain(
      "    expected a whole response, got the connection closed before the whole body came (the browser's net::ERR_CONTENT_LENGTH_MISMATCH) [no-answer]",
    );
    expect(run.code).toBe(1);
  });

  it('still judges nothing, and exits 2, where no entry shows what the deployment answered (a preflight, a cached answer)', async () => {
    const file = await har('nothing-shown.har', [
      { method: 'OPTIONS', url: `${base}/store/orders/1`, status: 204 },
      { ...listOf(twoOrders, 100), entry: { _fromCache: 'memory' } },
    ]);
    const run = await verifyHar([file]);
    expect(run.stdout).toMatch(
      /\nno entry was judged: 2 entries of the interface, none judged \(a CORS preflight, not a call of the interface; the browser's cache answered it \(a 304 or _fromCache\), not the deployment\)\nverdict: not-run \(exit 2\)\n$/,
    );
    expect(run.code).toBe(2);
  });

  it('passes an unread 204 whose answer was cut off after its status', async () => {
    const file = await har('unread-204.har', unreadHar(204), [1]);
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      `· #2 DELETE ${base}/store/orders/1 → 204 (judged on its status and headers only: its answer was cut off after its status (aborted: net::ERR_ABORTED): its body is not in the HAR)`,
    );
    expect(run.code).toBe(0);
  });
});

describe('a near path of the interface is judged by the rule near-path-refusals', () => {
  const nearList = (status: number, headers: Record<string, string>, body: string): HarExchangeSpec => ({
    url: `${base}/store/orders/`,
    status,
    responseHeaders: headers,
    body,
    at: 100,
  });
  // The list first, with its key: the HAR kept Authorization (not a sanitized export).
  const nearHar = (near: HarExchangeSpec): HarExchangeSpec[] => [listOf(twoOrders, 0), near];
  const page = '<!doctype html><title>Orders</title>';
  // The provider that produced it: its single-page app's HTML at any path it does not route, no key asked.
  const servesItsPage: Fault = (request, response) =>
    new URL(request.url).pathname === '/v1/store/orders/'
      ? new Response(page, { status: 200, headers: { 'content-type': 'text/html' } })
      : response;

  it.each([
    ['without --from-scenario', undefined],
    ['from scenario cancel-pending-order', 'cancel-pending-order'],
  ])('holds a trailing-slash 200 without a key against the specification, %s, and saves its step', async (_, state) => {
    const { run, saved, steps } = await judgedAndSaved(
      'near-200',
      nearHar(nearList(200, { 'content-type': 'text/html' }, page)),
      { state },
    );
    const lines = run.stdout.split('\n');
    expect(lines).toContain(
      `· #2 GET ${base}/store/orders/ → 200 (a path near GET /store/orders with a trailing slash: judged against the contract, rule near-path-refusals)`,
    );
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. list the orders at /store/orders/, with a trailing slash without a key: the contract requires status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, the HAR's answer was 200 [status-unexpected]",
    ]);
    expect(run.stdout).not.toContain('ignored');
    expect(run.code).toBe(1);
    expect(steps[1]).toEqual({
      name: '2. list the orders at /store/orders/, with a trailing slash without a key',
      request: { method: 'GET', path: '/store/orders/', key: 'none' },
      expect: { status: [301, 302, 307, 308, 400, 401, 403, 404, 405] },
      recorded: {
        status: 200,
        findings: [
          {
            code: 'status-unexpected',
            path: 'status',
            expected: 'status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405',
            actual: '200',
          },
        ],
      },
    });
    expect(await replayed(saved, 'near-200', servesItsPage)).toEqual([1, 0]);
  });

  it("records the proxy's near path the same way: the recorder judges it against the contract", async () => {
    const broken = await startBrokenProvider(servesItsPage);
    const recorder = await ScenarioRecorder.open({
      directory,
      upstream: `${broken.origin}/v1`,
      apiKey: developmentKey,
    });
    let answered: () => void = () => {};
    const forwarded = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const proxy = createValidatingProxy({
      upstream: `${broken.origin}/v1`,
      prism: false,
      recorder,
      onExchange: () => answered(),
    });
    try {
      const origin = await proxy.listen(0, '127.0.0.1');
      await (await fetch(`${origin}/v1/store/orders/`)).arrayBuffer();
      await forwarded;
      await recorder.close();
      expect(recorder.written().against).toEqual([
        {
          file: recorder.current().file,
          step: '1. list the orders at /store/orders/, with a trailing slash without a key',
          findings: [
            {
              code: 'status-unexpected',
              path: 'status',
              expected: 'status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405',
              actual: '200',
            },
          ],
        },
      ]);
    } finally {
      await proxy.close();
      await broken.close();
    }
  });

  it('judges a near path in the proxy without --record by the same rule, and lists one with an accepted key as not checked', async () => {
    const broken = await startBrokenProvider(servesItsPage);
    let exchanges = 0;
    let allChecked: () => void = () => {};
    const checked = new Promise<void>((resolve) => {
      allChecked = resolve;
    });
    const proxy = createValidatingProxy({
      upstream: `${broken.origin}/v1`,
      prism: false,
      onExchange: () => {
        if (++exchanges === 3) allChecked();
      },
    });
    try {
      const origin = await proxy.listen(0, '127.0.0.1');
      await (await fetch(`${origin}/v1/store/orders/`)).arrayBuffer();
      await (await fetch(`${origin}/v1/store/orders/`, { headers: authorized })).arrayBuffer();
      await (await fetch(`${origin}/v1/store/carts`)).arrayBuffer();
      await checked;
      const report = proxy.report();
      expect(report.violated.map(({ method, path, violations }) => ({ method, path, violations }))).toEqual([
        {
          method: 'GET',
          path: '/v1/store/orders/',
          violations: [
            {
              code: 'status-unexpected',
              path: 'status',
              expected: 'status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405',
              actual: '200',
            },
          ],
        },
      ]);
      expect(report.unchecked).toEqual([
        {
          reason:
            'a path near GET /store/orders with a trailing slash, with an accepted key: the specification defines nothing there but its authentication',
          exchanges: 1,
        },
        { reason: 'no operation of the specification', exchanges: 1 },
      ]);
      expect([report.checked, report.violations, report.exitCode]).toEqual([1, 1, 1]);
    } finally {
      await proxy.close();
      await broken.close();
    }
  });

  it.each([
    [401, { ...json, 'www-authenticate': 'Bearer realm="petstore"' }],
    [404, json],
  ])('passes a trailing slash without a key refused with %i', async (status, headers) => {
    const file = await har(
      'near-refused.har',
      nearHar(nearList(status, headers, JSON.stringify({ code: 'refused', message: 'refused', status }))),
    );
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      `· #2 GET ${base}/store/orders/ → ${status} (a path near GET /store/orders with a trailing slash: judged against the contract, rule near-path-refusals)`,
    );
    expect(run.code).toBe(0);
  });

  it('lists a near path with an accepted key as not judged: the specification defines nothing there but its authentication', async () => {
    const file = await har(
      'near-keyed.har',
      nearHar({ ...nearList(200, json, twoOrders), requestHeaders: authorized }),
    );
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      `- #2 GET ${base}/store/orders/ → 200 (not judged: a path near GET /store/orders with a trailing slash, with an accepted key: the specification defines nothing there but its authentication)`,
    );
    expect(run.code).toBe(0);
  });

  it('holds a cancel at a trailing slash answered 204 without a key, and infers nothing of the order from it', async () => {
    const file = await har('near-cancel.har', [
      listOf(twoOrders, 0),
      { method: 'DELETE', url: `${base}/store/orders/1/`, status: 204, at: 100 },
    ]);
    const run = await verifyHar([file]);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. cancel order at /store/orders/1/, with a trailing slash without a key: the contract requires status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, the HAR's answer was 204 [status-unexpected]",
    ]);
    expect(run.stdout).not.toContain('inferred from the answers, not known');
    expect(run.code).toBe(1);
  });

  it('judges a URL with dot segments at the path they resolve to, as the browser sent it', async () => {
    const file = await har('dot-segments.har', [
      listOf(twoOrders, 0),
      { url: `${base}/store/./orders/.`, status: 200, responseHeaders: json, body: twoOrders, at: 100 },
    ]);
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      `· #2 GET ${base}/store/orders/ → 200 (a path near GET /store/orders with a trailing slash: judged against the contract, rule near-path-refusals)`,
    );
    expect(run.code).toBe(1);
  });

  it('judges another case and a second slash as near, and still ignores other hosts and paths, counted', async () => {
    const file = await har('near-kinds.har', [
      listOf(twoOrders, 0),
      { url: `${base}/Store/Orders`, status: 200, responseHeaders: json, body: twoOrders, at: 100 },
      {
        url: `${base}/store//orders`,
        status: 404,
        responseHeaders: json,
        body: '{"code":"x","message":"x","status":404}',
        at: 200,
      },
      { url: `${base}/store/carts`, status: 200, responseHeaders: json, body: '[]', at: 300 },
      { url: 'https://fonts.example.net/roboto.woff2', status: 200, at: 400 },
    ]);
    const run = await verifyHar([file]);
    const lines = run.stdout.split('\n');
    expect(lines).toContain(
      `· #2 GET ${base}/Store/Orders → 200 (a path near GET /store/orders with another case: judged against the contract, rule near-path-refusals)`,
    );
    expect(lines).toContain(
      `· #3 GET ${base}/store//orders → 404 (a path near GET /store/orders with a second slash: judged against the contract, rule near-path-refusals)`,
    );
    expect(lines).toContain('ignored 2 entries of other hosts and paths (staging.example.com, fonts.example.net)');
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. list the orders at /Store/Orders, with another case without a key: the contract requires status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, the HAR's answer was 200 [status-unexpected]",
    ]);
    expect(run.code).toBe(1);
  });
});

describe('an inferred state never holds an order no answer showed', () => {
  const exact = '[{"id":9007199254740993,"petId":101,"quantity":1},{"id":2,"petId":102,"quantity":1}]';
  // The app's JSON.parse rounded 9007199254740993 to ...992, and cancelled that.
  const roundedCancel = (at: number): HarExchangeSpec => ({
    method: 'DELETE',
    url: `${base}/store/orders/9007199254740992`,
    status: 204,
    requestHeaders: authorized,
    at,
  });
  // The provider that produced it: it rounds ids as the app does, so the rounded id cancels the order.
  const roundsIds: Fault = (request, response) =>
    isCancel(request) && request.url.endsWith('/9007199254740992') && response.status === 404
      ? new Response(null, { status: 204 })
      : response;
  const state = async () => {
    const file = join(directory, 'beyond-2-53.yaml');
    await writeFile(
      file,
      [
        'description: One order beyond 2^53 and one below it, both pending.',
        'state:',
        '  name: the store holds orders',
        '  params:',
        '    orders:',
        '      - { id: 9007199254740993, petId: 101, quantity: 1, status: pending }',
        '      - { id: 2, petId: 102, quantity: 1, status: pending }',
        'steps:',
        '  - name: list both',
        '    request: { method: GET, path: /store/orders }',
        '    expect: { status: 200, listed: [9007199254740993, 2] }',
        '',
      ].join('\n'),
    );
    return file;
  };

  it.each([
    ['without --from-scenario', false],
    ['from a scenario file', true],
  ])('holds a 204 for an id a complete list left out against the cancel, %s', async (_, named) => {
    const { run, saved, scenario, steps } = await judgedAndSaved('rounded-id', [listOf(exact, 0), roundedCancel(100)], {
      state: named ? await state() : undefined,
    });
    const lines = run.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. cancel order 9007199254740992: the contract requires status 404, the HAR's answer was 204 [status-unexpected]",
    ]);
    expect(run.stdout).not.toContain('inferred from the answers, not known');
    expect(run.code).toBe(1);
    expect(scenario.state!.params.orders.map((order) => order.id)).toEqual([9007199254740993n, 2]);
    expect(steps.map((step) => step.expect.status)).toEqual([200, 404]);
    expect(await replayed(saved, 'rounded-id', roundsIds)).toEqual([1, 0]);
  });

  it('infers an order from a cancel after a partial list (its body cut in the HAR)', async () => {
    const cut = { ...listOf(exact.slice(0, 30), 0), content: { size: exact.length } };
    const file = await har('partial-list.har', [cut, roundedCancel(100)]);
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      'inferred from the answers, not known: order 9007199254740992 pending (from 2. cancel order 9007199254740992)',
    );
    expect(run.code).toBe(0);
  });

  it('takes a list with an entry whose id is no int64 as complete: that entry is no order, and the cancel is held, not the list', async () => {
    const file = await har('id-dropped.har', [
      listOf('[{"id":"9007199254740992","petId":101},{"id":2,"petId":102,"quantity":1}]', 0),
      roundedCancel(100),
    ]);
    const run = await verifyHar([file]);
    const lines = run.stdout.split('\n');
    expect(lines).toContain('    expected integer, got "9007199254740992" (at /0/id) [body-schema]');
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. cancel order 9007199254740992: the contract requires status 404, the HAR's answer was 204 [status-unexpected]",
    ]);
    expect(run.code).toBe(1);
  });

  it('infers an order from a cancel sent before the complete list was answered (the list may have been taken after it)', async () => {
    const file = await har('cancel-during-list.har', [
      { ...listOf(exact, 0), time: 150 },
      { ...roundedCancel(100), time: 100 },
    ]);
    const run = await verifyHar([file]);
    expect(run.stdout).toContain(
      'inferred from the answers, not known: order 9007199254740992 pending (from 2. cancel order 9007199254740992)',
    );
    expect(run.code).toBe(0);
  });
});

describe("where the HAR's answers contradict each other, one finding, on the step that caused it", () => {
  const order = (id: number) => `{"id":${id},"petId":${100 + id},"quantity":1}`;
  const cancelOf = (id: number, at: number, status = 204): HarExchangeSpec => ({
    method: 'DELETE',
    url: `${base}/store/orders/${id}`,
    status,
    requestHeaders: authorized,
    at,
  });
  /** A scenario file whose state holds `ids`, pending: what the deployment held when the HAR began. */
  const stateOf = async (ids: readonly number[]) => {
    const file = join(directory, `orders-${ids.join('-')}.yaml`);
    await writeFile(
      file,
      [
        'description: The orders the deployment held when the HAR began.',
        'state:',
        '  name: the store holds orders',
        '  params:',
        '    orders:',
        ...ids.map((id) => `      - { id: ${id}, petId: ${100 + id}, quantity: 1, status: pending }`),
        'steps:',
        '  - name: list them',
        '    request: { method: GET, path: /store/orders }',
        `    expect: { status: 200, listed: [${ids.join(', ')}] }`,
        '',
      ].join('\n'),
    );
    return file;
  };
  const contractLines = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('✗ contract:'));

  // An order 9 no answer before showed appears in the second list, and its cancel is answered 204.
  const appearedHar = [
    listOf(`[${order(1)},${order(2)}]`, 0),
    listOf(`[${order(1)},${order(2)},${order(9)}]`, 100),
    cancelOf(9, 200),
  ];
  // The provider that produced it: from its second list on it lists an order 9 of no state, and cancels it.
  const listsAPhantom: Fault = async (request, response, calls) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === '/v1/store/orders' && (calls.get('GET /v1/store/orders') ?? 0) > 1)
      return jsonResponse(`${(await response.text()).slice(0, -1)},${order(9)}]`, 200);
    return isCancel(request) && pathname.endsWith('/9') ? new Response(null, { status: 204 }) : response;
  };

  it.each([
    ['without --from-scenario', undefined],
    ['from scenario cancel-pending-order', 'cancel-pending-order'],
  ])(
    'holds an order that appeared from nowhere against the list that showed it, not its cancel, %s',
    async (_, state) => {
      const { run, saved, steps } = await judgedAndSaved('appeared', appearedHar, { state });
      expect(contractLines(run.stdout)).toEqual([
        "✗ contract: 2. list the orders: the contract requires only orders of the provider state, the HAR's answer was order 9, which it does not hold [order-unknown]",
      ]);
      expect(run.code).toBe(1);
      // The saved file expects what the contract requires from its state, which holds no order 9.
      expect(steps.map((step) => [step.name, step.expect.status, step.recorded?.status])).toEqual([
        ['1. list the orders', 200, 200],
        ['2. list the orders', 200, 200],
        ['3. cancel order 9', 404, 204],
      ]);
      expect(await replayed(saved, 'appeared', listsAPhantom)).toEqual([1, 0]);
    },
  );

  it('takes an order a list left out as gone: its cancel answered 404 passes, its coming back is held', async () => {
    const file = await har('gone.har', [
      listOf(`[${order(1)},${order(2)},${order(9)}]`, 0),
      listOf(`[${order(1)},${order(2)}]`, 100),
      cancelOf(9, 200, 404),
      listOf(`[${order(1)},${order(2)},${order(9)}]`, 300),
    ]);
    const run = await verifyHar([file]);
    expect(contractLines(run.stdout)).toEqual([
      "✗ contract: 2. list the orders: the contract requires order 9 in the list, the HAR's answer was ids [1, 2] [order-listed]",
      "✗ contract: 4. list the orders: the contract requires cancelled order 9 to stay out of the list once it left, the HAR's answer was it listed again [order-relisted]",
    ]);
    expect(run.code).toBe(1);
  });

  // A near DELETE without a key answered 204, and the next list without the order it named.
  const nearCancelHar = [
    listOf(`[${order(1)}]`, 0),
    { method: 'DELETE', url: `${base}/store/orders/1/`, status: 204, at: 100 },
    listOf('[]', 200),
  ];
  // The provider that produced it: it serves a DELETE at a trailing slash as the cancel, without a key.
  const cancelsAtNearPath = (): Fault => {
    const cancelled = new Set<string>();
    return async (request, response) => {
      const { pathname } = new URL(request.url);
      const near = /^\/v1\/store\/orders\/(\d+)\/$/.exec(pathname);
      if (request.method === 'DELETE' && near !== null) {
        cancelled.add(near[1]!);
        return new Response(null, { status: 204 });
      }
      if (request.method !== 'GET' || pathname !== '/v1/store/orders' || response.status !== 200) return response;
      const listed = JSON.parse(await response.text()) as { id: number }[];
      return jsonResponse(
        listed.filter(({ id }) => !cancelled.has(String(id))),
        200,
      );
    };
  };

  it.each([
    ['without --from-scenario', false],
    ['from a scenario file holding order 1', true],
  ])(
    'holds a near DELETE answered 204 without a key, and takes its cancel as applied when the next list says so, %s',
    async (_, named) => {
      const { run, saved, steps } = await judgedAndSaved('near-cancel', nearCancelHar, {
        state: named ? await stateOf([1]) : undefined,
      });
      expect(contractLines(run.stdout)).toEqual([
        "✗ contract: 2. cancel order at /store/orders/1/, with a trailing slash without a key: the contract requires status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, the HAR's answer was 204 [status-unexpected]",
      ]);
      expect(run.code).toBe(1);
      expect(steps.map((step) => [step.name, step.expect.status, step.recorded?.status])).toEqual([
        ['1. list the orders', 200, 200],
        [
          '2. cancel order at /store/orders/1/, with a trailing slash without a key',
          [301, 302, 307, 308, 400, 401, 403, 404, 405],
          204,
        ],
        ['3. list the orders', 200, 200],
      ]);
      expect(await replayed(saved, 'near-cancel', cancelsAtNearPath())).toEqual([1, 0]);
    },
  );

  it('takes a near DELETE answered 204 as not applied when the next list still holds the order, and judges its cancel so', async () => {
    const file = await har('near-cancel-not-applied.har', [
      ...nearCancelHar.slice(0, 2),
      listOf(`[${order(1)}]`, 200),
      cancelOf(1, 300),
      listOf('[]', 400),
      listOf(`[${order(1)}]`, 500),
    ]);
    const run = await verifyHar([file]);
    expect(contractLines(run.stdout)).toEqual([
      "✗ contract: 2. cancel order at /store/orders/1/, with a trailing slash without a key: the contract requires status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, the HAR's answer was 204 [status-unexpected]",
      "✗ contract: 6. list the orders: the contract requires cancelled order 1 to stay out of the list once it left, the HAR's answer was it listed again [order-relisted]",
    ]);
    expect(run.code).toBe(1);
  });

  it('takes a cancel answered 204 as what decides a near DELETE no list decided', async () => {
    const file = await har('near-cancel-then-cancel.har', [
      ...nearCancelHar.slice(0, 2),
      cancelOf(1, 200),
      cancelOf(1, 300),
    ]);
    const run = await verifyHar([file]);
    expect(contractLines(run.stdout)).toEqual([
      "✗ contract: 2. cancel order at /store/orders/1/, with a trailing slash without a key: the contract requires status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, the HAR's answer was 204 [status-unexpected]",
      "✗ contract: 4. cancel order 1: the contract requires status 404 or 409, the HAR's answer was 204 [status-unexpected]",
    ]);
    expect(run.code).toBe(1);
  });
});
