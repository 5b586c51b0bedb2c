// Recording through the proxy (petstore-verify proxy --record): a session against a provider becomes
// a scenario file that expects what the contract requires, holds no secret, and replays anywhere.
// The commands run in this process (runVerifyInProcess, startProxyInProcess), but for two processes:
// the proxy stopped with SIGTERM (a whole file left) and petstore-mock started in a recording's state.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getResponse, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { loadScenarios } from '../../core/scenario-files.js';
import type { ContractStep, Scenario } from '../../core/scenario.js';
import { createValidatingProxy } from '../../verify/proxy/proxy.js';
import type { ProxyExchange } from '../../verify/proxy/proxy-report.js';
import { createDirectory } from '../../verify/scenario/create-directory.js';
import { ScenarioRecorder, type RecordedStep } from '../../verify/recorder/scenario-recorder.js';
import { verify } from '../../verify/provider/run.js';
import { isCancel, isList, json, startBrokenProvider } from '../support/broken-provider.js';
import {
  cliPath as mockCli,
  runVerifyInProcess,
  startCommand,
  startProxyInProcess,
  verifyCliPath as verifyCli,
} from '../support/cli-support.js';
import { authorized, listenLocally, startServer } from '../support/support.js';
import { stringifyJson } from '../../core/stringify-json.js';

