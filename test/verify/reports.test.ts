// The reports of petstore-verify: one verdict shared by the exit code, the summary, the JSON, the
// JUnit XML and the HTML page, for every suite that ran; the coverage matrix of the documented
// responses; and the HTML page as a person sees it, in headless Chromium.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { majorRoutes } from '../../core/routes.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import {
  documentedResponseCount,
  laterMajorResponses,
  notCountedLater,
  responsesBut,
} from '../support/document-figures.js';
import { launchChromium } from '../support/headless-browser.mjs';
import { startHostileProvider } from '../support/hostile-provider.js';
import { startServer } from '../support/support.js';
import { notVerifiedOperations } from '../../verify/run/run-report.js';

/** The testcases JUnit skips for the operations no suite verifies yet (v2's): one each. */
// The operations a run without the scenarios suite, or without a state URL, leaves unjudged (v2's list).
const notVerified = notVerifiedOperations().length;

// The default run judges both majors (v2's list is walked), so its coverage counts both documents' responses.
const documentedResponses = majorRoutes.reduce((sum, route) => sum + route.responses.length, 0);
let directory: string;
let browser: Browser;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-reports-'));
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await rm(directory, { recursive: true, force: true });
});

/** Opens a report page from its file; every request the page makes besides its own file is recorded. */
async function openPage(file: string): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url() !== pathToFileURL(file).href) requests.push(request.url());
  });
  await page.goto(pathToFileURL(file).href);
  return { page, requests };
}

