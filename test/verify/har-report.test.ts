// petstore-verify har for a tester's bug report (issue 58): --html (each entry, its verdict, what the
// specification and the contract expected beside what the HAR showed; nothing of the HAR run, no secret
// of it shown), and a value the saved state cannot hold named in the console and the JSON.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { isList, json as jsonAnswer, startBrokenProvider } from '../support/broken-provider.js';
import { runVerifyInProcess, startProxyInProcess } from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { authorized } from '../support/support.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-report-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const json = { 'content-type': 'application/json' };
const listed = '[{"id":1,"petId":101,"quantity":1},{"id":3,"petId":103,"quantity":1}]';
const har = (name: string, exchanges: readonly HarExchangeSpec[]) =>
  writeHar(join(directory, name), exchanges, { browser: 'chrome' });
const verifyHar = (args: string[]) => runVerifyInProcess(['har', ...args, '--no-prism']);

/** The README's bug as a browser saw it: the list, then a 204 for the shipped order 3. */
const readmeBug: HarExchangeSpec[] = [
  { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
  { method: 'DELETE', url: `${base}/store/orders/3`, status: 204, requestHeaders: authorized },
];

/** A list whose order 1 has a string quantity (the schema wants an integer), then a cancel of order 1. */
const stringQuantity: HarExchangeSpec[] = [
  {
    url: `${base}/store/orders`,
    status: 200,
    requestHeaders: authorized,
    responseHeaders: json,
    body: '[{"id":1,"petId":101,"quantity":"2"},{"id":3,"petId":103,"quantity":1}]',
  },
  { method: 'DELETE', url: `${base}/store/orders/1`, status: 204, requestHeaders: authorized },
];

/** The text of markup: tags out, the page's numeric references and the few named ones read back. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');

/** The rows of the page's table of `className`, each as its cells' texts. */
function tableRows(page: string, className: string): string[][] {
  const table = new RegExp(`<table class="${className}">(.*?)</table>`, 's').exec(page)?.[1];
  if (table === undefined) throw new Error(`no table ${className} in the page`);
  const body = /<tbody>(.*)<\/tbody>/s.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map(([, row]) =>
    [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map(([, cell]) => textOf(cell!)),
  );
}

/** The HAR judged with --html (and `args`): the run and the page it wrote. */
async function judgedWithHtml(file: string, args: string[] = []) {
  const html = join(directory, 'report.html');
  const run = await verifyHar([file, '--html', html, ...args]);
  return { run, page: await readFile(html, 'utf8') };
}

describe('petstore-verify har --html: a page for a bug report', () => {
  it('lists each entry with its number, verdict mark, call and status', async () => {
    const { run, page } = await judgedWithHtml(await har('bug.har', readmeBug), [
      '--from-scenario',
      'cancel-shipped-order',
    ]);
    expect(run.code).toBe(1);
    expect(tableRows(page, 'entries')).toEqual([
      ['#1', '·', `GET ${base}/store/orders`, '200', ''],
      ['#2', '·', `DELETE ${base}/store/orders/3`, '204', ''],
    ]);
  });

  it("puts the contract's expectation beside the HAR's answer, by step", async () => {
    const { page } = await judgedWithHtml(await har('bug.har', readmeBug), ['--from-scenario', 'cancel-shipped-order']);
    expect(tableRows(page, 'findings contract')).toEqual([
      ['2. cancel order 3', 'status-unexpected', 'status', 'status 409', '204'],
    ]);
    expect(page).toContain('<h1><span class="verdict failed">failed</span> petstore-verify har</h1>');
  });

  it("says the state was the named scenario's, and nothing inferred", async () => {
    const { page } = await judgedWithHtml(await har('bug.har', readmeBug), ['--from-scenario', 'cancel-shipped-order']);
    const state = /<section class="state">(.*?)<\/section>/s.exec(page)?.[1] ?? '';
    expect(textOf(state)).toBe(
      'The starting stateJudged from the state of scenario cancel-shipped-order: what the deployment held when the HAR began.',
    );
  });

  it("puts the specification's expectation beside the HAR's value, by entry, and marks the entry ✗", async () => {
    const { page } = await judgedWithHtml(await har('quantity.har', stringQuantity));
    expect(tableRows(page, 'findings specification')).toEqual([['#1', 'body-schema', '/0/quantity', 'integer', '"2"']]);
    expect(tableRows(page, 'entries')[0]!.slice(0, 2)).toEqual(['#1', '✗']);
  });

  it('names the inferred status and the value the state could not hold', async () => {
    const saved = join(directory, 'saved');
    const { page } = await judgedWithHtml(await har('quantity.har', stringQuantity), [
      '--save',
      saved,
      '--name',
      'bug',
    ]);
    expect(textOf(/<ul class="inferred">(.*?)<\/ul>/s.exec(page)?.[1] ?? '')).toBe(
      'order 1 pending (from 2. cancel order 1)',
    );
    expect(textOf(/<ul class="dropped">(.*?)<\/ul>/s.exec(page)?.[1] ?? '')).toBe(
      `dropped from the state of ${join(saved, 'bug.yaml')}: the quantity of order 1 (must be integer); the saved scenario does not hold it, so no replay can show a finding on it`,
    );
  });

  it('says why an entry was not judged', async () => {
    const aborted: HarExchangeSpec = {
      method: 'DELETE',
      url: `${base}/store/orders/1`,
      status: 0,
      requestHeaders: authorized,
      entry: { response: { status: 0, statusText: '', headers: [], content: { size: 0 }, _error: 'net::ERR_ABORTED' } },
    };
    const { page } = await judgedWithHtml(await har('aborted.har', [readmeBug[0]!, aborted]));
    const [, row] = tableRows(page, 'entries');
    expect(row!.slice(0, 2)).toEqual(['#2', '-']);
    expect(row![4]).toMatch(/^not judged: .*net::ERR_ABORTED/);
  });

  it('writes a self-contained page: no script, no external style, image or link', async () => {
    const { page } = await judgedWithHtml(await har('bug.har', readmeBug));
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|<link|\bsrc=|\bhref=|@import|url\(/i);
  });

  it('escapes a <script> the HAR holds in a URL, a body and an _error', async () => {
    // Each its own: a text equal to a query's value is redacted as a URL secret would be.
    const script = (n: number) => `<script>alert(${n})</script>`;
    const hostile: HarExchangeSpec[] = [
      {
        url: `${base}/store/orders?q=${script(1)}`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: JSON.stringify([{ id: 1, petId: 101, quantity: script(2) }]),
      },
      {
        method: 'DELETE',
        url: `${base}/store/orders/${script(3)}`,
        status: 404,
        requestHeaders: authorized,
        responseHeaders: json,
        body: script(4),
      },
      {
        method: 'DELETE',
        url: `${base}/store/orders/1`,
        status: 0,
        requestHeaders: authorized,
        entry: { response: { status: 0, statusText: '', headers: [], content: { size: 0 }, _error: script(5) } },
      },
    ];
    const { page } = await judgedWithHtml(await har('hostile.har', hostile));
    expect(page).not.toMatch(/<script/i);
    const shown = textOf(page);
    expect(shown).toContain(JSON.stringify(script(2)));
    expect(shown).toContain(script(5));
  });

  it('shows no token of the HAR, even where a finding quotes it', async () => {
    const token = 'Zq7vK2mW9xR4tY8pL3nB6cF1hJ5dS0gA2eU7iO4kM9wQ3rT8yV1zX6bN5cD0';
    const leaking: HarExchangeSpec[] = [
      {
        url: `${base}/store/orders?access_token=${token}`,
        status: 200,
        requestHeaders: { authorization: `Bearer ${token}` },
        responseHeaders: json,
        body: JSON.stringify([{ id: 1, petId: 101, quantity: token }]),
      },
    ];
    const { page } = await judgedWithHtml(await har('token.har', leaking));
    expect(tableRows(page, 'findings specification')).toHaveLength(1);
    expect(page).not.toContain(token.slice(0, 8));
  });

  it('refuses a folder as --html FILE before judging (exit 2)', async () => {
    const folder = join(directory, 'folder');
    await mkdir(folder);
    const run = await verifyHar([await har('bug.har', readmeBug), '--html', folder]);
    expect(run.stderr).toBe(`petstore-verify: --html ${folder} is a folder, not a file (see --help)\n`);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });

  it('refuses an empty --html before judging (exit 2), as every report flag', async () => {
    const run = await verifyHar([await har('bug.har', readmeBug), '--html', '']);
    expect(run.stderr).toBe('petstore-verify: --html needs a file name, got "" (see --help)\n');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });
});

describe('petstore-verify har --save: a value the saved state cannot hold', () => {
  const saveArgs = () => ['--save', join(directory, 'saved'), '--name', 'bug'];
  const droppedLines = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('dropped from'));

  it('names the dropped quantity of order 1 in one console line', async () => {
    const run = await verifyHar([await har('quantity.har', stringQuantity), ...saveArgs()]);
    expect(droppedLines(run.stdout)).toEqual([
      `dropped from the state of ${join(directory, 'saved', 'bug.yaml')}: the quantity of order 1 (must be integer); the saved scenario does not hold it, so no replay can show a finding on it`,
    ]);
    expect(run.code).toBe(1);
  });

  it('says why a listed status is dropped: a value no provider state takes, not an unknown field', async () => {
    const placed: HarExchangeSpec[] = [
      { ...stringQuantity[0]!, body: '[{"id":1,"petId":101,"quantity":1,"status":"placed"}]' },
    ];
    const run = await verifyHar([await har('placed.har', placed), ...saveArgs()]);
    expect(droppedLines(run.stdout)).toEqual([
      `dropped from the state of ${join(directory, 'saved', 'bug.yaml')}: the status of order 1 ("placed" is no status a provider state takes (pending, shipped)); the saved scenario does not hold it, so no replay can show a finding on it`,
    ]);
  });

  it('names it in the JSON report', async () => {
    const report = join(directory, 'report.json');
    await verifyHar([await har('quantity.har', stringQuantity), ...saveArgs(), '--json', report]);
    const { contract } = parseJson(await readFile(report, 'utf8')) as { contract: { dropped?: unknown } };
    expect(contract.dropped).toEqual([{ id: 1, field: 'quantity', reason: 'must be integer' }]);
  });

  it('prints no such line, and the JSON no dropped value, for an honest HAR', async () => {
    const report = join(directory, 'report.json');
    const run = await verifyHar([await har('bug.har', readmeBug), ...saveArgs(), '--json', report]);
    expect(run.stdout).toContain('saved 2 steps in');
    expect(droppedLines(run.stdout)).toEqual([]);
    const { contract } = parseJson(await readFile(report, 'utf8')) as { contract: object };
    expect(contract).not.toHaveProperty('dropped');
  });

  /** A proxy recording one list whose order 1 has a string quantity: what it printed when stopped, and its --json. */
  async function recordedThroughProxy() {
    const upstream = await startBrokenProvider(async (request, response) =>
      isList(request) ? jsonAnswer('[{"id":1,"petId":101,"quantity":"2"}]', 200) : response,
    );
    const recordings = join(directory, 'recordings');
    const report = join(directory, 'proxy.json');
    const proxy = await startProxyInProcess([
      ...['--upstream', `${upstream.origin}/v1`, '--port', '0', '--no-prism', '--json', report],
      ...['--record', recordings, '--record-name', 'bug'],
    ]);
    let exit;
    try {
      await fetch(`${proxy.baseUrl}/store/orders`, { headers: authorized });
      await proxy.outputMatching('GET /v1/store/orders');
    } finally {
      exit = await proxy.stop('SIGINT');
      await upstream.close();
    }
    return { exit, file: join(recordings, 'bug.yaml'), report: parseJson(await readFile(report, 'utf8')) };
  }

  it("names it in the proxy's summary when it records (proxy --record)", async () => {
    const { exit, file } = await recordedThroughProxy();
    expect(droppedLines(exit.stdout)).toEqual([
      `dropped from the state of ${file}: the quantity of order 1 (must be integer); the saved scenario does not hold it, so no replay can show a finding on it`,
    ]);
  });

  it("names the finding the recording cannot replay in the proxy's summary, as har --save does", async () => {
    const { exit, file, report } = await recordedThroughProxy();
    const unreplayable = (report as { recording: { unreplayable: { step: string; code: string; why: string }[] } })
      .recording.unreplayable;
    expect(unreplayable.length).toBeGreaterThan(0);
    const lines = exit.stdout.split('\n').filter((line) => line.startsWith('the saved scenario cannot replay'));
    expect(lines).toEqual(
      unreplayable.map(
        ({ step, code, why }) => `the saved scenario cannot replay the finding [${code}] of ${step}: ${why} (${file})`,
      ),
    );
  });

  it("names it in the proxy's JSON report, with its file", async () => {
    const { file, report } = await recordedThroughProxy();
    expect((report as { recording: { dropped?: unknown } }).recording.dropped).toEqual([
      { file, id: 1, field: 'quantity', reason: 'must be integer' },
    ]);
  });
});
