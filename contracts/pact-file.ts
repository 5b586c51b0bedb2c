import { join } from 'node:path';
import { packageFolder } from '../core/package-folder.js';
import { pactParticipants } from './participants.js';

/**
 * The pact the package ships, written by the consumer tests and verified by `petstore-verify --suite pact`.
 * @example
 * new Verifier({ pactUrls: [shippedPactFile], ... })
 */
export const shippedPactFile = join(
  packageFolder(import.meta.url, 'contracts', 'pacts'),
  'pacts',
  `${pactParticipants.consumer}-${pactParticipants.provider}.json`,
);
