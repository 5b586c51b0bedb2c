/**
 * `petstore-contract-kit` in a browser: what bundlers (Vite, esbuild, webpack) load for the package
 * root under the `browser` export condition. Everything of the root that runs in a page; the parts
 * that need Node are errors that say what to use instead, so that a story or a page importing the
 * root loads, and a call that cannot work there says why.
 * @example
 * import { createOrderMock, bundledScenarios } from 'petstore-contract-kit'; // in a story: no node:fs
 */
import type {
  loadScenarioFile as loadScenarioFileInNode,
  loadScenarios as loadScenariosInNode,
} from '../core/scenario-files.js';
import type { loadSeedFile as loadSeedFileInNode, readSeedFile as readSeedFileInNode } from './store/seed-file.js';
import type { createServer as createServerInNode } from './server/server.js';

import { MockUsageError } from './base/errors.js';

export * from './package-root.js';
export { defaultBodyLimit, defaultTimeouts } from './server/server-defaults.js';

/** In a browser, the scenarios' folder by its name in the package only: no file can be read here. */
export const scenarioDirectory = 'petstore-contract-kit/scenarios';

function nodeOnly(name: string, instead: string): () => never {
  return () => {
    throw new MockUsageError('node_only', `${name} needs Node.js and is not available in a browser: ${instead}`);
  };
}

const scenariosInstead =
  'every scenario the kit ships is bundled (bundledScenarios) and known to createOrderMock and startBrowserMock; pass your own as objects in their scenarios option.';

/** In a browser, an error: the standalone server needs Node (`npx petstore-mock`). */
export const createServer: typeof createServerInNode = nodeOnly(
  'createServer',
  'run `npx petstore-mock` beside the page, or start the mock in the page with startBrowserMock from petstore-contract-kit/browser.',
);
/** In a browser, an error: scenario files are read with Node; the kit's are bundled. */
export const loadScenarios: typeof loadScenariosInNode = nodeOnly('loadScenarios', scenariosInstead);
/** In a browser, an error: scenario files are read with Node; the kit's are bundled. */
export const loadScenarioFile: typeof loadScenarioFileInNode = nodeOnly('loadScenarioFile', scenariosInstead);
/** In a browser, an error: seed files are read with Node; pass the orders as the seed option. */
export const loadSeedFile: typeof loadSeedFileInNode = nodeOnly('loadSeedFile', 'pass the orders as the seed option.');
/** In a browser, an error: seed files are read with Node; pass the orders as the seed option. */
export const readSeedFile: typeof readSeedFileInNode = nodeOnly('readSeedFile', 'pass the orders as the seed option.');
