// petstore-verify har, reviewed as a tester: what a real browser's HAR holds that must not be blamed on
// the deployment (a body the page never read, the browser's own HSTS redirect), broken HAR input that
// must be refused in one line rather than judged or crash, and a redirect's fragment tokens.
// The command runs in this process (runVerifyInProcess): no test here is about the process.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderInput } from '../../core/provider-state.js';
import { loadScenarios } from '../../core/scenario-files.js';
import { judgeHar } from '../../verify/har/judge-har.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { authorized } from '../support/support.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-review-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const json = { 'content-type': 'application/json' };
const listed = '[{"id":1,"petId":101,"quantity":1},{"id":3,"petId":103,"quantity":1}]';
const shippedState: OrderInput[] = [
  { id: 1, petId: 101, quantity: 1, status: 'pending' },
  { id: 3, petId: 103, quantity: 1, status: 'shipped' },
];
const fromShipped = { scenario: 'cancel-shipped-order', orders: shippedState };

const har = (name: string, exchanges: readonly HarExchangeSpec[]) =>
  writeHar(join(directory, name), exchanges, { browser: 'chrome' });

/** An entry as JSON, to change in ways no browser writes. */
interface EntryJson {
  _fetchedViaServiceWorker?: boolean;
  request: { cookies?: unknown };
  response: { status?: unknown; statusText?: string; headers: { value: unknown }[]; content?: unknown };
}

/** A HAR file written, then changed as JSON (for shapes the builder does not write). */
async function edited(name: string, exchanges: readonly HarExchangeSpec[], edit: (entries: EntryJson[]) => void) {
  const file = await har(name, exchanges);
  const parsed = JSON.parse(await readFile(file, 'utf8'));
  edit(parsed.log.entries);
  await writeFile(file, JSON.stringify(parsed));
  return file;
}

const refusal = async (file: string) => {
  try {
    await judgeHar({ file });
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  return undefined;
};

describe('petstore-verify har: bodies a real browser did not keep', () => {
  it('judges an answer whose body Playwright never captured (content.size -1, no text) by its status and headers, not as an empty body, and still catches the 204 for the shipped order', async () => {
    // What Playwright's recordHar wrote here for a list whose body the page never read, and for a 204.
    const file = await har('unread.har', [
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: { ...json, 'content-length': String(listed.length) },
        content: { size: -1, mimeType: 'application/json' },
      },
      {
        method: 'DELETE',
        url: `${base}/store/orders/3`,
        status: 204,
        requestHeaders: authorized,
        content: { size: -1, mimeType: 'x-unknown' },
      },
    ]);
    const { report } = await judgeHar({ file, knownState: fromShipped });
    expect(report.exchanges[0]!.bodyUnjudged).toBe(
      'its body is not in the HAR (the page never read it, or the export left it out)',
    );
    expect(report.exchanges[0]!.unjudged).toBeUndefined();
    expect(report.exchanges[0]!.violations).toEqual([]);
    expect(report.exchanges[1]!.unjudged).toBeUndefined();
    expect(report.contract.against.map(({ step }) => step)).toEqual(['2. cancel order 3']);
    expect(report.exitCode).toBe(1);
  });

  it('judges an answer Playwright saw cut off after its status by that status, and says its body is not in the HAR', async () => {
    const file = await edited(
      'cut-off.har',
      [{ method: 'DELETE', url: `${base}/store/orders/3`, status: 401, requestHeaders: {}, responseHeaders: json }],
      (entries) => {
        entries[0]!.response.content = { size: -1, mimeType: 'application/json' };
        Object.assign(entries[0]!.response, { _failureText: 'net::ERR_ABORTED' });
      },
    );
    const { report } = await judgeHar({ file });
    expect(report.exchanges[0]!.bodyUnjudged).toBe(
      'its answer was cut off after its status (aborted: net::ERR_ABORTED): its body is not in the HAR',
    );
    expect(report.exchanges[0]!.violations.map(({ code }) => code)).toEqual(['auth-challenge']);
  });

  it('does not judge a body marked base64 that is not base64 (it would decode to bytes the deployment never sent), only its status and headers', async () => {
    const file = await har('bad-base64.har', [
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: 'this is not base64 at all!!',
        content: { encoding: 'base64', size: listed.length },
      },
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders: authorized,
        responseHeaders: json,
        body: Buffer.from(listed)
          .toString('base64')
          .replace(/(.{20})/g, '$1\n'),
        content: { encoding: 'base64', size: listed.length },
      },
    ]);
    const { report } = await judgeHar({ file });
    expect(report.exchanges[0]!.bodyUnjudged).toBe('its body is marked base64 but is not base64');
    expect(report.exchanges[0]!.unjudged).toBeUndefined();
    expect(report.exchanges[1]!.unjudged).toBeUndefined();
    expect([report.violations, report.exitCode]).toEqual([0, 0]);
  });

  it('does not judge an answer whose HAR entry has no content at all as one without a body: its status and headers only', async () => {
    const file = await edited(
      'nocontent.har',
      [{ url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed }],
      (entries) => {
        delete entries[0]!.response.content;
      },
    );
    const { report } = await judgeHar({ file });
    expect(report.exchanges[0]!.bodyUnjudged).toMatch(/^its body is not in the HAR/);
    expect([report.judged, report.violations, report.exitCode]).toEqual([1, 0, 0]);
  });
});

