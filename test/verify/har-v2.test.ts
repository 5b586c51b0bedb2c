// petstore-verify har and v2's calls (issue 56): each v2 entry is judged against v2's document, its
// pages by what they show of themselves, and, from a known state (--from-scenario), against the model's
// store from where each page starts (spec gap 62). The HARs hold real answers of an independent provider
// (test/support/hostile-provider.ts, its own cursors); --save writes the walk as steps that follow the
// cursor, red on the provider that produced the HAR and green on the kit's mock.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { stateChangeBody } from '../../core/provider-state.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { replaySaved } from '../support/har-replay.js';
import { startServer } from '../support/support.js';

const staging = 'https://staging.example.com';
const authorization = { authorization: `Bearer ${hostileKey}` };
const json = { 'content-type': 'application/json' };
const orders = [1, 2, 3, 4, 5, 6].map((id) => ({
  id,
  petId: 7,
  quantity: 1,
  status: id === 3 ? 'shipped' : id === 6 ? 'cancelled' : 'pending',
}));

let directory: string;
let stateFile: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-v2-'));
  stateFile = join(directory, 'held.yaml');
  await writeFile(
    stateFile,
    `description: what staging held\nstate:\n  name: the store holds orders\n  params:\n    orders:\n${orders
      .map((order) => `      - { id: ${order.id}, petId: 7, quantity: 1, status: ${order.status} }\n`)
      .join(
        '',
      )}steps:\n  - name: list\n    request: { method: GET, path: /store/orders }\n    expect: { status: 200 }\n`,
  );
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A walk of v2's list on the independent provider, every page as a HAR entry (its URL put on staging's host). */
async function walkedHar(switches: Switches, query: string, name: string): Promise<string> {
  const provider = await startHostileProvider(switches);
  const exchanges: HarExchangeSpec[] = [];
  try {
    await fetch(`${provider.origin}/__state`, { method: 'POST', headers: json, body: stateChangeBody(orders) });
    let cursor: string | null = null;
    for (let page = 0; page < 6; page++) {
      const search: string = cursor === null ? query : `${query}&cursor=${cursor}`;
      const response = await fetch(`${provider.origin}/v2/store/orders?${search}`, { headers: authorization });
      const body = await response.text();
      exchanges.push({
        url: `${staging}/v2/store/orders?${search}`,
        status: response.status,
        requestHeaders: authorization,
        responseHeaders: json,
        body,
        at: page * 100,
        time: 10,
      });
      cursor = (JSON.parse(body) as { nextCursor: string | null }).nextCursor;
      if (cursor === null) break;
    }
  } finally {
    await provider.close();
  }
  return writeHar(join(directory, `${name}.har`), exchanges, { browser: 'chrome' });
}

const verifyHar = (file: string, ...args: string[]) => runVerifyInProcess(['har', file, '--no-prism', ...args]);
const lines = (stdout: string, mark: string) => stdout.split('\n').filter((line) => line.startsWith(mark));

