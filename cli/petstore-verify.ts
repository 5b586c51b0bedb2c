#!/usr/bin/env node
// petstore-verify: one module per subcommand under cli/verify/; this file picks one, and makes sure
// no secret reaches what it prints and no failure ends in a stack trace.
import { Redaction } from '../verify/base/redaction.js';
import { redactOutput, stopSignal } from './shared.js';
import { compatCommand } from './verify/compat.js';
import { confidencesOf } from './verify/confidences.js';
import { harCommand } from './verify/har.js';
import { proxyCommand } from './verify/proxy.js';
import { publishCommand } from './verify/publish-pact.js';
import { runCommand } from './verify/run.js';

async function main(): Promise<number | undefined> {
  const [command, ...rest] = process.argv.slice(2);
  // The proxy runs until a signal stops it, then exits at once with its verdict's code, whatever
  // connections are still open.
  if (command === 'proxy') process.exit(await proxyCommand(rest, { stop: stopSignal() }));
  if (command === 'har') return harCommand(rest);
  if (command === 'compat') return compatCommand(rest);
  if (command === 'publish-pact') return publishCommand(rest, process.env);
  if (command === 'explore') return runCommand(rest, true);
  return runCommand(process.argv.slice(2), false);
}

// No secret the command was given in any line it prints; its report files are made from reports
// that are redacted already (runVerification's, the proxy's).
redactOutput(new Redaction(confidencesOf(process.argv.slice(2), process.env)));
// Whatever happens, one line and an exit code: never a stack trace (PETSTORE_VERIFY_DEBUG=1 prints it).
process.env.PACT_DO_NOT_TRACK ??= 'true';
try {
  const exitCode = await main();
  if (exitCode !== undefined) process.exitCode = exitCode;
} catch (error) {
  console.error(`petstore-verify: unexpected failure: ${(error as Error).message?.split('\n')[0] ?? String(error)}`);
  if (process.env.PETSTORE_VERIFY_DEBUG === '1') console.error(error);
  process.exitCode = 2;
}
