// Runs Pact's native verifier in a process of its own, so that a crash or a hang inside it cannot take
// petstore-verify with it: the parent gives the verifier's options in a file, reads the outcome from
// another, and kills this process at its deadline. Not part of the package's API.
import { readFileSync, writeFileSync } from 'node:fs';

const [optionsFile, outcomeFile] = process.argv.slice(2) as [string, string];

function finish(outcome: { results: string } | { crash: string }, code: number): never {
  writeFileSync(outcomeFile, JSON.stringify(outcome));
  process.exit(code);
}

process.on('uncaughtException', (error) =>
  finish({ crash: `Pact's verifier crashed: ${error.message.split('\n')[0]}` }, 1),
);
process.on('unhandledRejection', (error) =>
  finish({ crash: `Pact's verifier crashed: ${String((error as Error)?.message ?? error).split('\n')[0]}` }, 1),
);

const options = JSON.parse(readFileSync(optionsFile, 'utf8')) as Record<string, unknown>;
const { default: pact } = (await import('@pact-foundation/pact-core')) as unknown as {
  default: { verifyPacts(options: object): Promise<unknown> };
};
try {
  finish({ results: String(await pact.verifyPacts(options)) }, 0);
} catch (error) {
  const message = (error as Error).message ?? String(error);
  // A verification that ran and failed rejects with the results as JSON; anything else is a crash.
  if (message.trimStart().startsWith('{')) finish({ results: message }, 0);
  finish({ crash: `Pact's verifier could not run: ${message.split('\n')[0]}` }, 1);
}
