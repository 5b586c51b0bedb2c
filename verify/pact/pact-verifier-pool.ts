import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { packageFolder } from '../../core/package-folder.js';

/** One process of Pact's verifier, idle or running one job. */
export interface VerifierProcess {
  readonly child: ChildProcess;
  readonly key: string;
  /** The end of what the process wrote to stderr since its job began. */
  stderr: string;
  /** Ends an idle process that has waited too long; cleared when it takes a job. */
  idleTimer?: NodeJS.Timeout;
}

/** The idle processes of each environment, shared by every copy of this module in one process (vitest loads one per test file). */
interface Pool {
  idle: Map<string, VerifierProcess[]>;
  all: Set<VerifierProcess>;
}

const poolKey = Symbol.for('petstore-contract-kit/pact-verifier-pool/1');
const pool: Pool = ((globalThis as Record<symbol, Pool>)[poolKey] ??= { idle: new Map(), all: new Set() });

// As many idle processes of one environment as there are verifications likely at once on a small
// machine; more are ended when they finish. An idle process ends on its own after a while.
const maxIdle = 2;
const idleLifetime = 30_000;

/** The environment a verifier process gets: the parent's, without Pact's own settings, and with its certificate store. */
function verifierEnvironment(loopbackOnly: boolean): { key: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...withoutPactSettings(process.env), PACT_DO_NOT_TRACK: 'true' };
  return { key: JSON.stringify([loopbackOnly, env]), env };
}

// Pact's verifier reads settings of its own from the environment (PACT_BROKER_BASE_URL adds the
// broker as a source of pacts, PACT_PROVIDER_* publish results): it is given only the files the kit
// chose, and the kit talks to the broker itself.
function withoutPactSettings(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !/^PACT_/i.test(name)));
}

/**
 * A self-signed certificate whose private key was thrown away when it was made: a trust anchor nothing
 * can be signed with. pact-core 20's HTTP client refuses to be built from a store with no certificate at
 * all (every interaction fails with "builder error"); with this one alone it builds, and trusts nothing.
 */
const noTrustAnchor = `-----BEGIN CERTIFICATE-----
MIIBuDCCAV2gAwIBAgIUO/uEdA3Qh7hRPBM5w78eToXi3EcwCgYIKoZIzj0EAwIw
MDEuMCwGA1UEAwwlcGV0c3RvcmUtY29udHJhY3Qta2l0IG5vIHRydXN0IGFuY2hv
cjAgFw0yNjExMjkwMzA5MDNaGA8yMTI2MTEwNTAzMDkwM1owMDEuMCwGA1UEAwwl
cGV0c3RvcmUtY29udHJhY3Qta2l0IG5vIHRydXN0IGFuY2hvcjBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABCWjW26hP1s7VGcnQDjvbrhXb1RsICxZJR2qfmTHlbqT
GVwe87TsQ7AfDR0viZBllxlJCJASROAY1phH7iYUjzOjUzBRMB0GA1UdDgQWBBQi
PgRAZBwPrMxRo7JeA30LXUtgDzAfBgNVHSMEGDAWgBQiPgRAZBwPrMxRo7JeA30L
XUtgDzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQCIuIFNOM3P
NN/FykYElLhgFhPE1yFsNFJJeRbQiCkGIAIhAPQVVVfsSnqVadfPBJdSitXL14ss
zW98uV5bhKmtp4gP
-----END CERTIFICATE-----
`;

/**
 * A certificate file holding only `noTrustAnchor` and an empty folder, in a new temporary folder, which
 * the process removes when it ends.
 */
async function emptyCertificateStore(): Promise<{ directory: string; folder: string; file: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-pact-'));
  const folder = join(directory, 'certificates');
  await mkdir(folder);
  const file = join(directory, 'no-trust-anchor.pem');
  await writeFile(file, noTrustAnchor);
  return { directory, folder, file };
}

/**
 * Starts a process of Pact's verifier. Pact's verifier builds a new HTTP client for every request it
 * sends, and each loads every trusted certificate of the machine; a verifier that talks only to the
 * guard, over plain HTTP on loopback, is given an empty certificate store instead (docs/architecture.md,
 * what the upstream packages would need). The store is set once per process: the pool is keyed by it.
 */
