// A response as the harness saw it: what the checks read, apart from them so that the header checks,
// which checks.ts calls, can name it.

/**
 * A response as the harness saw it: its body decoded as UTF-8, a byte order mark kept.
 * @example
 * checkAgainstSpec('GET', '/v1/store/orders', { status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: '[]' })
 */
export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Set when the body's bytes are not valid UTF-8 (`text` then holds U+FFFD where they were). */
  invalidUtf8?: boolean;
  /** Set when the connection carried bytes after the end of the response (a 204 followed by content). */
  trailingBytes?: boolean;
  /**
   * Set when the body's bytes are not known (a HAR that did not keep them: the page never read them, or
   * the answer was cut off after its status): the status and the headers are judged, the body is not,
   * and `text` is empty.
   */
  bodyUnknown?: boolean;
}
