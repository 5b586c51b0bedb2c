import { developmentApiKey, type KeyChoice } from '../../core/authorization.js';

/** What tells a recorded request's key apart: the accepted key, when known, or the upstream's answer. */
export interface KeyEvidence {
  /** The key the deployment accepts (`--api-key`): then every choice is known exactly. */
  apiKey?: string | undefined;
  /** The upstream's status: without the key, a Bearer token it refused (401) is `wrong`, any other `valid`. */
  status: number;
}

/**
 * Which key choice of a scenario step a request's `Authorization` header is, so that a recording keeps
 * the choice and never the key: `none`, `basic` for a scheme other than Bearer, `valid` or
 * `lowercase-scheme` for the accepted key, a near key (`prefixed`, `suffixed`, `containing`,
 * `truncated`), else `wrong`. Without the accepted key, a Bearer token is `valid` unless the
 * upstream refused it with 401.
 */
export function keyChoiceOf(authorization: string | undefined, evidence: KeyEvidence): KeyChoice {
  if (authorization === undefined || authorization.trim() === '') return 'none';
  const [, scheme = '', token = ''] = /^\s*(\S+)\s*(.*?)\s*$/.exec(authorization) ?? [];
  if (scheme.toLowerCase() !== 'bearer') return 'basic';
  const accepted = scheme === 'Bearer' ? 'valid' : 'lowercase-scheme';
  const { apiKey } = evidence;
  if (apiKey === undefined) return evidence.status === 401 ? 'wrong' : accepted;
  if (token === apiKey) return accepted;
  return nearKeyChoice(token, apiKey) ?? 'wrong';
}

function nearKeyChoice(token: string, apiKey: string): KeyChoice | undefined {
  if (token.length === apiKey.length + 1 && token.endsWith(apiKey)) return 'prefixed';
  if (token.length === apiKey.length + 1 && token.startsWith(apiKey)) return 'suffixed';
  if (token.length === apiKey.length + 2 && token.slice(1, -1) === apiKey) return 'containing';
  if (token.length === apiKey.length - 1 && apiKey.startsWith(token)) return 'truncated';
  return undefined;
}

/**
 * The key choice of a request a pact sends, as the provider receives it behind the pact guard: the
 * pact's development key and the run's own key (`--api-key`) are the accepted key (the guard swaps
 * the first for the second), any other token reaches the provider as it is. The consumer-pact check
 * and the guard judge alike through it.
 * @example
 * pactKeyChoice('Bearer petstore-dev-key', 'k') // 'valid'
 * pactKeyChoice('Bearer k', 'k') // 'valid'
 * pactKeyChoice('Bearer someone-elses', 'k') // 'wrong'
 */
export function pactKeyChoice(authorization: string | undefined, runKey: string | undefined): KeyChoice {
  const token = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const accepted = token !== undefined && token === runKey ? runKey : developmentApiKey;
  return keyChoiceOf(authorization, { apiKey: accepted, status: 200 });
}
