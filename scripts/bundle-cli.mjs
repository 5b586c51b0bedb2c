#!/usr/bin/env node
// Bundles each CLI into one file, dist/bin/petstore-mock.js and dist/bin/petstore-verify.js. Loading the unbundled dependency tree
// (es-toolkit/compat alone is hundreds of modules, pulled in by @msw/data) took ~1 s before the first
// answer; the bundle, tree-shaken, answers in ~0.5 s. The library entry points stay unbundled, so that
// in-process users share their own msw.
import { chmod, rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * How the CLIs are bundled, without where from and to: bench/tricks.mjs builds its variants of the
 * mock with the very same options.
 */
export const cliBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Minified, the mock's bundle parses about 40 ms sooner at every start; the source map keeps stack traces readable.
  // Without keepNames: it renames every named closure each time one is made, in the store's hot path too.
  minify: true,
  keepNames: false,
  logLevel: 'warning',
  // Pact's native core and Prism are optional peer dependencies: resolved from node_modules at run
  // time, by the suites that use them (Pact's core only in its child process, dist/verify/pact-child.js).
  external: ['@pact-foundation/pact-core', '@stoplight/prism-http'],
  // CommonJS dependencies (ajv) call require(); an ES module bundle has to provide it.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};

// Run as a script (npm run build), it bundles both CLIs; imported, it only gives the options.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Chunk names carry a hash of their content: without this, every rebuild would leave the old chunks
  // behind, and npm pack would ship them.
  await rm('dist/bin/chunks', { recursive: true, force: true });
  await build({
    ...cliBundleOptions,
    entryPoints: { 'petstore-mock': 'cli/petstore-mock.ts', 'petstore-verify': 'cli/petstore-verify.ts' },
    outdir: 'dist/bin',
    // What is imported only when needed (MSW, for a --handlers file's handlers) goes to a chunk of its
    // own, which the mock does not even parse at start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  // npm marks bins executable on install; a checkout's `./dist/bin/petstore-mock.js` should run too.
  for (const bin of ['petstore-mock', 'petstore-verify']) await chmod(`dist/bin/${bin}.js`, 0o755);
}
