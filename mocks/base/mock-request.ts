import type { RequestHead } from './reply.js';

/**
 * A request as the mock's pipeline reads it. A Fetch `Request` is one; the standalone server makes one
 * from a Node request without building a Fetch `Request`.
 * @example
 * const request: MockRequest = new Request('http://127.0.0.1:4010/v1/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } });
 */
export interface MockRequest extends RequestHead {
  readonly method: string;
  /** The absolute URL, with dot segments removed as URL parsing does. */
  readonly url: string;
  /**
   * The path as the client wrote it, when URL parsing changed it (a dot segment, a backslash). The mock
   * refuses such a path (spec gap 32). Only the standalone server sees one: Fetch changes the path first.
   */
  readonly pathAsWritten?: string;
  /** The URL's path, when the request has parsed it already; `''` for a URL that is not one. */
  readonly pathname?: string;
  /** The body as UTF-8 text (`''` for none). */
  text(): Promise<string>;
  /** The same request as a Fetch `Request`, for the user's MSW handlers. */
  toRequest?(): Promise<Request>;
}
