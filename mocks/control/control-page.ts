import { controlPageHtml, controlPageSecurityPolicy } from '../generated/control-page.js';
import type { Reply } from '../base/reply.js';

/**
 * `GET /__mock/`: the control page, one self-contained HTML document (its style and script inline,
 * nothing loaded from elsewhere) that drives the documented control API: the session's orders,
 * the scenarios, the faults, the journal and the coverage, refreshed every second.
 * @example
 * controlPage().headers['content-type'] // 'text/html; charset=utf-8'
 */
export function controlPage(): Reply {
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': controlPageSecurityPolicy,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body: controlPageHtml,
  };
}