const clock = () => new Date('2026-11-25T03:05:12Z');
const seed = [
  { id: 1, petId: 101, quantity: 1, status: 'pending' },
  { id: 3, petId: 103, quantity: 1, status: 'shipped' },
  { id: 9007199254740993n, petId: 7, quantity: 2, status: 'pending' },
  { id: 9007199254740992n, petId: 8, quantity: 1, status: 'shipped' },
] as const;
const secrets = { key: 'petstore-dev-key', cookie: 'session-cookie-secret', query: 'query-token-secret' };

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-record-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A proxy recording into `directory` in process, in front of `upstream`; `steps` fills as each step reaches the disk. */
async function recordingProxy(upstream: string, options: { apiKey?: string; name?: string } = {}) {
  const steps: RecordedStep[] = [];
  const exchanges: ProxyExchange[] = [];
  const waiters: (() => void)[] = [];
  const recorder = await ScenarioRecorder.open({
    directory,
    upstream: `${upstream}/v1`,
    now: clock,
    ...options,
    onStep: (step) => {
      steps.push(step);
      for (const wake of waiters.splice(0)) wake();
    },
  });
  const proxy = createValidatingProxy({
    upstream: `${upstream}/v1`,
    prism: false,
    recorder,
    onExchange: (exchange) => {
      exchanges.push(exchange);
      for (const wake of waiters.splice(0)) wake();
    },
  });
  const origin = await proxy.listen(0, '127.0.0.1');
  const call = async (method: string, path: string, headers: Record<string, string> = authorized) => {
    const response = await fetch(`${origin}/v1${path}`, { method, headers });
    await response.arrayBuffer();
    return response.status;
  };
  /** Resolves once `count` steps are on disk. */
  const stepsWritten = async (count: number) => {
    while (steps.length < count) await new Promise<void>((wake) => waiters.push(wake));
  };
  /** Resolves once the proxy has forwarded `count` answers whole (each handed to the recorder first). */
  const answered = async (count: number) => {
    while (exchanges.length < count) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { origin, call, steps, exchanges, stepsWritten, answered, recorder, close: () => proxy.close() };
}

async function recordedScenarios(): Promise<Scenario[]> {
  return loadScenarios({ directory });
}

async function filesText(): Promise<string> {
  const files = await readdir(directory);
  return (await Promise.all(files.map((file) => readFile(join(directory, file), 'utf8')))).join('\n');
}

const statuses = (scenario: Scenario) => (scenario.steps as ContractStep[]).map((step) => step.expect.status);

/** The session of the issue: a list, a 204, a 409, a 404, a 401 and an id beyond 2^53, with secrets around them. */
async function recordHonestSession(upstream: string) {
  const proxy = await recordingProxy(upstream, { apiKey: secrets.key });
  const withSecrets = { ...authorized, cookie: `session=${secrets.cookie}`, 'x-api-key': secrets.key };
  expect(await proxy.call('GET', `/store/orders?access_token=${secrets.query}`, withSecrets)).toBe(200);
  expect(await proxy.call('DELETE', '/store/orders/1')).toBe(204);
  expect(await proxy.call('DELETE', '/store/orders/3')).toBe(409);
  expect(await proxy.call('DELETE', '/store/orders/42')).toBe(404);
  expect(await proxy.call('GET', '/store/orders', {})).toBe(401);
  expect(await proxy.call('DELETE', '/store/orders/9007199254740993')).toBe(204);
  expect(await proxy.call('GET', '/store/orders')).toBe(200);
  await proxy.close();
  return proxy;
}

/** Records that session against a provider seeded with `seed`; `then` runs while the provider still listens. */
async function recordedHonestSession(then?: (origin: string) => Promise<void>) {
  const upstream = await startServer({ seed: [...seed] });
  try {
    await recordHonestSession(upstream.origin);
    await then?.(upstream.origin);
  } finally {
    await upstream.close();
  }
}

function replay(scenarios: Scenario[], origin: string) {
  return verify({
    scenarios,
    baseUrl: `${origin}/v1`,
    apiKey: secrets.key,
    stateUrl: `${origin}/__mock/provider-state`,
    prism: false,
  });
}

/** A provider that reads order ids as float64, as a JavaScript client would: it cancels the wrong order beyond 2^53. */
async function startRoundingProvider() {
  const mock = createOrderMock({ seed: [] });
  return listenLocally(async (incoming, outgoing) => {
    const path = incoming.url!.replace(
      /\/store\/orders\/(\d+)$/,
      (_, id: string) => `/store/orders/${BigInt(Number(id))}`,
    );
    const body = incoming.method === 'POST' ? await new Response(incoming as unknown as ReadableStream).text() : null;
    const request = new Request(`http://127.0.0.1${path}`, {
      method: incoming.method!,
      headers: incoming.headers as Record<string, string>,
      body,
    });
    const response = (await getResponse(mock.handlers, request))!;
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
}

describe('petstore-verify proxy --record', () => {
  it('records a session as a scenario whose steps expect what the contract requires', async () => {
    await recordedHonestSession();
    const [scenario] = await recordedScenarios();
    expect(scenario!.name).toBe('recording-2026-11-25-030512');
    expect(statuses(scenario!)).toEqual([200, 204, 409, 404, 401, 204, 200]);
    expect((scenario!.steps as ContractStep[]).map((step) => step.name)).toEqual([
      '1. list the orders',
      '2. cancel order 1',
      '3. cancel order 3',
      '4. cancel order 42',
      '5. list the orders without a key',
      '6. cancel order 9007199254740993',
      '7. list the orders',
    ]);
    expect((scenario!.steps[6] as ContractStep).expect).toMatchObject({
      listed: [3, 9007199254740992n],
      advisory: { notListed: [1, 9007199254740993n] },
    });
  });

  it('infers the state from the first list and the outcomes, ids beyond 2^53 exact', async () => {
    await recordedHonestSession();
    const [scenario] = await recordedScenarios();
    expect(scenario!.state!.params.orders).toEqual([
      { id: 1, petId: 101, quantity: 1, status: 'pending' },
      { id: 3, petId: 103, quantity: 1, status: 'shipped' },
      { id: 9007199254740993n, petId: 7, quantity: 2, status: 'pending' },
      { id: 9007199254740992n, petId: 8, quantity: 1 },
    ]);
    expect(scenario!.recording!.inferred).toEqual([
      { id: 1, status: 'pending', listed: true, because: '2. cancel order 1' },
      { id: 3, status: 'shipped', listed: true, because: '3. cancel order 3' },
      { id: 9007199254740993n, status: 'pending', listed: true, because: '6. cancel order 9007199254740993' },
    ]);
  });

  it('writes no key, header, cookie or query to the folder', async () => {
    await recordedHonestSession();
    const text = await filesText();
    for (const secret of [...Object.values(secrets), 'Bearer', 'authorization', 'cookie', 'access_token'])
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(await readdir(directory)).toEqual(['recording-2026-11-25-030512.yaml']);
  });

  it('replays green against the provider it came from, and against the mock', async () => {
    await recordedHonestSession(async (origin) => {
      expect((await replay(await recordedScenarios(), origin)).verdict).toBe('passed');
    });
    const mock = await startServer();
    try {
      expect((await replay(await recordedScenarios(), mock.origin)).verdict).toBe('passed');
    } finally {
      await mock.close();
    }
  });

  it('replays red against a provider that cancels the wrong order', async () => {
    await recordedHonestSession();
    const rounding = await startRoundingProvider();
    try {
      const result = await replay(await recordedScenarios(), rounding.origin);
      expect(result.verdict).toBe('failed');
      // It cancels 9007199254740992 instead (204 all the same): the list after it shows which went.
      const failed = result.cases[0]!.exchanges.filter((exchange) => exchange.violations.length > 0);
      expect(failed.map((exchange) => exchange.name)).toEqual(['7. list the orders']);
      expect(failed[0]!.violations.map((finding) => finding.code)).toContain('order-listed');
    } finally {
      await rounding.close();
    }
  });

  it('starts the mock in the recorded state', async () => {
    await recordedHonestSession();
    const mock = createOrderMock({ scenarios: await recordedScenarios() });
    await mock.loadScenario('recording-2026-11-25-030512');
    expect(await mock.orders()).toEqual([
      { id: 1n, petId: 101n, quantity: 1, status: 'pending' },
      { id: 3n, petId: 103n, quantity: 1, status: 'shipped' },
      { id: 9007199254740993n, petId: 7n, quantity: 2, status: 'pending' },
      { id: 9007199254740992n, petId: 8n, quantity: 1, status: 'pending' },
    ]);
  });

  it("writes the contract's expectation where the deployment breaks it, flags the step, and replays red against it", async () => {
    // A deployment that lists the orders to a client without a key.
    const broken = await startBrokenProvider(async (request, response) =>
      request.method === 'GET' && !request.headers.has('authorization') ? json([{ id: 1 }], 200) : response,
    );
    try {
      const proxy = await recordingProxy(broken.origin, { apiKey: secrets.key });
      expect(await proxy.call('GET', '/store/orders', {})).toBe(200);
      await proxy.close();
      const [scenario] = await recordedScenarios();
      const step = scenario!.steps[0] as ContractStep;
      expect(step.expect).toEqual({ status: 401, body: { schema: 'Error' } });
      expect(step.recorded).toEqual({
        status: 200,
        findings: [{ code: 'status-unexpected', path: 'status', expected: 'status 401', actual: '200' }],
      });
      expect(proxy.steps[0]!.disagreements.map((finding) => finding.code)).toEqual(['status-unexpected']);
      expect((await replay([scenario!], broken.origin)).verdict).toBe('failed');
    } finally {
      await broken.close();
    }
  });

  it('infers an order never listed from what its cancel answered, and marks it inferred', async () => {
    const upstream = await startServer({ seed: [...seed] });
    try {
      const proxy = await recordingProxy(upstream.origin);
      expect(await proxy.call('DELETE', '/store/orders/3')).toBe(409);
      expect(await proxy.call('DELETE', '/store/orders/1')).toBe(204);
      expect(await proxy.call('DELETE', '/store/orders/42')).toBe(404);
      await proxy.close();
    } finally {
      await upstream.close();
    }
    const [scenario] = await recordedScenarios();
    expect(scenario!.state!.params.orders).toEqual([
      { id: 3, status: 'shipped' },
      { id: 1, status: 'pending' },
    ]);
    expect(scenario!.recording).toMatchObject({
      keys: 'inferred from the answers',
      inferred: [
        { id: 3, status: 'shipped', listed: false, because: '1. cancel order 3' },
        { id: 1, status: 'pending', listed: false, because: '2. cancel order 1' },
      ],
    });
  });

  it('tells each key choice apart with the accepted key, and writes none of them', async () => {
    const upstream = await startServer({ seed: [...seed] });
    const keys = {
      wrong: 'Bearer not-the-key',
      basic: `Basic ${btoa(`${secrets.key}:`)}`,
      'lowercase-scheme': `bearer ${secrets.key}`,
      prefixed: `Bearer x${secrets.key}`,
      suffixed: `Bearer ${secrets.key}x`,
      containing: `Bearer x${secrets.key}x`,
      truncated: `Bearer ${secrets.key.slice(0, -1)}`,
    };
    try {
      const proxy = await recordingProxy(upstream.origin, { apiKey: secrets.key });
      for (const authorization of Object.values(keys))
        await proxy.call('DELETE', '/store/orders/42', { authorization });
      await proxy.close();
    } finally {
      await upstream.close();
    }
    const [scenario] = await recordedScenarios();
    expect(scenario!.steps.map((step) => step.request.key)).toEqual(Object.keys(keys));
    expect(statuses(scenario!)).toEqual([401, 401, 404, 401, 401, 401, 401]);
    expect(await filesText()).not.toContain(secrets.key);
  });

  it('writes identical reads in a row once', async () => {
    const upstream = await startServer({ seed: [...seed] });
    try {
      const proxy = await recordingProxy(upstream.origin);
      for (let read = 0; read < 3; read++) await proxy.call('GET', '/store/orders');
      await proxy.call('DELETE', '/store/orders/1');
      await proxy.call('GET', '/store/orders');
      await proxy.close();
    } finally {
      await upstream.close();
    }
    const [scenario] = await recordedScenarios();
    expect(scenario!.steps.map((step) => step.name)).toEqual([
      '1. list the orders',
      '2. cancel order 1',
      '3. list the orders',
    ]);
    expect(scenario!.recording!.repeatedReads).toBe(2);
  });

  it('leaves a complete scenario file after every step, and no temporary file', async () => {
    const upstream = await startServer({ seed: [...seed] });
    try {
      const proxy = await recordingProxy(upstream.origin);
      const calls: [string, string][] = [
        ['GET', '/store/orders'],
        ['DELETE', '/store/orders/1'],
        ['DELETE', '/store/orders/3'],
      ];
      for (const [index, [method, path]] of calls.entries()) {
        await proxy.call(method, path);
        await proxy.stepsWritten(index + 1);
        const [scenario] = await recordedScenarios();
        expect(scenario!.steps).toHaveLength(index + 1);
        expect(await readdir(directory)).toEqual(['recording-2026-11-25-030512.yaml']);
      }
      await proxy.close();
    } finally {
      await upstream.close();
    }
  });

  it('records every one of concurrent calls, in the order the upstream answered them', async () => {
    const orders = Array.from({ length: 20 }, (_, index) => ({ id: index + 1, status: 'pending' as const }));
    const upstream = await startServer({ seed: orders });
    try {
      const proxy = await recordingProxy(upstream.origin);
      const answers = await Promise.all(orders.map(({ id }) => proxy.call('DELETE', `/store/orders/${id}`)));
      expect(answers).toEqual(orders.map(() => 204));
      await proxy.close();
      const [scenario] = await recordedScenarios();
      const answered = proxy.exchanges.map((exchange) => exchange.path.replace('/v1/store/orders/', ''));
      expect(scenario!.steps.map((step) => step.request.path.replace('/store/orders/', ''))).toEqual(answered);
      expect(new Set(answered).size).toBe(20);
      expect(statuses(scenario!)).toEqual(orders.map(() => 204));
    } finally {
      await upstream.close();
    }
  });

  it('answers 502 and records nothing when the upstream cannot be reached', async () => {
    const upstream = await startServer();
    const origin = upstream.origin;
    await upstream.close();
    const proxy = await recordingProxy(origin);
    expect(await proxy.call('GET', '/store/orders')).toBe(502);
    await proxy.close();
    expect(await readdir(directory)).toEqual([]);
  });

  it('starts a new file on POST /__record/new, named as asked, never over a file that exists', async () => {
    await writeFile(join(directory, 'found-on-staging.yaml'), 'kept: as it was\n');
    const upstream = await startServer({ seed: [...seed] });
    try {
      const proxy = await recordingProxy(upstream.origin, { name: 'before-the-cut' });
      await proxy.call('GET', '/store/orders');
      const cut = await fetch(`${proxy.origin}/__record/new?name=found-on-staging`, { method: 'POST' });
      expect(cut.status).toBe(201);
      expect(await cut.json()).toEqual({
        name: 'found-on-staging-2',
        file: join(directory, 'found-on-staging-2.yaml'),
      });
      await proxy.call('DELETE', '/store/orders/3');
      const refused = await fetch(`${proxy.origin}/__record/new?name=${encodeURIComponent('../escape')}`, {
        method: 'POST',
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        code: 'invalid_recording_name',
        message:
          "\"../escape\" is not a scenario name: letters, digits, '.', '_' and '-', starting with a letter or digit.",
        status: 400,
      });
      await proxy.close();
    } finally {
      await upstream.close();
    }
    expect((await readdir(directory)).sort()).toEqual([
      'before-the-cut.yaml',
      'found-on-staging-2.yaml',
      'found-on-staging.yaml',
    ]);
    expect(await readFile(join(directory, 'found-on-staging.yaml'), 'utf8')).toBe('kept: as it was\n');
    const [before, after] = await loadScenarios({ directory, names: ['before-the-cut', 'found-on-staging-2'] });
    expect(before!.steps.map((step) => step.name)).toEqual(['1. list the orders']);
    expect(after!.steps.map((step) => step.name)).toEqual(['1. cancel order 3']);
  });

  it('stops recording with one error when the file cannot be written, and goes on proxying', async () => {
    const upstream = await startServer({ seed: [...seed] });
    const errors: string[] = [];
    const recorder = await ScenarioRecorder.open({
      directory,
      upstream: `${upstream.origin}/v1`,
      now: clock,
      name: 'blocked',
      onError: (error) => errors.push(error.message),
    });
    // The folder goes away once the recorder has checked it.
    await rm(directory, { recursive: true });
    const proxy = createValidatingProxy({ upstream: `${upstream.origin}/v1`, prism: false, recorder });
    try {
      const origin = await proxy.listen(0, '127.0.0.1');
      for (const path of ['/store/orders/1', '/store/orders/3']) {
        const response = await fetch(`${origin}/v1${path}`, { method: 'DELETE', headers: authorized });
        expect(response.status).toBe(path.endsWith('1') ? 204 : 409);
      }
    } finally {
      await proxy.close();
      await upstream.close();
    }
    expect(errors).toEqual([
      `the recording stopped: cannot save the recording ${join(directory, 'blocked.yaml')}: ${join(directory, `.blocked.yaml.${process.pid}.tmp`)}: ENOENT`,
    ]);
  });

  it('answers 404 to POST /__record/new when not recording', async () => {
    const upstream = await startServer();
    const proxy = createValidatingProxy({ upstream: `${upstream.origin}/v1`, prism: false });
    try {
      const origin = await proxy.listen(0, '127.0.0.1');
      const response = await fetch(`${origin}/__record/new`, { method: 'POST' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        code: 'not_recording',
        message: 'The proxy was started without --record.',
        status: 404,
      });
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

/** A deployment that is the kit's mock holding `orders`, with `fault` on every answer. */
async function startDeployment(orders: unknown[], fault: Parameters<typeof startBrokenProvider>[0]) {
  const deployment = await startBrokenProvider(fault);
  const setup = await fetch(`${deployment.origin}/__mock/provider-state`, {
    method: 'POST',
    body: stringifyJson({ state: 'the store holds orders', params: { orders }, action: 'setup' }),
  });
  expect(setup.status).toBe(200);
  return deployment;
}

/** Resolves once `count` requests wait on it, then lets them all go: calls that are surely at once. */
function barrier(count: number) {
  let arrived = 0;
  let release = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    if (++arrived === count) release();
    return open;
  };
}

describe('petstore-verify proxy --record against what deployments do', () => {
  it('writes no query or session a redirect carries', async () => {
    const deployment = await startDeployment([], async (request, response) =>
      isList(request)
        ? new Response(null, {
            status: 302,
            headers: {
              location: `http://user:pass-secret@127.0.0.1:9/login;jsessionid=matrix-secret?next=${encodeURIComponent(request.url)}&session=sso-secret`,
            },
          })
        : response,
    );
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      const redirected = await fetch(`${proxy.origin}/v1/store/orders?access_token=${secrets.query}`, {
        headers: authorized,
        redirect: 'manual',
      });
      expect(redirected.status).toBe(302);
      await proxy.close();
    } finally {
      await deployment.close();
    }
    const text = await filesText();
    expect(text).toContain('status-unexpected');
    for (const secret of [secrets.query, 'sso-secret', 'access_token', 'pass-secret', 'matrix-secret'])
      expect(text).not.toContain(secret);
  });

  it('judges a cancel that failed before a 409 told the order shipped as the shipped order it was', async () => {
    let cancels = 0;
    const deployment = await startDeployment([{ id: 5, status: 'shipped' }], async (request, response) =>
      isCancel(request) && ++cancels === 1
        ? json({ code: 'unavailable', message: 'Try again.', status: 503 }, 503)
        : response,
    );
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      expect(await proxy.call('GET', '/store/orders')).toBe(200);
      expect(await proxy.call('DELETE', '/store/orders/5')).toBe(503);
      expect(await proxy.call('DELETE', '/store/orders/5')).toBe(409);
      await proxy.close();
    } finally {
      await deployment.close();
    }
    const [scenario] = await recordedScenarios();
    expect(statuses(scenario!)).toEqual([200, 409, 409]);
    const mock = await startServer();
    try {
      expect((await replay([scenario!], mock.origin)).verdict).toBe('passed');
    } finally {
      await mock.close();
    }
  });

  it('judges earlier steps again when a later list tells the state, and tells of what changed', async () => {
    // A deployment that refuses to cancel an order it lists (its own handler, before the mock's).
    const deployment = await startServer({
      seed: [{ id: 7 }],
      handlers: [
        http.delete('*/store/orders/:orderId', () =>
          HttpResponse.json({ code: 'order_not_found', message: 'Not found.', status: 404 }, { status: 404 }),
        ),
      ],
    });
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      expect(await proxy.call('DELETE', '/store/orders/7')).toBe(404);
      expect(await proxy.call('GET', '/store/orders')).toBe(200);
      await proxy.close();
      const again = proxy.steps.filter((recorded) => recorded.again === true);
      expect(
        again.map((recorded) => [recorded.step.name, recorded.disagreements.map((finding) => finding.code)]),
      ).toEqual([['1. cancel order 7', ['status-unexpected']]]);
      expect(proxy.recorder.written().disagreements).toBe(1);
    } finally {
      await deployment.close();
    }
  });

  it('holds nothing against an honest race of cancels of one order, and infers it pending', async () => {
    const arrived = barrier(6);
    let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined;
    const deployment = await startDeployment([{ id: 5 }], async (request, response) => {
      if (!isCancel(request)) return response;
      await arrived();
      // The cancel that won answers last: the order the answers end in is not the order the cancels were taken in.
      if (response.status === 204) await proxy!.answered(5);
      return response;
    });
    try {
      const recording = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      proxy = recording;
      const answers = await Promise.all(Array.from({ length: 6 }, () => recording.call('DELETE', '/store/orders/5')));
      expect(answers.sort()).toEqual([204, 404, 404, 404, 404, 404]);
      await recording.close();
      expect(recording.recorder.written().disagreements).toBe(0);
    } finally {
      await deployment.close();
    }
    const [scenario] = await recordedScenarios();
    expect(scenario!.state!.params.orders).toEqual([{ id: 5, status: 'pending' }]);
  });

  it("holds a loser's 500 in a race of cancels of one order against the deployment (tolerance race-losers)", async () => {
    const arrived = barrier(2);
    const deployment = await startDeployment([{ id: 5 }], async (request, response) => {
      if (!isCancel(request)) return response;
      await arrived();
      return response.status === 404 ? json({ code: 'boom', message: 'Boom.', status: 500 }, 500) : response;
    });
    try {
      const recording = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      const answers = await Promise.all([1, 2].map(() => recording.call('DELETE', '/store/orders/5')));
      expect(answers.sort()).toEqual([204, 500]);
      await recording.close();
      const held = recording.recorder.written().against.flatMap(({ findings }) => findings.map(({ code }) => code));
      expect(held).toEqual(['status-unexpected']);
    } finally {
      await deployment.close();
    }
  });

  it('tells a refusal held against the deployment as no longer held once the race it was in is known', async () => {
    const arrived = barrier(3);
    let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined;
    const deployment = await startDeployment([{ id: 5 }], async (request, response) => {
      if (!isCancel(request)) return response;
      await arrived();
      if (response.status === 204) await proxy!.answered(3);
      return response;
    });
    try {
      const recording = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      proxy = recording;
      // The list tells the order is there: a refusal that ends first is held, until the 204 ends.
      expect(await recording.call('GET', '/store/orders')).toBe(200);
      const answers = await Promise.all(Array.from({ length: 3 }, () => recording.call('DELETE', '/store/orders/5')));
      expect(answers.sort()).toEqual([204, 404, 404]);
      await recording.close();
      const first = recording.steps.filter((recorded) => recorded.step.name === '2. cancel order 5');
      expect(first.map((recorded) => [recorded.disagreements.length, recorded.again ?? false])).toEqual([
        [1, false],
        [0, true],
      ]);
      expect(recording.recorder.written().disagreements).toBe(0);
    } finally {
      await deployment.close();
    }
  });

  it('holds nothing against a list at the same time as a cancel, whichever order they end in', async () => {
    let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined;
    let cancelTaken = () => {};
    const taken = new Promise<void>((resolve) => {
      cancelTaken = resolve;
    });
    const deployment = await startDeployment([{ id: 5 }, { id: 6 }], async (request, response) => {
      if (!isCancel(request)) return response;
      // The cancel is taken before the list is, and answers after the list has ended.
      cancelTaken();
      await proxy!.answered(2);
      return response;
    });
    try {
      proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      expect(await proxy.call('GET', '/store/orders')).toBe(200);
      const cancel = proxy.call('DELETE', '/store/orders/5');
      await taken;
      expect(await proxy.call('GET', '/store/orders')).toBe(200);
      expect(await cancel).toBe(204);
      await proxy.close();
      expect(proxy.recorder.written().disagreements).toBe(0);
    } finally {
      await deployment.close();
    }
  });

  it('holds two 204s for cancels of one order at once against the deployment', async () => {
    const arrived = barrier(3);
    const deployment = await startDeployment([{ id: 5 }], async (request, response) => {
      if (!isCancel(request)) return response;
      await arrived();
      return new Response(null, { status: 204 });
    });
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      const answers = await Promise.all(Array.from({ length: 3 }, () => proxy.call('DELETE', '/store/orders/5')));
      expect(answers).toEqual([204, 204, 204]);
      await proxy.close();
      expect(proxy.recorder.written().disagreements).toBe(2);
    } finally {
      await deployment.close();
    }
  });

  it('holds a 204 for a shipped order against the deployment, at once with a 409 or after one', async () => {
    let cancels = 0;
    const arrived = barrier(2);
    const deployment = await startDeployment([{ id: 5, status: 'shipped' }], async (request, response) => {
      if (!isCancel(request)) return response;
      const cancel = ++cancels;
      if (cancel === 1) return response;
      await arrived();
      // The third cancel of the shipped order is answered 204.
      return cancel === 3 ? new Response(null, { status: 204 }) : response;
    });
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      expect(await proxy.call('DELETE', '/store/orders/5')).toBe(409);
      const answers = await Promise.all([
        proxy.call('DELETE', '/store/orders/5'),
        proxy.call('DELETE', '/store/orders/5'),
      ]);
      expect(answers.sort()).toEqual([204, 409]);
      await proxy.close();
      expect(proxy.recorder.written().disagreements).toBe(1);
      const [scenario] = await recordedScenarios();
      expect(scenario!.state!.params.orders).toEqual([{ id: 5, status: 'shipped' }]);
    } finally {
      await deployment.close();
    }
  });

  it('holds a cancel without a key that succeeds against the deployment, at once with a refused one', async () => {
    const arrived = barrier(2);
    const deployment = await startDeployment([{ id: 5 }], async (request, response) => {
      if (!isCancel(request)) return response;
      await arrived();
      return request.headers.has('authorization')
        ? json({ code: 'order_not_found', message: 'No.', status: 404 }, 404)
        : new Response(null, { status: 204 });
    });
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      expect(await proxy.call('GET', '/store/orders')).toBe(200);
      const answers = await Promise.all([
        proxy.call('DELETE', '/store/orders/5', {}),
        proxy.call('DELETE', '/store/orders/5'),
      ]);
      expect(answers).toEqual([204, 404]);
      await proxy.close();
      const [scenario] = await recordedScenarios();
      const withoutKey = scenario!.steps.find((step) => step.request.key === 'none') as ContractStep;
      expect(withoutKey.recorded!.findings!.map((finding) => finding.code)).toEqual(['status-unexpected']);
    } finally {
      await deployment.close();
    }
  });

  it('tells each earlier step judged again once', async () => {
    const arrived = barrier(3);
    const deployment = await startDeployment([{ id: 5 }, { id: 6 }, { id: 7 }], async (request, response) => {
      if (isCancel(request)) await arrived();
      return response;
    });
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      await Promise.all([5, 6, 7].map((id) => proxy.call('DELETE', `/store/orders/${id}`)));
      await proxy.call('GET', '/store/orders');
      await proxy.close();
      const told = proxy.steps.map((recorded) => recorded.step.name);
      expect(new Set(told).size).toBe(told.length);
      expect(proxy.recorder.written().disagreements).toBe(0);
    } finally {
      await deployment.close();
    }
  });

  it('records nothing of an answer the proxy cut off when it stopped', async () => {
    let reached = () => {};
    const upstreamHasIt = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const deployment = await startDeployment([{ id: 5 }], async (request, response) => {
      if (!isCancel(request)) return response;
      reached();
      return new Promise<Response>(() => {});
    });
    try {
      const proxy = await recordingProxy(deployment.origin, { apiKey: secrets.key });
      await proxy.call('GET', '/store/orders');
      const cut = proxy.call('DELETE', '/store/orders/5').catch(() => 'cut off');
      await upstreamHasIt;
      await proxy.close();
      expect(await cut).toBe('cut off');
      const [scenario] = await recordedScenarios();
      expect(scenario!.steps.map((step) => step.name)).toEqual(['1. list the orders']);
      expect(proxy.exchanges.at(-1)).toMatchObject({
        unchecked: 'the proxy stopped before the answer ended',
        violations: [],
      });
    } finally {
      await deployment.close();
    }
  });

  it('infers nothing from another spelling of an id, and goes on past a malformed one', async () => {
    const upstream = await startServer({ seed: [{ id: 7, status: 'pending' }] });
    try {
      const proxy = await recordingProxy(upstream.origin, { apiKey: secrets.key });
      await proxy.call('DELETE', '/store/orders/%E0');
      await proxy.call('DELETE', '/store/orders/007;jsessionid=matrix-secret');
      await proxy.call('DELETE', '/store/orders/7');
      await proxy.close();
    } finally {
      await upstream.close();
    }
    const [scenario] = await recordedScenarios();
    expect(scenario!.steps.map((step) => step.request.path)).toEqual([
      '/store/orders/%E0',
      '/store/orders/007',
      '/store/orders/7',
    ]);
    expect(scenario!.state!.params.orders).toEqual([{ id: 7, status: 'pending' }]);
    expect(await filesText()).not.toContain('matrix-secret');
  });

  it('never writes over a file made after it started', async () => {
    const upstream = await startServer({ seed: [...seed] });
    try {
      const proxy = await recordingProxy(upstream.origin, { name: 'first' });
      await writeFile(join(directory, 'first.yaml'), 'made by someone else\n');
      await proxy.call('GET', '/store/orders');
      await proxy.close();
    } finally {
      await upstream.close();
    }
    expect(await readFile(join(directory, 'first.yaml'), 'utf8')).toBe('made by someone else\n');
    expect((await readdir(directory)).sort()).toEqual(['first-2.yaml', 'first.yaml']);
  });
});

