// The same MSW handlers of the kit, served through @mswjs/http-middleware (express), seeded from SEED_FILE.
import { readFileSync } from 'node:fs';
import { createServer } from '@mswjs/http-middleware';
import { createOrderMock, parseJson } from '../../dist/mocks/index.js';

const mock = createOrderMock({ seed: parseJson(readFileSync(process.env.SEED_FILE, 'utf8')) });
const server = createServer(...mock.handlers);
const listener = server.listen(0, '127.0.0.1', () =>
  console.log(`listening on http://127.0.0.1:${listener.address().port}/v1`),
);