describe('the reports of a failing default run', () => {
  const files = { json: '', junit: '', html: '' };
  let stdout = '';
  let code: number | null = null;
  beforeAll(async () => {
    const provider = await startHostileProvider({ wrongField: 'complete' });
    files.json = join(directory, 'failing.json');
    files.junit = join(directory, 'failing.xml');
    files.html = join(directory, 'failing.html');
    try {
      const exit = await runVerifyInProcess([
        ...provider.args,
        '--json',
        files.json,
        '--junit',
        files.junit,
        '--html',
        files.html,
      ]);
      stdout = exit.stdout;
      code = exit.code;
    } finally {
      await provider.close();
    }
  }, 60_000);

  it('exit 1, and the JSON report holds every suite with the same verdict', async () => {
    expect(code).toBe(1);
    const report = parseJson(await readFile(files.json, 'utf8')) as {
      exitCode: number;
      verdict: string;
      reasons: string[];
      violations: number;
      failedChecks: number;
      findings: { scenario: string; severity: string }[];
      suites: { suite: string; verdict: string; cases: { name: string; verdict: string }[] }[];
    };
    expect(report.exitCode).toBe(1);
    expect(report.verdict).toBe('failed');
    expect(report.suites.map((suite) => [suite.suite, suite.verdict])).toEqual([
      ['pact', 'passed'],
      ['scenarios', 'failed'],
      ['explore', 'failed'],
    ]);
    expect(report.suites[0]!.cases.length).toBeGreaterThan(30);
    expect(report.suites[1]!.cases.find((scenario) => scenario.name === 'list-orders')!.verdict).toBe('failed');
    expect(report.suites[2]!.cases.map((run) => [run.name, run.verdict])).toEqual([['run 1, shrunk', 'failed']]);
    expect(report.reasons).toEqual(['scenarios: 4 violations', 'explore: 1 violation']);
    expect([report.violations, report.failedChecks]).toEqual([5, 3]);
    expect(report.findings.filter((finding) => finding.severity === 'error')).toHaveLength(5);
    expect(report.findings.find((finding) => finding.scenario === 'list-orders')).toEqual({
      code: 'order-field',
      severity: 'error',
      suite: 'scenarios',
      operation: 'listOrders',
      scenario: 'list-orders',
      step: 'list the orders',
      method: 'GET',
      target: '/store/orders',
      path: '/0/complete',
      expected: 'complete false as the provider state gives it',
      actual: 'true',
      message: 'expected complete false as the provider state gives it, got true (at /0/complete)',
    });
    expect(stdout).toMatch(
      /\nverdict: failed \(exit 1; \d+ checks \(3 failed\), 5 violations, [\d.]+ s\): scenarios: 4 violations; explore: 1 violation\n$/,
    );
  });

  it('the JUnit report holds the pact interactions, the scenario steps and the explored runs, with each failure', async () => {
    const xml = await readFile(files.junit, 'utf8');
    // Nothing skipped: the default run with a state URL judges v2's list too, so no operation is left unjudged.
    expect(xml).toMatch(/<testsuites name="petstore-verify" tests="\d+" failures="3" errors="0" skipped="0"/);
    expect(xml).toContain(
      '<testsuite name="pact › cancel-shipped-order › cancel the shipped order" tests="1" failures="0"',
    );
    expect(xml).toContain('<testsuite name="scenarios › list-orders" tests="1" failures="1"');
    expect(xml).toContain(
      '<failure message="list-orders › list the orders: expected complete false as the provider state gives it, got true (at /0/complete)" type="order-field">',
    );
    expect(xml).toMatch(
      /<failure message="run 1, shrunk › \d+\. list the orders[^"]*: expected complete (false|true) as the provider state gives it, got (true|false) \(at \/\d+\/complete\)" type="order-field">/,
    );
  });

  it('the HTML page shows the verdict, each failed case with where, expected and actual, and the coverage matrix, with no external asset', async () => {
    const { page, requests } = await openPage(files.html);
    try {
      expect(await page.title()).toBe('petstore-verify: failed');
      expect(await page.locator('h1 .verdict').textContent()).toBe('failed');
      const failing = page.locator('details.case.failed', { hasText: 'list-orders' }).first();
      expect(await failing.getAttribute('open')).not.toBeNull();
      const row = failing.locator('table.findings tbody tr').first();
      expect(await row.locator('td').allTextContents()).toEqual([
        'list the orders',
        'order-field',
        '/0/complete',
        'complete false as the provider state gives it',
        'true',
      ]);
      expect(await row.isVisible()).toBe(true);
      expect(await page.locator('details.case.passed').first().getAttribute('open')).toBeNull();
      expect(await page.locator('table.coverage tbody tr').count()).toBe(majorRoutes.length);
      expect(await page.locator('table.coverage td.exercised').count()).toBe(documentedResponses);
      expect(await page.locator('h2', { hasText: 'Coverage of the documented responses' }).textContent()).toBe(
        `Coverage of the documented responses: ${documentedResponses} of ${documentedResponses}`,
      );
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('--require-coverage', () => {
  let mock: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    mock = await startServer();
  });
  afterAll(() => mock.close());

  it('fails a run that left a documented response unexercised, and the HTML page marks it', async () => {
    const html = join(directory, 'coverage.html');
    const args = [
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
    ];
    const without = await runVerifyInProcess(args);
    // the scenario exercises these two; every other documented response is missing, in the document's order
    const exercised = ['listOrders 200', 'cancelOrder 409'];
    const missing = responsesBut(...exercised);
    expect(without.stdout).toContain(
      `\ncoverage: ${exercised.length} of ${documentedResponseCount} documented responses exercised (not: ${missing.join(', ')})${notCountedLater()}\n`,
    );
    expect(without.code).toBe(0);
    // --require-coverage means both majors: v2's responses, which this run did not verify, are required too.
    const requiredResponses = [...missing, ...laterMajorResponses];
    const required = await runVerifyInProcess([...args, '--require-coverage', '--html', html]);
    expect(required.stdout).toMatch(
      new RegExp(
        `\\nverdict: failed \\(exit 1; 2 checks, 0 violations, [\\d.]+ s\\): coverage: ${requiredResponses.length} documented responses not exercised \\(${requiredResponses.join(', ')}\\)\\n$`,
      ),
    );
    expect(required.code).toBe(1);
    const { page } = await openPage(html);
    try {
      expect(await page.locator('table.coverage td.missing').count()).toBe(missing.length);
      expect(
        await page.locator('table.coverage tr', { hasText: 'cancelOrder' }).locator('td.exercised').textContent(),
      ).toBe('✓ 1');
    } finally {
      await page.close();
    }
  });
});

describe('an exploration run that sent nothing', () => {
  // Runs of at most one command: fast-check generates empty command lists among them.
  const files = { json: '', junit: '', html: '' };
  const reason = 'no command was generated: the run sent nothing';
  let stdout = '';
  let report: {
    checks: number;
    suites: { suite: string; cases: { name: string; description: string; verdict: string; reason?: string }[] }[];
  };
  let skipped: { name: string; description: string }[];
  beforeAll(async () => {
    const mock = await startServer();
    files.json = join(directory, 'empty-runs.json');
    files.junit = join(directory, 'empty-runs.xml');
    files.html = join(directory, 'empty-runs.html');
    try {
      const exit = await runVerifyInProcess([
        'explore',
        '--base-url',
        `${mock.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${mock.origin}/__mock/provider-state`,
        '--runs',
        '6',
        '--max-steps',
        '1',
        '--seed',
        '20261123',
        '--json',
        files.json,
        '--junit',
        files.junit,
        '--html',
        files.html,
      ]);
      stdout = exit.stdout;
    } finally {
      await mock.close();
    }
    report = parseJson(await readFile(files.json, 'utf8')) as typeof report;
    skipped = report.suites[0]!.cases.filter((run) => run.description.endsWith(', 0 steps'));
  }, 60_000);

  it('is skipped in the JSON report, with why, and every other run passed', () => {
    expect(skipped.length).toBeGreaterThan(0);
    expect(report.suites[0]!.cases.map((run) => [run.name, run.verdict, run.reason])).toEqual(
      report.suites[0]!.cases.map((run) =>
        skipped.includes(run) ? [run.name, 'skipped', reason] : [run.name, 'passed', undefined],
      ),
    );
  });

  it('is skipped on the console, with why, and counted as skipped with no check', () => {
    for (const run of skipped) {
      expect(stdout).toContain(`\n- skipped explore › ${run.name} (${run.description}): ${reason}\n`);
      expect(stdout).not.toContain(`✓ explore › ${run.name} (`);
    }
    expect(stdout).toContain(
      `\nexplore: ${6 - skipped.length} passed, 0 failed, ${skipped.length} skipped (runs; ${report.checks} checks, `,
    );
  });

  it('is a skipped testcase in JUnit, with why, and JUnit counts as many tests run as the console counts checks', async () => {
    const xml = await readFile(files.junit, 'utf8');
    for (const run of skipped) {
      expect(xml).toContain(
        `<testcase classname="explore › ${run.name}" name="${run.name}"><skipped message="${reason}"/></testcase>`,
      );
    }
    const totals = /<testsuites name="petstore-verify" tests="(\d+)" failures="0" errors="0" skipped="(\d+)"/.exec(xml);
    expect(Number(totals![2])).toBe(skipped.length + notVerified);
    expect(Number(totals![1]) - Number(totals![2])).toBe(report.checks);
  });

  it('is a skipped case on the HTML page, with why', async () => {
    const { page } = await openPage(files.html);
    try {
      expect(await page.locator('details.case.skipped summary').allTextContents()).toEqual(
        skipped.map((run) => `skipped ${run.name} ${reason}`),
      );
      expect(await page.locator('details.case.passed').count()).toBe(6 - skipped.length);
    } finally {
      await page.close();
    }
  });
});

describe('a run that judged nothing', () => {
  it('says so, one line, in the console, JSON, JUnit and HTML, and exits 2', async () => {
    const mock = await startServer();
    const directory = await mkdtemp(join(tmpdir(), 'petstore-not-run-'));
    try {
      const files = {
        json: join(directory, 'r.json'),
        junit: join(directory, 'r.xml'),
        html: join(directory, 'r.html'),
      };
      const exit = await runVerifyInProcess([
        '--base-url',
        `${mock.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--scenario',
        'cancel-shipped-order',
        '--no-prism',
        ...Object.entries(files).flatMap(([flag, file]) => [`--${flag}`, file]),
      ]);
      const why = 'no check ran: everything asked for sets a provider state, and no --state-url was given';
      expect(exit.stdout).toContain(`: ${why}\n`);
      expect(exit.code).toBe(2);
      expect(parseJson(await readFile(files.json, 'utf8'))).toMatchObject({ exitCode: 2, reasons: [why] });
      const xml = await readFile(files.junit, 'utf8');
      // Before, the file held one skipped testcase and no error: read as green by a CI.
      expect(xml).toMatch(
        new RegExp(
          `<testsuites name="petstore-verify" tests="${2 + notVerified}" failures="0" errors="1" skipped="${1 + notVerified}"`,
        ),
      );
      expect(xml).toContain(`<error message="not-run (exit 2): ${why}"/>`);
      expect(await readFile(files.html, 'utf8')).toContain(why);
    } finally {
      await mock.server.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
