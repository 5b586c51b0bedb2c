// petstore-verify har given hostile HAR files (issue 58): a method, an `_error` or a body that would write
// workflow commands, terminal escapes, a line rewritten by CR or reordered by a bidi override into a CI
// log, and a token quoted where a message cuts it; none crashes the command, shows a control character
// raw, starts a line with `::`, or leaves a secret's first characters in any output. And the HAR's own
// evidence: sizes it declares against the bytes it kept, one token under two spellings of the scheme.
// The same rule for an upstream's answer quoted by a run: console, --json, --junit, GitHub annotations.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { printable } from '../../core/printable.js';
import { loadScenarios } from '../../core/scenario-files.js';
import { printableJson } from '../../core/printable-json.js';
import { escapeMarkup } from '../../verify/report/escape-markup.js';
import { Redaction } from '../../verify/base/redaction.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec } from '../support/har-files.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-hostile-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = 'https://staging.example.com/v1';
const json = { 'content-type': 'application/json' };
const listed = '[{"id":1,"petId":101,"quantity":1},{"id":3,"petId":103,"quantity":1}]';
// 60 characters, none of them a word of any line the kit writes.
const token = 'Zq7vK2mW9xR4tY8pL3nB6cF1hJ5dS0gA2eU7iO4kM9wQ3rT8yV1zX6bN5cD0';
const bearer = { authorization: `Bearer ${token}` };

// A character that acts in a terminal or a CI log rather than shows: C0 but the kit's own line feeds,
// DEL, C1, the line and paragraph separators, and the bidirectional controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this test looks for, on purpose
const acting = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

interface Outputs {
  code: number;
  texts: { name: string; text: string }[];
}

/** The HAR judged through the command, with --json and --save: every output it wrote, by name. */
async function judgeHostile(exchanges: readonly HarExchangeSpec[], edit?: (har: HarFile) => void): Promise<Outputs> {
  const file = join(directory, 'hostile.har');
  await writeHar(file, exchanges, { browser: 'chrome' });
  if (edit !== undefined) {
    const har = JSON.parse(await readFile(file, 'utf8')) as HarFile;
    edit(har);
    await import('node:fs/promises').then(({ writeFile }) => writeFile(file, JSON.stringify(har)));
  }
  const report = join(directory, 'report.json');
  const saved = join(directory, 'saved');
  const run = await runVerifyInProcess(['har', file, '--no-prism', '--json', report, '--save', saved]);
  const savedFiles = await readdir(saved).catch(() => [] as string[]);
  return {
    code: run.code ?? -1,
    texts: [
      { name: 'stdout', text: run.stdout },
      { name: 'stderr', text: run.stderr },
      { name: '--json', text: await readFile(report, 'utf8').catch(() => '') },
      ...(await Promise.all(
        savedFiles.map(async (name) => ({ name, text: await readFile(join(saved, name), 'utf8') })),
      )),
    ],
  };
}

interface HarFile {
  log: { entries: { request: { method: string }; response: Record<string, unknown> }[] };
}

/** The outputs' texts that break a rule, by output: none is the answer. */
const offending = (outputs: Outputs, rule: (text: string) => boolean) =>
  outputs.texts.filter(({ text }) => rule(text)).map(({ name }) => name);
