import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { githubAnnotations, githubSummary } from '../../verify/report/github.js';
import { runReport } from '../../verify/run/run-report.js';
import { tallySuite } from '../../verify/base/results.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';
import { startServer } from '../support/support.js';
import { verifyCliPath as verifyCli } from '../support/cli-support.js';

const actionFile = new URL('../../action.yml', import.meta.url);

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-github-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A report of one scenario step with one violation, as the harness would make it. */
function reportWith(expected: string, actual: string) {
  const exchange = {
    name: 'list the orders',
    method: 'GET',
    path: '/store/orders',
    status: 200,
    violations: [{ code: 'body-schema' as const, path: '/0/id', expected, actual }],
    warnings: [],
    disagreements: [],
    durationMs: 1,
  };
  const suite = tallySuite('scenarios', [{ name: 'list-orders', verdict: 'failed', exchanges: [exchange] }], 1);
  return runReport({
    baseUrl: 'http://127.0.0.1:1/v1',
    suites: [suite],
    version: '0.1.0',
    strict: false,
    prism: false,
    requireCoverage: false,
    startedAt: new Date(0),
    durationMs: 1,
  });
}

describe('GitHub workflow commands', () => {
  it('give one ::error per violation, titled by its rule and operation', () => {
    expect(githubAnnotations(reportWith('integer', '"1"'))).toEqual([
      '::error title=body-schema listOrders::list-orders › list the orders: expected integer, got "1" (at /0/id)',
    ]);
  });

  it('escape what the runner would read as a command: percent, line breaks', () => {
    expect(githubAnnotations(reportWith('100% an integer', 'a\nsecond line'))).toEqual([
      '::error title=body-schema listOrders::list-orders › list the orders: expected 100%25 an integer, got a%0Asecond line (at /0/id)',
    ]);
  });

  it('write a terminal escape, a C1 control and a bidi override the target sent by their code points', () => {
    expect(githubAnnotations(reportWith('integer', '"\u001b[2J\u009b31m\u202eok"'))).toEqual([
      '::error title=body-schema listOrders::list-orders › list the orders: expected integer, got "\\u{1b}[2J\\u{9b}31m\\u{202e}ok" (at /0/id)',
    ]);
  });

  it('show what the target sent as text in the step summary, never as HTML or Markdown', () => {
    expect(githubSummary(reportWith('integer', '<b>*bold*</b> `x`'))).toContain(
      '| integer | &lt;b&gt;\\*bold\\*&lt;/b&gt; \\`x\\` |\n',
    );
  });

  it('show a control character or bidi override the target sent by its code point in the step summary', () => {
    expect(githubSummary(reportWith('integer', 'a\u001b[2J\u202eb'))).toContain(
      '| integer | a\\\\u{1b}\\[2J\\\\u{202e}b |\n',
    );
  });

  it('write a step summary with the verdict, the suites and each violation in a table', () => {
    const summary = githubSummary(reportWith('integer', 'a | b'));
    expect(summary).toContain('## ❌ petstore-verify: failed (exit 1)\n');
    expect(summary).toContain('| scenarios | failed | 1 | 1 | 1 | 0 |\n');
    expect(summary).toContain(
      '| `body-schema` | listOrders | list-orders › list the orders | /0/id | integer | a \\| b |\n',
    );
  });
});

/** What the composite action's one step does, run with bash as the runner runs it, with these inputs. */
async function runActionStep(inputs: Record<string, string>) {
  const action = parse(await readFile(actionFile, 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    runs: { using: string; steps: { id: string; shell: string; env: Record<string, string>; run: string }[] };
  };
  expect(action.runs.using).toBe('composite');
  const [step] = action.runs.steps;
  const input = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? '';
  const expand = (text: string) => text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => input(name));
  const workspace = await mkdtemp(join(directory, 'workspace-'));
  const output = join(workspace, 'github-output');
  const summary = join(workspace, 'step-summary');
  await writeFile(output, '');
  const environment = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    PETSTORE_VERIFY_COMMAND: `${process.execPath} ${verifyCli}`,
    PACT_DO_NOT_TRACK: 'true',
    ...Object.fromEntries(Object.entries(step!.env).map(([name, value]) => [name, expand(value)])),
  };
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step!.run], {
    cwd: workspace,
    env: environment,
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const outputs = Object.fromEntries(
    (await readFile(output, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => line.split('=') as [string, string]),
  );
  return { code, stdout, outputs, summary: await readFile(summary, 'utf8').catch(() => ''), workspace };
}

describe('the composite action', () => {
  it('fails a provider that breaks the contract: annotations, a summary, the reports and exit-code 1', async () => {
    const provider = await startHostileProvider({ wrongField: 'complete' });
    try {
      const run = await runActionStep({
        'base-url': `${provider.origin}/v1`,
        'api-key': hostileKey,
        'state-url': `${provider.origin}/__state`,
        suites: 'scenarios',
      });
      expect(run.code).toBe(1);
      expect(run.outputs).toEqual({
        junit: 'petstore-verify-reports/petstore-verify.xml',
        json: 'petstore-verify-reports/petstore-verify.json',
        html: 'petstore-verify-reports/petstore-verify.html',
        'exit-code': '1',
      });
      expect(run.stdout).toContain(
        '\n::error title=order-field listOrders::list-orders › list the orders: expected complete false as the provider state gives it, got true (at /0/complete)\n',
      );
      expect(run.summary).toContain('## ❌ petstore-verify: failed (exit 1)');
      expect(run.summary).toContain('| `order-field` | listOrders | list-orders › list the orders | /0/complete |');
      const report = JSON.parse(await readFile(join(run.workspace, run.outputs.json!), 'utf8')) as { exitCode: number };
      expect(report.exitCode).toBe(1);
      await expect(readFile(join(run.workspace, run.outputs.junit!), 'utf8')).resolves.toContain('<testsuites');
    } finally {
      await provider.close();
    }
  });

  it("passes the kit's own mock: no annotation, exit-code 0", async () => {
    const mock = await startServer();
    try {
      const run = await runActionStep({
        'base-url': `${mock.origin}/v1`,
        'api-key': 'petstore-dev-key',
        'state-url': `${mock.origin}/__mock/provider-state`,
        suites: 'scenarios',
      });
      expect(run.code).toBe(0);
      expect(run.outputs['exit-code']).toBe('0');
      expect(run.stdout).not.toContain('::error');
      expect(run.summary).toContain('## ✅ petstore-verify: passed (exit 0)');
    } finally {
      await mock.close();
    }
  });
});
