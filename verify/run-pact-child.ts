import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageFolder } from '../core/package-folder.js';

/** What Pact's verifier reports, as `pactffi_verifier_json` writes it. */
export interface PactResults {
  result?: boolean;
  interactionResults?: { description: string; result: string; duration?: string }[];
  errors?: {
    interaction: string;
    mismatch?: {
      type?: string;
      message?: string;
      mismatches?: PactMismatch[];
    };
  }[];
}

/** One mismatch of Pact's verifier: what the pact expected, what came, and Pact's sentence. */
export interface PactMismatch {
  type?: string;
  expected?: unknown;
  actual?: unknown;
  mismatch?: string;
  path?: string;
  key?: string;
}

/** What the verifier's process left: Pact's results, or why there are none. */
export interface PactChildOutcome {
  results?: PactResults;
  crash?: string;
}

/** What the verifier's process left: its verdict in the outcome file, else why there is none. */
async function readOutcome(ended: {
  exit: { code: number | null; signal: NodeJS.Signals | null };
  outcomeFile: string;
  /** The end of what the process wrote to stderr. */
  stderr: string;
  /** Why the process was stopped, if it was. */
  stopReason: string | undefined;
}): Promise<PactChildOutcome> {
  const { exit } = ended;
  try {
    if (exit.signal === 'SIGKILL') return { crash: ended.stopReason ?? `Pact's verifier was killed` };
    const outcome = JSON.parse(await readFile(ended.outcomeFile, 'utf8')) as { results?: string; crash?: string };
    if (outcome.crash !== undefined) return { crash: outcome.crash };
    return { results: JSON.parse(outcome.results ?? '{}') as PactResults };
  } catch {
    const line = ended.stderr
      .trim()
      .split('\n')
      .filter((text) => text.trim() !== '')
      .pop();
    return {
      crash: `Pact's verifier ended without a verdict (exit ${exit.code ?? exit.signal})${line === undefined ? '' : `: ${line.trim()}`}`,
    };
  }
}

/**
 * Starts the child process that runs Pact's verifier: its options and its outcome go through files.
 * Pact's verifier builds a new HTTP client for every request it sends, and each loads every trusted
 * certificate of the machine; a verifier that talks only to the guard, over plain HTTP on loopback,
 * is given an empty certificate store instead (docs/architecture.md, what the upstream packages would need).
 */
function spawnVerifier(files: {
  optionsFile: string;
  outcomeFile: string;
  descriptionFilter: string | undefined;
  /** An empty folder and file to stand for the certificate store, or undefined to keep the machine's. */
  emptyCertificates: { folder: string; file: string } | undefined;
}) {
  const child = join(packageFolder(import.meta.url, 'dist', 'verify/pact-child.js'), 'verify', 'pact-child.js');
  const certificates = files.emptyCertificates;
  return spawn(process.execPath, [child, files.optionsFile, files.outcomeFile], {
    env: {
      ...withoutPactSettings(process.env),
      ...(certificates === undefined ? {} : { SSL_CERT_FILE: certificates.file, SSL_CERT_DIR: certificates.folder }),
      PACT_DO_NOT_TRACK: 'true',
      PACT_DESCRIPTION: files.descriptionFilter,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

// Pact's verifier reads settings of its own from the environment (PACT_BROKER_BASE_URL adds the
// broker as a source of pacts, PACT_PROVIDER_* publish results): it is given only the files the kit
// chose, and the kit talks to the broker itself.
function withoutPactSettings(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !/^PACT_/i.test(name)));
}

/** An empty certificate file and folder inside `directory`. */
async function emptyCertificateStore(directory: string): Promise<{ folder: string; file: string }> {
  const folder = join(directory, 'certificates');
  await mkdir(folder);
  const file = join(directory, 'no-certificates.pem');
  await writeFile(file, '');
  return { folder, file };
}

/** Pact's verifier in its own process; `stop` ends it early with a reason. */
export function runPactChild(run: {
  /** The verifier's options. */
  options: object;
  deadline: number | undefined;
  /** Pact's `PACT_DESCRIPTION`: only the interactions whose description matches it are verified. */
  descriptionFilter: string | undefined;
  /** True when the verifier reads its pacts from files and sends requests only to the guard: it needs no TLS. */
  loopbackOnly: boolean;
}): { outcome: Promise<PactChildOutcome>; stop(reason: string): void } {
  const { options, deadline, descriptionFilter } = run;
  let stopReason: string | undefined;
  let stopChild: (() => void) | undefined;
  const outcome = (async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-pact-'));
    const optionsFile = join(directory, 'options.json');
    const outcomeFile = join(directory, 'outcome.json');
    await writeFile(optionsFile, JSON.stringify(options));
    const emptyCertificates = run.loopbackOnly ? await emptyCertificateStore(directory) : undefined;
    const child = spawnVerifier({ optionsFile, outcomeFile, descriptionFilter, emptyCertificates });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    stopChild = () => child.kill('SIGKILL');
    if (stopReason !== undefined) stopChild();
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              // Worded as when the run's watch stops it for the deadline: whichever comes first, one message.
              stopReason ??= `Pact's verifier was stopped: the run passed its deadline`;
              child.kill('SIGKILL');
            },
            Math.max(0, deadline - Date.now()),
          );
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    clearTimeout(timer);
    try {
      return await readOutcome({ exit, outcomeFile, stderr, stopReason });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  })();
  return {
    outcome,
    stop(reason) {
      stopReason ??= `Pact's verifier was stopped: ${reason}`;
      stopChild?.();
    },
  };
}
