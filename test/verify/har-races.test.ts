// petstore-verify har on calls the browser sent at once (issue 58, items 4 and 6): identical cancels that
// overlap are saved as one `parallel` step, so a provider that breaks on concurrent cancels replays red; a
// list overlapping a cancel is judged as either order allows; a cancel the browser aborted (status 0) may
// have been applied, which the next list decides; a finding the saved file cannot replay is named.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../core/scenario-files.js';
import type { ContractStep } from '../../core/scenario.js';
import { isCancel, json as jsonResponse, startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { withResponseFields, writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { createValidatingProxy } from '../../verify/proxy/proxy.js';
import { ScenarioRecorder } from '../../verify/recorder/scenario-recorder.js';
import { replayedOnBroken, replayedOnMock } from '../support/har-replay.js';
import { authorized } from '../support/support.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-races-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const json = { 'content-type': 'application/json' };
const error = (status: number) => JSON.stringify({ code: 'E', message: 'refused', status });

/** Writes a Chrome HAR; the entries at `aborted` are the browser's aborted requests (`status: 0`, `_error`). */
const har = (name: string, exchanges: readonly HarExchangeSpec[], aborted: readonly number[] = []) =>
  writeHar(join(directory, name), withResponseFields(exchanges, aborted, { _error: 'net::ERR_ABORTED' }), {
    browser: 'chrome',
  });

/** Judges `exchanges`, saves them as `name`, and returns the run, its JSON report and the saved steps. */
async function judgedAndSaved(name: string, exchanges: readonly HarExchangeSpec[], aborted: readonly number[] = []) {
  const file = await har(`${name}.har`, exchanges, aborted);
  const saved = join(directory, 'saved');
  const report = join(directory, `${name}.json`);
  const run = await runVerifyInProcess(['har', file, '--no-prism', '--save', saved, '--name', name, '--json', report]);
  const scenario = (await loadScenarios({ directory: saved })).find((loaded) => loaded.name === name)!;
  return {
    run,
    lines: run.stdout.split('\n'),
    json: JSON.parse(await readFile(report, 'utf8')),
    saved,
    steps: scenario.steps as ContractStep[],
  };
}

/**
 * A provider that answers 500 to a cancel sent while another is in flight (a read-modify-write that is
 * not atomic). The first cancel is held until a second one comes, so two cancels sent at once always
 * meet, without a clock: used only on replays that send them at once.
 */
function answers500ToConcurrentCancels(): Fault {
  let waiting: (() => void) | undefined;
  return async (request, response) => {
    if (!isCancel(request)) return response;
    if (waiting === undefined) {
      await new Promise<void>((resolve) => {
        waiting = resolve;
        // Reached only by a replay that sends the cancels one after the other (which this fault cannot
        // break): it then answers rather than hanging the test until its timeout.
        setTimeout(resolve, 2000).unref();
      });
      waiting = undefined;
      return response;
    }
    const release = waiting;
    waiting = undefined;
    release();
    return jsonResponse({ code: 'INTERNAL', message: 'concurrent update', status: 500 }, 500);
  };
}

const twoOrders = '[{"id":1,"petId":101,"quantity":1},{"id":2,"petId":102,"quantity":1}]';
const onlyOrder2 = '[{"id":2,"petId":102,"quantity":1}]';
const listOf = (body: string, at: number, time = 20): HarExchangeSpec => ({
  url: `${base}/store/orders`,
  status: 200,
  requestHeaders: authorized,
  responseHeaders: json,
  body,
  at,
  time,
});
const cancelOf = (id: number, status: number, at: number, time = 20): HarExchangeSpec => ({
  method: 'DELETE',
  url: `${base}/store/orders/${id}`,
  status,
  requestHeaders: authorized,
  ...(status !== 204 && status !== 0 && { responseHeaders: json, body: error(status) }),
  at,
  time,
});

describe('cancels of one order the browser sent at once are saved as one parallel step', () => {
  it('catches a 500 to the second of two concurrent cancels', async () => {
    const { run, lines, json } = await judgedAndSaved('concurrent-500', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100, 30),
      cancelOf(1, 500, 105, 30),
      listOf(onlyOrder2, 300),
    ]);
    expect(json.contract.unreplayable).toBeUndefined();
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 3. cancel order 1: the contract requires status 404 or 409, the HAR's answer was 500 [status-unexpected]",
    ]);
    expect(run.code).toBe(1);
  });

  it('saves the two cancels as one step sending the request twice at once', async () => {
    const { steps } = await judgedAndSaved('concurrent-500', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100, 30),
      cancelOf(1, 500, 105, 30),
      listOf(onlyOrder2, 300),
    ]);
    expect(
      steps.map(({ name, parallel, expect }) => ({ name, parallel, expect: expect.status, others: expect.others })),
    ).toEqual([
      { name: '1. list the orders', parallel: undefined, expect: 200, others: undefined },
      { name: '2, 3. cancel order 1, 2 times at once', parallel: 2, expect: 204, others: [404, 409] },
      { name: '4. list the orders', parallel: undefined, expect: 200, others: undefined },
    ]);
    expect(steps[1]!.recorded?.statuses).toEqual([204, 500]);
  });

  it("replays red on the provider that answers 500 to concurrent cancels, and green on the kit's mock", async () => {
    const { saved } = await judgedAndSaved('concurrent-500', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100, 30),
      cancelOf(1, 500, 105, 30),
      listOf(onlyOrder2, 300),
    ]);
    expect(await replayedOnBroken({ saved, name: 'concurrent-500', fault: answers500ToConcurrentCancels() })).toBe(1);
    expect(await replayedOnMock({ saved, name: 'concurrent-500' })).toBe(0);
  });

  it('passes an honest race (one 204, one 404) and saves it as a parallel step that replays green', async () => {
    const { run, steps, saved } = await judgedAndSaved('honest-race', [
      listOf(twoOrders, 0),
      cancelOf(1, 404, 100, 30),
      cancelOf(1, 204, 105, 30),
    ]);
    expect(run.code).toBe(0);
    expect(steps[1]).toMatchObject({ parallel: 2, expect: { status: 204, others: [404, 409] } });
    expect(await replayedOnMock({ saved, name: 'honest-race' })).toBe(0);
  });
});

