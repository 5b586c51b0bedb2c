import type { Finding } from './finding.js';

/**
 * The most bytes of one answer's body the kit reads and holds, as sent and with its content codings
 * undone: 32 MiB, the figure of every byte bound of the kit (a request to the mock, a HAR file). The
 * harness, the validating proxy and `petstore-verify har` stop at it (rule `body-too-large`), so that
 * a small compressed answer that decodes to gigabytes (a gzip bomb) costs at most about this much
 * memory. About 250,000 orders of a list: docs/spec-gaps.md (entry 46) says why this figure.
 * @example
 * import { bodyLimit } from 'petstore-contract-kit/verify';
 * bodyLimit // 33554432
 */
export const bodyLimit = 32 * 1024 * 1024;

/**
 * The finding on an answer whose body passed the bound (rule `body-too-large`): the kit's own limit,
 * named as such, with what passed it. `limit` is the bound in force (the proxy's may be set).
 * @example
 * bodyTooLargeFinding('a body whose gzip coding decodes past 33554432 bytes (from 2101 bytes as sent)')
 * // { code: 'body-too-large', path: '', expected: 'a body of at most 33554432 bytes ...', actual: 'a body whose gzip ...: reading stopped there, ...' }
 */
export function bodyTooLargeFinding(reason: string, limit = bodyLimit): Finding {
  return {
    code: 'body-too-large',
    path: '',
    expected: `a body of at most ${limit} bytes as sent and decoded (the kit's bound, not the specification's)`,
    actual: `${reason}: reading stopped there, and nothing else of this answer was judged`,
  };
}
