import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pactParticipants } from './participants.js';

function findPactDirectory(): string {
  // contracts/, dist/contracts and dist/bin all sit below the package root, at different depths.
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    if (existsSync(join(directory, 'contracts', 'pacts'))) return join(directory, 'contracts', 'pacts');
    directory = dirname(directory);
  }
  throw new Error('cannot find the contracts/pacts/ folder of petstore-contract-kit');
}

/**
 * The pact the package ships: written by the consumer tests from the scenarios, verified against
 * any implementation by `petstore-verify --suite pact`.
 * @example
 * new Verifier({ pactUrls: [shippedPactFile], ... })
 */
export const shippedPactFile = join(findPactDirectory(), `${pactParticipants.consumer}-${pactParticipants.provider}.json`);
