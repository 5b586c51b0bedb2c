// The standalone server's default limits, apart from the server so that a browser can import them too.

/**
 * The largest request body the server reads, in bytes, unless told otherwise: 32 MiB (about 250,000 orders on `PUT /__mock/orders`).
 * @example
 * createServer({ bodyLimit: defaultBodyLimit * 2 })
 */
export const defaultBodyLimit = 32 * 1024 * 1024;

/**
 * How long a client may take to send its request headers, and its whole request, unless told
 * otherwise: 10 s and 30 s. A slower client gets 408 `request_timeout` and the connection is closed.
 * @example
 * createServer({ headersTimeout: defaultTimeouts.headers / 2 })
 */
export const defaultTimeouts = { headers: 10_000, request: 30_000 } as const;
