// The document's stability marker (x-stability) in a run's reports, and --leave-out-beta (issue 56,
// item 3; spec gap 53): a violation in a beta operation fails the run and is counted apart, an honest
// beta exchange passes; the flag's operations are named as left out in every format, never dropped.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../core/finding.js';
import { majorRoutes } from '../../core/routes.js';
import { tallySuite, type CheckedExchange } from '../../verify/base/results.js';
import { exchangeLines, summaryLines } from '../../verify/report/console.js';
import { githubSummary } from '../../verify/report/github.js';
import { toHtml } from '../../verify/report/html.js';
import { toJunit } from '../../verify/report/junit.js';
import { runReport, unstableMarkers, type RunReport } from '../../verify/run/run-report.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { startServer } from '../support/support.js';

/** The operations the document marks, from the route table: what the flag leaves out. */
const marked = majorRoutes.filter((route) => route.stability !== null);

const wrongId: Finding = { code: 'body-schema', path: '/orders/0/id', expected: 'integer', actual: '"1"' };

function exchange(path: string, violations: Finding[] = []): CheckedExchange {
  return {
    name: `get ${path}`,
    method: 'GET',
    path,
    status: 200,
    violations,
    warnings: [],
    disagreements: [],
    durationMs: 3,
  };
}

function reportOf(exchanges: CheckedExchange[], leaveOut?: readonly string[]): RunReport {
  return runReport({
    baseUrl: 'http://127.0.0.1:4010/v1',
    suites: [tallySuite('scenarios', [{ name: 'lists', verdict: 'passed', exchanges }], 0)],
    version: '0.1.0',
    strict: false,
    prism: false,
    requireCoverage: false,
    startedAt: new Date(0),
    durationMs: 0,
    ...(leaveOut !== undefined && { leaveOut }),
  });
}

const verdictLine = (report: RunReport) => summaryLines(report).at(-1);

describe("a beta operation's violations", () => {
  const broken = reportOf([exchange('/store/orders'), exchange('/v2/store/orders?limit=2', [wrongId])]);

  it('fail the run, counted apart in the verdict line', () => {
    expect(verdictLine(broken)).toBe(
      'verdict: failed (exit 1; 2 checks (1 failed, 1 of them in beta operations), 1 violation, 0.0 s): scenarios: 1 violation',
    );
  });

  it('are counted apart in the JSON report, and each finding carries the marker', () => {
    expect([broken.exitCode, broken.violations, broken.betaViolations, broken.betaFailedChecks]).toEqual([1, 1, 1, 1]);
    expect(broken.findings.map((finding) => [finding.operation, finding.stability])).toEqual([
      ['listOrdersV2', 'beta'],
    ]);
  });

  it('are not counted apart when they are a stable operation’s', () => {
    const report = reportOf([exchange('/store/orders', [wrongId]), exchange('/v2/store/orders')]);
    expect([report.exitCode, report.betaViolations, report.betaFailedChecks]).toEqual([1, 0, 0]);
    expect(verdictLine(report)).toBe(
      'verdict: failed (exit 1; 2 checks (1 failed), 1 violation, 0.0 s): scenarios: 1 violation',
    );
    expect(report.findings.map((finding) => 'stability' in finding)).toEqual([false]);
  });

  it('leave an honest beta exchange passing', () => {
    const honest = reportOf([exchange('/store/orders'), exchange('/v2/store/orders?limit=2')]);
    expect(verdictLine(honest)).toBe('verdict: passed (exit 0; 2 checks, 0 violations, 0.0 s)');
  });

  it("show the marker beside the call's line, and none beside a stable one's", () => {
    expect(exchangeLines('scenarios', 'lists', exchange('/v2/store/orders?limit=2'))[0]).toBe(
      '✓ lists › get /v2/store/orders?limit=2 (GET /v2/store/orders?limit=2 → 200, beta, 3 ms)',
    );
    expect(exchangeLines('scenarios', 'lists', exchange('/store/orders'))[0]).toBe(
      '✓ lists › get /store/orders (GET /store/orders → 200, 3 ms)',
    );
  });

  it("name the marker in the JUnit testcase's name and on the HTML page", () => {
    expect(toJunit(broken)).toContain('name="get /v2/store/orders?limit=2 (beta)"');
    expect(toJunit(broken)).toContain('name="get /store/orders" time');
    expect(toHtml(broken)).toContain('1 violations (1 in beta operations)');
  });

  it("name the marker in GitHub's step summary, beside the count and the operation", () => {
    const summary = githubSummary(broken).split('\n');
    expect(summary[2]).toBe(
      'http://127.0.0.1:4010/v1 · 2 checks · 1 violations (1 in beta operations) · coverage 2 of ' +
        `${broken.coverage.total} documented responses`,
    );
    expect(summary.filter((line) => line.startsWith('| `body-schema`'))).toEqual([
      '| `body-schema` | listOrdersV2 (beta) | lists › get /v2/store/orders?limit=2 | /orders/0/id | integer | "1" |',
    ]);
  });
});

