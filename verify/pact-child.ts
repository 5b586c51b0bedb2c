// Runs Pact's native verifier in a process of its own, so that a crash or a hang inside it cannot take
// petstore-verify with it. The process stays alive between verifications (loading the native library
// is most of a verification's CPU): the parent sends one job at a time over the IPC channel and gets
// its outcome back the same way, and kills this process at a job's deadline. Not part of the package's API.
import { rmSync } from 'node:fs';

/** One verification: Pact's options, and its `PACT_DESCRIPTION` filter (read by pact-core for each verification). */
interface Job {
  job: number;
  options: object;
  descriptionFilter?: string;
}

// `notRun`: the verifier never started on the pact (pact-core would not load, or refused its options), so
// nothing of the provider's was judged: the tool's failure, not the provider's.
type Outcome = { results: string } | { crash: string; notRun?: true };

// The certificate store that trusts nothing, which the parent made for this process, if any: removed when the parent is gone.
const [certificateFolder] = process.argv.slice(2);
let current: number | undefined;

function leave(code: number): never {
  if (certificateFolder !== undefined) rmSync(certificateFolder, { recursive: true, force: true });
  process.exit(code);
}

function send(outcome: Outcome, then: () => void = () => undefined): void {
  if (process.connected) process.send?.({ job: current, ...outcome }, undefined, undefined, then);
  else then();
}

// After a crash the library's state is unknown: the outcome is sent, then this process ends (the parent drops it).
function crash(message: string): void {
  send({ crash: `Pact's verifier crashed: ${message.split('\n')[0]}` }, () => leave(1));
}

process.on('uncaughtException', (error) => crash(error.message));
process.on('unhandledRejection', (error) => crash(String((error as Error)?.message ?? error)));
// The parent ended (or dropped this process): nothing is left to verify for.
process.on('disconnect', () => leave(0));

interface PactCore {
  verifyPacts(options: object): Promise<unknown>;
}

// Loaded while the parent prepares the first job; jobs are listened for at once, so none is missed.
// pact-core is CommonJS: its singleton is `exports.default`, so an ES import finds it at
// `default.default`. Version 19 also put `verifyPacts` on `module.exports` itself; 20 does not.
const pactCore = (import('@pact-foundation/pact-core') as Promise<{ default: { default?: PactCore } }>).then(
  ({ default: exported }) => {
    const pact = exported.default;
    if (typeof pact?.verifyPacts !== 'function') throw new Error('this pact-core has no verifyPacts');
    return pact;
  },
);
pactCore.catch(() => undefined);

/** The first line of what was thrown. */
const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0];

/**
 * One verification. It never started when pact-core would not load, threw before it returned its
 * promise (options refused, its native library missing), or answered "Verification was unable to run"
 * (the native verifier refusing its arguments): then the outcome is `notRun`, the tool's failure, not
 * the provider's. A rejection with the results as JSON is a verification that ran and failed; any other
 * rejection is a crash during the verification.
 */
async function verify(job: Job): Promise<Outcome> {
  if (job.descriptionFilter === undefined) delete process.env.PACT_DESCRIPTION;
  else process.env.PACT_DESCRIPTION = job.descriptionFilter;
  const notRun = (error: unknown): Outcome => ({
    crash: `Pact's verifier could not run: ${firstLine(error)}`,
    notRun: true,
  });
  let running: Promise<unknown>;
  try {
    running = (await pactCore).verifyPacts(job.options);
  } catch (error) {
    return notRun(error);
  }
  try {
    return { results: String(await running) };
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    if (message.trimStart().startsWith('{')) return { results: message };
    if (message === 'Verification was unable to run') return notRun(error);
    return { crash: `Pact's verifier crashed during the verification: ${firstLine(error)}` };
  }
}

process.on('message', async (job: Job) => {
  current = job.job;
  send(await verify(job));
  current = undefined;
});
