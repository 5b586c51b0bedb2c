// What a command line and its environment give petstore-verify in confidence: what no line it prints may show.
import { flagValues } from '../shared.js';
import type { Confidences } from '../../verify/base/redaction.js';

/**
 * What this command line and environment give in confidence: the keys, tokens and passwords, and
 * every URL (its user information, password and query values).
 */
export function confidencesOf(argv: readonly string[], environment: NodeJS.ProcessEnv): Confidences {
  return {
    secrets: [
      ...flagValues(argv, 'api-key'),
      environment.PETSTORE_API_KEY,
      environment.PACT_BROKER_TOKEN,
      environment.PACT_BROKER_PASSWORD,
    ],
    urls: [
      ...argv.filter((argument) => argument.includes('://')).map((argument) => argument.replace(/^--[a-z-]+=/, '')),
      environment.PETSTORE_BASE_URL,
      environment.PETSTORE_STAGING_BASE_URL,
      environment.PACT_BROKER_BASE_URL,
    ],
  };
}
