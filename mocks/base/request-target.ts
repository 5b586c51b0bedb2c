import type { MockRequest } from './mock-request.js';

/**
 * A request's URL as the pipeline reads it: the path at once, the parsed URL only when asked. The
 * standalone server's requests know their path already, so the usual call parses its URL once, not twice.
 * @example
 * const target = RequestTarget.of(new Request('http://localhost/v1/store/orders?x=1'));
 * target?.pathname // '/v1/store/orders'
 */
export class RequestTarget {
  readonly pathname: string;
  readonly #href: string;
  #url: URL | undefined;

  private constructor(href: string, pathname: string, url?: URL) {
    this.#href = href;
    this.pathname = pathname;
    this.#url = url;
  }

  /** The target of a request; undefined when its URL is not one. */
  static of(request: MockRequest): RequestTarget | undefined {
    // A path as written differs from the parsed one, which error messages name: parse then.
    const known = request.pathAsWritten === undefined ? request.pathname : undefined;
    if (known !== undefined && known !== '') return new RequestTarget(request.url, known);
    try {
      return RequestTarget.ofUrl(new URL(request.url));
    } catch {
      return undefined;
    }
  }

  /** The target of a parsed URL. */
  static ofUrl(url: URL): RequestTarget {
    return new RequestTarget(url.href, url.pathname, url);
  }

  /** The whole URL, parsed at the first ask. */
  get url(): URL {
    this.#url ??= new URL(this.#href);
    return this.#url;
  }
}
