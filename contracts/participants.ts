import { developmentApiKey, wrongApiKey } from '../core/authorization.js';

/** The consumer and provider names the pact is written under. */
export const pactParticipants = { consumer: 'petstore-order-client', provider: 'petstore-order-interface' } as const;

/** The key a valid step sends in the pact; `petstore-verify --suite pact` swaps it for `--api-key`. */
export const pactApiKey = developmentApiKey;

/** The key a `wrong` step sends. */
export const pactWrongApiKey = wrongApiKey;
