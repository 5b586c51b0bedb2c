import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlPlaneLines } from '../../cli/control-plane-lines.js';
import { cliPath, runToExit, startCommand, type RunningMock } from '../support/cli-support.js';
import { authorized, expectError } from '../support/support.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-cli-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runToExit(process.execPath, [cliPath, ...args], { env });
const start = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  startCommand(process.execPath, [cliPath, '--port', '0', ...args], { env });

async function withMock(
  args: string[],
  test: (mock: RunningMock) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const mock = await start(args, env);
  try {
    await test(mock);
  } finally {
    await mock.stop();
  }
}

describe('petstore-mock', () => {
  it('prints where it listens and serves the default orders there', async () => {
    await withMock([], async (mock) => {
      expect(mock.output()).toMatch(
        /^petstore-mock listening on http:\/\/127\.0\.0\.1:\d+\/v1\ncontrol plane and its page at http:\/\/127\.0\.0\.1:\d+\/__mock\/\n/,
      );
      const response = await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized });
      expect(((await response.json()) as unknown[]).length).toBe(5);
    });
  });

  it('exits 0 on SIGTERM, SIGINT and SIGHUP', async () => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      const mock = await start([]);
      const exit = await mock.stop(signal);
      expect(exit.code, signal).toBe(0);
    }
  });

  it('exits 0 on SIGTERM while 1,000 clients hold their CONNECT sockets open, holding none of them itself', async () => {
    const mock = await start([]);
    const { hostname, port } = new URL(mock.origin);
    const held: Socket[] = [];
    try {
      // Each client reads the 400 and keeps its side open, as a client that never hangs up would.
      await Promise.all(
        Array.from(
          { length: 1000 },
          () =>
            new Promise<void>((answered, failed) => {
              const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true }, () =>
                socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
              );
              held.push(socket);
              socket.on('data', () => {});
              socket.on('end', () => answered());
              socket.on('error', failed);
            }),
        ),
      );
      // Far fewer than the 1,000 it would hold if it kept its side of each.
      await expect.poll(() => readdirSync(`/proc/${mock.child.pid}/fd`).length).toBeLessThan(200);
      const exit = await mock.stop('SIGTERM');
      expect(exit.code).toBe(0);
    } finally {
      for (const socket of held) socket.destroy();
      await mock.stop();
    }
  });

  it('prints its help and its version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: petstore-mock \[options\]/);
    for (const flag of [
      '--port',
      '--host',
      '--api-key',
      '--seed',
      '--no-control',
      '--pet-sunset',
      '--pet-deprecation',
      '--body-limit',
      '--verbose',
      '--version',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    const version = await cli(['--version']);
    const packageJson = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(version).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
  });

  it.each([
    [['--nope'], /^petstore-mock: Unknown option '--nope' \(see --help\)\n$/],
    [['--prot', '4010'], /^petstore-mock: Unknown option '--prot': did you mean --port\? \(see --help\)\n$/],
    [['--API-KEY', 'k'], /^petstore-mock: Unknown option '--API-KEY': did you mean --api-key\? \(see --help\)\n$/],
    [['--port', 'abc'], /^petstore-mock: --port must be an integer from 0 to 65535, got "abc" \(see --help\)\n$/],
    [['--port', '70000'], /^petstore-mock: --port must be an integer from 0 to 65535, got "70000" \(see --help\)\n$/],
    [['--api-key', 'two words'], /^petstore-mock: an API key must be a bearer token/],
    [['--pet-sunset', 'soon'], /^petstore-mock: --pet-sunset must be a date such as 2027-06-30T23:59:59Z, got "soon"/],
    [
      ['--pet-sunset', '2025-01-01T00:00:00Z'],
      /^petstore-mock: the pet sunset date must not be earlier than its deprecation date \(see --help\)\n$/,
    ],
    [['--body-limit', '0'], /^petstore-mock: --body-limit must be an integer from 1 to/],
    [
      ['--host', '999.1.1.1'],
      /^petstore-mock: --host must be an IP address or a host name, got "999\.1\.1\.1" \(see --help\)\n$/,
    ],
    [
      ['--host', 'not_a_host'],
      /^petstore-mock: --host must be an IP address or a host name, got "not_a_host" \(see --help\)\n$/,
    ],
    [
      ['--host', '192.0.2.1'],
      /^petstore-mock: --host 192\.0\.2\.1 is no address of this machine \(EADDRNOTAVAIL\) \(see --help\)\n$/,
    ],
    [
      ['--journal-size', 'many'],
      /^petstore-mock: --journal-size must be an integer from 0 to 1000000, got "many" \(see --help\)\n$/,
    ],
    [['extra'], /^petstore-mock: Unexpected argument 'extra'/],
    [
      ['--scenario', 'nope'],
      /^petstore-mock: unknown scenario "nope"; known: cancel-cancelled-order, .*read-pet-without-key \(see --help\)\n$/,
    ],
    [
      ['--scenario', 'list-without-key'],
      /^petstore-mock: scenario list-without-key sets no provider state and no fault; it runs against any store \(see --help\)\n$/,
    ],
    [
      ['--control-origin', 'https://app.test/app'],
      /^petstore-mock: --control-origin: "https:\/\/app\.test\/app" is not an origin: write it as http\(s\):\/\/host\[:port\], for example https:\/\/app\.test:8443 \(see --help\)\n$/,
    ],
    [
      ['--conflict-body', 'empty'],
      /^petstore-mock: --conflict-body must be error or none, got "empty" \(see --help\)\n$/,
    ],
    [
      ['--control-key', 'two words'],
      /^petstore-mock: --control-key must be a bearer token: letters, digits and - \. _ ~ \+ \/ \(then = padding\) \(see --help\)\n$/,
    ],
    [
      ['--scenario', 'cancel-shipped-order', '--seed', 'orders.yaml'],
      /^petstore-mock: --seed and --scenario cannot be used together \(see --help\)\n$/,
    ],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const exit = await cli(args);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
    expect(exit.stderr.trim().split('\n')).toHaveLength(1);
    expect(exit.stdout).toBe('');
  });

  it('refuses a missing, a malformed and an invalid seed file with one line naming the file, exit code 2', async () => {
    const malformed = join(directory, 'malformed.yaml');
    const invalid = join(directory, 'invalid.json');
    const brokenJson = join(directory, 'broken.json');
    await writeFile(malformed, '- id: 1\n  id: 2\n');
    await writeFile(brokenJson, '[{"id": 1,}]');
    await writeFile(invalid, '[{"id": 1, "status": "lost"}]');
    const cases: [string, RegExp][] = [
      [
        join(directory, 'absent.yaml'),
        /^petstore-mock: cannot read seed file .*absent\.yaml: ENOENT \(see --help\)\n$/,
      ],
      [malformed, /^petstore-mock: seed file .*malformed\.yaml is not valid YAML or JSON: Map keys must be unique/],
      [brokenJson, /^petstore-mock: seed file .*broken\.json is not valid JSON: /],
      [
        invalid,
        /^petstore-mock: seed file .*invalid\.json: Invalid orders: \/0\/status must be one of "pending", "shipped", "cancelled"\. \(see --help\)\n$/,
      ],
    ];
    for (const [file, message] of cases) {
      const exit = await cli(['--seed', file]);
      expect(exit.code).toBe(2);
      expect(exit.stderr).toMatch(message);
    }
  });

  it('seeds from a YAML file, keeping ids beyond 2^53 exact', async () => {
    const seed = join(directory, 'orders.yaml');
    await writeFile(
      seed,
      '- id: 9007199254740993\n  petId: 9223372036854775807\n  shipDate: "2026-12-24T18:00:00Z"\n- id: 2\n  status: shipped\n',
    );
    await withMock(['--seed', seed], async (mock) => {
      const response = await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized });
      expect(await response.text()).toBe(
        '[{"id":9007199254740993,"petId":9223372036854775807,"shipDate":"2026-12-24T18:00:00Z"},{"id":2}]',
      );
      await expectError(
        await fetch(`${mock.baseUrl}/store/orders/2`, { method: 'DELETE', headers: authorized }),
        409,
        'order_already_shipped',
      );
      expect(
        (await fetch(`${mock.baseUrl}/store/orders/9007199254740993`, { method: 'DELETE', headers: authorized }))
          .status,
      ).toBe(204);
      expect((await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' })).status).toBe(204);
      expect(await (await fetch(`${mock.origin}/__mock/orders`)).text()).toContain('{"id":9007199254740993,');
    });
  });

  it("starts in a scenario's provider state with --scenario, returns to it on reset, and loads others by name", async () => {
    await withMock(['--scenario', 'cancel-shipped-order'], async (mock) => {
      expect(await (await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized })).text()).toBe(
        '[{"id":1,"petId":101,"quantity":1},{"id":3,"petId":103,"quantity":1}]',
      );
      await expectError(
        await fetch(`${mock.baseUrl}/store/orders/3`, { method: 'DELETE', headers: authorized }),
        409,
        'order_already_shipped',
      );
      expect((await fetch(`${mock.baseUrl}/store/orders/1`, { method: 'DELETE', headers: authorized })).status).toBe(
        204,
      );
      expect((await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' })).status).toBe(204);
      expect((await fetch(`${mock.baseUrl}/store/orders/1`, { method: 'DELETE', headers: authorized })).status).toBe(
        204,
      );
      const loaded = await fetch(`${mock.origin}/__mock/scenarios/cancel-order-beyond-2-53`, { method: 'POST' });
      expect(await loaded.text()).toBe('{"scenario":"cancel-order-beyond-2-53","seeded":true,"orders":2,"faults":0}');
    });
  });

  it('seeds from a JSON file holding { "orders": [...] }', async () => {
    const seed = join(directory, 'orders.json');
    await writeFile(seed, '{"orders": [{"id": 70, "status": "shipped"}, {"id": 9223372036854775807}]}');
    await withMock(['--seed', seed], async (mock) => {
      expect(await (await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized })).text()).toBe(
        '[{"id":70},{"id":9223372036854775807}]',
      );
    });
  });

  it('accepts every --api-key given, and only those', async () => {
    await withMock(['--api-key', 'first-key', '--api-key', 'second-key'], async (mock) => {
      for (const key of ['first-key', 'second-key']) {
        expect(
          (await fetch(`${mock.baseUrl}/store/orders`, { headers: { authorization: `Bearer ${key}` } })).status,
        ).toBe(200);
      }
      await expectError(await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized }), 401, 'invalid_api_key');
      expect(mock.output()).toContain('accepting 2 configured API key(s)');
    });
  });

  it('reads keys from PETSTORE_API_KEYS and the port from PORT', async () => {
    const port = await freePort();
    const mock = await startCommand(process.execPath, [cliPath], {
      env: { PETSTORE_API_KEYS: 'env-one, env-two', PORT: String(port) },
    });
    try {
      expect(mock.origin).toBe(`http://127.0.0.1:${port}`);
      expect(
        (await fetch(`${mock.baseUrl}/store/orders`, { headers: { authorization: 'Bearer env-two' } })).status,
      ).toBe(200);
      await expectError(await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized }), 401, 'invalid_api_key');
    } finally {
      await mock.stop();
    }
  });

  it('guards the control plane with --control-origin and --control-key', async () => {
    await withMock(['--control-origin', 'https://app.test:8443', '--control-key', 'control-secret'], async (mock) => {
      const reset = (headers: Record<string, string>) =>
        fetch(`${mock.origin}/__mock/reset`, { method: 'POST', headers });
      await expectError(await reset({}), 401, 'missing_control_key');
      expect((await reset({ authorization: 'Bearer control-secret', origin: 'https://app.test:8443' })).status).toBe(
        204,
      );
      await expectError(
        await reset({ authorization: 'Bearer control-secret', origin: 'https://other.test' }),
        403,
        'forbidden_origin',
      );
      expect((await fetch(`${mock.origin}/__mock/`)).status).toBe(200);
    });
  });

  it('turns the control plane off with --no-control', async () => {
    await withMock(['--no-control'], async (mock) => {
      expect(mock.output()).toContain('control plane off');
      await expectError(await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' }), 404, 'not_found');
    });
  });

  it('logs one line per request with --verbose, and never the key', async () => {
    await withMock(['--verbose', '--api-key', 'very-secret-key'], async (mock) => {
      await fetch(`${mock.baseUrl}/store/orders`, { headers: { authorization: 'Bearer very-secret-key' } });
      await fetch(`${mock.baseUrl}/store/orders/1`, {
        method: 'DELETE',
        headers: { authorization: 'Bearer wrong-secret' },
      });
      // The lines are written as each answer ends, and reach this process when they do: wait for them.
      await mock.outputMatching(/GET \/v1\/store\/orders 200 [\d.]+ms\n/);
      await mock.outputMatching(/DELETE \/v1\/store\/orders\/1 401 [\d.]+ms\n/);
      expect(mock.output()).not.toContain('very-secret-key');
      expect(mock.output()).not.toContain('wrong-secret');
    });
  });

  it("refuses a session's pact past --max-pact-bytes with 409 pact_too_large, naming the limit", async () => {
    await withMock(['--max-pact-bytes', '300'], async (mock) => {
      await (await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized })).arrayBuffer();
      const answer = await fetch(`${mock.origin}/__mock/pact?consumer=web-app`);
      expect(answer.status).toBe(409);
      expect(await answer.json()).toMatchObject({
        code: 'pact_too_large',
        message: expect.stringContaining('its JSON text passed the 300 bytes a pact may have'),
      });
    });
  });

  it("says on its standard error the calls a session's pact leaves out, as the pact's metadata says them", async () => {
    await withMock(['--fault', '{"operation":"listOrders","status":503,"times":1}'], async (mock) => {
      await (await fetch(`${mock.baseUrl}/store/orders`, { headers: authorized })).arrayBuffer();
      const pact = (await (await fetch(`${mock.origin}/__mock/pact?consumer=web-app`)).json()) as {
        metadata: Record<string, { leftOut: string }>;
      };
      expect(pact.metadata['petstore-contract-kit']?.leftOut).toBe('GET /v1/store/orders 503: fault');
      await mock.outputMatching(/petstore-mock: the pact of web-app leaves out GET \/v1\/store\/orders 503: fault\n/);
    });
  });

  it('writes a name a client sent with its control characters escaped: no terminal escape, no workflow command', async () => {
    await withMock([], async (mock) => {
      const name = 'x\u001b[31mRED\n::error::injected';
      const post = (path: string) =>
        fetch(`${mock.origin}/__mock/pact/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
      expect((await post('tests')).status).toBeLessThan(300);
      await (await fetch(`${mock.baseUrl}/store/orders/1`, { method: 'DELETE', headers: authorized })).arrayBuffer();
      expect((await post('failed-tests')).status).toBeLessThan(300);
      await (await fetch(`${mock.origin}/__mock/pact?consumer=web-app`)).arrayBuffer();
      const said = await mock.outputMatching(/petstore-mock: the pact of web-app leaves out [^\n]*\n/);
      expect(said).toContain('leaves out test "x\\u{1b}[31mRED\\u{a}::error::injected": did not pass');
      expect(said.includes('\u001b')).toBe(false);
      expect(said).not.toContain('\n::');
    });
  });

  it('announces configured pet dates', async () => {
    await withMock(
      ['--pet-deprecation', '2026-03-01T00:00:00Z', '--pet-sunset', '2026-09-01T00:00:00Z'],
      async (mock) => {
        const response = await fetch(`${mock.baseUrl}/pets/1`, { headers: authorized });
        expect(response.headers.get('deprecation')).toBe('@1772323200');
        expect(response.headers.get('sunset')).toBe('Tue, 01 Sep 2026 00:00:00 GMT');
      },
    );
  });

  it('says in one line, exit code 1, when the port is taken', async () => {
    await withMock([], async (mock) => {
      const port = new URL(mock.origin).port;
      const exit = await cli(['--port', port]);
      expect(exit.code).toBe(1);
      expect(exit.stderr).toBe(
        `petstore-mock: cannot listen on 127.0.0.1:${port}: EADDRINUSE (another process has that port: choose another with --port, or --port 0 for any free one)\n`,
      );
    });
  });

  it("stops when npm start's own pid is signalled, and frees its port", async () => {
    const port = await freePort();
    const mock = await startCommand('npm', ['start', '--silent', '--', '--port', String(port)]);
    try {
      expect((await fetch(`${mock.origin}/__mock/orders`)).status).toBe(200);
      // As `npm start &` then `kill $!` does: the signal reaches npm alone, not its process group.
      mock.child.kill('SIGTERM');
      await expect.poll(() => canBind(port)).toBe(true);
    } finally {
      await mock.stop();
    }
  });

  // A wrapper as npx is one: it starts the server as its child and passes no signal on.
  const wrapper = (stdin: 'inherit' | 'pipe') =>
    `const child = require('node:child_process').spawn(process.execPath, process.argv.slice(1), { stdio: ['${stdin}', 'inherit', 'inherit'] });
     setInterval(() => {}, 1 << 30);`;

  it('stops when the process that started it ends, as `npx petstore-mock &` then `kill $!` does, and frees its port', async () => {
    const mock = await startCommand(process.execPath, ['-e', wrapper('inherit'), cliPath, '--port', '0']);
    try {
      const port = Number(new URL(mock.origin).port);
      expect((await fetch(`${mock.origin}/__mock/orders`)).status).toBe(200);
      // The signal reaches the wrapper alone, not its process group: the server is orphaned.
      mock.child.kill('SIGTERM');
      await expect.poll(() => canBind(port)).toBe(true);
      expect(await mock.outputMatching('has ended; stopping')).toMatch(
        /\npetstore-mock: the process that started it \(pid \d+\) has ended; stopping\n/,
      );
    } finally {
      await mock.stop('SIGKILL');
    }
  });

  it('stops when its standard input ends, with --stop-on-stdin-end, whatever happened to the parent', async () => {
    const args = ['-e', wrapper('pipe'), cliPath, '--port', '0', '--stop-on-stdin-end', '--no-follow-parent'];
    const mock = await startCommand(process.execPath, args);
    try {
      const port = Number(new URL(mock.origin).port);
      // The wrapper dies at once, without a word: only the pipe's end tells the server.
      mock.child.kill('SIGKILL');
      await expect.poll(() => canBind(port)).toBe(true);
      expect(await mock.outputMatching('standard input ended')).toContain(
        'petstore-mock: its standard input ended (--stop-on-stdin-end); stopping\n',
      );
    } finally {
      await mock.stop('SIGKILL');
    }
  });

  it('runs through npm start, passing flags after -- through', async () => {
    const port = await freePort();
    const mock = await startCommand('npm', ['start', '--silent', '--', '--port', String(port), '--api-key', 'npm-key']);
    try {
      expect(mock.origin).toBe(`http://127.0.0.1:${port}`);
      expect(
        (await fetch(`${mock.baseUrl}/store/orders`, { headers: { authorization: 'Bearer npm-key' } })).status,
      ).toBe(200);
    } finally {
      await mock.stop();
    }
  });
});

