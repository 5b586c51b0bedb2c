import { createAuthenticator, type BearerRealm } from '../base/auth.js';
import { MockError, MockOptionError } from '../base/errors.js';
import type { RequestHead } from '../base/reply.js';

/**
 * Who may use a standalone server's control plane. Without a key, another site in the developer's
 * browser could otherwise use it, or reach it through DNS rebinding.
 */
export interface ControlAccessOptions {
  /** Origins besides the loopback ones (`--control-origin`). */
  origins?: readonly string[];
  /** A key the control plane requires (`--control-key`). */
  key?: string;
}

export interface ControlAccess {
  /** Why a control request is refused, or undefined when it may go on. */
  refusal(request: RequestHead, options?: { keyNeeded?: boolean }): MockError | undefined;
  /** The request's own origin when it may call, for `Access-Control-Allow-Origin`. */
  allowedOrigin(request: RequestHead): string | undefined;
  /** Adds the names the server answers to besides the loopback ones. */
  addHosts(hosts: readonly string[]): void;
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

// A host name as a URL writes it: IPv6 in brackets, lower case.
function isLoopbackName(hostname: string): boolean {
  return loopbackNames.has(hostname) || hostname.endsWith('.localhost') || /^127(\.[0-9]{1,3}){3}$/.test(hostname);
}

function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    return url.username === '' && url.pathname === '/' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

function normalOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Checks an origin given with `--control-origin`: an http(s) origin, nothing after it. */
export function checkedControlOrigin(origin: string): string {
  const normal = normalOrigin(origin);
  if (normal === undefined || !(origin === normal || origin === `${normal}/`))
    throw new MockOptionError(
      'invalid_option',
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
 * The control plane's guard: a request with a foreign `Host` or `Origin`, or without the key when one is
 * set, is refused and changes nothing. A request without `Origin` (curl, a test) is judged by the rest.
 * @example
 * const access = createControlAccess({ origins: ['https://app.test'] });
 * access.refusal({ headers: new Headers({ host: 'evil.example' }) })?.code // 'forbidden_host'
 * access.refusal({ headers: new Headers({ host: 'localhost:4010', origin: 'https://app.test' }) }) // undefined
 */
export function createControlAccess(options: ControlAccessOptions = {}): ControlAccess {
  const origins = new Set((options.origins ?? []).map(checkedControlOrigin));
  const hosts = new Set<string>();
  // The API's bearer check, in a realm of its own.
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
