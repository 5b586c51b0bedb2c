#!/usr/bin/env node
// Builds vendor/msw-data/index.js: @msw/data, at the version package.json pins, with
// vendor/msw-data/lazy-records.patch applied to its TypeScript source, bundled with its dependencies
// into one ES module (for Node and for browsers). Why: vendor/msw-data/README.md.
//
//   node scripts/vendor-msw-data.mjs          writes vendor/msw-data/index.js
//   node scripts/vendor-msw-data.mjs --check  exits 1 when the committed file is not what it would write
//   node scripts/vendor-msw-data.mjs --test   runs @msw/data's own test suite against the patched
//                                             source (installs zod and vitest in a temporary folder)
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const vendor = join(root, 'vendor/msw-data');
const installed = join(root, 'node_modules/@msw/data');
const pinned = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).devDependencies['@msw/data'];
const { version } = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
if (version !== pinned)
  throw new Error(`node_modules holds @msw/data ${version}, package.json pins ${pinned}: run npm ci`);

const work = await mkdtemp(join(tmpdir(), 'msw-data-'));
try {
  for (const part of ['package.json', 'src', 'tests', 'LICENSE.md'])
    await cp(join(installed, part), join(work, part), { recursive: true });
  execFileSync('git', ['apply', '--whitespace=nowarn', join(vendor, 'lazy-records.patch')], {
    cwd: work,
    stdio: 'inherit',
  });

  if (process.argv.includes('--test')) {
    // The node tests; the *.browser.test.ts ones need @msw/data's Playwright set-up.
    await writeFile(
      join(work, 'vitest.config.mjs'),
      "export default { test: { include: ['tests/**/*.test.ts'], exclude: ['**/*.browser.test.ts'], globals: true } };\n",
    );
    execFileSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', 'zod@4.3.6', 'vitest@4.1.12'],
      { cwd: work, stdio: 'inherit' },
    );
    execFileSync('npx', ['vitest', 'run'], { cwd: work, stdio: 'inherit' });
    process.exit(0);
  }

  // The MIT notices of @msw/data and of every package bundled with it.
  const notices = [];
  for (const [name, folder] of [
    ['@msw/data', installed],
    ...['es-toolkit', 'mutative', 'outvariant', 'rettime'].map((name) => [name, join(root, 'node_modules', name)]),
  ]) {
    const file = (await readdir(folder)).find((entry) => /^licen[cs]e/i.test(entry));
    const { version: bundled } = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
    notices.push('', `${name} ${bundled}:`, ...(await readFile(join(folder, file), 'utf8')).trim().split('\n'));
  }
  const banner = [
    '/*',
    ` * @msw/data ${version} (https://github.com/mswjs/data) with vendor/msw-data/lazy-records.patch applied,`,
    ' * bundled with its dependencies by scripts/vendor-msw-data.mjs. Generated: do not edit.',
    ' * Why: vendor/msw-data/README.md.',
    ...notices.map((line) => ` * ${line}`.trimEnd()),
    ' */',
  ].join('\n');
  const result = await build({
    entryPoints: [join(work, 'src/index.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    nodePaths: [join(root, 'node_modules')],
    legalComments: 'none',
    banner: { js: banner },
    logLevel: 'warning',
  });
  // Module comments name where each part came from: node_modules/…, or @msw/data/src/… for the patched source.
  const output = result.outputFiles[0].text.replaceAll(`// ${relative(root, work)}/`, '// @msw/data/');
  const target = join(vendor, 'index.js');
  if (process.argv.includes('--check')) {
    const committed = await readFile(target, 'utf8').catch(() => '');
    if (committed !== output) {
      console.error(
        'vendor/msw-data/index.js is not what scripts/vendor-msw-data.mjs writes: run it and commit the result',
      );
      process.exit(1);
    }
  } else {
    await writeFile(target, output);
    console.log(`wrote vendor/msw-data/index.js (${(output.length / 1024).toFixed(0)} KiB)`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
