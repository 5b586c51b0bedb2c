// What reusing Pact's verifier processes (verify/pact/pact-verifier-pool.ts) saves: N verifications of the
// shipped pact against the kit's mock, in this one process, with a fresh verifier process for each
// (the idle ones ended before every verification, as before the pool) against the pool's reused ones.
// Alternating rounds; CPU is this process's and its ended children's (/proc/self/stat), wall is each
// round's. `node bench/pact-verifier-pool.mjs [verifications] [rounds]`; needs `npm run build`.
import { readFileSync } from 'node:fs';
import { createServer } from '../dist/mocks/index.js';
import { verifyPact } from '../dist/verify/pact/pact.js';
import { closeIdleVerifiers, pactVerifierProcesses } from '../dist/verify/pact/pact-verifier-pool.js';
import { median } from './support.mjs';

const [verifications = 10, rounds = 3] = process.argv.slice(2).map(Number);

/** CPU seconds of this process and of its children that have ended (user + system). */
function cpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime: fields 14–17 of stat(5), in clock ticks of 1/100 s.
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

/** Ends the idle verifiers and waits until they have ended, so that their CPU is counted. */
async function endVerifiers() {
  const { idle } = pactVerifierProcesses();
  closeIdleVerifiers();
  const gone = (pid) => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  while (!idle.every(gone)) await new Promise((resolve) => setTimeout(resolve, 10));
}

const server = createServer();
const origin = await server.listen(0, '127.0.0.1');
const options = { baseUrl: `${origin}/v1`, apiKey: 'petstore-dev-key', stateUrl: `${origin}/__mock/provider-state` };

async function round(mode) {
  await endVerifiers();
  const cpu = cpuSeconds();
  const started = performance.now();
  for (let index = 0; index < verifications; index++) {
    if (mode === 'fresh') await endVerifiers();
    const suite = await verifyPact(options);
    if (suite.verdict !== 'passed') throw new Error(`verification ${index + 1} (${mode}): ${suite.verdict}`);
  }
  await endVerifiers();
  return { cpu: cpuSeconds() - cpu, wall: (performance.now() - started) / 1000 };
}

const results = { fresh: [], pooled: [] };
for (let index = 0; index < rounds; index++)
  for (const mode of index % 2 === 0 ? ['fresh', 'pooled'] : ['pooled', 'fresh']) results[mode].push(await round(mode));
await server.close();

const [load] = readFileSync('/proc/loadavg', 'utf8').split(' ');
for (const mode of ['fresh', 'pooled']) {
  const each = (key) => results[mode].map((result) => result[key].toFixed(2)).join(', ');
  const per = (key) => ((median(results[mode].map((result) => result[key])) / verifications) * 1000).toFixed(0);
  console.log(
    `${mode}: CPU ${each('cpu')} s, wall ${each('wall')} s for ${verifications} verifications; median per verification ${per('cpu')} ms CPU, ${per('wall')} ms wall`,
  );
}
console.log(`load at the end: ${load}`);
