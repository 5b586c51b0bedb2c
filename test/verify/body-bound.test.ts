// Issue 59, item 5: one bound for every decoded body. A 2 MB gzip answer that decodes to 2 GiB (a gzip
// bomb) is decoded no further than the kit's bound (32 MiB, within one chunk) and is a coded finding,
// `body-too-large`, in the default run, in the proxy (which goes on serving) and in `har`; an honest
// gzip list of exactly the bound is read whole and passes.
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bodyLimit } from '../../core/body-limit.js';
import { decodeChunk, decodedBytes, decodeMeter } from '../../verify/http/response-text.js';
import { runVerifyInProcess, startProxyInProcess } from '../support/cli-support.js';
import { writeHar } from '../support/har-files.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-body-bound-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});
beforeEach(() => {
  decodeMeter.peak = 0;
});

const slow = { timeout: 60_000 };
const mib = 1024 * 1024;

// 2,048 gzip members of 1 MiB of zeros: 2,152,448 bytes that decode to 2 GiB (gunzip reads every member).
const member = gzipSync(Buffer.alloc(mib));
const bomb = Buffer.concat(Array.from({ length: 2048 }, () => member));

/** A list's JSON padded with spaces (JSON whitespace) before its closing bracket to `size` bytes. */
function padded(json: Buffer, size: number): Buffer<ArrayBuffer> {
  const bytes = Buffer.alloc(size, ' ');
  json.copy(bytes, 0, 0, json.length - 1);
  bytes[size - 1] = 0x5d; // ]
  return bytes;
}

/** That list, gzipped. */
const paddedList = (json: Buffer, size: number) => gzipSync(padded(json, size), { level: constants.Z_BEST_SPEED });

const pastTheBoundLine = `expected a body of at most ${bodyLimit} bytes as sent and decoded (the kit's bound, not the specification's), got a body of more than ${bodyLimit} bytes as sent: reading stopped there, and nothing else of this answer was judged`;

const tooLargeLine = (coding: string, sent: number) =>
  `expected a body of at most ${bodyLimit} bytes as sent and decoded (the kit's bound, not the specification's), got a body whose ${coding} coding decodes past ${bodyLimit} bytes (from ${sent} bytes as sent): reading stopped there, and nothing else of this answer was judged`;

/** The decoder held no more than one chunk past the bound, and did reach it. */
function expectStoppedAtTheBound(): void {
  expect(decodeMeter.peak).toBeGreaterThan(bodyLimit);
  expect(decodeMeter.peak).toBeLessThanOrEqual(bodyLimit + decodeChunk);
}

describe('the decoder stops at the bound', () => {
  it('reads a gzip body of exactly the bound whole', async () => {
    const decoded = await decodedBytes(gzipSync(Buffer.alloc(64 * 1024, 'a')), 'gzip', 64 * 1024);
    expect(decoded.equals(Buffer.alloc(64 * 1024, 'a'))).toBe(true);
  });

  it('refuses one byte past the bound with body_too_large', async () => {
    const sent = gzipSync(Buffer.alloc(64 * 1024 + 1, 'a'));
    await expect(decodedBytes(sent, 'gzip', 64 * 1024)).rejects.toMatchObject({
      code: 'body_too_large',
      message: `a body whose gzip coding decodes past 65536 bytes (from ${sent.length} bytes as sent)`,
    });
  });

  it('refuses a body past the bound as sent before decoding it', async () => {
    await expect(decodedBytes(Buffer.alloc(65 * 1024), undefined, 64 * 1024)).rejects.toMatchObject({
      code: 'body_too_large',
      message: 'a body of more than 65536 bytes as sent',
    });
    expect(decodeMeter.peak).toBe(0);
  });

  it('stops a 2 MB gzip bomb within one chunk of the bound', async () => {
    await expect(decodedBytes(bomb, 'gzip')).rejects.toMatchObject({ code: 'body_too_large' });
    expectStoppedAtTheBound();
  });

  const fast = { level: constants.Z_BEST_SPEED };
  it.each([
    ['deflate', (bytes: Buffer) => deflateSync(bytes, fast)],
    ['br', (bytes: Buffer) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } })],
    ['gzip, gzip', (bytes: Buffer) => gzipSync(gzipSync(bytes, fast))],
  ] as const)('stops a %s bomb within one chunk of the bound', async (coding, encode) => {
    const sent = encode(Buffer.alloc(bodyLimit + mib));
    await expect(decodedBytes(sent, coding)).rejects.toMatchObject({
      code: 'body_too_large',
      message: `a body whose ${coding.split(',')[0]} coding decodes past ${bodyLimit} bytes (from ${sent.length} bytes as sent)`,
    });
    expectStoppedAtTheBound();
  });

  it('refuses more than 4 content codings as undecodable_body', async () => {
    await expect(decodedBytes(Buffer.from('[]'), 'gzip, gzip, gzip, gzip, gzip')).rejects.toMatchObject({
      code: 'undecodable_body',
      message: '5 content codings: the harness undoes at most 4 (gzip, gzip, gzip, gzip, gzip)',
    });
  });
});

const listOnly = ['--suite', 'scenarios', '--scenario', 'list-orders'];