describe('cancels at once, with the race bug or a list between them', () => {
  it('holds two 204s for one order at once (the race bug) and saves them as one parallel step', async () => {
    const { run, lines, steps } = await judgedAndSaved('two-204s', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100, 30),
      cancelOf(1, 204, 105, 30),
    ]);
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 3. cancel order 1: the contract requires status 404 or 409, the HAR's answer was 204 [status-unexpected]",
    ]);
    expect(run.code).toBe(1);
    expect(steps[1]).toMatchObject({ parallel: 2, expect: { status: 204, others: [404, 409] } });
  });

  it('saves a list whose answer ended between two cancels at once after their parallel step', async () => {
    const { run, steps } = await judgedAndSaved('list-between', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100, 30),
      listOf(onlyOrder2, 105, 27),
      cancelOf(1, 404, 110, 30),
    ]);
    expect(run.code).toBe(0);
    expect(steps.map(({ name, parallel }) => [name, parallel])).toEqual([
      ['1. list the orders', undefined],
      ['2, 4. cancel order 1, 2 times at once', 2],
      ['3. list the orders', undefined],
    ]);
  });
});

describe("the proxy's --record saves cancels at once the same way (one recorder)", () => {
  it('records two cancels it relayed at once as one parallel step, the 500 held', async () => {
    const broken = await startBrokenProvider(answers500ToConcurrentCancels());
    const recorder = await ScenarioRecorder.open({ directory, name: 'proxied', upstream: `${broken.origin}/v1` });
    let relayed = 0;
    let bothRelayed: () => void = () => {};
    const both = new Promise<void>((resolve) => {
      bothRelayed = resolve;
    });
    const proxy = createValidatingProxy({
      upstream: `${broken.origin}/v1`,
      prism: false,
      recorder,
      onExchange: () => {
        if (++relayed === 2) bothRelayed();
      },
    });
    try {
      const origin = await proxy.listen(0, '127.0.0.1');
      const cancel = () =>
        fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: authorized }).then((answer) =>
          answer.arrayBuffer(),
        );
      await Promise.all([cancel(), cancel()]);
      await both;
      await recorder.close();
      const [scenario] = await loadScenarios({ directory });
      const [step] = scenario!.steps as ContractStep[];
      // Which of the two answers ended first at the proxy is the network's: both orders are asserted alike.
      expect([step!.name, step!.parallel, [...step!.recorded!.statuses!].sort()]).toEqual([
        '1, 2. cancel order 1, 2 times at once',
        2,
        [204, 500],
      ]);
      const findings = recorder.written().against.flatMap(({ findings }) => findings);
      expect(findings.filter(({ actual }) => actual === '500').map(({ code }) => code)).toEqual(['status-unexpected']);
    } finally {
      await proxy.close();
      await broken.close();
    }
  });
});