const rawControl = (text: string) => acting.test(text);
const workflowCommand = (text: string) => text.split('\n').some((line) => /^\s*(::|##\[)/.test(line));
const tokenPrefix = (text: string) => text.includes(token.slice(0, 8));

describe('petstore-verify har: a hostile method or _error writes nothing into a CI log', () => {
  const commands: HarExchangeSpec[] = [
    // A method that would end the line and start workflow commands of its own.
    { method: 'GET\n::add-mask::secret\n::error::forged', url: `${base}/store/orders`, status: 200 },
    { method: '::error title=x::forged', url: `${base}/store/orders/1`, status: 204 },
  ];
  const aborted = (error: string) => (har: HarFile) => {
    har.log.entries.push({
      ...har.log.entries[0]!,
      request: { ...har.log.entries[0]!.request, method: 'DELETE' },
      response: { status: 0, statusText: '', headers: [], content: { size: 0 }, _error: error },
    });
  };

  it('prints no line that starts a workflow command, from a method or an _error', async () => {
    const outputs = await judgeHostile(commands, aborted('net::ERR_ABORTED\n::error::forged by the HAR'));
    expect(offending(outputs, workflowCommand)).toEqual([]);
  });

  it('shows the line feeds of a method and an _error escaped, on the entry line', async () => {
    const outputs = await judgeHostile(commands, aborted('net::ERR_ABORTED\n::error::forged by the HAR'));
    expect(outputs.texts[0]!.text).toContain(
      `- #1 GET\\u{a}::ADD-MASK::SECRET\\u{a}::ERROR::FORGED ${base}/store/orders → 200 (not judged: no operation of the specification (this method at this path))`,
    );
    expect(outputs.texts[0]!.text).toContain(
      `- #3 DELETE ${base}/store/orders → 0 (not judged: no answer came (aborted: net::ERR_ABORTED\\u{a}::error::forged by the HAR))`,
    );
  });

  it('writes no terminal escape, carriage return or bidi override raw in any output', async () => {
    const outputs = await judgeHostile(
      [{ method: 'GET\u202e', url: `${base}/store/orders`, status: 200, body: listed, responseHeaders: json }],
      aborted('\u001b[2J\u001b[Hnet::ERR_ABORTED\r✓ verdict: passed\u009b31m\u2066'),
    );
    expect(offending(outputs, rawControl)).toEqual([]);
  });

  it('shows the escape, the carriage return and the override by their code points', async () => {
    const outputs = await judgeHostile(
      [{ method: 'GET\u202e', url: `${base}/store/orders`, status: 200, body: listed, responseHeaders: json }],
      aborted('\u001b[2Jnet::ERR_ABORTED\r✓ verdict: passed'),
    );
    expect(outputs.texts[0]!.text).toContain(
      `no answer came (aborted: \\u{1b}[2Jnet::ERR_ABORTED\\u{d}✓ verdict: passed)`,
    );
    expect(outputs.texts[0]!.text).toContain(`- #1 GET\\u{202e} ${base}/store/orders → 200`);
  });

  it('keeps the control characters as data in the --json report, escaped as JSON escapes', async () => {
    const outputs = await judgeHostile(
      [{ method: 'GET\u202e', url: `${base}/store/orders`, status: 200, body: listed, responseHeaders: json }],
      aborted('\u001b[2J\u009b'),
    );
    const report = JSON.parse(outputs.texts[2]!.text) as { exchanges: { method: string; unjudged?: string }[] };
    expect(report.exchanges.map(({ method, unjudged }) => [method, unjudged])).toEqual([
      ['GET\u202e', 'no operation of the specification (this method at this path)'],
      ['DELETE', 'no answer came (aborted: \u001b[2J\u009b)'],
    ]);
  });
});

describe('petstore-verify har: a hostile body quoted in the saved scenario', () => {
  const hostileList: HarExchangeSpec[] = [
    {
      url: `${base}/store/orders`,
      status: 200,
      requestHeaders: bearer,
      responseHeaders: json,
      body: JSON.stringify([{ id: 1, petId: '\u001b[2J\u009b31m\u202e\n::error::forged', quantity: 1 }]),
    },
  ];

  it('writes the finding that quotes it with no raw control character in any output, the saved file included', async () => {
    const outputs = await judgeHostile(hostileList);
    expect(outputs.texts.map(({ name }) => name)).toContain('recording-2026-11-27-100000.yaml');
    expect(offending(outputs, rawControl)).toEqual([]);
  });

  it('saves a scenario that loads, with the quoted text as it came (YAML escapes, the same value)', async () => {
    await judgeHostile(hostileList);
    const [scenario] = await loadScenarios({ directory: join(directory, 'saved') });
    expect(JSON.stringify(scenario)).toContain(
      JSON.stringify('"\\u001b[2J\u009b31m\u202e\\n::error::forged"').slice(1, -1),
    );
  });
});

describe('petstore-verify har: a token quoted where a message cuts it', () => {
  // Each place a text of the HAR is cut short: a body that is not JSON (40 characters), a body value
  // (60), Playwright's _failureText (80) and Chrome's Non-Authoritative-Reason (40).
  const quoting: HarExchangeSpec[] = [
    { url: `${base}/store/orders`, status: 200, requestHeaders: bearer, responseHeaders: json, body: `token=${token}` },
    {
      method: 'DELETE',
      url: `${base}/store/orders/9`,
      status: 404,
      requestHeaders: bearer,
      responseHeaders: json,
      body: JSON.stringify({ code: 'not_found', message: 'no order', status: token }),
    },
    {
      method: 'DELETE',
      url: `${base}/store/orders/8`,
      status: 307,
      requestHeaders: bearer,
      responseHeaders: { 'non-authoritative-reason': `HSTS ${token}`, location: `${base}/store/orders/8` },
    },
  ];
  const failed = (har: HarFile) => {
    har.log.entries.push({
      ...har.log.entries[0]!,
      response: { status: -1, headers: [], content: { size: -1 }, _failureText: `${'x'.repeat(50)} ${token}` },
    });
  };

  it('leaves no prefix of the token in any output, the saved scenario included', async () => {
    const outputs = await judgeHostile(quoting, failed);
    expect(outputs.texts.map(({ name }) => name)).toContain('stdout');
    expect(offending(outputs, tokenPrefix)).toEqual([]);
  });

  it('judges the cut bodies all the same: a body that is not JSON and a status that is no integer', async () => {
    const outputs = await judgeHostile(quoting, failed);
    expect(outputs.code).toBe(1);
    expect(outputs.texts[0]!.text).toContain('    expected a JSON body, got "token=[redacted]" [body-json]\n');
    expect(outputs.texts[0]!.text).toContain('expected integer, got "[redacted]... (at /status)');
  });

  it('takes out the beginning of a secret that a cut left before a quote or an ellipsis, and only there', () => {
    const redaction = new Redaction({ secrets: [token, `Bearer ${token}`] });
    expect(redaction.text(`"token=${token.slice(0, 33)}"`)).toBe('"token=[redacted]"');
    expect(redaction.text(`"${token.slice(0, 56)}...`)).toBe('"[redacted]...');
    expect(redaction.text(`${token.slice(0, 20)}… and ${token}`)).toBe('[redacted]… and [redacted]');
    expect(redaction.text(`actual: "\\"${token.slice(0, 33)}\\""`)).toBe('actual: "\\"[redacted]\\""');
    expect(redaction.text(`scheme "Bearer" or ${token.slice(0, 4)} alone`)).toBe(
      `scheme "Bearer" or ${token.slice(0, 4)} alone`,
    );
  });
});

describe('printable and printableJson: one rule for every text from outside', () => {
  it('escapes C0, DEL, C1, line separators and bidi controls by code point', () => {
    expect(printable('a\u0000b\tc\u001b[2Jd\re\u007ff\u009bg\u2028h\u202ei\u2066j')).toBe(
      'a\\u{0}b\\u{9}c\\u{1b}[2Jd\\u{d}e\\u{7f}f\\u{9b}g\\u{2028}h\\u{202e}i\\u{2066}j',
    );
  });

  it('makes a text that would start a workflow command start otherwise, and leaves `::` elsewhere', () => {
    expect([printable('::error::x'), printable('  ##[error]x'), printable('[::1]:80 a::b')]).toEqual([
      '\\u{3a}:error::x',
      '  \\u{23}#[error]x',
      '[::1]:80 a::b',
    ]);
  });

  it('keeps the line feeds of a multi-line text when asked, and holds each line to the workflow-command rule', () => {
    expect(printable('one\n::error::two\r\n##[group]three', { keepLineFeeds: true })).toBe(
      'one\n\\u{3a}:error::two\\u{d}\n\\u{23}#[group]three',
    );
  });

  it('gives JUnit and HTML no control character but their line feeds: XML 1.0 allows no ESC', () => {
    expect(escapeMarkup('a < "b"\u001b[2J\nc\u202e')).toBe('a &#60; &#34;b&#34;\\u{1b}[2J\nc\\u{202e}');
  });

  it('writes what JSON.stringify leaves raw as JSON escapes: the same value read back', () => {
    const value = { text: 'a\u007f\u0085\u2029\u202d\u001b' };
    const text = printableJson(JSON.stringify(value));
    expect(text).toBe('{"text":"a\\u007f\\u0085\\u2029\\u202d\\u001b"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('petstore-verify har: the sizes a HAR declares against the bytes it kept', () => {
  // 109 bytes kept; the deployment's Content-Length counted a byte order mark the browser stripped.
  const errorBody = JSON.stringify({ code: 'not_found', message: 'Order 9 was not found in the store.', status: 404 });
  const cancelUnknown = (
    responseHeaders: Record<string, string>,
    content?: Record<string, unknown>,
  ): HarExchangeSpec => ({
    method: 'DELETE',
    url: `${base}/store/orders/9`,
    status: 404,
    requestHeaders: bearer,
    responseHeaders: { ...json, ...responseHeaders },
    body: errorBody,
    ...(content !== undefined && { content }),
  });
  const length = Buffer.byteLength(errorBody);

  it('finds the byte order mark a browser stripped from its Content-Length, 3 bytes more than the HAR kept', async () => {
    const outputs = await judgeHostile([cancelUnknown({ 'content-length': String(length + 3) })]);
    expect(outputs.texts[0]!.text).toContain(
      `    expected a JSON text without a byte order mark (RFC 8259 §8.1), got one before the JSON: its Content-Length declares ${length + 3} bytes, 3 more than the ${length} the HAR kept, the byte order mark a browser strips`,
    );
    expect(outputs.code).toBe(1);
  });

  it('passes an honest answer whose Content-Length and content.size are the bytes kept', async () => {
    const outputs = await judgeHostile([cancelUnknown({ 'content-length': String(length) })]);
    expect(outputs.texts[0]!.text).toContain(`· #1 DELETE ${base}/store/orders/9 → 404\n`);
    expect(outputs.code).toBe(0);
  });

  it('passes a gzip answer whose Content-Length counts the compressed bytes and whose text the browser kept decoded', async () => {
    const compressed = gzipSync(errorBody).length;
    const outputs = await judgeHostile([
      cancelUnknown({ 'content-encoding': 'gzip', 'content-length': String(compressed) }),
    ]);
    expect(outputs.code).toBe(0);
  });

  it('judges a body the HAR kept less of than its Content-Length on its status and headers only, blaming the body on no one', async () => {
    const outputs = await judgeHostile([cancelUnknown({ 'content-length': String(length + 40) })]);
    expect(outputs.texts[0]!.text).toContain(
      `· #1 DELETE ${base}/store/orders/9 → 404 (judged on its status and headers only: the HAR kept less than the answer had (its Content-Length declares ${length + 40} bytes, the HAR holds ${length}))\n`,
    );
    expect(outputs.code).toBe(0);
  });

  it('finds the stripped mark from content.size alone, when no Content-Length was sent', async () => {
    const outputs = await judgeHostile([cancelUnknown({}, { size: length + 3 })]);
    expect(outputs.texts[0]!.text).toContain(
      `got one before the JSON: its content.size declares ${length + 3} bytes, 3 more than the ${length} the HAR kept`,
    );
    expect(outputs.code).toBe(1);
  });

  it('judges a body longer than its Content-Length on its status and headers only: not the bytes the deployment sent', async () => {
    const outputs = await judgeHostile([cancelUnknown({ 'content-length': String(length - 5) })]);
    expect(outputs.texts[0]!.text).toContain(
      `· #1 DELETE ${base}/store/orders/9 → 404 (judged on its status and headers only: the HAR holds more than the answer's Content-Length declared (${length} bytes for ${length - 5}): not the bytes the deployment sent)\n`,
    );
    expect(outputs.code).toBe(0);
  });
});

describe('petstore-verify har: one token under two spellings of the Bearer scheme', () => {
  const list = (authorization: string): HarExchangeSpec => ({
    url: `${base}/store/orders`,
    status: 200,
    requestHeaders: { authorization },
    responseHeaders: json,
    body: listed,
  });
  const refused = (authorization: string): HarExchangeSpec => ({
    url: `${base}/store/orders`,
    status: 401,
    requestHeaders: { authorization },
    responseHeaders: { ...json, 'www-authenticate': 'Bearer realm="petstore"' },
    body: JSON.stringify({ code: 'invalid_api_key', message: 'Invalid API key.', status: 401 }),
  });

  it('holds a refusal of the token as `bearer` against the deployment when the HAR shows it accepted as `Bearer`', async () => {
    const outputs = await judgeHostile([list(`Bearer ${token}`), refused(`bearer ${token}`)]);
    const stdout = outputs.texts[0]!.text;
    expect(stdout).toContain(
      'the key of entry #1, the only one accepted, was refused in entry #2 under another spelling of the Bearer scheme, which is case-insensitive (RFC 9110 §11.1): each key is compared with it',
    );
    expect(stdout).toContain(
      "✗ contract: 2. list the orders with the scheme in lower case: the contract requires status 200, the HAR's answer was 401 [status-unexpected]",
    );
    expect(outputs.code).toBe(1);
  });

  it('passes one consistent scheme: the key accepted as `Bearer`, another token refused', async () => {
    const outputs = await judgeHostile([list(`Bearer ${token}`), refused(`Bearer ${token.slice(1)}x`)]);
    expect(outputs.texts[0]!.text).not.toContain('another spelling of the Bearer scheme');
    expect(outputs.code).toBe(0);
  });

  it('passes the token accepted under both spellings', async () => {
    const outputs = await judgeHostile([list(`Bearer ${token}`), list(`bearer ${token}`)]);
    expect(outputs.code).toBe(0);
  });
});

describe("petstore-verify: an upstream's answer quoted in every report of a run", () => {
  /** A run (the preflight) against a provider whose list holds a hostile `petId`: stdout, stderr, --json, --junit. */
  async function runAgainstHostileList(): Promise<Outputs> {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify([{ id: 1, petId: '\u001b[2J\u009b31m\u202e\n::error::forged', quantity: 1 }]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const json = join(directory, 'run.json');
    const junit = join(directory, 'run.xml');
    try {
      const run = await runVerifyInProcess(
        [
          ...['--base-url', `http://127.0.0.1:${port}/v1`, '--suite', 'scenarios', '--scenario', 'list-orders'],
          ...['--no-prism', '--json', json, '--junit', junit],
        ],
        { PETSTORE_API_KEY: 'k3y-of-the-test', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' },
      );
      return {
        code: run.code ?? -1,
        texts: [
          { name: 'stdout', text: run.stdout },
          { name: 'stderr', text: run.stderr },
          { name: '--json', text: await readFile(json, 'utf8') },
          { name: '--junit', text: await readFile(junit, 'utf8') },
        ],
      };
    } finally {
      server.close();
    }
  }

  it('writes no raw control character or bidi override in the console, --json or --junit', async () => {
    const outputs = await runAgainstHostileList();
    expect(outputs.code).toBe(1);
    expect(offending(outputs, rawControl)).toEqual([]);
  });

  it("prints one workflow command, the kit's own annotation, with the upstream's text escaped in it", async () => {
    const outputs = await runAgainstHostileList();
    const commands = outputs.texts[0]!.text.split('\n').filter((line) => /^\s*(::|##\[)/.test(line));
    expect(commands).toEqual([
      '::error title=body-schema listOrders::preflight › list the orders with the key: expected integer, got "\\u001b[2J\\u{9b}31m\\u{202e}\\n::error::forged" (at /0/petId)',
    ]);
  });
});
