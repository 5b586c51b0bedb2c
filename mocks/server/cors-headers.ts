import type { IncomingMessage } from 'node:http';
import type { Answer } from '../pipeline/pipeline.js';
import { networkError } from '../base/reply.js';

const exposedHeaders = 'Allow, Deprecation, Sunset, WWW-Authenticate, ETag';
const simpleCors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposedHeaders };

/**
 * The CORS headers of an answer. Any origin may read the API (a web app on another origin calls it);
 * the control plane names only the request's own origin, and only when that origin is allowed.
 */
export function corsHeaders(
  incoming: IncomingMessage,
  reply: Answer,
  allowedOrigin: string | undefined,
): Record<string, string> {
  if (allowedOrigin === undefined) return { vary: 'Origin' };
  const cors =
    allowedOrigin === '*'
      ? simpleCors
      : { ...simpleCors, 'access-control-allow-origin': allowedOrigin, vary: 'Origin' };
  const allow = reply === networkError ? undefined : reply.headers.allow;
  if (
    incoming.method !== 'OPTIONS' ||
    incoming.headers['access-control-request-method'] === undefined ||
    allow === undefined
  )
    return cors;
  return {
    ...cors,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': incoming.headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
    'access-control-max-age': '600',
  };
}
