// The cancel on a small store (issue 37, item 2): the standalone mock with 100 pending orders against
// the bare node:http baseline (204 to every DELETE), each in its own process. A burst is 100 DELETEs of
// ids 1 to 100 over 32 keep-alive connections (CONNECTIONS); between bursts, untimed, the mock's store is reset (its
// 100 orders pending again). Per server: requests a second within the bursts, and the server's CPU
// (every thread, from /proc/PID/task/*/schedstat) per cancel within them. Rounds alternate between
// the servers; medians, and the mock's ratios to the baseline of the same round.
// `node bench/cancel-cpu.mjs [rounds] [bursts]` (needs `npm run build`); MOCK_CLI: another build's bin.
import { readdir, readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { key, median, mockCli, start } from './support.mjs';

const burst = 100;
const connections = Number(process.env.CONNECTIONS ?? 32);

/** Nanoseconds of CPU a process has used, all its threads. */
async function cpuNs(pid) {
  let total = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    try {
      total += Number((await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8')).split(' ')[0]);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return total;
}

function send(agent, url, method) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers: key }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', reject);
    request.end();
  });
}

/** One burst of cancels: ids 1 to 100 over the connections; its wall time and the server's CPU. */
async function oneBurst(server, agent) {
  let next = 1;
  const cpuBefore = await cpuNs(server.child.pid);
  const began = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next <= burst) {
        const status = await send(agent, `${server.api}/store/orders/${next++}`, 'DELETE');
        if (status !== 204) throw new Error(`a cancel answered ${status}`);
      }
    }),
  );
  const ms = performance.now() - began;
  return { ms, cpuNs: (await cpuNs(server.child.pid)) - cpuBefore };
}

async function measureServer(server, bursts, reset) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let ms = 0;
  let cpu = 0;
  try {
    for (let index = 0; index < bursts; index++) {
      const result = await oneBurst(server, agent);
      ms += result.ms;
      cpu += result.cpuNs;
      await reset();
    }
  } finally {
    agent.destroy();
  }
  return { rps: (bursts * burst) / (ms / 1000), cpuUs: cpu / 1000 / (bursts * burst) };
}

/** Medians over the rounds of each server's requests a second and CPU per cancel, and the mock's ratios. */
export async function measureCancelCpu({ rounds = 5, bursts = 40, cli = mockCli } = {}) {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-cancel-'));
  const seed = join(directory, 'orders.json');
  await writeFile(seed, JSON.stringify(Array.from({ length: burst }, (_, index) => ({ id: index + 1 }))));
  const body = join(directory, 'body.json');
  await writeFile(body, '[]');
  const baseline = await start(process.execPath, ['bench/servers/baseline.mjs'], { BODY_FILE: body });
  const mock = await start(process.execPath, [
    ...(process.env.MOCK_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    cli,
    '--port',
    '0',
    '--seed',
    seed,
  ]);
  const resetMock = async () => {
    const answer = await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' });
    if (answer.status !== 204) throw new Error(`the reset answered ${answer.status}`);
  };
  const samples = { baseline: [], mock: [] };
  try {
    await measureServer(mock, 5, resetMock);
    await measureServer(baseline, 5, async () => {});
    for (let round = 0; round < rounds; round++) {
      samples.mock.push(await measureServer(mock, bursts, resetMock));
      samples.baseline.push(await measureServer(baseline, bursts, async () => {}));
    }
  } finally {
    await mock.stop();
    await baseline.stop();
    await rm(directory, { recursive: true, force: true });
  }
  const pick = (name, field) => median(samples[name].map((sample) => sample[field]));
  return {
    baseline: { rps: pick('baseline', 'rps'), cpuUs: pick('baseline', 'cpuUs') },
    mock: { rps: pick('mock', 'rps'), cpuUs: pick('mock', 'cpuUs') },
    rpsRatio: median(samples.mock.map((sample, index) => sample.rps / samples.baseline[index].rps)),
    cpuRatio: median(samples.mock.map((sample, index) => sample.cpuUs / samples.baseline[index].cpuUs)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [rounds, bursts] = process.argv.slice(2).map(Number);
  const result = await measureCancelCpu({
    rounds: rounds || 5,
    bursts: bursts || 40,
    cli: process.env.MOCK_CLI ?? mockCli,
  });
  console.log('| server | cancels a second | × baseline | CPU per cancel | × baseline |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| baseline | ${result.baseline.rps.toFixed(0)} | 1.00 | ${result.baseline.cpuUs.toFixed(1)} µs | 1.00 |`,
  );
  console.log(
    `| mock | ${result.mock.rps.toFixed(0)} | ${result.rpsRatio.toFixed(2)} | ${result.mock.cpuUs.toFixed(1)} µs | ${result.cpuRatio.toFixed(2)} |`,
  );
}
