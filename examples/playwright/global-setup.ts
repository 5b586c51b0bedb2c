// Starts what the e2e suite runs against, each on 127.0.0.1 port 0, and hands their addresses to
// the workers through the environment (Playwright passes globalSetup's process.env on):
// the example app, built and served by Vite, and one petstore-mock that every server-mode test shares.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { createServer } from 'petstore-contract-kit/server';
import { build, preview } from 'vite';

const configFile = join(import.meta.dirname, '..', 'web', 'vite.config.ts');

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  // The reporter merges the run's pact into the file there: each run starts from none.
  await rm(process.env.PACT_DIR || join(import.meta.dirname, 'pacts'), { recursive: true, force: true });
  const outDir = await mkdtemp(join(tmpdir(), 'petstore-e2e-'));
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const site = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  process.env.EXAMPLE_APP_URL = site.resolvedUrls!.local[0]!.replace(/\/$/, '');
  // A session limit as small as the workers on purpose: every test ends its session, even one that
  // fails in its setup, so any number of tests fit.
  const mock = createServer({ sessions: { limit: config.workers } });
  process.env.PETSTORE_MOCK_URL = await mock.listen(0, '127.0.0.1');
  return async () => {
    await mock.close();
    await new Promise<void>((resolve) => site.httpServer.close(() => resolve()));
    await rm(outDir, { recursive: true, force: true });
  };
}
