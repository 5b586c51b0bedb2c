// No report, log line or file of petstore-verify or its proxy carries a secret it was given: one
// redaction, proved by runs with credentials in every place a user can put them.
// The commands run as processes: what a process prints is redacted on its own stdout and stderr
// (cli/petstore-verify.ts), which a run in this process would not go through.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redaction, secretsOfFields, secretsOfTrafficUrl } from '../../verify/base/redaction.js';
import { json, startBrokenProvider } from '../support/broken-provider.js';
import { runToExit, startCommand, verifyCliPath as verifyCli } from '../support/cli-support.js';

const key = 's3cret-key-abc';
const secrets = [key, 'basepass1', 'statepass2', 'statetoken3', 'upstreampass4', 'querytoken5', 'ci-user:'];

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-redaction-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

// A provider whose list answers, to an accepted key, the request's own Authorization header as its body: not JSON, so the finding quotes it.
const echoingProvider = () =>
  startBrokenProvider(
    async (request, response) =>
      new URL(request.url).pathname === '/v1/store/orders' && response.status === 200
        ? json(request.headers.get('authorization') ?? '', 200)
        : response,
    { apiKeys: [key] },
  );

function expectNoSecret(text: string): void {
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('Redaction', () => {
  it('takes out each secret, within a word and percent-encoded', () => {
    const redaction = new Redaction({ secrets: ['s3cret/key'] });
    expect(redaction.text('Bearer xs3cret/keyx and s3cret%2Fkey')).toBe('Bearer x[redacted]x and [redacted]');
  });

  it('takes out the beginning of a secret a cut left before a quote or an ellipsis, inside its word', () => {
    const redaction = new Redaction({ secrets: ['hostile-provider-key'] });
    expect(redaction.text('got "Bearer hostile-prov"')).toBe('got "Bearer [redacted]"');
    expect(redaction.text('got Bearer hostile-provid…')).toBe('got Bearer [redacted]…');
  });

  it("leaves a word of the message that the secret's first word happens to spell, before a quote", () => {
    const redaction = new Redaction({ secrets: ['hostile-provider-key', 'petstore-dev-key'] });
    expect(redaction.text('got "Basic realm=\\"hostile\\"" and realm="petstore"')).toBe(
      'got "Basic realm=\\"hostile\\"" and realm="petstore"',
    );
  });

  it("takes out any URL's user information, and a given URL's password and query values", () => {
    const redaction = new Redaction({ urls: ['https://ci:pa55word@example.com/state?token=t0ken-value&v=1'] });
    expect(
      redaction.text(
        'POST https://ci:pa55word@example.com/state?token=t0ken-value&v=1 and http://other:x@host/, pa55word',
      ),
    ).toBe('POST https://example.com/state?token=[redacted]&v=1 and http://host/, [redacted]');
  });

  it('leaves secrets shorter than four characters alone: they could be any word', () => {
    expect(new Redaction({ secrets: ['abc'] }).text('abc')).toBe('abc');
  });

  it('redacts every string of a value, and keeps its numbers, bigints and booleans', () => {
    const redaction = new Redaction({ secrets: ['s3cret-key'] });
    expect(redaction.value({ a: ['s3cret-key', 9007199254740993n], b: { c: true, d: 2 } })).toEqual({
      a: ['[redacted]', 9007199254740993n],
      b: { c: true, d: 2 },
    });
  });
});

describe('the credentials of traffic (a HAR file)', () => {
  it("takes an Authorization value and its token, each credential cookie's value (not plain ones: theme=dark), and fields named as keys, tokens or sessions", () => {
    expect(
      secretsOfFields([
        { name: 'Authorization', value: 'Bearer abc123' },
        { name: 'cookie', value: 'sid=s3cr3t; theme=dark' },
        { name: 'set-cookie', value: 'sid=n3w-s3ss10n; Path=/; HttpOnly\nlang=en; Path=/' },
        { name: 'X-API-Key', value: 'k3y-value' },
        { name: 'X-Session-Id', value: 'sess-42' },
        { name: 'X-Session-Count', value: '1001' },
        { name: 'X-Token-Valid', value: 'true' },
        { name: 'content-type', value: 'application/json' },
        { name: 'accept', value: '*/*' },
      ]),
    ).toEqual([
      'Bearer abc123',
      'abc123',
      'sid=s3cr3t; theme=dark',
      's3cr3t',
      'sid=n3w-s3ss10n; Path=/; HttpOnly\nlang=en; Path=/',
      'n3w-s3ss10n',
      'k3y-value',
      'sess-42',
    ]);
  });

  it('reads a text once with thousands of distinct secrets, and takes out every occurrence and every overlapping one whole', () => {
    const tokens = Array.from({ length: 5000 }, (_, index) => `csrf-${index.toString(36).padStart(6, '0')}`);
    const redaction = new Redaction({ secrets: [...tokens, 'abcdefgh', 'xabc', 'p@ss word'] });
    const lines = tokens.map((token, index) => `#${index} DELETE /v1/store/orders/${index} → 404 (sent ${token})`);
    const redacted = redaction.text(lines.join('\n'));
    expect(redacted.split('\n')).toEqual(
      tokens.map((_, index) => `#${index} DELETE /v1/store/orders/${index} → 404 (sent [redacted])`),
    );
    // Overlapping secrets leave no part of either; the percent-encoded spelling is a secret too.
    expect(redaction.text('1 xabcdefgh 2 p%40ss%20word 3 abcd')).toBe('1 [redacted] 2 [redacted] 3 abcd');
    expect(redaction.text('https://user:pw@host/csrf-000001')).toBe('https://host/[redacted]');
  });

  it("takes a URL's user, password, credential-named or token-long query values and segment parameters, not its plain words", () => {
    expect(
      secretsOfTrafficUrl(
        'https://u5er:p%40ss@host/v1/store/orders;jsessionid=J5E55;x=1?access_token=t0k&page=2&next=orders&v=0123456789abcdef01',
      ),
    ).toEqual(['u5er', 'u5er', 'p%40ss', 'p@ss', 't0k', '0123456789abcdef01', 'J5E55']);
    expect(secretsOfTrafficUrl('https://host/v1/store/orders?page=2&next=orders')).toEqual([]);
    expect(secretsOfTrafficUrl('/relative?token=x')).toEqual([]);
  });
});

describe('petstore-verify with credentials everywhere', () => {
  it('prints and writes no key, password, token or user information, and still shows what the provider echoed', async () => {
    const provider = await echoingProvider();
    const { port } = new URL(provider.origin);
    const files = {
      json: join(directory, 'report.json'),
      junit: join(directory, 'report.xml'),
      html: join(directory, 'report.html'),
      baseline: join(directory, 'baseline.json'),
      summary: join(directory, 'summary.md'),
    };
    try {
      const exit = await runToExit(
        process.execPath,
        [
          verifyCli,
          '--base-url',
          `http://ci-user:basepass1@127.0.0.1:${port}/v1`,
          `--state-url=http://ci-user:statepass2@127.0.0.1:${port}/__mock/provider-state?token=statetoken3`,
          '--runs',
          '2',
          '--no-prism',
          '--json',
          files.json,
          '--junit',
          files.junit,
          '--html',
          files.html,
          '--write-baseline',
          files.baseline,
        ],
        { env: { PETSTORE_API_KEY: key, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: files.summary } },
      );
      expect(exit.code).toBe(1);
      // The provider's echo reached the report, with the key taken out.
      expect(exit.stdout).toContain('got "Bearer [redacted]"');
      expect(exit.stdout).toContain(`http://127.0.0.1:${port}/v1`);
      expectNoSecret(exit.stdout + exit.stderr);
      for (const file of Object.values(files)) expectNoSecret(await readFile(file, 'utf8'));
      expect(await readFile(files.json, 'utf8')).toContain('Bearer [redacted]');
    } finally {
      await provider.close();
    }
  });

  it("says why a state URL refused a setup without the URL's credentials", async () => {
    const provider = await echoingProvider();
    const { port } = new URL(provider.origin);
    try {
      const exit = await runToExit(
        process.execPath,
        [
          verifyCli,
          '--base-url',
          `${provider.origin}/v1`,
          '--api-key',
          key,
          '--state-url',
          `http://ci-user:statepass2@127.0.0.1:${port}/__mock/nowhere?token=statetoken3`,
          '--no-prism',
        ],
        {},
      );
      expect(exit.code).toBe(2);
      expect(exit.stderr).toContain(`POST http://127.0.0.1:${port}/__mock/nowhere?token=[redacted] answered 404`);
      expectNoSecret(exit.stdout + exit.stderr);
    } finally {
      await provider.close();
    }
  });
});

describe('petstore-verify proxy with credentials everywhere', () => {
  it('prints, serves and writes no key, password, token or user information', async () => {
    const provider = await echoingProvider();
    const { port } = new URL(provider.origin);
    const jsonFile = join(directory, 'proxy.json');
    const proxy = await startCommand(process.execPath, [
      verifyCli,
      'proxy',
      '--upstream',
      `http://ci-user:upstreampass4@127.0.0.1:${port}/v1`,
      '--port',
      '0',
      '--no-prism',
      '--api-key',
      key,
      '--json',
      jsonFile,
    ]);
    let served = '';
    try {
      const listed = await fetch(`${proxy.baseUrl}/store/orders?access_token=querytoken5`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(await listed.text()).toBe(`Bearer ${key}`);
      await proxy.outputMatching('GET /v1/store/orders?…');
      served = await (await fetch(`${proxy.origin}/__verify/report`)).text();
    } finally {
      const exit = await proxy.stop('SIGINT');
      await provider.close();
      expect(exit.code).toBe(1);
      expect(exit.stdout).toContain('"Bearer [redacted]"');
      expectNoSecret(exit.stdout + exit.stderr);
    }
    expect(served).toContain(`"upstream":"http://127.0.0.1:${port}/v1"`);
    expect(served).toContain('Bearer [redacted]');
    expectNoSecret(served);
    expectNoSecret(await readFile(jsonFile, 'utf8'));
  });
});