describe('--leave-out-beta in the report', () => {
  const leftOut = reportOf([exchange('/store/orders')], unstableMarkers);
  const lines = marked.map(
    (route) =>
      `left out: ${route.operation} (${route.method} ${route.base}${route.path}, ${route.stability}): --leave-out-beta leaves out the operations the document marks beta or experimental`,
  );

  it('names every marked operation as left out, in the console', () => {
    expect(marked.length).toBeGreaterThan(0);
    expect(summaryLines(leftOut).filter((line) => line.startsWith('left out: '))).toEqual(lines);
  });

  it('lists them in the JSON as left out, not as not verified', () => {
    expect(leftOut.leftOut.map((item) => item.operation)).toEqual(marked.map((route) => route.operation));
    expect(leftOut.notVerified.filter((item) => item.stability !== null)).toEqual([]);
  });

  it('gives each a skipped JUnit testcase and a line of the HTML page', () => {
    expect(toJunit(leftOut)).toContain(
      `<testsuite name="petstore-verify › left out" tests="${marked.length}" failures="0" errors="0" skipped="${marked.length}">`,
    );
    expect(toHtml(leftOut)).toContain('<li>left out: listOrdersV2 <em>(beta)</em> <code>GET /v2/store/orders</code>');
  });

  it("names each in GitHub's step summary", () => {
    expect(
      githubSummary(leftOut)
        .split('\n')
        .filter((line) => line.startsWith('- left out: ')),
    ).toEqual(lines.map((line) => `- ${line}`));
  });

  it('leaves nothing out without it', () => {
    const report = reportOf([exchange('/store/orders')]);
    expect(report.leftOut).toEqual([]);
    expect(summaryLines(report).filter((line) => line.startsWith('left out: '))).toEqual([]);
    expect(toJunit(report)).not.toContain('left out');
  });
});

describe('petstore-verify --leave-out-beta', () => {
  async function run(...flags: string[]) {
    const mock = await startServer();
    try {
      return await runVerifyInProcess([
        '--base-url',
        `${mock.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${mock.origin}/__mock/provider-state`,
        '--scenario',
        'list-orders',
        '--no-prism',
        ...flags,
      ]);
    } finally {
      await mock.close();
    }
  }

  it('names the beta operations as left out, and passes on what it judged', async () => {
    const exit = await run('--leave-out-beta');
    expect(exit.code).toBe(0);
    expect(exit.stdout.split('\n').filter((line) => line.startsWith('left out: '))).toEqual(lines());
    expect(exit.stdout).not.toContain('not verified: listOrdersV2');
  });

  it('without it, leaves nothing out', async () => {
    const exit = await run();
    expect(exit.code).toBe(0);
    expect(exit.stdout).not.toContain('left out: ');
  });

  it('is refused by explore, which judges no marked operation', async () => {
    const exit = await runVerifyInProcess(['explore', '--leave-out-beta']);
    expect([exit.code, exit.stderr.trim()]).toEqual([
      2,
      'petstore-verify: petstore-verify explore takes no --leave-out-beta (see --help)',
    ]);
  });

  function lines(): string[] {
    return marked.map(
      (route) =>
        `left out: ${route.operation} (${route.method} ${route.base}${route.path}, ${route.stability}): --leave-out-beta leaves out the operations the document marks beta or experimental`,
    );
  }
});
