#!/usr/bin/env node
// Writes a CommonJS twin (.d.cts) of every declaration file in dist/, for TypeScript projects whose
// files are CommonJS ("type": "commonjs" with module nodenext). Their relative imports point at the
// twins (./handlers.js becomes ./handlers.cjs, which TypeScript reads as ./handlers.d.cts), so that a
// package such as msw, which ships one set of types for import and another for require, resolves the
// same way in the consumer's file and in the kit's types: one copy of msw's RequestHandler, not two.
// The code itself stays ES modules; Node 20.19 and later require() them.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const relative = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.js(['"])/g;
let written = 0;
for (const entry of await readdir('dist', { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = await readFile(file, 'utf8');
  await writeFile(
    file.replace(/\.d\.ts$/, '.d.cts'),
    text.replace(relative, '$1$2.cjs$3').replace(/\/\/# sourceMappingURL=.*$/m, ''),
  );
  written++;
}
if (written === 0) throw new Error('no declaration files in dist/: run tsc first');