describe('the default run', slow, () => {
  it('reports a gzip bomb as body-too-large, exit 1, having decoded no more than the bound', async () => {
    const provider = await startHostileProvider({ listBody: () => ({ body: bomb, contentEncoding: 'gzip' }) });
    try {
      const exit = await runVerifyInProcess([...provider.args, ...listOnly]);
      expect(exit.stdout).toContain(
        `list-orders › list the orders: ${tooLargeLine('gzip', bomb.length)} [body-too-large]\n`,
      );
      expect(exit.stdout + exit.stderr).not.toMatch(/unexpected failure/);
      expect(exit.code, exit.stdout + exit.stderr).toBe(1);
      expectStoppedAtTheBound();
    } finally {
      await provider.close();
    }
  });

  it('reports a list one byte past the bound as sent as body-too-large, without decoding it', async () => {
    const provider = await startHostileProvider({
      listBody: (json) => ({ body: padded(json, bodyLimit + 1), contentEncoding: 'identity' }),
    });
    try {
      const exit = await runVerifyInProcess([...provider.args, ...listOnly]);
      expect(exit.stdout).toContain(`list-orders › list the orders: ${pastTheBoundLine} [body-too-large]\n`);
      expect(exit.code, exit.stdout + exit.stderr).toBe(1);
      expect(decodeMeter.peak).toBe(0);
    } finally {
      await provider.close();
    }
  });

  it('passes an honest gzip list of exactly the bound', async () => {
    const provider = await startHostileProvider({
      listBody: (json) => ({ body: paddedList(json, bodyLimit), contentEncoding: 'gzip' }),
    });
    try {
      const exit = await runVerifyInProcess([...provider.args, ...listOnly]);
      expect(exit.code, exit.stdout + exit.stderr).toBe(0);
    } finally {
      await provider.close();
    }
  });
});

const authorization = { authorization: `Bearer ${hostileKey}` };

/** A GET's status and how many bytes its body has as sent (node:http does not decode: fetch would, to 2 GiB). */
function bytesOf(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: authorization }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('the proxy', slow, () => {
  it('reports a gzip bomb as body-too-large, forwards it, and serves the next request', async () => {
    const provider = await startHostileProvider({ listBody: () => ({ body: bomb, contentEncoding: 'gzip' }) });
    const proxy = await startProxyInProcess(['--upstream', provider.args[1]!, '--port', '0']);
    try {
      expect(await bytesOf(`${proxy.baseUrl}/store/orders`)).toEqual({ status: 200, bytes: bomb.length });
      const output = await proxy.outputMatching(/✗ GET \/v1\/store\/orders → 200[^\n]*\n {4}[^\n]*\n/);
      expect(output).toContain(`    GET /store/orders → 200: ${tooLargeLine('gzip', bomb.length)} [body-too-large]\n`);
      expectStoppedAtTheBound();
      expect((await fetch(`${proxy.baseUrl}/pets/1`, { headers: authorization })).status).toBe(200);
      expect(await proxy.outputMatching(/[✓✗] GET \/v1\/pets\/1 → 200/)).toMatch(/✓ GET \/v1\/pets\/1 → 200/);
      const exit = await proxy.stop();
      expect(exit.stdout).toContain('2 exchanges, 2 checked, 1 violation');
      expect(exit.code).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('reports a list one byte past the bound as sent as body-too-large, and forwards it whole', async () => {
    const provider = await startHostileProvider({
      listBody: (json) => ({ body: padded(json, bodyLimit + 1), contentEncoding: 'identity' }),
    });
    const proxy = await startProxyInProcess(['--upstream', provider.args[1]!, '--port', '0']);
    try {
      expect(await bytesOf(`${proxy.baseUrl}/store/orders`)).toEqual({ status: 200, bytes: bodyLimit + 1 });
      const output = await proxy.outputMatching(/✗ GET \/v1\/store\/orders → 200[^\n]*\n {4}[^\n]*\n/);
      expect(output).toContain(`    GET /store/orders → 200: ${pastTheBoundLine} [body-too-large]\n`);
      expect((await proxy.stop()).code).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('passes an honest gzip list of exactly the bound', async () => {
    const provider = await startHostileProvider({
      listBody: (json) => ({ body: paddedList(json, bodyLimit), contentEncoding: 'gzip' }),
    });
    const proxy = await startProxyInProcess(['--upstream', provider.args[1]!, '--port', '0']);
    try {
      expect((await bytesOf(`${proxy.baseUrl}/store/orders`)).status).toBe(200);
      expect(await proxy.outputMatching(/[✓✗] GET \/v1\/store\/orders → 200/)).toMatch(
        /✓ GET \/v1\/store\/orders → 200/,
      );
      expect((await proxy.stop()).code).toBe(0);
    } finally {
      await provider.close();
    }
  });
});

/** A HAR of one list whose body a proxy kept as sent: base64, in its Content-Encoding. */
function harOfList(name: string, sent: Buffer, size: number): Promise<string> {
  return writeHar(
    join(directory, `${name}.har`),
    [
      {
        url: 'https://staging.example.com/v1/store/orders',
        status: 200,
        requestHeaders: authorization,
        responseHeaders: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        content: { text: sent.toString('base64'), encoding: 'base64', size },
      },
    ],
    { browser: 'chrome' },
  );
}

describe('har', slow, () => {
  it('reports a gzip bomb as body-too-large, exit 1, having decoded no more than the bound', async () => {
    const exit = await runVerifyInProcess(['har', await harOfList('bomb', bomb, 2 ** 31)]);
    expect(exit.stdout).toContain(`    ${tooLargeLine('gzip', bomb.length)} [body-too-large]\n`);
    expect(exit.stdout + exit.stderr).not.toMatch(/unexpected failure/);
    expect(exit.code, exit.stdout + exit.stderr).toBe(1);
    expectStoppedAtTheBound();
  });

  it('passes an honest gzip list of exactly the bound', async () => {
    const sent = paddedList(Buffer.from('[{"id":1,"petId":101,"quantity":1,"complete":false}]'), bodyLimit);
    const exit = await runVerifyInProcess(['har', await harOfList('honest', sent, bodyLimit)]);
    expect(exit.code, exit.stdout + exit.stderr).toBe(0);
  });
});
