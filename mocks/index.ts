/**
 * `petstore-contract-kit`: a stateful mock and contract kit for the pet store order interface.
 * The MSW handlers are also under `petstore-contract-kit/msw`, the HTTP server under
 * `petstore-contract-kit/server`. The contract itself (the route table, the lossless JSON, the
 * scenarios) comes from the kit's core, compiled from `spec/openapi.yaml`. A browser bundler picks
 * `index-browser.ts` instead (the `browser` export condition): the same names, without Node.
 * @example
 * import { createServer } from 'petstore-contract-kit';
 *
 * const server = createServer();
 * console.log(await server.listen(4010)); // http://127.0.0.1:4010
 */
export * from './package-root.js';
export {
  createServer,
  defaultBodyLimit,
  defaultTimeouts,
  type MockServer,
  type ServerOptions,
} from './server/server.js';
export { loadSeedFile, readSeedFile } from './store/seed-file.js';
export { loadScenarioFile, loadScenarios, scenarioDirectory } from '../core/scenario-files.js';
