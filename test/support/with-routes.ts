// Modules of the kit built on a changed route table, for tests of what an operation the document does
// not have yet (a POST, a parameter before the path's end) would meet. The suite runs without
// isolation, so no module is mocked: the modules are bundled again with the route table changed and
// imported as a file of their own, and nothing the next test file imports is touched.
import { readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Route } from '../../core/routes.js';
import { projectRoot, scratchFolder } from './cli-support.js';

const folders: string[] = [];

/**
 * Imports `exports` (names of the project's modules, as `name: 'path/below/the/root.ts'`) built on the
 * route table that `change` makes of the generated one. `change` is written into the bundle as source.
 * @example
 * const { recordableCall } = await withRoutes((routes) => routes, { recordableCall: 'verify/recorder/recorded-call.ts' });
 */
export async function withRoutes<T>(
  change: (routes: readonly Route[]) => readonly unknown[],
  exports: Record<string, string>,
  more: { definitions?: Record<string, string> } = {},
): Promise<T> {
  const folder = await scratchFolder('petstore-with-routes-');
  folders.push(folder);
  await symlink(join(projectRoot, 'node_modules'), join(folder, 'node_modules'));
  const contents = Object.entries(exports)
    .map(([name, file]) => `export { ${name} } from ${JSON.stringify(join(projectRoot, file))};`)
    .join('\n');
  const outfile = join(folder, 'modules.mjs');
  await build({
    stdin: { contents, resolveDir: projectRoot, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    plugins: [
      {
        name: 'changed-routes',
        setup(plugin) {
          // Definitions of operations the generated table lacks: `name: 'path/below/the/root.ts#exportName'`.
          plugin.onLoad({ filter: /core[\\/]operation-definitions\.ts$/ }, async (args) => {
            let text = await readFile(args.path, 'utf8');
            for (const [name, where] of Object.entries(more.definitions ?? {})) {
              const [file, exported] = where.split('#');
              const imported = `import { ${exported} as ${name}Definition } from ${JSON.stringify(join(projectRoot, file!))};`;
              text = `${imported}\n${text.replace(/(operationDefinitions[^=]*= \{\n)/, `$1  ${name}: ${name}Definition,\n`)}`;
            }
            return { contents: text, loader: 'ts' };
          });
          plugin.onLoad({ filter: /spec[\\/]generated[\\/]contract\.ts$/ }, async (args) => {
            const text = await readFile(args.path, 'utf8');
            const renamed = text.replace('export const routes =', 'const generatedRoutes =');
            return {
              contents: `${renamed}\nexport const routes = (${change.toString()})(generatedRoutes);\n`,
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
  return (await import(pathToFileURL(outfile).href)) as T;
}

/**
 * Removes the folders `withRoutes` built in.
 * @example
 * afterAll(removeBuiltRoutes);
 */
export async function removeBuiltRoutes(): Promise<void> {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
}
