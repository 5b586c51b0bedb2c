#!/usr/bin/env node
// Copies the vendored code (vendor/msw-data/index.js, the store's @msw/data: vendor/msw-data/README.md)
// beside the compiled modules, where their imports find it: dist/vendor/msw-data/index.js.
import { copyFile, mkdir } from 'node:fs/promises';

await mkdir('dist/vendor/msw-data', { recursive: true });
await copyFile('vendor/msw-data/index.js', 'dist/vendor/msw-data/index.js');
