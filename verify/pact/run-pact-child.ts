import { dropVerifier, releaseVerifier, takeVerifier, type VerifierProcess } from './pact-verifier-pool.js';

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
  /** Set with `crash` when the verifier never started on the pact (pact-core would not load, or refused its options). */
  notRun?: true;
  /**
   * Set with `crash` when the run's deadline stopped the verifier while the provider kept nothing
   * waiting (no request under way, none late): no verdict, and not the provider's doing.
   */
  unfinished?: true;
}

/** What the verifier's process said of a job, or how it ended without saying. */
type Ended =
  | { message: { results?: string; crash?: string; notRun?: true } }
  | { exit: { code: number | null; signal: NodeJS.Signals | null }; stderr: string };

/** What the verifier's process left: its verdict, else why there is none. */
function readOutcome(ended: Ended, stopReason: string | undefined): PactChildOutcome {
  if (stopReason !== undefined) return { crash: stopReason };
  if ('message' in ended) {
    if (ended.message.crash !== undefined)
      return { crash: ended.message.crash, ...(ended.message.notRun === true && { notRun: true as const }) };
    try {
      return { results: JSON.parse(ended.message.results ?? '{}') as PactResults };
    } catch {
      return { crash: `Pact's verifier ended without a verdict: its results are not JSON` };
    }
  }
  const { exit } = ended;
  if (exit.signal === 'SIGKILL') return { crash: `Pact's verifier was killed` };
  const line = ended.stderr
    .trim()
    .split('\n')
    .filter((text) => text.trim() !== '')
    .pop();
  return {
    crash: `Pact's verifier ended without a verdict (exit ${exit.code ?? exit.signal})${line === undefined ? '' : `: ${line.trim()}`}`,
  };
}

let jobs = 0;

/** Sends one job to a verifier process and waits for its answer, or for the process to end. */
function runJob(verifier: VerifierProcess, job: { options: object; descriptionFilter: string | undefined }) {
  const id = ++jobs;
  const { child } = verifier;
  return new Promise<Ended>((resolve) => {
    const answered = (message: { job?: number; results?: string; crash?: string; notRun?: true }) => {
      if (message.job !== id) return;
      settle({ message });
    };
    const ended = (code: number | null, signal: NodeJS.Signals | null) =>
      settle({ exit: { code, signal }, stderr: verifier.stderr });
    const failed = (error: Error) => settle({ exit: { code: null, signal: null }, stderr: error.message });
    const settle = (outcome: Ended) => {
      child.off('message', answered).off('close', ended).off('error', failed);
      resolve(outcome);
    };
    child.on('message', answered).on('close', ended).on('error', failed);
    child.send({ job: id, options: job.options, descriptionFilter: job.descriptionFilter }, (error) => {
      if (error !== null && error !== undefined) failed(error);
    });
  });
}

/**
 * Pact's verifier in a process of its own, taken from the pool of idle ones (`pact-verifier-pool.ts`);
 * `stop` ends it early with a reason. A process that answered with results goes back to the pool; one
 * that crashed, was stopped or passed the deadline is killed, never used again.
 */
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
    const verifier = await takeVerifier({ loopbackOnly: run.loopbackOnly });
    stopChild = () => dropVerifier(verifier);
    if (stopReason !== undefined) stopChild();
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              // Worded as when the run's watch stops it for the deadline: whichever comes first, one message.
              stopReason ??= `Pact's verifier was stopped: the run passed its deadline`;
              dropVerifier(verifier);
            },
            Math.max(0, deadline - Date.now()),
          );
    const ended = stopReason === undefined ? await runJob(verifier, { options, descriptionFilter }) : undefined;
    clearTimeout(timer);
    // A stop that comes after this job must not reach the process, which may be running another job by then.
    stopChild = undefined;
    const result = readOutcome(ended ?? { message: {} }, stopReason);
    if (result.results !== undefined) releaseVerifier(verifier);
    else dropVerifier(verifier);
    return result;
  })();
  return {
    outcome,
    stop(reason) {
      stopReason ??= `Pact's verifier was stopped: ${reason}`;
      stopChild?.();
    },
  };
}
