import type { IncomingMessage } from 'node:http';
import type { JsonBounds } from '../../core/json-bounds-scanner.js';
import { JsonBoundsScanner } from '../../core/json-bounds-scanner.js';
import { boundsError } from '../control/control.js';
import { MockError, MockOptionError } from '../base/errors.js';
import type { MockRequest } from '../base/mock-request.js';
import { readBody } from './read-body.js';

const methodsWithoutBody = new Set(['GET', 'HEAD']);

/** Reads headers the way Fetch's `Headers#get` does: a repeated header is joined with ", ". */
class RawHeaders {
  readonly #raw: readonly string[];

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const raw = this.#raw;
    const lower = name.toLowerCase();
    let value: string | null = null;
    for (let index = 0; index < raw.length; index += 2) {
      if (raw[index]!.length === lower.length && raw[index]!.toLowerCase() === lower)
        value = value === null ? raw[index + 1]! : `${value}, ${raw[index + 1]}`;
    }
    return value;
  }
}

// A target starting with '/' is always a path: `//v1/...` must not be read as an authority.
function urlOf(target: string, origin: string): string {
  if (target.startsWith('/')) return origin + target;
  try {
    return new URL(target, origin).href;
  } catch {
    return target;
  }
}

// The URL parser turns a backslash into a slash and resolves dot segments (`.`, `..`, `%2e`, any case).
const rewritten = /\\|(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;

// The target without its query and fragment.
function pathOf(target: string): string {
  let end = target.indexOf('?');
  const fragment = target.indexOf('#');
  if (fragment !== -1 && (end === -1 || fragment < end)) end = fragment;
  return end === -1 ? target : target.slice(0, end);
}

// A path of only these characters, up to a query, is one the URL parser leaves as it is.
const plainPath = /^\/[A-Za-z0-9\-_~/]*(?=[?#]|$)/;

// The path as the client wrote it, when the URL parser would change it (spec gap 32); otherwise undefined.
function pathAsWrittenOf(target: string): string | undefined {
  if (plainPath.test(target)) return undefined;
  const afterAuthority = target.startsWith('/') ? target : target.replace(/^[a-z][a-z\d+.-]*:[/\\]*[^/\\?#]*/i, '');
  const path = afterAuthority.split(/[?#]/, 1)[0]!;
  return rewritten.test(path) ? path : undefined;
}

// '' for a target that is no URL: the pipeline answers it with 400.
function pathnameOf(url: string, target: string): string {
  if (plainPath.test(target)) return pathOf(target);
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return (length !== undefined && length !== '0') || incoming.headers['transfer-encoding'] !== undefined;
}

function tooLarge(limit: number): MockError {
  return new MockError('payload_too_large', `Request body too large: the limit is ${limit} bytes.`, {
    headers: { connection: 'close' },
  });
}

function toFetchRequest(request: NodeRequest, body: Buffer): Request {
  // A Request would resolve the dot segments and backslashes, and so name another path than the client's.
  if (request.pathAsWritten !== undefined)
    throw new MockOptionError('fetch_cannot_carry', 'Fetch cannot carry this path as written.');
  const headers = new Headers();
  const raw = request.raw;
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const hasContent = !methodsWithoutBody.has(request.method) && body.length > 0;
  // The Buffer is passed as it is: Request copies its body anyway, and a second copy would be garbage.
  return new Request(request.url, {
    method: request.method,
    headers,
    body: hasContent ? (body as Uint8Array<ArrayBuffer>) : null,
  });
}

/** A node:http request as the pipeline reads it. It builds a Fetch `Request` only when a user's handler needs one. */
export class NodeRequest implements MockRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: MockRequest['headers'];
  /** The URL's path, or the path as written when the URL parser would change it ('' for a target that is no URL). */
  readonly pathname: string;
  readonly pathAsWritten: string | undefined;
  /** Header names and values as Node read them, one after the other. */
  readonly raw: readonly string[];
  /** How many bytes of body were read (0 until read). */
  bytesRead = 0;
  readonly #incoming: IncomingMessage;
  readonly #limit: number;
  #body: Promise<Buffer> | undefined;

  readonly #bounds: JsonBounds | undefined;

  /** `boundsAt(pathname)` gives what a JSON body at that path may hold (the control plane's bodies). */
  constructor(
    incoming: IncomingMessage,
    options: { origin: string; limit: number; boundsAt: (pathname: string) => JsonBounds | undefined },
  ) {
    const origin = options.origin;
    this.#incoming = incoming;
    this.#limit = options.limit;
    this.method = incoming.method ?? 'GET';
    this.url = urlOf(incoming.url ?? '/', origin);
    this.headers = new RawHeaders(incoming.rawHeaders);
    this.raw = incoming.rawHeaders;
    this.pathAsWritten = pathAsWrittenOf(incoming.url ?? '/');
    this.pathname = this.pathAsWritten ?? pathnameOf(this.url, incoming.url ?? '/');
    this.#bounds = options.boundsAt(this.pathname);
  }

  /** Whether the request declares a body (a length above 0, or chunks); one that does not is not read. */
  get declaresBody(): boolean {
    return hasBody(this.#incoming);
  }

  /** The body, read once; empty when the request declares none. */
  body(): Promise<Buffer> {
    this.#body ??= hasBody(this.#incoming)
      ? readBody(this.#incoming, { limit: this.#limit, tooLarge, inspect: this.#inspector() })
      : Promise.resolve(Buffer.alloc(0));
    return this.#body.then((body) => {
      this.bytesRead = body.length;
      return body;
    });
  }

  // A body that breaks its bounds is refused while it arrives: the rest is never read and the connection closes.
  #inspector(): ((chunk: Buffer) => MockError | undefined) | undefined {
    if (this.#bounds === undefined) return undefined;
    const scanner = new JsonBoundsScanner(this.#bounds);
    return (chunk) => {
      const breach = scanner.feed(chunk);
      return breach === undefined ? undefined : boundsError(breach, { connection: 'close' });
    };
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.body());
  }

  async toRequest(): Promise<Request> {
    return toFetchRequest(this, await this.body());
  }
}