describe('sequential calls are saved and judged as before', () => {
  it('saves two cancels one after the other as two steps, and passes 204 then 404', async () => {
    const { run, steps } = await judgedAndSaved('sequential', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100),
      cancelOf(1, 404, 200),
    ]);
    expect(run.code).toBe(0);
    expect(steps.map(({ name, parallel, expect }) => [name, parallel, expect.status])).toEqual([
      ['1. list the orders', undefined, 200],
      ['2. cancel order 1', undefined, 204],
      ['3. cancel order 1', undefined, [404, 409]],
    ]);
  });

  it('holds a second 204 for one order when the cancels did not overlap', async () => {
    const { run, lines } = await judgedAndSaved('sequential-twice', [
      listOf(twoOrders, 0),
      cancelOf(1, 204, 100),
      cancelOf(1, 204, 200),
    ]);
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 3. cancel order 1: the contract requires status 404 or 409, the HAR's answer was 204 [status-unexpected]",
    ]);
    expect(run.code).toBe(1);
  });
});

describe('a list overlapping a cancel is judged as either order allows', () => {
  // The list began before the cancel was answered and ended after it.
  const overlapping = (body: string) => [listOf(twoOrders, 0), cancelOf(1, 204, 100, 30), listOf(body, 110, 40)];

  it('passes the list that still shows the order being cancelled (taken before the cancel)', async () => {
    const { run } = await judgedAndSaved('list-before', overlapping(twoOrders));
    expect(run.code).toBe(0);
  });

  it('passes the list that no longer shows it (taken after the cancel)', async () => {
    const { run } = await judgedAndSaved('list-after', overlapping(onlyOrder2));
    expect(run.code).toBe(0);
  });

  it('passes a list answered before the cancel that no longer shows it (the cancel was taken first)', async () => {
    const { run } = await judgedAndSaved('list-ended-first', [
      listOf(twoOrders, 0),
      listOf(onlyOrder2, 100, 25),
      cancelOf(1, 204, 105, 30),
    ]);
    expect(run.code).toBe(0);
  });

  it('holds the same list answered before the cancel was sent', async () => {
    const { run, lines } = await judgedAndSaved('list-apart', [
      listOf(twoOrders, 0),
      listOf(onlyOrder2, 100, 25),
      cancelOf(1, 204, 130, 30),
    ]);
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. list the orders: the contract requires order 1 in the list, the HAR's answer was ids [2] [order-listed]",
    ]);
    expect(run.code).toBe(1);
  });

  it('holds the list that fits neither order: it leaves out an order nobody cancelled', async () => {
    const { run, lines } = await judgedAndSaved('list-neither', overlapping('[{"id":1,"petId":101,"quantity":1}]'));
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 3. list the orders: the contract requires order 2 in the list, the HAR's answer was ids [1] [order-listed]",
    ]);
    expect(run.code).toBe(1);
  });
});

