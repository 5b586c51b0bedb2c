// The validating proxy and v2's calls (issue 56): each v2 call forwarded and judged against v2's
// document, each page by what it shows of itself; with --record and --from-scenario, against the
// model's store from where each page starts, and recorded as steps that follow the provider's cursor
// (spec gap 62). The upstream is an independent provider (test/support/hostile-provider.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadScenarios } from '../../core/scenario-files.js';
import { verify } from '../../verify/provider/run.js';
import { startProxyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { developmentKey, startServer } from '../support/support.js';

const authorization = { authorization: `Bearer ${hostileKey}` };

let directory: string;
let stateFile: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-proxy-v2-'));
  stateFile = join(directory, 'held.yaml');
  const orders = [1, 2, 3, 4, 5]
    .map((id) => `      - { id: ${id}, petId: 7, quantity: 1, status: ${id === 3 ? 'shipped' : 'pending'} }\n`)
    .join('');
  await writeFile(
    stateFile,
    `description: what the upstream holds\nstate:\n  name: the store holds orders\n  params:\n    orders:\n${orders}steps:\n  - name: list\n    request: { method: GET, path: /store/orders }\n    expect: { status: 200 }\n`,
  );
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface Report {
  checked: number;
  violations: number;
  verdict: string;
  unchecked: unknown[];
  violated: { path: string; base?: string; operationPath?: string; violations: { code: string; path: string }[] }[];
  recording?: {
    disagreements: number;
    against: { step: string; findings: { code: string; expected: string; actual: string }[] }[];
  };
}

let reports = 0;

/** A walk of v2's list (status pending, two a page) through the proxy in front of the provider; its report. */
async function walkThroughProxy(switches: Switches, record?: string): Promise<Report> {
  const upstream = await startHostileProvider(switches);
  const reportFile = join(directory, `report-${++reports}.json`);
  const proxy = await startProxyInProcess([
    '--upstream',
    `${upstream.origin}/v1`,
    '--port',
    '0',
    '--no-prism',
    '--json',
    reportFile,
    ...(record === undefined
      ? []
      : [
          '--record',
          record,
          '--record-name',
          'walk',
          '--from-scenario',
          stateFile,
          '--state-url',
          `${upstream.origin}/__state`,
        ]),
  ]);
  try {
    if (record === undefined)
      await fetch(`${upstream.origin}/__state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          state: 'the store holds orders',
          params: {
            orders: (parse(await readFile(stateFile, 'utf8')) as { state: { params: { orders: unknown[] } } }).state
              .params.orders,
          },
          action: 'setup',
        }),
      });
    let cursor: string | null = null;
    let pages = 0;
    while (pages < 5) {
      const search: string = `status=pending&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
      const answer = await fetch(`${proxy.origin}/v2/store/orders?${search}`, { headers: authorization });
      pages++;
      cursor = ((await answer.json()) as { nextCursor: string | null }).nextCursor;
      if (cursor === null) break;
    }
    // The proxy judges an exchange once its client has the answer: wait for the last one's line, then stop
    // it (its recorder is closed, every step judged and written) and read the report it writes.
    await proxy.outputMatching(new RegExp(`(GET /v2/store/orders\\?… → 200[^]*){${pages}}`));
    await proxy.stop();
    return JSON.parse(await readFile(reportFile, 'utf8')) as Report;
  } finally {
    await proxy.stop();
    await upstream.close();
  }
}

describe.concurrent("petstore-verify proxy judges v2's calls", () => {
  it('passes an honest walk: both pages checked against v2, nothing unchecked', async () => {
    const report = await walkThroughProxy({});
    expect({ checked: report.checked, violations: report.violations, unchecked: report.unchecked }).toEqual({
      checked: 2,
      violations: 0,
      unchecked: [],
    });
    expect(report.verdict).toBe('passed');
  });

  it('catches a page that ignores its filter, by what the page shows of itself', async () => {
    const report = await walkThroughProxy({ v2FilterIgnoresStatus: true });
    expect(report.verdict).toBe('failed');
    expect(
      report.violated.map((exchange) => [
        exchange.path,
        exchange.base,
        exchange.violations.map(({ code, path }) => `${code} ${path}`),
      ]),
    ).toEqual([['/v2/store/orders?…', '/v2', ['filter-ignored /orders/0/status']]]);
  });

  it('catches, recording from a known state, a cursor that skips an order, and records the walk', async () => {
    const saved = join(directory, 'skips');
    const report = await walkThroughProxy({ v2CursorSkips: true }, saved);
    expect(report.recording?.against).toEqual([
      {
        file: join(saved, 'walk.yaml'),
        step: '2. list a page of the orders status=pending limit=2, the next page',
        findings: [
          expect.objectContaining({
            code: 'page-skips-order',
            expected: '4, the next order of the filter after 2',
            actual: '5',
          }),
        ],
      },
    ]);
    expect(report.verdict).toBe('failed');
    const { steps } = parse(await readFile(join(saved, 'walk.yaml'), 'utf8')) as { steps: { request: unknown }[] };
    expect(steps.map((step) => step.request)).toEqual([
      { method: 'GET', path: '/store/orders', base: '/v2', query: { status: 'pending', limit: '2' } },
      { method: 'GET', path: '/store/orders', base: '/v2', query: { status: 'pending', limit: '2' }, cursor: 'follow' },
    ]);
  });

  it('records a walk that replays red on the skipping provider that produced it and green on the mock', async () => {
    const saved = join(directory, 'skips-replayed');
    await walkThroughProxy({ v2CursorSkips: true }, saved);
    const [scenario] = await loadScenarios({ directory: saved, names: ['walk'] });
    const skipping = await startHostileProvider({ v2CursorSkips: true });
    const mock = await startServer();
    try {
      const [red, green] = await Promise.all([
        verify({
          baseUrl: `${skipping.origin}/v1`,
          apiKey: hostileKey,
          stateUrl: `${skipping.origin}/__state`,
          scenarios: [scenario!],
          prism: false,
        }),
        verify({
          baseUrl: `${mock.origin}/v1`,
          apiKey: developmentKey,
          stateUrl: `${mock.origin}/__mock/provider-state`,
          scenarios: [scenario!],
          prism: false,
        }),
      ]);
      const found = (suite: typeof red) =>
        suite.cases.flatMap((result) =>
          result.exchanges.flatMap((exchange) =>
            exchange.violations.map(({ code, actual }) => `${exchange.name}: ${code} ${actual}`),
          ),
        );
      expect(found(red)).toEqual([
        '2. list a page of the orders status=pending limit=2, the next page: page-skips-order 5',
      ]);
      expect({ verdict: green.cases[0]!.verdict, found: found(green), sent: green.cases[0]!.exchanges.length }).toEqual(
        {
          verdict: 'passed',
          found: [],
          sent: 2,
        },
      );
    } finally {
      await Promise.all([skipping.close(), mock.close()]);
    }
  });

  it('records an honest walk from a known state with nothing against the contract', async () => {
    const report = await walkThroughProxy({}, join(directory, 'honest'));
    expect(report.recording?.disagreements).toBe(0);
    expect(report.verdict).toBe('passed');
  });
});

describe('petstore-verify proxy with a v2 call, its upstream below a prefix (/api/v1 beside /api/v2)', () => {
  it("forwards it to v2's base beside the upstream's, /api/v2, not to the upstream's origin", async () => {
    const upstream = await startHostileProvider({ bases: { v1: '/api/v1', v2: '/api/v2' } });
    const proxy = await startProxyInProcess(['--upstream', `${upstream.origin}/api/v1`, '--port', '0']);
    try {
      const answer = await fetch(`${proxy.origin}/v2/store/orders?status=shipped&limit=1`, {
        headers: { authorization: `Bearer ${hostileKey}` },
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(
        '{"orders":[{"id":2,"petId":102,"quantity":2,"status":"shipped"}],"nextCursor":null}',
      );
      const listed = await fetch(`${proxy.origin}/v1/store/orders`, {
        headers: { authorization: `Bearer ${hostileKey}` },
      });
      expect(listed.status).toBe(200);
    } finally {
      await proxy.stop();
      await upstream.close();
    }
  });
});
