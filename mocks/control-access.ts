import { createAuthenticator, type BearerRealm } from './auth.js';
import { MockError } from './errors.js';
import type { RequestHead } from './reply.js';

/**
 * Who may use a standalone server's control plane. The control plane needs no key by default, so a
 * web page on another site could otherwise reset the store, add faults or read the journal from the
 * developer's own browser (a `text/plain` or form POST goes without a preflight), or reach it through
 * DNS rebinding (a hostile name that resolves to 127.0.0.1).
 */
export interface ControlAccessOptions {
  /** Origins besides the loopback ones that may call the control plane (`--control-origin`), for example `https://app.test:8443`. */
  origins?: readonly string[];
  /** A key the control plane requires as `Authorization: Bearer KEY` (`--control-key`); none by default. */
  key?: string;
}

/** What a control request is checked against: see `createControlAccess`. */
export interface ControlAccess {
  /** The Error a control request is refused with (403 for its Origin or Host, 401 for its key), or undefined when it may go on. */
  refusal(request: RequestHead, options?: { keyNeeded?: boolean }): MockError | undefined;
  /** The origin to name in `Access-Control-Allow-Origin` on a control answer: the request's own when it may call, else none. */
  allowedOrigin(request: RequestHead): string | undefined;
  /** Adds the names this server answers to besides the loopback ones (the address it is bound to). */
  addHosts(hosts: readonly string[]): void;
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a host name (as a URL writes it: IPv6 in brackets, lower case) names this machine's loopback. */
function isLoopbackName(hostname: string): boolean {
  return loopbackNames.has(hostname) || hostname.endsWith('.localhost') || /^127(\.[0-9]{1,3}){3}$/.test(hostname);
}

/** The host name of a `Host` field, as a URL writes it; undefined for a value that is no host. */
function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    return url.username === '' && url.pathname === '/' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** An origin as the `Origin` field and `URL#origin` write it; undefined for one that is no http(s) origin. */
function normalOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks an origin given with `--control-origin`: an http(s) origin, nothing after it.
 * @throws TypeError naming the value and what an origin looks like.
 * @example
 * checkedControlOrigin('https://app.test:8443/') // 'https://app.test:8443'
 */
export function checkedControlOrigin(origin: string): string {
  const normal = normalOrigin(origin);
  if (normal === undefined || !(origin === normal || origin === `${normal}/`))
    throw new TypeError(
      `${JSON.stringify(origin)} is not an origin: write it as http(s)://host[:port], for example https://app.test:8443`,
    );
  return normal;
}

const controlRealm: BearerRealm = {
  realm: 'petstore-mock control plane',
  missing: {
    code: 'missing_control_key',
    message: 'The control plane needs its key: send it as "Authorization: Bearer <the --control-key>".',
  },
  invalid: {
    code: 'invalid_control_key',
    message: 'Invalid control key: it is not the one the server was started with (--control-key).',
    description: 'The control key is not valid',
  },
};

/**
 * The control plane's guard on a standalone server. A control request is refused, and nothing
 * changes, when:
 * - its `Host` is neither a loopback name (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`) nor one
 *   the server was bound to (403 `forbidden_host`: DNS rebinding);
 * - it carries an `Origin` that is neither a loopback origin, nor the server's own, nor one of
 *   `options.origins` (403 `forbidden_origin`: another site in the developer's browser);
 * - a key is set and the request does not carry it (401 `missing_control_key` or `invalid_control_key`).
 *
 * A request without `Origin` (curl, the harness, a test) is judged by its `Host` and key alone.
 * @example
 * const access = createControlAccess({ origins: ['https://app.test'] });
 * access.refusal({ headers: new Headers({ host: 'evil.example' }) })?.code // 'forbidden_host'
 * access.refusal({ headers: new Headers({ host: 'localhost:4010', origin: 'https://app.test' }) }) // undefined
 */
export function createControlAccess(options: ControlAccessOptions = {}): ControlAccess {
  const origins = new Set((options.origins ?? []).map(checkedControlOrigin));
  const hosts = new Set<string>();
  // The same bearer check as the API's (constant time, RFC 6750), in a realm of its own.
  const keyRefusal = options.key === undefined ? () => undefined : createAuthenticator([options.key], controlRealm);

  const hostAllowed = (hostname: string) => isLoopbackName(hostname) || hosts.has(hostname);

  function originAllowed(origin: string, host: string | null): boolean {
    const normal = normalOrigin(origin);
    if (normal === undefined) return false;
    if (origins.has(normal)) return true;
    const { hostname, host: originHost } = new URL(normal);
    return isLoopbackName(hostname) || (host !== null && originHost === host.toLowerCase());
  }

  function refusal(request: RequestHead, { keyNeeded = true } = {}): MockError | undefined {
    const host = request.headers.get('host');
    if (host !== null) {
      const hostname = hostnameOf(host);
      if (hostname === undefined || !hostAllowed(hostname))
        return new MockError(
          'forbidden_host',
          `The control plane answers only to this machine's names (localhost, 127.0.0.1, [::1], or the address the server is bound to), not to Host ${JSON.stringify(host)}.`,
        );
    }
    const origin = request.headers.get('origin');
    if (origin !== null && !originAllowed(origin, host))
      return new MockError(
        'forbidden_origin',
        `Origin ${origin} may not use the control plane: only loopback origins (http://localhost:*, http://127.0.0.1:*, http://[::1]:*), the server's own, and those given with --control-origin may.`,
      );
    return keyNeeded ? keyRefusal(request) : undefined;
  }

  return {
    refusal,
    allowedOrigin(request) {
      const origin = request.headers.get('origin');
      if (origin === null) return undefined;
      return refusal(request, { keyNeeded: false }) === undefined ? origin : undefined;
    },
    addHosts(names) {
      for (const name of names) {
        const hostname = hostnameOf(name.includes(':') && !name.startsWith('[') ? `[${name}]` : name);
        if (hostname !== undefined) hosts.add(hostname);
      }
    },
  };
}
