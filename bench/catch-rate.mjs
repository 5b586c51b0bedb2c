#!/usr/bin/env node
// The catch rate of petstore-verify's default run (pact, scenarios, 25 exploration runs) on the
// suite's hostile provider (test/support/hostile-provider.ts): each defect switched on alone, one run each;
// a defect is caught when the run exits 1. The honest variations must all exit 0.
// `node bench/catch-rate.mjs [cli ...]` compares builds (each a dist/bin/petstore-verify.js; default
// this one's). Needs `npm run build`. Loopback only.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const directory = await mkdtemp(join(tmpdir(), 'petstore-catch-rate-'));
const bundled = join(directory, 'hostile-provider.mjs');
await build({
  entryPoints: [join(root, 'test/support/hostile-provider.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: bundled,
  logLevel: 'error',
});
const { startHostileProvider } = await import(pathToFileURL(bundled).href);

const honest = [
  {},
  { charset: true },
  { fractionalShipDates: true },
  { offsetShipDates: true },
  { gzip: true },
  { chunked: true },
  { http10: true },
  { extraOrderFields: true },
  { extraErrorFields: true },
  { conflictWithoutBody: true },
  { reverseListOrder: true },
  { keepCancelledListed: true },
  { secondCancelConflict: true },
];
const defects = [
  { bytesAfter204: true },
  { fractionalId: true },
  { closeMidBody: true },
  { badGzip: true },
  { stallBody: true },
  { stallHeaders: true },
  { duplicateIds: true },
  { wrongField: 'petId' },
  { wrongField: 'quantity' },
  { wrongField: 'complete' },
  { wrongField: 'shipDate' },
  { reviveOnSecondCancel: true },
  { lossyIds: true },
  { noChallenge: true },
  { basicChallenge: true },
  { acceptBasic: true },
  { petAcceptsAnyKey: true },
  { phantomOrder: true },
  { invalidUtf8: true },
  { byteOrderMark: true },
  { deprecationTrue: true },
  { sunsetSoon: true },
  { lookupBeforeAuth: true },
  { redirectList: true },
  { cancelRemovesNeighbour: true },
  { keyPrefixMatch: true },
  { openTrailingSlash: true },
  { relistOnSecondCancel: true },
  { int32Quantity: true },
  { pageAfter: 8 },
  { wrongOrderAbove: 6 },
  { refuseNegativeIds: true },
  { leakAfterCancels: 3 },
  { emptyStoreErrors: true },
  { nonAtomicCancel: true },
];

function run(cli, switches) {
  return new Promise((resolve) => {
    startHostileProvider(switches).then((provider) => {
      const stall = switches.stallBody || switches.stallHeaders ? ['--timeout', '0.5'] : [];
      const child = execFile(
        process.execPath,
        [cli, ...provider.args, ...stall, '--no-prism'],
        { env: { ...process.env, PACT_DO_NOT_TRACK: 'true' }, timeout: 170_000 },
        () => undefined,
      );
      child.on('close', async (code) => {
        await provider.close();
        resolve(code);
      });
    });
  });
}

// CATCH_ONLY=relistOnSecondCancel,leakAfterCancels runs only the defects whose switches it names.
const only = process.env.CATCH_ONLY?.split(',');
if (only !== undefined) {
  const named = (switches) => Object.keys(switches).some((name) => only.includes(name));
  defects.splice(0, defects.length, ...defects.filter(named));
  honest.splice(0, honest.length);
}

const clis = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [join(root, 'dist/bin/petstore-verify.js')];
try {
  for (const cli of clis) {
    const missed = [];
    // Caught: the run is not green. A provider that never sends its headers is exit 2 by design (the
    // preflight: the base URL does not answer), which fails a CI as surely as exit 1.
    const exits = [];
    for (const switches of defects) {
      const code = await run(cli, switches);
      if (code !== 1) exits.push(`${JSON.stringify(switches)} exit ${code}`);
      if (code === 0) missed.push(JSON.stringify(switches));
    }
    const failedHonest = [];
    for (const switches of honest) if ((await run(cli, switches)) !== 0) failedHonest.push(JSON.stringify(switches));
    console.log(
      `${cli}: caught ${defects.length - missed.length} of ${defects.length} defects` +
        `${missed.length > 0 ? ` (missed: ${missed.join(', ')})` : ''}` +
        `${exits.length > 0 ? ` [not exit 1: ${exits.join(', ')}]` : ''}; ` +
        `honest variations green: ${honest.length - failedHonest.length} of ${honest.length}` +
        `${failedHonest.length > 0 ? ` (red: ${failedHonest.join(', ')})` : ''}`,
    );
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}
