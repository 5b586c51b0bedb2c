// What the verifier's certificate store costs (verify/pact/pact-verifier-pool.ts): one verification of the
// shipped pact against the kit's mock, in a fresh process of pact-core's verifier, with the machine's
// store, with a store holding one certificate that nobody can sign with (what the kit gives it), and
// with an empty store (what it gave before pact-core 20, which refuses one). Alternating rounds; CPU is
// the ended children's (/proc/self/stat). The verdict does not matter here (the mock's states are set
// without the kit's guard), only what a verification costs.
// `node bench/pact-certificate-store.mjs [rounds] [pact-core folder]`; needs `npm run build`. The
// folder defaults to this checkout's pact-core (19 on Node 20); give a provider project's
// node_modules/@pact-foundation/pact-core under Node 24 for pact-core 20.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from '../dist/mocks/index.js';
import { median } from './support.mjs';

const [rounds = 5, pactCoreFolder = 'node_modules/@pact-foundation/pact-core'] = process.argv.slice(2);
const pactCore = pathToFileURL(
  resolve(pactCoreFolder, JSON.parse(readFileSync(join(pactCoreFolder, 'package.json'), 'utf8')).main),
).href;
const pact = resolve('contracts/pacts/petstore-order-client-petstore-order-interface.json');

/** CPU seconds of this process's ended children (user + system). */
function childCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return fields.slice(13, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

const folder = mkdtempSync(join(tmpdir(), 'petstore-bench-certificates-'));
mkdirSync(join(folder, 'none'));
writeFileSync(join(folder, 'empty.pem'), '');
// The kit's certificate, as its pool writes it.
const poolSource = readFileSync('dist/verify/pact/pact-verifier-pool.js', 'utf8');
const certificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(poolSource)?.[0];
if (certificate === undefined) throw new Error('no certificate in dist/verify/pact/pact-verifier-pool.js');
writeFileSync(join(folder, 'one.pem'), certificate);

const stores = {
  machine: {},
  'one certificate': { SSL_CERT_FILE: join(folder, 'one.pem'), SSL_CERT_DIR: join(folder, 'none') },
  empty: { SSL_CERT_FILE: join(folder, 'empty.pem'), SSL_CERT_DIR: join(folder, 'none') },
};

const server = createServer();
const origin = await server.listen(0, '127.0.0.1');
const script = `const { default: m } = await import(${JSON.stringify(pactCore)});
const pact = m.default?.verifyPacts ? m.default : m;
const out = await pact.verifyPacts({ providerBaseUrl: '${origin}/v1', pactUrls: [${JSON.stringify(pact)}],
  providerStatesSetupUrl: '${origin}/__mock/provider-state', logLevel: 'error' }).catch((error) => error.message);
process.send(/builder error/.test(String(out)) ? 'builder error' : 'verified', () => process.exit(0));`;

function verifyOnce(env) {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...env, PACT_DO_NOT_TRACK: 'true' },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    let outcome = 'no outcome';
    child.on('message', (message) => (outcome = String(message)));
    child.on('close', () => done(outcome));
  });
}

const figures = Object.fromEntries(Object.keys(stores).map((name) => [name, { cpu: [], outcome: '' }]));
for (let round = 0; round < Number(rounds); round++)
  for (const [name, env] of Object.entries(stores)) {
    const before = childCpuSeconds();
    figures[name].outcome = await verifyOnce(env);
    figures[name].cpu.push(childCpuSeconds() - before);
  }
await server.close();
rmSync(folder, { recursive: true, force: true });

console.log(
  `Node ${process.versions.node}, ${pactCoreFolder} ${JSON.parse(readFileSync(join(pactCoreFolder, 'package.json'), 'utf8')).version}, ${rounds} rounds`,
);
for (const [name, { cpu, outcome }] of Object.entries(figures))
  console.log(
    `${name.padEnd(16)} ${outcome.padEnd(14)} CPU a verification: median ${median(cpu).toFixed(2)} s (${cpu.map((s) => s.toFixed(2)).join(', ')})`,
  );
