// The peak resident memory of `petstore-verify` (the default run, the proxy, `har`) given one 2.1 MB
// gzip answer that decodes to 2 GiB (issue 59, item 5), with the kit's bound on decoded bodies; with
// `--before DIR`, the same of an older build's dist/bin/petstore-verify.js (one that decodes without
// a bound), for comparison. `node bench/decoded-bodies.mjs [--before DIR]` (needs `npm run build`);
// prints a Markdown table for bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './support.mjs';

const member = gzipSync(Buffer.alloc(1024 * 1024));
const bomb = Buffer.concat(Array.from({ length: 2048 }, () => member));
const apiKey = 'bench-key';

// A provider that answers every list with the bomb, and everything else 404 with an Error record.
const provider = createServer((request, response) => {
  request.resume();
  if (request.url === '/v1/store/orders') {
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': bomb.length,
    });
    response.end(bomb);
  } else {
    const body = JSON.stringify({ code: 'not_found', message: 'No such path.', status: 404 });
    response.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  }
});
await new Promise((resolve) => provider.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${provider.address().port}/v1`;

/** Runs the command with the max-RSS preload: its exit code, output and peak RSS in MiB. */
function run(cli, args, { onOutput } = {}) {
  const child = spawn(process.execPath, ['-r', join(root, 'bench/max-rss.cjs'), cli, ...args], {
    env: { ...process.env, PETSTORE_API_KEY: apiKey },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    onOutput?.(stdout, child);
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const peaks = [...stderr.matchAll(/max-rss-kib (\d+)/g)].map((match) => Number(match[1]));
      resolve({ code: code ?? signal, stdout, stderr, rssMiB: Math.max(0, ...peaks) / 1024 });
    }),
  );
}

/** A GET's body bytes as sent (node:http does not decode). */
const bytesOf = (url) =>
  new Promise((resolve, reject) =>
    get(url, { headers: { authorization: `Bearer ${apiKey}` } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve(bytes));
    }).on('error', reject),
  );

const directory = await mkdtemp(join(tmpdir(), 'petstore-bench-bodies-'));
const har = join(directory, 'bomb.har');
await writeFile(
  har,
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'bench', version: '1' },
      entries: [
        {
          startedDateTime: '2026-11-29T05:00:00.000Z',
          time: 20,
          request: {
            method: 'GET',
            url: `${baseUrl}/store/orders`,
            httpVersion: 'HTTP/1.1',
            headers: [],
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            headers: [
              { name: 'content-type', value: 'application/json' },
              { name: 'content-encoding', value: 'gzip' },
            ],
            cookies: [],
            content: { size: 2 ** 31, mimeType: 'application/json', text: bomb.toString('base64'), encoding: 'base64' },
            redirectURL: '',
            headersSize: -1,
            bodySize: bomb.length,
          },
          cache: {},
          timings: { send: 0, wait: 18, receive: 2 },
        },
      ],
    },
  }),
);

/** Each command given the bomb, by one build: exit code, the line that names it, peak RSS. */
async function measure(cli) {
  const rows = [];
  const harness = await run(cli, [
    '--base-url',
    baseUrl,
    '--api-key',
    apiKey,
    '--suite',
    'scenarios',
    '--scenario',
    'list-shape',
    '--no-prism',
  ]);
  rows.push(['default run (`--scenario list-shape`)', harness]);
  rows.push(['`har` (a 2.9 MB HAR holding it)', await run(cli, ['har', har, '--no-prism'])]);
  let sent = false;
  const proxy = await run(cli, ['proxy', '--upstream', baseUrl, '--port', '0', '--no-prism'], {
    onOutput: (stdout, child) => {
      const listening = /listening on (http:\/\/\S+?)\/v1/.exec(stdout);
      if (listening !== null && !sent) {
        sent = true;
        void bytesOf(`${listening[1]}/v1/store/orders`);
      }
      if (/GET \/store\/orders → 200: /.test(stdout) || /unexpected failure/.test(stdout)) child.kill('SIGINT');
    },
  });
  rows.push(['the proxy (one exchange, then SIGINT)', proxy]);
  return rows;
}

const before = process.argv.indexOf('--before');
const builds = [['this build', join(root, 'dist/bin/petstore-verify.js')]];
if (before !== -1)
  builds.unshift(['before (unbounded)', join(process.argv[before + 1], 'dist/bin/petstore-verify.js')]);
console.log(
  `Measured ${new Date().toISOString()} by \`node bench/decoded-bodies.mjs\` (Node ${process.version}); the answer: ${bomb.length} bytes of gzip, 2 GiB decoded.\n`,
);
console.log('| build | command | exit | peak RSS | the bound named | last line |\n|---|---|---|---|---|---|');
for (const [name, cli] of builds)
  for (const [command, result] of await measure(cli)) {
    const named = result.stdout.includes("(the kit's bound, not the specification's)") ? 'yes' : 'no';
    const last = `${result.stdout}${result.stderr.replace(/max-rss-kib \d+\n/g, '')}`.trim().split('\n').at(-1) ?? '';
    console.log(
      `| ${name} | ${command} | ${result.code} | ${result.rssMiB.toFixed(0)} MiB | ${named} | ${last.slice(0, 100)} |`,
    );
  }
await rm(directory, { recursive: true, force: true });
provider.close();
