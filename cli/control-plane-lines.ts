import type { ServerOptions } from '../mocks/server/server.js';

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * What petstore-mock says of its control plane at start: where its page is, and, bound to an address
 * other than loopback, that the network can reach it (with or without the control key).
 * @example
 * controlPlaneLines({ control: true, host: '0.0.0.0' }, 'http://0.0.0.0:4010')[1] // 'warning: --host 0.0.0.0 makes …'
 */
export function controlPlaneLines(
  options: Pick<ServerOptions, 'control' | 'controlKey'> & { host: string },
  origin: string,
): string[] {
  if (options.control === false) return ['control plane off'];
  const lines = [`control plane and its page at ${origin}/__mock/`];
  if (!loopbackHosts.has(options.host) && !options.host.startsWith('127.'))
    lines.push(
      options.controlKey === undefined
        ? `warning: --host ${options.host} makes the control plane reachable from the network, without a key: anyone who can reach this port can read and change the mock (set --control-key KEY, or --no-control)`
        : 'the control plane is reachable from the network and requires the --control-key',
    );
  return lines;
}