describe('petstore-verify proxy --record on the command line', () => {
  it('exits 2 at start when the folder cannot be written', async () => {
    const file = join(directory, 'a-file');
    await writeFile(file, '');
    const exit = await runVerifyInProcess([
      'proxy',
      '--upstream',
      'http://127.0.0.1:9/v1',
      '--record',
      join(file, 'sub'),
    ]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      `petstore-verify: cannot write recordings to ${join(file, 'sub')}: ENOTDIR (see --help)\n`,
    );
  });

  it('prints a disagreement at once, and leaves a whole file when stopped with SIGTERM', async () => {
    const broken = await startBrokenProvider(async (request, response) =>
      request.method === 'DELETE' && response.status === 409 ? new Response(null, { status: 204 }) : response,
    );
    const proxy = await startCommand(
      process.execPath,
      [
        verifyCli,
        'proxy',
        '--upstream',
        `${broken.origin}/v1`,
        '--port',
        '0',
        '--no-prism',
        '--record',
        directory,
        '--record-name',
        'shipped-twice',
        '--json',
        join(directory, 'report.json'),
      ],
      { env: { PETSTORE_API_KEY: secrets.key } },
    );
    try {
      const setup = await fetch(`${broken.origin}/__mock/provider-state`, {
        method: 'POST',
        body: '{"state":"the store holds orders","params":{"orders":[{"id":3,"status":"shipped"}]},"action":"setup"}',
      });
      expect(setup.status).toBe(200);
      const call = (method: string) => fetch(`${proxy.baseUrl}/store/orders/3`, { method, headers: authorized });
      // The first cancel tells the recorder nothing it can hold against the answer; a second 204 can be told.
      expect((await call('DELETE')).status).toBe(204);
      expect((await call('DELETE')).status).toBe(204);
      const output = await proxy.outputMatching('recorded 2. cancel order 3:');
      expect(output).toContain(
        'recorded 2. cancel order 3: the contract requires status 404 or 409, the upstream answered 204 [status-unexpected]',
      );
    } finally {
      const exit = await proxy.stop();
      await broken.close();
      expect(exit.code).toBe(1);
      // The console, the JSON and the exit code count from one list.
      expect(exit.stdout).toContain(
        '2 exchanges, 2 checked, 0 violations of the specification, 0 disagreements between Ajv and Prism\n' +
          `recorded 2 steps in ${join(directory, 'shipped-twice.yaml')}; 1 answer against the contract\n`,
      );
      const report = JSON.parse(await readFile(join(directory, 'report.json'), 'utf8'));
      // Each count beside its list: the specification's (`violated`), the contract's (`recording.against`).
      expect([report.violations, report.violated, report.recording.disagreements, report.verdict]).toEqual([
        0,
        [],
        1,
        'failed',
      ]);
      // One mark an answer: the 204 is not shown passed above the line that says it breaks the contract.
      expect(exit.stdout).toContain('· DELETE /v1/store/orders/3 → 204 (');
      expect(exit.stdout).not.toContain('✓ DELETE');
      expect(exit.stdout).toContain('✗ recorded 2. cancel order 3: the contract requires');
      expect(report.recording.against.map(({ step }: { step: string }) => step)).toEqual(['2. cancel order 3']);
      await rm(join(directory, 'report.json'));
    }
    const [scenario] = await recordedScenarios();
    expect(scenario!.name).toBe('shipped-twice');
    expect(scenario!.steps.map((step) => (step as ContractStep).recorded?.status)).toEqual([204, 204]);
  });

  it('replays a recording with petstore-verify --scenarios, and starts petstore-mock in its state', async () => {
    await recordedHonestSession();
    const name = 'recording-2026-11-25-030512';
    const mock = await startCommand(process.execPath, [
      mockCli,
      '--port',
      '0',
      '--scenarios',
      directory,
      '--scenario',
      name,
    ]);
    try {
      const listed = await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized });
      expect(await listed.text()).toBe(
        '[{"id":1,"petId":101,"quantity":1},{"id":3,"petId":103,"quantity":1},' +
          '{"id":9007199254740993,"petId":7,"quantity":2},{"id":9007199254740992,"petId":8,"quantity":1}]',
      );
      const replayed = await runVerifyInProcess([
        '--base-url',
        mock.baseUrl,
        '--api-key',
        secrets.key,
        '--state-url',
        `${mock.origin}/__mock/provider-state`,
        '--suite',
        'scenarios',
        '--no-prism',
        '--scenarios',
        directory,
        '--scenario',
        name,
      ]);
      expect(replayed.stdout).toMatch(/\nverdict: passed \(exit 0; /);
      expect(replayed.code).toBe(0);
    } finally {
      await mock.stop();
    }
  });
});

