// The standalone server for the soak, started with --expose-gc: on an IPC message it runs a full
// garbage collection and reports the heap still in use, the memory the server really retains (RSS
// also counts heap V8 has reserved and keeps).
import { readFileSync } from 'node:fs';
import { createServer, parseJson } from '../../dist/mocks/index.js';

const server = createServer({
  seed: parseJson(readFileSync(process.env.SEED_FILE, 'utf8')),
  sessions: { limit: 1000 },
});
console.log(`listening on ${await server.listen(0, '127.0.0.1')}/v1`);
process.on('message', () => {
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  process.send({ heapUsed, rss });
});
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
