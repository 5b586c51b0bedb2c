// A run's coverage counts v2's documented responses where v2 was judged (issue 56), names them with
// their base (`GET /v2/store/orders 400`), and names them `not counted` where v2 was not verified or
// `--leave-out-beta` left it out; `--require-coverage` then means both majors. Counts are derived from
// the route table, never pinned.
import { describe, expect, it } from 'vitest';
import { majorRoutes, routes } from '../../core/routes.js';
import { tallySuite, type CheckedExchange } from '../../verify/base/results.js';
import { summaryLines } from '../../verify/report/console.js';
import { runReport, unstableMarkers, type RunReport } from '../../verify/run/run-report.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import {
  documentedResponseCount,
  documentedResponses,
  laterMajorResponses,
  notCountedLater,
  servedResponseCount,
} from '../support/document-figures.js';
import { startServer } from '../support/support.js';

function exchange(path: string, status = 200): CheckedExchange {
  return {
    name: `get ${path}`,
    method: 'GET',
    path,
    status,
    violations: [],
    warnings: [],
    disagreements: [],
    durationMs: 3,
  };
}

function reportOf(exchanges: CheckedExchange[], options: { leaveOut?: string[]; requireCoverage?: boolean } = {}) {
  return runReport({
    baseUrl: 'http://127.0.0.1:4010/v1',
    suites: [tallySuite('scenarios', [{ name: 'lists', verdict: 'passed', exchanges }], 0)],
    version: '0.1.0',
    strict: false,
    prism: false,
    requireCoverage: options.requireCoverage ?? false,
    startedAt: new Date(0),
    durationMs: 0,
    ...(options.leaveOut !== undefined && { leaveOut: options.leaveOut }),
  });
}

const coverageLine = (report: RunReport) => summaryLines(report).find((line) => line.startsWith('coverage: '));
const v1List = exchange('/store/orders');
const v2List = exchange('/v2/store/orders?limit=2');
const unexercisedBut = (...exercised: string[]) =>
  [...documentedResponses, ...laterMajorResponses].filter((name) => !exercised.includes(name));

describe("a run's coverage of both majors", () => {
  it("counts v2's documented responses where a suite judged v2, naming them with their base", () => {
    const report = reportOf([v1List, v2List]);
    expect([report.coverage.covered, report.coverage.total, report.coverage.notCounted]).toEqual([
      2,
      servedResponseCount,
      [],
    ]);
    const missing = unexercisedBut('listOrders 200', 'GET /v2/store/orders 200');
    expect(coverageLine(report)).toBe(
      `coverage: 2 of ${servedResponseCount} documented responses exercised (not: ${missing
        .map((name) => (name.startsWith('GET /v2/') ? `${name} (beta)` : name))
        .join(', ')})`,
    );
  });

  it("leaves v2's responses out of the count, named, where no suite judged v2", () => {
    const report = reportOf([v1List]);
    expect([report.coverage.covered, report.coverage.total]).toEqual([1, documentedResponseCount]);
    expect(report.coverage.notCounted.map((entry) => [entry.operation, entry.status, entry.reason])).toEqual(
      majorRoutes
        .filter((route) => !routes.includes(route as never))
        .flatMap((route) => route.responses.map((response) => [route.operation, response.status, 'not verified'])),
    );
    expect(coverageLine(report)).toMatch(new RegExp(`\\)${escapeRegExp(notCountedLater())}$`));
  });

  it('leaves them out, named as left out, under --leave-out-beta, even where a call of v2 was judged', () => {
    const report = reportOf([v1List, v2List], { leaveOut: [...unstableMarkers] });
    expect([report.coverage.covered, report.coverage.total]).toEqual([1, documentedResponseCount]);
    expect(coverageLine(report)).toMatch(new RegExp(`\\)${escapeRegExp(notCountedLater('left out'))}$`));
  });
});

describe('--require-coverage over both majors', () => {
  it("fails a run that did not verify v2, naming v2's responses with their base", () => {
    const report = reportOf([v1List], { requireCoverage: true });
    const missing = unexercisedBut('listOrders 200');
    expect([report.exitCode, report.reasons]).toEqual([
      1,
      [`coverage: ${missing.length} documented responses not exercised (${missing.join(', ')})`],
    ]);
  });

  it('fails a run whose v2 walk left a documented v2 response unexercised', () => {
    const report = reportOf([v1List, v2List], { requireCoverage: true });
    expect(report.reasons[0]).toContain(', GET /v2/store/orders 400, GET /v2/store/orders 401)');
    expect(report.exitCode).toBe(1);
  });

  it('requires none of what --leave-out-beta leaves out', () => {
    const report = reportOf([v1List], { requireCoverage: true, leaveOut: [...unstableMarkers] });
    const missing = unexercisedBut('listOrders 200').filter((name) => !laterMajorResponses.includes(name));
    expect(report.reasons).toEqual([
      `coverage: ${missing.length} documented responses not exercised (${missing.join(', ')})`,
    ]);
  });

  it('passes a run that exercised every documented response of both majors', () => {
    const every = majorRoutes.flatMap((route) =>
      route.responses.map((response) =>
        exchange(
          `${route.base === '/v1' ? '' : route.base}${route.path.replace('{orderId}', '1').replace('{petId}', '1')}`,
          response.status,
        ),
      ),
    );
    const report = reportOf(
      every.map((item, index) => ({
        ...item,
        method: majorRoutes.flatMap((route) => route.responses.map(() => route.method))[index]!,
      })),
      { requireCoverage: true },
    );
    expect([report.coverage.covered, report.coverage.total, report.exitCode]).toEqual([
      servedResponseCount,
      servedResponseCount,
      0,
    ]);
  });
});

describe('through petstore-verify', () => {
  it("names v2's responses left out under --leave-out-beta, and --require-coverage requires v1's alone", async () => {
    const mock = await startServer();
    try {
      const exit = await runVerifyInProcess([
        '--base-url',
        `${mock.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${mock.origin}/__mock/provider-state`,
        '--suite',
        'scenarios',
        '--scenario',
        'cancel-shipped-order',
        '--leave-out-beta',
        '--require-coverage',
        '--no-prism',
      ]);
      const missing = documentedResponses.filter((name) => !['listOrders 200', 'cancelOrder 409'].includes(name));
      expect(exit.stdout).toContain(
        `\ncoverage: 2 of ${documentedResponseCount} documented responses exercised (not: ${missing.join(', ')})${notCountedLater('left out')}\n`,
      );
      expect(exit.stdout).toMatch(
        new RegExp(
          `: coverage: ${missing.length} documented responses not exercised \\(${escapeRegExp(missing.join(', '))}\\)\\n$`,
        ),
      );
      expect(exit.code).toBe(1);
    } finally {
      await mock.close();
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
