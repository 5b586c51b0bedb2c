import type { UnreplayableFinding } from '../recorder/saved-steps.js';

/**
 * The console's line for a finding a saved scenario cannot show again: `har --save` and the proxy's
 * `--record` say it alike, so that no finding is left behind unnamed.
 * @example
 * unreplayableLine({ step: '2. cancel order 1', code: 'status-unexpected', why: 'it ran at once with a cancel the file sends after it' })
 * // 'the saved scenario cannot replay the finding [status-unexpected] of 2. cancel order 1: it ran at once with a cancel the file sends after it'
 */
export function unreplayableLine({ step, code, why }: UnreplayableFinding): string {
  return `the saved scenario cannot replay the finding [${code}] of ${step}: ${why}`;
}