async function spawnVerifier(key: string, environment: NodeJS.ProcessEnv, loopbackOnly: boolean) {
  const script = join(packageFolder(import.meta.url, 'dist', 'verify/pact-child.js'), 'verify', 'pact-child.js');
  const certificates = loopbackOnly ? await emptyCertificateStore() : undefined;
  const child = spawn(process.execPath, [script, ...(certificates === undefined ? [] : [certificates.directory])], {
    env: {
      ...environment,
      ...(certificates === undefined ? {} : { SSL_CERT_FILE: certificates.file, SSL_CERT_DIR: certificates.folder }),
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const verifier: VerifierProcess = { child, key, stderr: '' };
  pool.all.add(verifier);
  child.stderr?.on('data', (chunk) => (verifier.stderr = (verifier.stderr + chunk).slice(-4000)));
  child.on('error', () => drop(verifier));
  child.on('close', () => {
    drop(verifier);
    if (certificates !== undefined) void rm(certificates.directory, { recursive: true, force: true });
  });
  return verifier;
}

/** Whether the process keeps its parent alive: only while it runs a job. */
function holdParent(verifier: VerifierProcess, hold: boolean): void {
  const handles = [verifier.child, verifier.child.channel, verifier.child.stderr as Socket | null];
  for (const handle of handles)
    if (hold) handle?.ref?.();
    else handle?.unref?.();
}

/**
 * An idle verifier process for this environment, or a new one; it keeps the parent alive until it is
 * given back (`releaseVerifier`) or dropped (`dropVerifier`).
 * @example
 * const verifier = await takeVerifier({ loopbackOnly: true });
 * releaseVerifier(verifier);
 */
export async function takeVerifier(run: { loopbackOnly: boolean }): Promise<VerifierProcess> {
  const { key, env } = verifierEnvironment(run.loopbackOnly);
  const idle = pool.idle.get(key) ?? [];
  let verifier = idle.pop();
  while (verifier !== undefined && !alive(verifier)) verifier = idle.pop();
  verifier ??= await spawnVerifier(key, env, run.loopbackOnly);
  clearTimeout(verifier.idleTimer);
  verifier.stderr = '';
  holdParent(verifier, true);
  return verifier;
}

function alive(verifier: VerifierProcess): boolean {
  return pool.all.has(verifier) && verifier.child.exitCode === null && verifier.child.signalCode === null;
}

/**
 * Gives a process back after a job that ended with Pact's results: it waits, unreferenced, for the next
 * job of its environment, or ends when enough are already waiting.
 * @example
 * releaseVerifier(await takeVerifier({ loopbackOnly: true }));
 */
export function releaseVerifier(verifier: VerifierProcess): void {
  if (!alive(verifier)) return;
  const idle = pool.idle.get(verifier.key) ?? [];
  if (idle.length >= maxIdle) {
    dropVerifier(verifier);
    return;
  }
  pool.idle.set(verifier.key, [...idle, verifier]);
  holdParent(verifier, false);
  verifier.idleTimer = setTimeout(() => dropVerifier(verifier), idleLifetime).unref();
}

/**
 * Ends a process (killed: its state is not trusted after a crash, a stop or a deadline) and forgets it.
 * @example
 * dropVerifier(await takeVerifier({ loopbackOnly: true }));
 */
export function dropVerifier(verifier: VerifierProcess): void {
  drop(verifier);
  verifier.child.kill('SIGKILL');
}

function drop(verifier: VerifierProcess): void {
  clearTimeout(verifier.idleTimer);
  pool.all.delete(verifier);
  const idle = pool.idle.get(verifier.key);
  if (idle?.includes(verifier))
    pool.idle.set(
      verifier.key,
      idle.filter((other) => other !== verifier),
    );
}

/**
 * The process ids of the verifier processes alive, idle or running a job (for tests and diagnostics).
 * @example
 * pactVerifierProcesses() // { idle: [4242], busy: [] }
 */
export function pactVerifierProcesses(): { idle: number[]; busy: number[] } {
  const idle = new Set([...pool.idle.values()].flat());
  const pids = (list: VerifierProcess[]) => list.map((verifier) => verifier.child.pid ?? 0);
  return {
    idle: pids([...idle].filter(alive)),
    busy: pids([...pool.all].filter((verifier) => !idle.has(verifier) && alive(verifier))),
  };
}

/**
 * Ends every idle verifier process now (they also end on their own after a while, or with this process).
 * @example
 * closeIdleVerifiers();
 */
export function closeIdleVerifiers(): void {
  for (const verifier of [...pool.idle.values()].flat()) dropVerifier(verifier);
}
