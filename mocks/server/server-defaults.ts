// Apart from the server, so that a browser can import them too.

/**
 * The largest request body the server reads by default, in bytes.
 * @example
 * createServer({ bodyLimit: defaultBodyLimit * 2 })
 */
export const defaultBodyLimit = 32 * 1024 * 1024;

/**
 * How many milliseconds a client may take by default to send its headers, and its whole request.
 * @example
 * createServer({ headersTimeout: defaultTimeouts.headers / 2 })
 */
export const defaultTimeouts = { headers: 10_000, request: 30_000 } as const;
