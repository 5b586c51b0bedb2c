// The end-to-end project's globalSetup (vitest.config.ts): one folder for the whole vitest run, which
// every worker process is told of (`inject('runFolder')`), so that work several files need (the packed
// kit, the Node 24 projects) is done once a run by whichever file asks first (oncePerRun), and removed
// with everything in it when the run ends.
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { scratchFolder } from './cli-support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared folder (test/support/run-folder.ts): what oncePerRun makes lives there. */
    runFolder: string;
  }
}

/**
 * Makes the run's folder and provides it to the project's files; the returned teardown removes it.
 *
 * @example
 * // vitest.config.ts, a project's options
 * { globalSetup: ['test/support/run-folder.ts'] }
 */
export default async function runFolder(project: TestProject): Promise<() => Promise<void>> {
  const folder = await scratchFolder('petstore-run-');
  project.provide('runFolder', folder);
  return () => rm(folder, { recursive: true, force: true });
}
