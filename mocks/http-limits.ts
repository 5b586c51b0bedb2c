import { defaultTimeouts } from './server-defaults.js';

/** Node's timeouts for slow clients, from the server's options. */
export function httpLimits(options: { headersTimeout?: number; requestTimeout?: number }): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const headersTimeout = options.headersTimeout ?? defaultTimeouts.headers;
  const requestTimeout = Math.max(options.requestTimeout ?? defaultTimeouts.request, headersTimeout);
  // Node checks both timeouts only this often, and its default interval is longer than the timeouts.
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}
