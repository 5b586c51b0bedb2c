// A real vitest run of a team's suite (issue 57): a test that fails leaves the calls it made first out
// of the pact `mock.pact()` writes, named in its metadata; the same test passing leaves them in. One
// small run of two files, each writing the pact of a consumer of its own. The project finds vitest, msw
// and the kit (its built dist/) through links into this repository, as package.test.ts links its tools.
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { type Exit, projectRoot, runToExit, scratchFolder } from '../support/cli-support.js';

// The docs' pattern (docs/frontend.md, test/order-mock.ts), for a consumer named by each file.
const orderMock = `import { setupServer } from 'msw/node';
import { createOrderMock } from 'petstore-contract-kit/msw';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export function useOrderMock(consumer: string) {
  const mock = createOrderMock();
  const server = setupServer(...mock.handlers);
  mock.observe(server);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(mock.testStarted(task.fullName));
    return mock.reset();
  });
  afterAll(async () => {
    server.close();
    await mock.pact({ consumer });
  });
}
`;

// The same two tests; the cancel's expectation is wrong in one file only.
const testFile = (consumer: string, cancelStatus: number) => `import { expect, it } from 'vitest';
import { useOrderMock } from './order-mock.js';

useOrderMock('${consumer}');
const headers = { authorization: 'Bearer petstore-dev-key' };

it('lists the orders', async () => {
  const response = await fetch('https://api.example.com/v1/store/orders', { headers });
  expect(response.status).toBe(200);
});

it('cancels a pending order', async () => {
  const response = await fetch('https://api.example.com/v1/store/orders/1', { method: 'DELETE', headers });
  expect(response.status).toBe(${cancelStatus});
});
`;

interface Pact {
  interactions: { request: { method: string; path: string }; response: { status: number } }[];
  metadata: Record<string, JsonValue>;
}

let project: string;
let exit: Exit;
const pactOf = async (consumer: string) =>
  parseJson(
    await readFile(join(project, 'pacts', `${consumer}-petstore-order-interface.json`), 'utf8'),
  ) as unknown as Pact;
const callsIn = (pact: Pact) =>
  pact.interactions.map(({ request, response }) => `${request.method} ${request.path} ${response.status}`).sort();

beforeAll(async () => {
  project = await scratchFolder('petstore-failed-test-run-');
  await mkdir(join(project, 'test'));
  await mkdir(join(project, 'node_modules'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'team-suite', private: true, type: 'module' }));
  for (const tool of ['vitest', 'msw'])
    await symlink(join(projectRoot, 'node_modules', tool), join(project, 'node_modules', tool), 'dir');
  await symlink(projectRoot, join(project, 'node_modules', 'petstore-contract-kit'), 'dir');
  await writeFile(join(project, 'test', 'order-mock.ts'), orderMock);
  await writeFile(join(project, 'test', 'failing.test.ts'), testFile('with-a-failure', 200));
  await writeFile(join(project, 'test', 'passing.test.ts'), testFile('all-passing', 204));
  exit = await runToExit(
    process.execPath,
    [join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--maxWorkers', '1'],
    {
      cwd: project,
      timeout: 90_000,
    },
  );
}, 120_000);
afterAll(() => rm(project, { recursive: true, force: true }));

describe('a vitest run with one failing test', () => {
  it('fails the run on that test alone', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of an ANSI colour code, on purpose
    expect((exit.stdout + exit.stderr).replace(/\u001b\[\d+m/g, '')).toMatch(/Tests\s+1 failed \| 3 passed \(4\)/);
    expect(exit.code).toBe(1);
  });

  it("leaves the failing test's call out of its file's pact", async () => {
    expect(callsIn(await pactOf('with-a-failure'))).toEqual(['GET /v1/store/orders 200']);
  });

  it("names the failing test in that pact's metadata", async () => {
    expect((await pactOf('with-a-failure')).metadata['petstore-contract-kit']).toEqual({
      leftOut: 'test "test/failing.test.ts > cancels a pending order": did not pass',
    });
  });

  it('keeps the same call where the test passed', async () => {
    const pact = await pactOf('all-passing');
    expect(callsIn(pact)).toEqual(['DELETE /v1/store/orders/1 204', 'GET /v1/store/orders 200']);
    expect(pact.metadata['petstore-contract-kit']).toEqual({ leftOut: 'none' });
  });
});