describe.concurrent("petstore-verify har judges v2's calls", () => {
  it('passes an honest walk of v2 alone from a known state: judged, not "no entry was judged"', async () => {
    const run = await verifyHar(await walkedHar({}, 'status=pending&limit=2', 'honest'), '--from-scenario', stateFile);
    expect(lines(run.stdout, '✗')).toEqual([]);
    expect(run.stdout).toContain('2 entries of the interface, 2 judged, 0 violations of the specification');
    expect(run.stdout).not.toContain('not verified');
    expect(run.code).toBe(0);
  });

  it("judges v1's and v2's entries of one HAR, v2's below v1's base with /v2", async () => {
    const file = await writeHar(
      join(directory, 'both.har'),
      [
        {
          url: `${staging}/v1/store/orders`,
          status: 200,
          requestHeaders: authorization,
          responseHeaders: json,
          body: '[{"id":1,"petId":7,"quantity":1,"status":"pending"}]',
        },
        {
          url: `${staging}/v2/store/orders?limit=1`,
          status: 200,
          requestHeaders: authorization,
          responseHeaders: json,
          body: '{"orders":[{"id":1,"petId":7,"quantity":1,"status":"pending"}],"nextCursor":null}',
          at: 100,
        },
        {
          url: 'https://elsewhere.example.com/v2/store/orders',
          status: 200,
          requestHeaders: authorization,
          responseHeaders: json,
          body: '{"orders":[],"nextCursor":null}',
          at: 200,
        },
      ],
      { browser: 'chrome' },
    );
    const run = await verifyHar(file);
    expect(run.stdout).toContain('2 entries of the interface, 2 judged');
    expect(run.stdout).toContain(
      'ignored 1 entry of the interface at another base URL (https://elsewhere.example.com/v1): give --base-url to judge those',
    );
    expect(run.code).toBe(0);
  });

  it('passes an honest walk whose last full page is followed by an empty one', async () => {
    const file = await walkedHar({ v2EmptyLastPage: true }, 'limit=5', 'empty-last');
    const run = await verifyHar(file, '--from-scenario', stateFile);
    expect(lines(run.stdout, '✗')).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('catches, from a known state, a cursor that skips an order: on the page that shows it', async () => {
    const run = await verifyHar(
      await walkedHar({ v2CursorSkips: true }, 'status=pending&limit=2', 'skips'),
      '--from-scenario',
      stateFile,
    );
    expect(lines(run.stdout, '✗')).toEqual([
      "✗ contract: 2. list a page of the orders status=pending limit=2, the next page: the contract requires 4, the next order of the filter after 2, the HAR's answer was 5 [page-skips-order]",
    ]);
    expect(run.code).toBe(1);
  });

  it('catches, with no state known, a page that ignores the filter: by what the page shows of itself', async () => {
    const run = await verifyHar(await walkedHar({ v2FilterIgnoresStatus: true }, 'status=pending&limit=2', 'filter'));
    expect(lines(run.stdout, '✗')).toEqual([
      '✗ #2 GET https://staging.example.com/v2/store/orders → 200',
      '✗ #3 GET https://staging.example.com/v2/store/orders → 200',
    ]);
    expect(run.stdout).toContain('    expected pending, got shipped (at /orders/0/status) [filter-ignored]\n');
    expect(run.code).toBe(1);
  });

  it('passes an honest walk with no state known, judged by the document and the pages alone', async () => {
    const run = await verifyHar(await walkedHar({}, 'status=pending&limit=2', 'inferred'));
    expect(lines(run.stdout, '✗')).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe("petstore-verify har --save: a page asked with a cursor the HAR's last page did not give", () => {
  it('is judged by the document, and left out of the saved steps, counted as skipped', async () => {
    const walk = JSON.parse(await readFile(await walkedHar({}, 'status=pending&limit=2', 'cursor-source'), 'utf8')) as {
      log: { entries: unknown[] };
    };
    const shipped = JSON.parse(await readFile(await walkedHar({}, 'status=shipped', 'other-walk'), 'utf8')) as {
      log: { entries: unknown[] };
    };
    // The other walk's page, then the second page of the pending walk: its cursor is not the last page's.
    walk.log.entries = [shipped.log.entries[0], walk.log.entries[1]];
    const file = join(directory, 'cursor-from-elsewhere.har');
    await writeFile(file, JSON.stringify(walk));
    const saved = join(directory, 'cursor-from-elsewhere');
    const run = await verifyHar(file, '--from-scenario', stateFile, '--save', saved, '--name', 'elsewhere');
    expect(lines(run.stdout, '✗')).toEqual([]);
    expect(run.code).toBe(0);
    const written = parse(await readFile(join(saved, 'elsewhere.yaml'), 'utf8')) as {
      steps: { request: unknown }[];
      recording: { skipped?: number };
    };
    expect(written.steps.map((step) => step.request)).toEqual([
      { method: 'GET', path: '/store/orders', base: '/v2', query: { status: 'shipped' } },
    ]);
    expect(written.recording.skipped).toBe(1);
  });
});

describe("petstore-verify har --save: a v2 walk saved as steps that follow the provider's cursor", () => {
  const saved = join(tmpdir(), `petstore-har-v2-saved-${process.pid}`);
  afterAll(async () => {
    await rm(saved, { recursive: true, force: true });
  });

  it('writes each page a step with its base and query, the later ones following the cursor', async () => {
    const file = await walkedHar({ v2CursorSkips: true }, 'status=pending&limit=2', 'to-save');
    const run = await verifyHar(file, '--from-scenario', stateFile, '--save', saved, '--name', 'skipped-walk');
    expect(run.code).toBe(1);
    const text = await readFile(join(saved, 'skipped-walk.yaml'), 'utf8');
    const { steps } = parse(text) as { steps: { request: unknown; expect: unknown }[] };
    expect(steps.map((step) => [step.request, step.expect])).toEqual([
      [
        { method: 'GET', path: '/store/orders', base: '/v2', query: { status: 'pending', limit: '2' } },
        { status: 200, body: { schema: 'OrderPage' } },
      ],
      [
        {
          method: 'GET',
          path: '/store/orders',
          base: '/v2',
          query: { status: 'pending', limit: '2' },
          cursor: 'follow',
        },
        { status: 200, body: { schema: 'OrderPage' } },
      ],
    ]);
    expect(text).not.toContain('cursor=');
  });

  it('replays red on the provider that produced the HAR and green on the kit mock', async () => {
    const skipping = await startHostileProvider({ v2CursorSkips: true });
    try {
      const red = await runVerifyInProcess([
        '--scenarios',
        saved,
        '--scenario',
        'skipped-walk',
        '--base-url',
        `${skipping.origin}/v1`,
        '--api-key',
        hostileKey,
        '--state-url',
        `${skipping.origin}/__state`,
        '--no-prism',
      ]);
      expect(red.code).toBe(1);
      expect(red.stdout).toContain(
        'skipped-walk › 2. list a page of the orders status=pending limit=2, the next page: expected 4, the next order of the filter after 2, got 5 (at /orders/0/id)',
      );
    } finally {
      await skipping.close();
    }
    const mock = await startServer();
    try {
      expect((await replaySaved({ saved, name: 'skipped-walk', origin: mock.origin })).code).toBe(0);
    } finally {
      await mock.close();
    }
  });
});
