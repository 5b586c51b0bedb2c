import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KitError, type CoreErrorCode } from './errors.js';

/**
 * A folder the package ships, searched upwards: the sources, the build and the CLI bundle sit at different depths.
 * @throws KitError `missing_package_folder` when no folder above holds `marker`.
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
