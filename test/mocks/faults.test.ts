import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { faultOperations } from '../../core/fault-format.js';
import { FaultPlan } from '../../mocks/session/faults.js';
import { loadScenarioFile, loadScenarios } from '../../core/scenario-files.js';
import { injectsFaults, ScenarioError, type ScenarioStep } from '../../core/scenario.js';
import { bundledScenarios } from '../../mocks/generated/scenarios.js';
import { cliPath, runToExit, startCommand, projectRoot } from '../support/cli-support.js';
import { authorized, expectError, inProcessBase, jsonOf, startServer, useInProcessMock } from '../support/support.js';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Started = Awaited<ReturnType<typeof startServer>>;
let mock: Started;

const seed = [
  { id: 1, petId: 101, quantity: 1 },
  { id: 2, status: 'shipped' },
];
const post = (body: unknown) =>
  mock.control('/faults', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
const list = () => mock.withKey('/store/orders');

describe('faults over HTTP (POST, GET and DELETE /__mock/faults)', () => {
  beforeEach(async () => {
    mock = await startServer({ seed });
  });
  afterEach(() => mock.close());

  it('fails the next N calls of one operation with the status and an Error record, then answers as usual', async () => {
    const added = await post({ operation: 'listOrders', status: 503, times: 2 });
    expect(added.status).toBe(201);
    expect(await jsonOf(added)).toEqual([
      { id: 1, operation: 'listOrders', status: 503, times: 2, seen: 0, affected: 0 },
    ]);
    await expectError(
      await list(),
      503,
      'injected_fault',
      'The mock was told to fail this listOrders call with 503 (fault 1).',
    );
    await expectError(await list(), 503, 'injected_fault');
    expect((await list()).status).toBe(200);
    expect(await jsonOf(await mock.control('/faults'))).toEqual([]);
  });

  it('answers with the code and message the fault gives', async () => {
    await post({
      operation: 'cancelOrder',
      status: 500,
      code: 'database_down',
      message: 'The order database is down.',
    });
    await expectError(
      await mock.withKey('/store/orders/1', { method: 'DELETE' }),
      500,
      'database_down',
      'The order database is down.',
    );
  });

  it('lets the first `after` calls through and counts only its own operation', async () => {
    await post({ operation: 'listOrders', after: 2, times: 1, status: 502 });
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(200);
    await expectError(await list(), 502, 'injected_fault');
    expect((await list()).status).toBe(200);
  });

  it('affects every operation with operation "*", before the bearer check', async () => {
    await post({ status: 503 });
    await expectError(await mock.api('/store/orders'), 503, 'injected_fault');
    await expectError(await mock.withKey('/store/orders/1', { method: 'DELETE' }), 503, 'injected_fault');
    await expectError(await mock.withKey('/pets/7'), 503, 'injected_fault');
    expect((await mock.control('/orders')).status).toBe(200);
    expect(await jsonOf(await mock.control('/faults'))).toMatchObject([
      { id: 1, operation: '*', seen: 3, affected: 3 },
    ]);
  });

  it('drops the connection for network: true; the order is untouched and the server keeps answering', async () => {
    await post({ operation: 'cancelOrder', network: true, times: 1 });
    await expect(mock.withKey('/store/orders/1', { method: 'DELETE' })).rejects.toThrow(TypeError);
    expect(await jsonOf(await mock.control('/orders'))).toMatchObject([{ id: 1, status: 'pending' }, { id: 2 }]);
    expect((await mock.withKey('/store/orders/1', { method: 'DELETE' })).status).toBe(204);
  });

  it('waits for a delay before answering', async () => {
    await mock.close();
    const delays: number[] = [];
    const waiting: (() => void)[] = [];
    mock = await startServer({
      seed,
      sleep: (milliseconds) => {
        delays.push(milliseconds);
        return new Promise((resolve) => waiting.push(resolve));
      },
    });
    await post({ operation: 'listOrders', delay: 250, times: 1 });
    let answered = false;
    const listed = list().then((response) => {
      answered = true;
      return response;
    });
    await expect.poll(() => delays).toEqual([250]);
    // One more round trip to the server: an answer that did not wait for the delay would be here by now.
    expect((await mock.control('/faults')).status).toBe(200);
    expect(answered).toBe(false);
    for (const resume of waiting) resume();
    expect((await listed).status).toBe(200);
  });

  it('removes one fault by its id with DELETE /__mock/faults/{id}, and says when there is none', async () => {
    await post([
      { operation: 'listOrders', status: 503 },
      { operation: 'cancelOrder', status: 500 },
    ]);
    expect((await mock.control('/faults/1', { method: 'DELETE' })).status).toBe(204);
    expect(await jsonOf(await mock.control('/faults'))).toMatchObject([{ id: 2, operation: 'cancelOrder' }]);
    expect((await list()).status).toBe(200);
    await expectError(
      await mock.control('/faults/1', { method: 'DELETE' }),
      404,
      'unknown_fault',
      'No fault 1 is in force; GET /__mock/faults lists them.',
    );
    await expectError(
      await mock.control('/faults/x', { method: 'DELETE' }),
      404,
      'unknown_fault',
      'No fault "x" is in force; GET /__mock/faults lists them.',
    );
    expect(await jsonOf(await mock.control('/faults'))).toHaveLength(1);
  });

  it('names the rule a fault without an effect breaks, not one of its alternatives', async () => {
    const failure = await expectError(
      await post({ operation: 'listOrders', times: 2 }),
      400,
      'invalid_fault',
      'Invalid fault: the body must ask for a delay, a status or a dropped connection (network: true), and not both a status and a dropped connection.',
    );
    expect(failure.violations).toEqual([
      {
        path: '',
        message:
          'must ask for a delay, a status or a dropped connection (network: true), and not both a status and a dropped connection',
      },
    ]);
  });

  it('clears every fault with DELETE', async () => {
    await post([
      { operation: 'listOrders', status: 503 },
      { operation: 'cancelOrder', delay: 100 },
    ]);
    expect(await jsonOf(await mock.control('/faults'))).toHaveLength(2);
    expect((await mock.control('/faults', { method: 'DELETE' })).status).toBe(204);
    expect(await jsonOf(await mock.control('/faults'))).toEqual([]);
    expect((await list()).status).toBe(200);
  });

  it.each([
    [
      'no effect',
      {},
      '',
      'must ask for a delay, a status or a dropped connection (network: true), and not both a status and a dropped connection',
    ],
    ['a success status', { status: 200 }, '/status', 'must be >= 400'],
    [
      'a status and a dropped connection',
      { status: 503, network: true },
      '',
      'must ask for a delay, a status or a dropped connection (network: true), and not both a status and a dropped connection',
    ],
    [
      'an unknown operation',
      { operation: 'deleteEverything', status: 500 },
      '/operation',
      `must be one of ${faultOperations.map((operation) => JSON.stringify(operation)).join(', ')}`,
    ],
    ['a backwards range', { delay: { min: 500, max: 100 } }, '/delay', 'min must not be greater than max'],
    ['a delay over a minute', { delay: 60_001 }, '/delay', 'must be <= 60000'],
    ['an unknown field', { status: 503, color: 'red' }, '/color', 'is not a field of this record'],
    ['a code without a status', { delay: 10, code: 'x' }, '/code', 'requires status'],
    ['zero times', { status: 503, times: 0 }, '/times', 'must be >= 1'],
    ['101 faults', Array.from({ length: 101 }, () => ({ status: 503 })), '', 'must hold at most 100 faults'],
    ['a bad fault in a list', [{ status: 503 }, { status: 'soon' }], '/1/status', 'must be integer'],
  ])('refuses %s with 400 invalid_fault and adds nothing', async (_, body, path, message) => {
    const failure = await expectError(await post(body), 400, 'invalid_fault');
    expect(failure.violations).toContainEqual({ path, message });
    expect(await jsonOf(await mock.control('/faults'))).toEqual([]);
    expect((await list()).status).toBe(200);
  });

  it('names the cause in a delay range, not the other shape a delay may have', async () => {
    const failure = await expectError(
      await post({ operation: 'listOrders', delay: { min: 0, max: 100_000 } }),
      400,
      'invalid_fault',
      'Invalid fault: /delay/max must be <= 60000.',
    );
    expect(failure.violations).toEqual([{ path: '/delay/max', message: 'must be <= 60000' }]);
  });

  it('names both shapes for a delay that has neither', async () => {
    const failure = await expectError(await post({ delay: 'slow' }), 400, 'invalid_fault');
    expect(failure.violations).toEqual([
      { path: '/delay', message: 'must be a whole number of milliseconds (0 to 60000) or { "min", "max" }' },
    ]);
  });

  it('refuses a body that is not JSON with 400 invalid_json', async () => {
    await expectError(await post('{"status": 503'), 400, 'invalid_json');
    expect(await jsonOf(await mock.control('/faults'))).toEqual([]);
  });

  it('returns to the faults it started with on POST /__mock/reset', async () => {
    await mock.close();
    mock = await startServer({ seed, faults: [{ operation: 'listOrders', status: 503, times: 1 }] });
    await expectError(await list(), 503, 'injected_fault');
    expect((await list()).status).toBe(200);
    await post({ operation: 'cancelOrder', status: 500 });
    expect((await mock.control('/reset', { method: 'POST' })).status).toBe(204);
    expect(await jsonOf(await mock.control('/faults'))).toMatchObject([
      { operation: 'listOrders', status: 503, times: 1, seen: 0, affected: 0 },
    ]);
    await expectError(await list(), 503, 'injected_fault');
  });
});

// Replays a fault scenario's steps over HTTP: the status, the Error record, the listed ids, or the dropped connection.
async function replay(origin: string, steps: readonly ScenarioStep[]): Promise<void> {
  for (const step of steps) {
    const call = fetch(`${origin}/v1${step.request.path}`, { method: step.request.method, headers: authorized });
    if ('networkError' in step.expect) {
      await expect(call, step.name).rejects.toThrow(TypeError);
      continue;
    }
    const response = await call;
    const expected = step.expect;
    expect(response.status, step.name).toBe(expected.status);
    if (expected.body !== undefined && expected.body !== 'none' && expected.body.schema === 'Error') {
      await expectError(
        response,
        expected.status as number,
        step.fault?.code ?? (step.fault ? 'injected_fault' : (undefined as never)),
      );
      continue;
    }
    const text = await response.text();
    const ids = text === '' ? [] : (JSON.parse(text) as { id: number }[]).map((order) => order.id);
    for (const id of expected.listed ?? []) expect(ids, step.name).toContain(Number(id));
    for (const id of expected.notListed ?? []) expect(ids, step.name).not.toContain(Number(id));
  }
}

describe('scenarios that inject faults', () => {
  let scenarios: Awaited<ReturnType<typeof loadScenarios>>;
  beforeAll(async () => {
    scenarios = (await loadScenarios()).filter(injectsFaults);
    mock = await startServer({ scenarios: await loadScenarios() });
  });
  afterAll(() => mock.close());

  it('ships four, each of them replayed below', () => {
    expect(scenarios.map((scenario) => scenario.name)).toEqual([
      'cancel-order-network-error',
      'cancel-order-server-error',
      'list-orders-slow',
      'list-orders-unavailable',
    ]);
  });

  it('replays each over HTTP after POST /__mock/scenarios/NAME installs its faults', async () => {
    for (const scenario of scenarios) {
      const loaded = await mock.control(`/scenarios/${scenario.name}`, { method: 'POST' });
      expect(await jsonOf(loaded)).toEqual({
        scenario: scenario.name,
        seeded: true,
        orders: scenario.state!.params.orders.length,
        faults: 1,
      });
      await replay(mock.origin, scenario.steps);
      expect(await jsonOf(await mock.control('/faults')), scenario.name).toEqual([]);
    }
  });

  it('waits for a delay on a timer by default', async () => {
    vi.useFakeTimers();
    try {
      const plan = new FaultPlan();
      plan.add({ operation: 'listOrders', delay: 250, times: 1 });
      let settled = false;
      const applied = plan.apply('listOrders').then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(249);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await applied;
      expect(settled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('makes the slow list wait the same 300 to 600 ms every run (seed 7)', async () => {
    const [fault] = (await loadScenarioFile(join(projectRoot, 'scenarios', 'list-orders-slow.yaml'))).steps;
    const draws = [1, 2].map(() => {
      const fresh = new FaultPlan();
      fresh.add({ operation: 'listOrders', ...fault!.fault, times: 1 });
      const { delay } = fresh.decide('listOrders')!;
      // Its one time used, the fault is gone.
      expect(fresh.empty).toBe(true);
      return delay;
    });
    expect(draws[0]).toBe(draws[1]);
    expect(draws[0]).toBeGreaterThanOrEqual(300);
    expect(draws[0]).toBeLessThanOrEqual(600);
  });

  it('replaces the faults in force when a scenario loads', async () => {
    await post({ operation: 'readPet', status: 500 });
    await mock.control('/scenarios/cancel-shipped-order', { method: 'POST' });
    expect(await jsonOf(await mock.control('/faults'))).toEqual([]);
  });

  it('are bundled for the browser exactly as the files say', async () => {
    const fromFiles = (await loadScenarios()).map(({ file: _file, ...scenario }) => scenario);
    expect(bundledScenarios).toEqual(fromFiles);
  });

  it('refuses a step fault that is malformed or sits on a call of no operation, naming the file and the field', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'faulty-'));
    try {
      const file = join(directory, 'faulty.yaml');
      await writeFile(
        file,
        'description: x\nsteps:\n  - { name: a, request: { method: GET, path: /store/orders }, fault: { status: 99 }, expect: { status: 503 } }\n' +
          '  - { name: b, request: { method: GET, path: /nowhere }, fault: { delay: 5 }, expect: { status: 404 } }\n',
      );
      await expect(loadScenarioFile(file)).rejects.toThrow(
        new ScenarioError(
          'invalid_scenario',
          `${file}: /steps/0/fault/status must be >= 400; /steps/1/request is not a call of an operation, so it cannot carry a fault`,
        ),
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('faults in-process (createOrderMock with setupServer)', () => {
  const current = useInProcessMock({ seed, scenarios: bundledScenarios });
  const base = inProcessBase;

  it('fails the next two cancels with 503, then cancels', async () => {
    expect(current().addFaults({ operation: 'cancelOrder', status: 503, times: 2 })).toMatchObject([
      { id: 1, affected: 0 },
    ]);
    const cancel = () => fetch(`${base}/store/orders/1`, { method: 'DELETE', headers: authorized });
    await expectError(await cancel(), 503, 'injected_fault');
    await expectError(await cancel(), 503, 'injected_fault');
    expect((await cancel()).status).toBe(204);
  });

  it('rejects the fetch for a dropped connection', async () => {
    current().addFaults([{ operation: 'listOrders', network: true }]);
    await expect(fetch(`${base}/store/orders`, { headers: authorized })).rejects.toThrow(TypeError);
  });

  it('lists, clears and loads faults like the control plane', async () => {
    await current().loadScenario('cancel-order-server-error');
    expect(current().faults()).toMatchObject([{ operation: 'cancelOrder', after: 0, times: 1, status: 500 }]);
    current().clearFaults();
    expect(current().faults()).toEqual([]);
    expect(() => current().addFaults({ status: 42 } as never)).toThrow('Invalid fault: /status must be >= 400.');
  });
});

describe('faults from the command line', () => {
  it('starts with the faults of --fault, and of --scenario', async () => {
    const running = await startCommand(process.execPath, [
      cliPath,
      '--port',
      '0',
      '--fault',
      '{"operation":"listOrders","status":503,"times":1}',
    ]);
    try {
      await expectError(await fetch(`${running.baseUrl}/store/orders`, { headers: authorized }), 503, 'injected_fault');
      expect((await fetch(`${running.baseUrl}/store/orders`, { headers: authorized })).status).toBe(200);
    } finally {
      await running.stop();
    }
    const withScenario = await startCommand(process.execPath, [
      cliPath,
      '--port',
      '0',
      '--scenario',
      'list-orders-unavailable',
    ]);
    try {
      await expectError(
        await fetch(`${withScenario.baseUrl}/store/orders`, { headers: authorized }),
        503,
        'injected_fault',
        'The order service is unavailable; try again shortly.',
      );
    } finally {
      await withScenario.stop();
    }
  });

  it('refuses a malformed --fault with exit 2, naming the field', async () => {
    const exit = await runToExit(process.execPath, [cliPath, '--fault', '{"status": 700}']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe('petstore-mock: --fault {"status": 700}: /status must be <= 599. (see --help)\n');
  });
});
