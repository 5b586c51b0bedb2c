// What the benchmark scripts share: starting a server process and timing its first answer, reading
// its resident memory, the orders they seed, the median.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const mockCli = join(root, 'dist/bin/petstore-mock.js');
export const key = { authorization: 'Bearer petstore-dev-key' };

/** The median of some figures (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `count` orders with every field, ids 1 to count; with `shippedEvery`, one in that many shipped. */
export function orders(count, shippedEvery = 0) {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    petId: 1000 + index,
    quantity: 1 + (index % 5),
    shipDate: '2026-12-01T09:00:00Z',
    complete: false,
    status: shippedEvery > 0 && index % shippedEvery === 0 ? 'shipped' : 'pending',
  }));
}

/** The resident memory of a process, in MiB (Linux). */
export async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/**
 * Starts a server process; resolves once a GET of the list has been answered, with the time from the
 * spawn to that answer (polled every 5 ms), and the controls of the process.
 */
export async function start(command, args, env = {}, origin, prefix = '/v1') {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited: ${output}`);
    const url = origin ?? /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1];
    if (url) {
      try {
        const response = await fetch(`${url}${prefix}/store/orders`, { headers: key });
        await response.arrayBuffer();
        if (response.ok) {
          return {
            child,
            origin: url,
            api: `${url}${prefix}`,
            firstAnswerMs: performance.now() - started,
            rss: () => rssMiB(child.pid),
            stop: () =>
              new Promise((done) => {
                if (child.exitCode !== null) done();
                else {
                  child.on('close', done);
                  child.kill('SIGTERM');
                }
              }),
          };
        }
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Starts the kit's standalone mock (`dist/bin/petstore-mock.js`, or another build of it) with these arguments, on a free port. */
export function startMock(args = [], cli = mockCli) {
  return start(process.execPath, [cli, '--port', '0', ...args]);
}
