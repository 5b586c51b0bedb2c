#!/usr/bin/env node
// Bundles the CLI into one file, dist/bin/petstore-mock.js. Loading the unbundled dependency tree
// (es-toolkit/compat alone is hundreds of modules, pulled in by @msw/data) took ~1 s before the first
// answer; the bundle, tree-shaken, answers in ~0.5 s. The library entry points stay unbundled, so that
// in-process users share their own msw.
import { build } from 'esbuild';

await build({
  entryPoints: ['mocks/cli.ts'],
  outfile: 'dist/bin/petstore-mock.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS dependencies (ajv) call require(); an ES module bundle has to provide it.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

// npm marks bins executable on install; a checkout's `./dist/bin/petstore-mock.js` should run too.
const { chmod } = await import('node:fs/promises');
await chmod('dist/bin/petstore-mock.js', 0o755);