describe("petstore-verify har: the browser's own answers", () => {
  it("does not blame the deployment for an answer a service worker gave (Chrome's _fetchedViaServiceWorker): a mock in the page may have made it", async () => {
    const cancelShipped = { url: `${base}/store/orders/3`, method: 'DELETE', status: 204, requestHeaders: authorized };
    const file = await edited('service-worker.har', [cancelShipped, cancelShipped], (entries) => {
      entries[0]!._fetchedViaServiceWorker = true;
    });
    const { report } = await judgeHar({ file, knownState: fromShipped });
    expect(report.exchanges[0]!.unjudged).toBe(
      "a service worker in the page answered it (Chrome's _fetchedViaServiceWorker), perhaps without asking the deployment",
    );
    expect(report.exchanges[1]!.unjudged).toBeUndefined();
    expect(report.exitCode).toBe(1);
  });

  it("does not blame the deployment for Chrome's 307 Internal Redirect (HSTS): the call it led to is judged", async () => {
    const location = `${base}/store/orders`;
    const file = await edited(
      'hsts.har',
      [
        {
          url: 'http://staging.example.com/v1/store/orders',
          status: 307,
          requestHeaders: authorized,
          responseHeaders: { location, 'non-authoritative-reason': 'HSTS' },
        },
        { url: location, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
      ],
      (entries) => {
        entries[0]!.response.statusText = 'Internal Redirect';
      },
    );
    // Without --base-url, the base is the one the deployment answered at, not the browser's http: first.
    const { report } = await judgeHar({ file });
    expect(report.baseUrl).toBe(base);
    expect([report.judged, report.otherBases.entries, report.exitCode]).toEqual([1, 1, 0]);
    const http = await judgeHar({ file, baseUrl: 'http://staging.example.com/v1' });
    expect(http.report.exchanges[0]!.unjudged).toBe("the browser's own redirect (HSTS), not the deployment's answer");
    expect([http.report.judged, http.report.exitCode]).toEqual([0, 2]);
  });
});

describe('petstore-verify har: broken HAR input is refused in one line, never judged or a crash', () => {
  const one = (): HarExchangeSpec[] => [
    { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
  ];

  it('refuses a status that is no HTTP status (200.5, 99999, "200") instead of blaming the deployment', async () => {
    const refusedWith = async (status: unknown) =>
      refusal(
        await edited('status.har', one(), (entries) => {
          entries[0]!.response.status = status;
        }),
      );
    const at = `${join(directory, 'status.har')} is not a HAR: log.entries[0]`;
    for (const status of [200.5, 99_999, -2])
      expect(await refusedWith(status)).toEqual({
        code: 'invalid_har',
        message: `${at} has a response status (${status}) that is no HTTP status`,
      });
    expect(await refusedWith('200')).toEqual({ code: 'invalid_har', message: `${at} has no response with a status` });
  });

  it('refuses header fields whose value is not text, and cookies that are not a list', async () => {
    const nullValue = await edited('null-header.har', one(), (entries) => {
      entries[0]!.response.headers[0]!.value = null;
    });
    expect(await refusal(nullValue)).toEqual({
      code: 'invalid_har',
      message: `${nullValue} is not a HAR: log.entries[0] has headers that are not { name, value } pairs`,
    });
    const cookies = await edited('cookies.har', one(), (entries) => {
      entries[0]!.request.cookies = { sid: 'x' };
    });
    expect(await refusal(cookies)).toEqual({
      code: 'invalid_har',
      message: `${cookies} is not a HAR: log.entries[0] has cookies that are not a list`,
    });
  });

  it('reads a URL whose user or token is not valid percent-encoding, without a crash', async () => {
    const file = await har('percent.har', [
      { ...one()[0]!, url: `https://us%E0%A4%A:p%ZZ@staging.example.com/v1/store/orders?access_token=%E0%A4%A` },
    ]);
    const { report } = await judgeHar({ file });
    expect([report.judged, report.exitCode]).toEqual([1, 0]);
    expect(JSON.stringify(report)).not.toContain('us%E0%A4%A');
  });

  it("refuses a file in UTF-16 (PowerShell's > writes it) or with bytes that are not UTF-8, saying so, rather than read garbled", async () => {
    const file = await har('utf16.har', one());
    const text = await readFile(file, 'utf8');
    await writeFile(file, Buffer.from(`\uFEFF${text}`, 'utf16le'));
    expect(await refusal(file)).toEqual({
      code: 'invalid_har',
      message: `${file} is UTF-16 text: a HAR file is UTF-8 (save it again as UTF-8)`,
    });
    const latin1 = await har('latin1.har', one());
    await writeFile(
      latin1,
      Buffer.from((await readFile(latin1, 'utf8')).replace('WebInspector', 'WebInspector café'), 'latin1'),
    );
    expect(await refusal(latin1)).toEqual({
      code: 'invalid_har',
      message: expect.stringMatching(
        /latin1\.har is not UTF-8 text \(a byte that is not UTF-8 at byte \d+\): a HAR file is UTF-8$/,
      ),
    });
  });

  it('reads a file that begins with a byte order mark (as Windows tools write it)', async () => {
    const file = await har('bom.har', one());
    await writeFile(file, `\uFEFF${await readFile(file, 'utf8')}`);
    const { report } = await judgeHar({ file });
    expect([report.judged, report.exitCode]).toEqual([1, 0]);
  });
});

describe('petstore-verify har: the reason for nothing judged', () => {
  it('says that no entry is under a --base-url that matches none', async () => {
    const file = await har('elsewhere.har', [
      { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
    ]);
    const { report } = await judgeHar({ file, baseUrl: 'https://other.example.com/v1' });
    expect(report.reason).toBe(
      "no entry was judged: none of the 1 is a call of the order interface (a path of its routes below https://other.example.com/v1, or of v2's below the same base with /v2)",
    );
    expect(report.exitCode).toBe(2);
  });
});

describe('petstore-verify har: a redirect names no token of its fragment', () => {
  it("keeps a Location's fragment tokens (#access_token=) out of every line and report", async () => {
    const location = 'https://sso.example.com/callback#access_token=frag-token-value-91&state=st4te-value';
    const file = await har('fragment.har', [
      {
        url: `${base}/store/orders`,
        status: 302,
        requestHeaders: authorized,
        responseHeaders: { location },
      },
    ]);
    const { report } = await judgeHar({ file });
    const text = JSON.stringify(report);
    expect(text).not.toContain('frag-token-value-91');
    expect(text).not.toContain('st4te-value');
    expect(report.exitCode).toBe(1); // a redirect at the interface is the deployment's: the specification documents none
  });
});

describe('petstore-verify har: a --json file it cannot write', () => {
  it('is a usage error before the file is judged, as for the other commands: no verdict then a failure', async () => {
    const file = await har('one.har', [
      { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
    ]);
    const report = join(directory, 'no-such-folder', 'report.json');
    const run = await runVerifyInProcess(['har', file, '--json', report, '--no-prism']);
    expect(run.stderr).toBe(
      `petstore-verify: --json ${report} cannot be written: its folder does not exist (see --help)\n`,
    );
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });
});

describe("petstore-verify har: a site's plain cookies are not secrets", () => {
  it('keeps the words of the interface in every line and the saved scenario when cookies hold them (tab=orders, filter=pending), and takes out session and token-long cookies', async () => {
    const session = 'abcdef123456';
    const analytics = 'GA1.2.1234567890.1234567890';
    const requestHeaders = {
      ...authorized,
      cookie: `tab=orders; filter=pending; consent=true; area=store; auth=true; sessions=3; sid=${session}; _ga=${analytics}`,
    };
    const file = await har('words.har', [
      {
        url: `${base}/store/orders`,
        status: 200,
        requestHeaders,
        responseHeaders: { ...json, 'set-cookie': 'mode=shipped; Path=/' },
        body: listed,
      },
      { method: 'DELETE', url: `${base}/store/orders/1`, status: 204, requestHeaders },
      {
        method: 'DELETE',
        url: `${base}/store/orders/3`,
        status: 409,
        requestHeaders,
        responseHeaders: json,
        body: JSON.stringify({ code: 'order_already_shipped', message: 'shipped', status: 409 }),
      },
    ]);
    const saved = join(directory, 'saved');
    const { report } = await judgeHar({
      file,
      knownState: fromShipped,
      save: { directory: saved, name: 'words' },
    });
    expect(report.exchanges.map(({ url }) => url)).toEqual([
      `${base}/store/orders`,
      `${base}/store/orders/1`,
      `${base}/store/orders/3`,
    ]);
    expect(report.state).toEqual({ scenario: 'cancel-shipped-order' });
    const text = await readFile(join(saved, 'words.yaml'), 'utf8');
    const [scenario] = await loadScenarios({ directory: saved });
    expect(scenario!.state!.params.orders).toEqual(shippedState);
    expect(scenario!.steps.map(({ request }) => request.path)).toEqual([
      '/store/orders',
      '/store/orders/1',
      '/store/orders/3',
    ]);
    expect(text).toContain('optional: true');
    expect(text).toContain('id: 3,');
    for (const output of [JSON.stringify(report), text]) {
      expect(output).not.toContain(session);
      expect(output).not.toContain(analytics);
    }
  });
});

describe('petstore-verify har: a key given that no call of the HAR holds', () => {
  it("is not the deployment's key (a stale $PETSTORE_API_KEY): each key is taken from its answer, and one line says so", async () => {
    const stagingKey = { authorization: 'Bearer staging-key-4242' };
    const file = await har('staging.har', [
      { url: `${base}/store/orders`, status: 200, requestHeaders: stagingKey, responseHeaders: json, body: listed },
      {
        url: `${base}/store/orders`,
        status: 401,
        requestHeaders: { authorization: 'Bearer staging-key-424' },
        responseHeaders: { ...json, 'www-authenticate': 'Bearer realm="petstore"' },
        body: JSON.stringify({ code: 'invalid_api_key', message: 'x', status: 401 }),
      },
    ]);
    const stale = await judgeHar({ file, apiKey: 'petstore-dev-key' });
    expect(stale.report.keyNotInHar).toBe(true);
    expect([stale.report.contract.disagreements, stale.report.exitCode]).toEqual([0, 0]);
    // The key the calls hold is compared: the truncated key's 401 is what the contract requires.
    const given = await judgeHar({ file, apiKey: 'staging-key-4242' });
    expect(given.report.keyNotInHar).toBe(false);
    expect([given.report.contract.disagreements, given.report.exitCode]).toEqual([0, 0]);
    const run = await runVerifyInProcess(['har', file, '--no-prism'], { PETSTORE_API_KEY: 'petstore-dev-key' });
    expect(run.stdout).toContain(
      'the key given (--api-key or $PETSTORE_API_KEY) is in no call of the HAR, so it is not the key the app used: each key is taken from its answer (401: refused, else accepted)',
    );
    expect(run.code).toBe(0);
  });
});

describe('petstore-verify har --save: the name to replay', () => {
  it('is printed as saved: a second HAR saved under a name taken already is NAME-2, and the line says so', async () => {
    const file = await har('one.har', [
      { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
    ]);
    const saved = join(directory, 'saved');
    const save = () => runVerifyInProcess(['har', file, '--save', saved, '--name', 'same', '--no-prism']);
    expect((await save()).stdout).toContain(
      `saved 1 step in ${join(saved, 'same.yaml')}: replay it with petstore-verify --scenarios ${saved} --scenario same\n`,
    );
    expect((await save()).stdout).toContain(
      `saved 1 step in ${join(saved, 'same-2.yaml')}: replay it with petstore-verify --scenarios ${saved} --scenario same-2\n`,
    );
  });
});

describe('petstore-verify har --save: a scenario it cannot write', () => {
  it("is the tool's failure, exit 2, not the deployment's: an honest HAR is not failed", async () => {
    const honest = {
      url: `${base}/store/orders`,
      status: 200,
      requestHeaders: authorized,
      responseHeaders: json,
      body: listed,
    };
    const file = await har('honest.har', [honest]);
    const saved = join(directory, 'saved');
    // The recorder writes each file to this temporary name first: a folder there makes the write fail.
    await mkdir(join(saved, `.honest.yaml.${process.pid}.tmp`), { recursive: true });
    const { report } = await judgeHar({ file, save: { directory: saved, name: 'honest' } });
    expect([report.verdict, report.exitCode, report.violations]).toEqual(['not-run', 2, 0]);
    expect(report.reason).toBe(
      `the scenario could not be saved: the recording stopped: cannot save the recording ${join(saved, 'honest.yaml')}: ${join(saved, `.honest.yaml.${process.pid}.tmp`)} is a folder, not a file (EISDIR); move it away, or choose another folder`,
    );
  });

  it('a FIFO where the recording is first written is refused at once, exit 2, not waited on', async () => {
    const file = await har('fifo.har', [
      { url: `${base}/store/orders`, status: 200, requestHeaders: authorized, responseHeaders: json, body: listed },
    ]);
    const saved = join(directory, 'saved-fifo');
    await mkdir(saved);
    const temporary = join(saved, `.fifo.yaml.${process.pid}.tmp`);
    execFileSync('mkfifo', [temporary]);
    const { report } = await judgeHar({ file, save: { directory: saved, name: 'fifo' } });
    expect([report.verdict, report.exitCode, report.reason]).toEqual([
      'not-run',
      2,
      `the scenario could not be saved: the recording stopped: cannot save the recording ${join(saved, 'fifo.yaml')}: ${temporary} is a FIFO or a device, not a regular file (ENXIO); move it away, or choose another folder`,
    ]);
  });
});