describe('a cancel the browser aborted (status 0) may have been applied', () => {
  it('does not blame the next list for leaving out the order it names', async () => {
    const { run, lines } = await judgedAndSaved(
      'aborted-applied',
      [listOf(twoOrders, 0), cancelOf(1, 0, 100), listOf(onlyOrder2, 300)],
      [1],
    );
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('saves it last, expecting what the contract requires, with no answer recorded', async () => {
    const { steps } = await judgedAndSaved(
      'aborted-saved',
      [listOf(twoOrders, 0), cancelOf(1, 0, 100), listOf(onlyOrder2, 300)],
      [1],
    );
    expect(steps.map(({ name, expect, recorded }) => [name, expect.status, recorded?.status])).toEqual([
      ['1. list the orders', 200, 200],
      ['2. list the orders', 200, 200],
      ['3. cancel order 1, aborted by the client: no answer came', 204, 0],
    ]);
  });

  it('does not blame a later cancel of the order answered 404: the aborted one may have won', async () => {
    const { run, lines } = await judgedAndSaved(
      'aborted-then-404',
      [listOf(twoOrders, 0), cancelOf(1, 0, 100), cancelOf(1, 404, 300)],
      [1],
    );
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('still blames a list that leaves out an order no call cancelled', async () => {
    const { run, lines } = await judgedAndSaved('not-aborted', [listOf(twoOrders, 0), listOf(onlyOrder2, 300)]);
    expect(lines.filter((line) => line.startsWith('✗ contract:'))).toEqual([
      "✗ contract: 2. list the orders: the contract requires order 1 in the list, the HAR's answer was ids [2] [order-listed]",
    ]);
    expect(run.code).toBe(1);
  });
});

describe('a finding the saved scenario cannot replay is named', () => {
  // Cancels of two orders at once, the second answered 500: the file can only send them one after the other.
  const apartWhy =
    'a race: it ran at once with 2. cancel order 1, which the saved file sends one after the other (a parallel step repeats one request)';
  const differentOrders = [listOf(twoOrders, 0), cancelOf(1, 204, 100, 30), cancelOf(2, 500, 105, 30)];

  it('says so in one console line', async () => {
    const { lines } = await judgedAndSaved('apart', differentOrders);
    expect(lines.filter((line) => line.startsWith('the saved scenario cannot replay'))).toEqual([
      `the saved scenario cannot replay the finding [status-undocumented] of 3. cancel order 2: ${apartWhy}`,
      `the saved scenario cannot replay the finding [status-unexpected] of 3. cancel order 2: ${apartWhy}`,
    ]);
  });

  it('names it in the JSON report', async () => {
    const { json: report } = await judgedAndSaved('apart', differentOrders);
    expect(report.contract.unreplayable).toEqual([
      { step: '3. cancel order 2', code: 'status-undocumented', why: apartWhy },
      { step: '3. cancel order 2', code: 'status-unexpected', why: apartWhy },
    ]);
  });

  it('names a finding on a listed value the saved state dropped, in the console and the JSON', async () => {
    const { lines, json: report } = await judgedAndSaved('dropped-value', [
      listOf('[{"id":1,"petId":101,"quantity":"two"},{"id":2,"petId":102,"quantity":1}]', 0),
    ]);
    const why =
      "a dropped value: order 1's quantity (must be integer), so the saved state does not hold it and no replay lists it";
    expect(lines.filter((line) => line.startsWith('the saved scenario cannot replay'))).toEqual([
      `the saved scenario cannot replay the finding [body-schema] of 1. list the orders: ${why}`,
    ]);
    expect(report.contract.unreplayable).toEqual([{ step: '1. list the orders', code: 'body-schema', why }]);
  });

  it('names a finding on a cancel of an order no answer showed, in an inferred state', async () => {
    const { lines } = await judgedAndSaved('unknown-order', [cancelOf(1, 500, 0)]);
    const why =
      'an unknown state: no answer before it showed whether order 1 was there, so the saved state leaves it out and a replay cancels an absent order';
    expect(lines.filter((line) => line.startsWith('the saved scenario cannot replay'))).toEqual([
      `the saved scenario cannot replay the finding [status-undocumented] of 1. cancel order 1: ${why}`,
      `the saved scenario cannot replay the finding [status-unexpected] of 1. cancel order 1: ${why}`,
    ]);
  });

  it('names nothing when every finding replays (a 500 to a cancel sent alone)', async () => {
    const { run, json: report } = await judgedAndSaved('alone', [listOf(twoOrders, 0), cancelOf(1, 500, 100)]);
    expect(run.code).toBe(1);
    expect(report.contract.unreplayable).toBeUndefined();
  });
});
