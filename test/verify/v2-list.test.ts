// v2's list verified in petstore-verify's default run (issue 56): the scenarios suite walks it in a store
// of its own against an independent provider (test/support/hostile-provider.ts) that serves v2 with
// its own cursors. Each planted defect is caught with the rule that names it and the step that shows it;
// the honest provider and each honest variation pass. Most runs are the scenarios suite alone with no
// scenario (what v2 adds to it, in a fraction of the time); two are the command's whole default run.
import { describe, expect, it } from 'vitest';
import { runVerifyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { runVerification } from '../../verify/run/verification.js';
import type { ReportedFinding, RunReport } from '../../verify/run/run-report.js';

async function runAgainst(switches: Switches, leaveOut?: readonly string[]): Promise<RunReport> {
  const provider = await startHostileProvider(switches);
  try {
    return await runVerification({
      baseUrl: `${provider.origin}/v1`,
      apiKey: hostileKey,
      stateUrl: `${provider.origin}/__state`,
      suites: ['scenarios'],
      scenarios: [],
      prism: false,
      version: '0.0.0-test',
      ...(leaveOut !== undefined && { leaveOut }),
    });
  } finally {
    await provider.close();
  }
}

const where = (finding: ReportedFinding) => ({
  code: finding.code,
  scenario: finding.scenario,
  step: finding.step,
  path: finding.path,
  expected: finding.expected,
  actual: finding.actual,
});

describe.concurrent("v2's list: an honest provider passes", () => {
  it.each<[string, Switches]>([
    ['with its own cursors and nothing switched on', {}],
    ['whose cursors name a position instead of an id', { v2OffsetCursor: true }],
    ['whose walks end with an empty page after a full one', { v2EmptyLastPage: true }],
    ['that gzips and chunks its pages, with a charset', { gzip: true, chunked: true, charset: true }],
    ['that adds fields of its own to an order', { extraOrderFields: true }],
  ])('%s', async (_name, switches) => {
    const report = await runAgainst(switches);
    expect(report.findings).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it("judges every walk, v1's list beside it and the refusals, and names nothing as not verified", async () => {
    const report = await runAgainst({});
    expect(report.suites[0]!.cases.map((result) => [result.name, result.verdict])).toEqual([
      ['walk v2 (default limit)', 'passed'],
      ['walk v2 status=pending limit=3', 'passed'],
      ['walk v2 status=shipped limit=2', 'passed'],
      ['walk v2 status=cancelled limit=7', 'passed'],
      ["v1's list and v2's of one store", 'passed'],
      ["v2's list refuses what it cannot use", 'passed'],
    ]);
    expect(report.notVerified).toEqual([]);
  });
});

describe.concurrent("v2's list: each planted defect is caught, by its rule and step", () => {
  it.each<[string, Switches, ReturnType<typeof where>]>([
    [
      'a filter ignoring status',
      { v2FilterIgnoresStatus: true },
      {
        code: 'filter-ignored',
        scenario: 'walk v2 status=pending limit=3',
        step: 'page 1',
        path: '/orders/1/status',
        expected: 'pending',
        actual: 'shipped',
      },
    ],
    [
      'limit off by one',
      { v2LimitOffByOne: true },
      {
        code: 'page-over-limit',
        scenario: 'walk v2 (default limit)',
        step: 'page 1',
        path: '/orders',
        expected: 'at most 20 orders (the default limit)',
        actual: '21',
      },
    ],
    [
      'a cursor that repeats an order',
      { v2CursorRepeats: true },
      {
        code: 'page-repeats-order',
        scenario: 'walk v2 (default limit)',
        step: 'page 2',
        path: '/orders/0/id',
        expected: 'an order not given before',
        actual: '9007199254741031 again',
      },
    ],
    [
      'a cursor that skips an order',
      { v2CursorSkips: true },
      {
        code: 'page-skips-order',
        scenario: 'walk v2 (default limit)',
        step: 'page 2',
        path: '/orders',
        expected: 'every order of the filter once across the walk (23)',
        actual: '1 never given: 9007199254741033',
      },
    ],
    [
      "v2's ids rounded past 2^53",
      { v2RoundsIds: true },
      {
        code: 'int64-exact',
        scenario: 'walk v2 (default limit)',
        step: 'page 1',
        path: '/orders/0/id',
        expected: '9007199254740993',
        actual: '9007199254740992 (rounded past 2^53)',
      },
    ],
    [
      "v1's list broken while adding v2 (it answers v2's page envelope)",
      { v1BrokenWithV2: true },
      {
        code: 'body-schema',
        scenario: 'list the orders with the key',
        step: 'list the orders with the key',
        path: '',
        expected: 'array',
        actual: '{"orders":[{"id":1,"petId":101,"quantity":1},{"id":2,"pet...',
      },
    ],
    [
      'pages in descending order of id',
      { v2PageDescending: true },
      {
        code: 'page-order',
        scenario: 'walk v2 (default limit)',
        step: 'page 1',
        path: '/orders/1/id',
        expected: 'an id above 9007199254741031',
        actual: '9007199254741029',
      },
    ],
    [
      'a limit out of its bounds taken instead of refused',
      { v2ClampsLimit: true },
      {
        code: 'status-unexpected',
        scenario: "v2's list refuses what it cannot use",
        step: 'limit=0',
        path: 'status',
        expected: 'status 400',
        actual: '200',
      },
    ],
    [
      'no v2 at all (a 404 for the documented list)',
      { v1Only: true },
      {
        code: 'status-undocumented',
        scenario: 'walk v2 (default limit)',
        step: 'page 1',
        path: 'status',
        expected: 'a status GET /store/orders documents (200, 400, 401)',
        actual: '404',
      },
    ],
  ])('%s', async (_name, switches, first) => {
    const report = await runAgainst(switches);
    expect(report.exitCode).toBe(1);
    expect(where(report.findings[0]!)).toEqual(first);
  });

  it('passes a provider of v1 alone when the run leaves beta operations out, and names v2 left out', async () => {
    const report = await runAgainst({ v1Only: true }, ['beta', 'experimental']);
    expect(report.leftOut.map((item) => item.operation)).toEqual(['listOrdersV2']);
    expect([report.notVerified, report.findings]).toEqual([[], []]);
  });
});

describe.concurrent("v2's list in the command's default run", { timeout: 120_000 }, () => {
  it('passes an honest provider of both majors, v2 judged and not named as not verified', async () => {
    const provider = await startHostileProvider({});
    try {
      const exit = await runVerifyInProcess([...provider.args, '--no-prism']);
      expect(exit.code, exit.stdout).toBe(0);
      expect(exit.stdout).toContain(
        '✓ walk v2 status=pending limit=3 › page 3 (GET /v2/store/orders?status=pending&limit=3&cursor=',
      );
      expect(exit.stdout).not.toContain('not verified');
    } finally {
      await provider.close();
    }
  });

  it('fails a cursor that skips an order, naming the walk and the page', async () => {
    const provider = await startHostileProvider({ v2CursorSkips: true });
    try {
      const exit = await runVerifyInProcess([...provider.args, '--no-prism', '--suite', 'scenarios']);
      expect(exit.code).toBe(1);
      expect(exit.stdout).toContain(
        '\n    walk v2 (default limit) › page 2: expected every order of the filter once across the walk (23), got 1 never given: 9007199254741033 (at /orders) [page-skips-order]\n',
      );
    } finally {
      await provider.close();
    }
  });
});

describe.concurrent("v2's list beside a prefixed base URL (/api/v1, /api/v2)", { timeout: 120_000 }, () => {
  const bases = { v1: '/api/v1', v2: '/api/v2' };

  it('passes an honest provider of both majors below the prefix, every walk sent to /api/v2', async () => {
    const provider = await startHostileProvider({ bases });
    try {
      const exit = await runVerifyInProcess([...provider.args, '--no-prism', '--suite', 'scenarios']);
      expect(exit.code, exit.stdout).toBe(0);
      expect(exit.stdout).toContain(
        '✓ walk v2 status=pending limit=3 › page 3 (GET /v2/store/orders?status=pending&limit=3&cursor=',
      );
      expect(exit.stdout).not.toContain('not verified');
    } finally {
      await provider.close();
    }
  });

  it('fails a filter ignoring status below the prefix', async () => {
    const provider = await startHostileProvider({ bases, v2FilterIgnoresStatus: true });
    try {
      const exit = await runVerifyInProcess([...provider.args, '--no-prism', '--suite', 'scenarios']);
      expect(exit.code).toBe(1);
      expect(exit.stdout).toContain(
        '\n    walk v2 status=pending limit=3 › page 1: expected pending, got shipped (at /orders/1/status) [filter-ignored]\n',
      );
    } finally {
      await provider.close();
    }
  });
});
