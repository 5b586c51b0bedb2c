// The kit's Playwright reporter as the runner drives it: each test's coverage and pact attached, one
// pact written for the whole run, what it left out named, and a pact it cannot write failing the run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { routeOf } from '../../core/routes.js';
import { responsesBut, servedResponseCount } from '../support/document-figures.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { OrderCoverageReporter, coverageAttachment, pactAttachment } from '../../mocks/adapters/playwright-reporter.js';

const withKey = { authorization: 'Bearer petstore-dev-key' };
let directory: string;
let runs = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-reporter-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A test's pact, as the fixture attaches it: the calls of a mock of its own. */
async function pactOfCalls(
  calls: [method: string, path: string][],
  options: Parameters<typeof createOrderMock>[0] = {},
): Promise<Record<string, JsonValue>> {
  const mock = createOrderMock(options);
  for (const [method, path] of calls)
    await mock.handle(new Request(`http://localhost/v1${path}`, { method, headers: withKey }));
  return (await mock.pactDocument({ consumer: 'web-app' })).document;
}

function testOf(title: string): TestCase {
  return { title, titlePath: () => ['', 'chromium', 'orders.spec.ts', title] } as unknown as TestCase;
}

function resultOf(status: TestResult['status'], pact: Record<string, JsonValue>): TestResult {
  const coverage = createOrderMock().coverage();
  return {
    status,
    attachments: [
      { name: coverageAttachment, contentType: 'application/json', body: Buffer.from(JSON.stringify(coverage)) },
      { name: pactAttachment, contentType: 'application/json', body: Buffer.from(stringifyJson(pact)) },
    ],
  } as unknown as TestResult;
}

async function run(
  tests: [title: string, status: TestResult['status'], pact: Record<string, JsonValue>][],
  options: { failOnMissing?: boolean; ignore?: string[]; status?: FullResult['status'] } = {},
) {
  const pactDir = join(directory, `run-${runs++}`);
  const lines: string[] = [];
  const { status: runStatus = 'passed', ...reporterOptions } = options;
  const reporter = new OrderCoverageReporter({ pactDir, write: (line) => lines.push(line), ...reporterOptions });
  for (const [title, status, pact] of tests) reporter.onTestEnd(testOf(title), resultOf(status, pact));
  const verdict = await reporter.onEnd({ status: runStatus } as FullResult);
  const file = join(pactDir, 'web-app-petstore-order-interface.json');
  return { lines, verdict, file };
}

describe("the reporter's pact of the run", () => {
  it('merges every passing test’s pact into one file, each interaction once', async () => {
    const { lines, verdict, file } = await run([
      ['cancels', 'passed', await pactOfCalls([['DELETE', '/store/orders/1']])],
      [
        'refuses',
        'passed',
        await pactOfCalls([
          ['DELETE', '/store/orders/3'],
          ['DELETE', '/store/orders/1'],
        ]),
      ],
    ]);
    const pact = parseJson(await readFile(file, 'utf8')) as { interactions: { description: string }[] };
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'DELETE /store/orders/1 204 (with the key)',
      'DELETE /store/orders/3 409 (with the key)',
    ]);
    expect(lines[0]).toBe(`Consumer pact: ${file}, 2 interactions from 2 tests.`);
    expect(verdict).toBeUndefined();
  });

  it('leaves out the calls of a test that did not pass, and names the test in the metadata', async () => {
    const { lines, file } = await run([
      ['cancels', 'passed', await pactOfCalls([['DELETE', '/store/orders/1']])],
      ['refuses', 'failed', await pactOfCalls([['DELETE', '/store/orders/3']])],
    ]);
    const pact = parseJson(await readFile(file, 'utf8')) as {
      interactions: unknown[];
      metadata: Record<string, Record<string, string>>;
    };
    expect(pact.interactions).toHaveLength(1);
    expect(pact.metadata['petstore-contract-kit']?.leftOut).toBe(
      'test "chromium › orders.spec.ts › refuses": did not pass',
    );
    expect(lines[0]).toBe(`Consumer pact: ${file}, 1 interactions from 1 test (1 that did not pass left out).`);
  });

  it('says the calls the pacts left out, in the words of the file', async () => {
    const { lines, file } = await run([
      ['cancels', 'passed', await pactOfCalls([['DELETE', '/store/orders/1']])],
      [
        'lists',
        'passed',
        await pactOfCalls([['GET', '/store/orders']], { faults: [{ operation: 'listOrders', status: 503 }] }),
      ],
    ]);
    const pact = parseJson(await readFile(file, 'utf8')) as { metadata: Record<string, Record<string, string>> };
    expect(pact.metadata['petstore-contract-kit']?.leftOut).toBe('GET /v1/store/orders 503: fault');
    expect(lines[0]).toBe(
      `Consumer pact: ${file}, 1 interactions from 2 tests; left out: GET /v1/store/orders 503: fault.`,
    );
  });

  it('fails the run, writing nothing, when two tests answered the same request differently under one state', async () => {
    const first = await pactOfCalls([['DELETE', '/store/orders/99']]);
    const second = structuredClone(first) as { interactions: { response: { status: number } }[] };
    second.interactions[0]!.response.status = 410;
    const { lines, verdict, file } = await run([
      ['first', 'passed', first],
      ['second', 'passed', second as unknown as Record<string, JsonValue>],
    ]);
    expect(lines[0]).toBe(
      'Consumer pact not written: second: the pact was not written: the same request under the same provider state is answered differently: "DELETE /store/orders/99 404 (with the key)" (status 404, then 410)',
    );
    expect(verdict).toEqual({ status: 'failed' });
    expect(lines.at(-1)).toBe(
      'Order interface: the run fails although every test passed: the consumer pact was not written.',
    );
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe("the reporter's coverage verdict", () => {
  // v1's documented responses but the ignored pet read's, derived from the route table.
  const missing = responsesBut('readPet');
  const allMissing = missing.join(', ');
  // v2's list, marked beta: counted apart, never failing the run (issue 56).
  const betaApart = ` Counted apart, never failing the run: listOrdersV2 (beta) 0 of ${routeOf('listOrdersV2').responses.length}.`;

  it('fails a green run with failOnMissing, saying so in a line of its own', async () => {
    const { lines, verdict } = await run([['cancels', 'passed', await pactOfCalls([])]], {
      failOnMissing: true,
      ignore: ['readPet'],
    });
    expect(lines.at(-2)).toBe(
      `Order interface coverage: 0 of ${servedResponseCount} documented responses produced over 1 test; never produced: ${allMissing} (readPet ignored).${betaApart}`,
    );
    expect(lines.at(-1)).toBe(
      `Order interface: the run fails although every test passed: failOnMissing is on and ${missing.length} documented responses were never produced.`,
    );
    expect(verdict).toEqual({ status: 'failed' });
  });

  it('leaves the verdict to the tests without failOnMissing, with no such line', async () => {
    const { lines, verdict } = await run([['cancels', 'passed', await pactOfCalls([])]]);
    expect(lines.some((line) => line.startsWith('Order interface: the run fails'))).toBe(false);
    expect(verdict).toBeUndefined();
  });

  it('adds no line to a run that failed on its own tests', async () => {
    const { lines, verdict } = await run([['cancels', 'failed', await pactOfCalls([])]], {
      failOnMissing: true,
      status: 'failed',
    });
    expect(lines.some((line) => line.startsWith('Order interface: the run fails'))).toBe(false);
    expect(verdict).toBeUndefined();
  });
});