describe('petstore-verify proxy --record --from-scenario: recording from a known state', () => {
  // docs/testers.md's own bug: a deployment that cancels the shipped order 3 with 204.
  const cancelsShipped = () =>
    startBrokenProvider(async (request, response) =>
      request.method === 'DELETE' && response.status === 409 ? new Response(null, { status: 204 }) : response,
    );
  const recordArgs = (origin: string, extra: string[] = []) => [
    'proxy',
    '--upstream',
    `${origin}/v1`,
    '--port',
    '0',
    '--no-prism',
    '--record',
    directory,
    '--record-name',
    'shipped-order-cancelled',
    '--api-key',
    secrets.key,
    ...extra,
  ];

  it("holds a 204 for the scenario's shipped order against the deployment at once, expects the 409, and replays red until it is fixed", async () => {
    const buggy = await cancelsShipped();
    const jsonFile = join(directory, '..', `${directory.split(/[\\/]/).pop()}-report.json`);
    const proxy = await startProxyInProcess(
      recordArgs(buggy.origin, [
        '--from-scenario',
        'cancel-shipped-order',
        '--state-url',
        `${buggy.origin}/__mock/provider-state`,
        '--json',
        jsonFile,
      ]).slice(1),
    );
    try {
      expect(await proxy.outputMatching(' starts a new file')).toContain(
        '(from the state of scenario cancel-shipped-order, set on the upstream;',
      );
      expect((await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized })).status).toBe(200);
      const cancel = await fetch(`${proxy.baseUrl}/store/orders/3`, { method: 'DELETE', headers: authorized });
      expect(cancel.status).toBe(204);
      expect(await proxy.outputMatching('recorded 2. cancel order 3:')).toContain(
        'recorded 2. cancel order 3: the contract requires status 409, the upstream answered 204 [status-unexpected]',
      );
    } finally {
      const exit = await proxy.stop('SIGINT');
      expect(exit.code).toBe(1);
      expect(exit.stdout).toContain(
        '2 exchanges, 2 checked, 0 violations of the specification, 0 disagreements between Ajv and Prism\n' +
          `recorded 2 steps in ${join(directory, 'shipped-order-cancelled.yaml')}; 1 answer against the contract\n` +
          'verdict: failed (exit 1)\n',
      );
      expect(exit.stdout).not.toContain('inferred from the answers, not known');
    }
    const report = JSON.parse(await readFile(jsonFile, 'utf8'));
    await rm(jsonFile);
    expect([report.violations, report.recording.disagreements, report.exitCode]).toEqual([0, 1, 1]);
    expect(report.verdict).toBe('failed');
    expect(report.recording.against).toEqual([
      {
        file: join(directory, 'shipped-order-cancelled.yaml'),
        step: '2. cancel order 3',
        findings: [{ code: 'status-unexpected', path: 'status', expected: 'status 409', actual: '204' }],
      },
    ]);
    const [scenario] = await recordedScenarios();
    expect(scenario!.state!.params.orders).toEqual([
      { id: 1, petId: 101, quantity: 1, status: 'pending' },
      { id: 3, petId: 103, quantity: 1, status: 'shipped' },
    ]);
    expect(scenario!.recording!.from).toEqual({
      scenario: 'cancel-shipped-order',
      stateUrl: `${buggy.origin}/__mock/provider-state`,
    });
    expect(scenario!.recording!.inferred).toBeUndefined();
    expect((scenario!.steps[1] as ContractStep).expect.status).toBe(409);
    // Replayed as docs/testers.md says: red against the buggy deployment, green against an honest one.
    const replayed = (origin: string) =>
      runVerifyInProcess([
        '--scenarios',
        directory,
        '--scenario',
        'shipped-order-cancelled',
        '--base-url',
        `${origin}/v1`,
        '--api-key',
        secrets.key,
        '--state-url',
        `${origin}/__mock/provider-state`,
        '--no-prism',
      ]);
    try {
      const red = await replayed(buggy.origin);
      expect(red.stdout).toContain(
        'shipped-order-cancelled › 2. cancel order 3: expected status 409, got 204 (at status)',
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
  });

  it('says, without a known state, which statuses it inferred and that a bug in them cannot be caught', async () => {
    const buggy = await cancelsShipped();
    await fetch(`${buggy.origin}/__mock/provider-state`, {
      method: 'POST',
      body: '{"state":"the store holds orders","params":{"orders":[{"id":3,"status":"shipped"}]},"action":"setup"}',
    });
    const proxy = await startProxyInProcess(recordArgs(buggy.origin).slice(1));
    try {
      expect(await proxy.outputMatching(' starts a new file')).toContain(
        '(the state inferred from the answers: give --from-scenario and --state-url to record from a known one;',
      );
      await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized });
      expect((await fetch(`${proxy.baseUrl}/store/orders/3`, { method: 'DELETE', headers: authorized })).status).toBe(
        204,
      );
      await proxy.outputMatching('DELETE /v1/store/orders/3');
    } finally {
      const exit = await proxy.stop('SIGINT');
      await buggy.close();
      expect(exit.code).toBe(0);
      expect(exit.stdout).toContain(
        'inferred from the answers, not known: order 3 pending (from 2. cancel order 3); a bug in these statuses cannot be caught (a 204 for a shipped order reads as a pending one): record from a known state with --from-scenario and --state-url\n' +
          'verdict: passed (exit 0)\n',
      );
    }
  });

  it('sets the state again for each new file', async () => {
    const upstream = await startServer();
    try {
      const recorder = await ScenarioRecorder.open({
        directory,
        upstream: `${upstream.origin}/v1`,
        now: clock,
        apiKey: secrets.key,
        name: 'first',
        knownState: {
          scenario: 'cancel-pending-order',
          stateUrl: `${upstream.origin}/__mock/provider-state`,
          orders: [{ id: 1n, status: 'pending' }],
        },
      });
      const proxy = createValidatingProxy({ upstream: `${upstream.origin}/v1`, prism: false, recorder });
      const origin = await proxy.listen(0, '127.0.0.1');
      const cancel = () => fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: authorized });
      expect((await cancel()).status).toBe(204);
      const cut = await fetch(`${origin}/__record/new?name=second`, { method: 'POST' });
      expect(cut.status).toBe(201);
      expect((await cancel()).status).toBe(204);
      await proxy.close();
      expect(proxy.report().verdict).toBe('passed');
      const scenarios = await recordedScenarios();
      expect(scenarios.map((scenario) => [scenario.name, statuses(scenario)])).toEqual([
        ['first', [204]],
        ['second', [204]],
      ]);
    } finally {
      await upstream.close();
    }
  });

  it('exits 2 when the state cannot be set, naming the scenario and the state URL', async () => {
    const exit = await runVerifyInProcess(
      recordArgs('http://127.0.0.1:9', [
        '--from-scenario',
        'cancel-shipped-order',
        '--state-url',
        'http://127.0.0.1:9/state',
      ]),
    );
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      'petstore-verify: cannot set the state of scenario cancel-shipped-order: cannot reach http://127.0.0.1:9/state: ECONNREFUSED\n',
    );
  });

  it.each([
    [
      ['--from-scenario', 'cancel-shipped-order'],
      '--from-scenario needs --state-url URL, where the upstream takes a provider state',
    ],
    [
      ['--state-url', 'http://127.0.0.1:9/state'],
      '--state-url needs --from-scenario NAME, the scenario whose state to set',
    ],
    [
      ['--from-scenario', 'list-orders-unavailable', '--state-url', 'http://127.0.0.1:9/s'],
      'scenario list-orders-unavailable injects faults: only the mock can replay it, no deployment',
    ],
    [
      ['--from-scenario', 'list-without-key', '--state-url', 'http://127.0.0.1:9/s'],
      'scenario list-without-key sets no provider state: name one that does',
    ],
  ])('refuses %j with exit 2', async (extra, message) => {
    const exit = await runVerifyInProcess(recordArgs('http://127.0.0.1:9', extra));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(`petstore-verify: ${message} (see --help)\n`);
  });

  it('takes a scenario file as well as a name', async () => {
    const honest = await startServer();
    const file = join(directory, 'mine.yaml');
    await writeFile(
      file,
      'description: mine\nstate:\n  name: the store holds orders\n  params:\n    orders: [{ id: 9007199254740993, status: shipped }]\n' +
        'steps:\n  - name: cancel\n    request: { method: DELETE, path: /store/orders/9007199254740993 }\n    expect: { status: 409 }\n',
    );
    const proxy = await startProxyInProcess(
      recordArgs(honest.origin, [
        '--from-scenario',
        file,
        '--state-url',
        `${honest.origin}/__mock/provider-state`,
      ]).slice(1),
    );
    try {
      const cancel = await fetch(`${proxy.baseUrl}/store/orders/9007199254740993`, {
        method: 'DELETE',
        headers: authorized,
      });
      expect(cancel.status).toBe(409);
    } finally {
      const exit = await proxy.stop('SIGINT');
      await honest.close();
      expect(exit.code).toBe(0);
    }
    const recorded = (await recordedScenarios()).find((scenario) => scenario.name === 'shipped-order-cancelled');
    expect(recorded!.recording!.from!.scenario).toBe('mine');
    expect(recorded!.state!.params.orders).toEqual([{ id: 9007199254740993n, status: 'shipped' }]);
  });
});

describe('createDirectory', () => {
  it('makes a folder and the missing folders above it', async () => {
    await createDirectory(join(directory, 'a', 'b'));
    expect(await readdir(join(directory, 'a'))).toEqual(['b']);
  });

  it('refuses where a file stands, with ENOTDIR', async () => {
    await writeFile(join(directory, 'file'), '');
    await expect(createDirectory(join(directory, 'file', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.runIf(process.platform === 'linux')('refuses under /proc with ENOENT instead of looping', async () => {
    await expect(createDirectory('/proc/petstore-no-such-folder/sub')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
