#!/usr/bin/env node
// What `npm test` runs before the fast and end-to-end projects: every type check of `npm run typecheck`,
// `npm run build` and the consumer project (which writes the pact the others read). Each is one process
// on one core (tsc is single-threaded), and none needs another's output, so they run as many at a time as
// there are cores, longest first: on the 2-core machine the same work in about 20 s instead of 33 s
// (docs/decisions/suite-time.md). The type checks are read from package.json's `typecheck` script, so
// that `npm run typecheck` and `npm test` check the same projects. Each command's output is printed
// whole when it ends; the script fails if any command fails, after all have ended.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { scripts } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const typeChecks = scripts.typecheck.split(' && ');
// Longest first (measured alone on the 2-core machine): the build 12 s, the kit's type check 9 s, the
// examples' about 5 s each, the consumer project 2 s, the page's 1.4 s.
const [kit, page, ...examples] = typeChecks;
const commands = [scripts.build, kit, ...examples.reverse(), scripts['test:consumer'], page];

// The scripts' commands as npm runs them: from the package's folder, its node_modules/.bin first on the PATH.
const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };

/** Runs one command in a shell; resolves with its exit code and everything it printed. */
function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ command, code, output }));
  });
}

const waiting = [...commands];
let failed = 0;
async function lane() {
  for (let command = waiting.shift(); command !== undefined; command = waiting.shift()) {
    const ended = await run(command);
    process.stdout.write(`\n> ${ended.command}${ended.code === 0 ? '' : ` (exit ${ended.code})`}\n${ended.output}`);
    if (ended.code !== 0) failed += 1;
  }
}
await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, lane));
if (failed > 0) {
  process.stderr.write(`check-and-build: ${failed} of ${commands.length} commands failed\n`);
  process.exit(1);
}