/** Whether this port can be bound on 127.0.0.1 now (nothing holds it). */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('what petstore-mock says of its control plane at start', () => {
  it('names the page on a loopback address', () => {
    expect(controlPlaneLines({ control: true, host: '127.0.0.1' }, 'http://127.0.0.1:4010')).toEqual([
      'control plane and its page at http://127.0.0.1:4010/__mock/',
    ]);
  });

  it('warns that the network can reach it on another address, without a key', () => {
    expect(controlPlaneLines({ control: true, host: '0.0.0.0' }, 'http://0.0.0.0:4010')).toEqual([
      'control plane and its page at http://0.0.0.0:4010/__mock/',
      'warning: --host 0.0.0.0 makes the control plane reachable from the network, without a key: anyone who can reach this port can read and change the mock (set --control-key KEY, or --no-control)',
    ]);
  });

  it('says the network needs the key when one is set', () => {
    expect(controlPlaneLines({ control: true, host: '0.0.0.0', controlKey: 'k' }, 'http://0.0.0.0:4010')[1]).toBe(
      'the control plane is reachable from the network and requires the --control-key',
    );
  });

  it('says it is off with --no-control', () => {
    expect(controlPlaneLines({ control: false, host: '0.0.0.0' }, 'http://0.0.0.0:4010')).toEqual([
      'control plane off',
    ]);
  });
});
