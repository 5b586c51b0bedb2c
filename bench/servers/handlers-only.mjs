// The kit's standalone server with its fast path off: every request through the MSW handlers (getResponse).
import { readFileSync } from 'node:fs';
import { createServer, parseJson } from '../../dist/mocks/index.js';

const server = createServer({ seed: parseJson(readFileSync(process.env.SEED_FILE, 'utf8')), fastPath: false });
console.log(`listening on ${await server.listen(0, '127.0.0.1')}/v1`);
