import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KitError, type CoreErrorCode } from './errors.js';

/**
 * A folder the package ships, found from the module that asks: the sources (`spec/`, `mocks/`), the
 * build (`dist/core/`) and the CLI bundle (`dist/bin/`) all sit below the package root, at different depths.
 * Node only.
 * @throws KitError `missing_package_folder` when no folder above holds `marker`.
 * @example
 * packageFolder(import.meta.url, 'scenarios', 'scenario.schema.json') // '/…/petstore-contract-kit/scenarios'
 */
export function packageFolder(moduleUrl: string, folder: string, marker: string): string {
  let directory = dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < 4; depth++) {
    if (existsSync(join(directory, folder, marker))) return join(directory, folder);
    directory = dirname(directory);
  }
  throw new KitError<CoreErrorCode>(
    'missing_package_folder',
    `cannot find the ${folder}/ folder of petstore-contract-kit`,
  );
}
