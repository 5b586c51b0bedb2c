// A consumer's pact with v2 interactions (issue 56): written by the kit's mock with their queries,
// judged and sent to the provider, each paired with its own answer by method, path and query, so one
// answered wrongly fails alone and an honest provider passes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeConsumerPacts } from '../../verify/pact/consumer-pacts.js';
import { verifyPact } from '../../verify/pact/pact.js';
import { authorized, startServer } from '../support/support.js';
import { json, startBrokenProvider } from '../support/broken-provider.js';

const seed = [
  { id: 1, status: 'pending' },
  { id: 2, status: 'shipped' },
  { id: 9007199254740993n, status: 'pending' },
];
const pending = 'GET /v2/store/orders?status=pending 200 (with the key)';
const shipped = 'GET /v2/store/orders?status=shipped 200 (with the key)';

let directory: string;
let file: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-consumer-pacts-v2-'));
  // The app's two pages of one path that differ by their query alone, as the kit's mock writes them.
  const app = await startServer({ seed: seed as never });
  try {
    for (const status of ['pending', 'shipped'])
      await fetch(`${app.origin}/v2/store/orders?status=${status}`, { headers: authorized });
    file = join(directory, 'web-app-v2.json');
    await writeFile(file, await (await app.control('/pact?consumer=web-app')).text());
  } finally {
    await app.close();
  }
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const verifyAgainst = (origin: string) =>
  verifyPact({
    baseUrl: `${origin}/v1`,
    apiKey: 'petstore-dev-key',
    stateUrl: `${origin}/__mock/provider-state`,
    pactUrls: [file],
    prism: false,
  });
const verdicts = (suite: Awaited<ReturnType<typeof verifyPact>>) =>
  suite.cases.map((result) => ({ name: result.name, verdict: result.verdict, status: result.exchanges[0]?.status }));

describe("a consumer's pact with v2 interactions", () => {
  it('keeps each v2 interaction for the verifier, the one judge finding nothing against it', async () => {
    const judged = await judgeConsumerPacts([file], {});
    try {
      expect({ contradicted: judged.contradicted, pactUrls: judged.pactUrls }).toEqual({
        contradicted: [],
        pactUrls: [file],
      });
    } finally {
      await judged.remove();
    }
  });

  it("passes the kit's mock as provider, each interaction paired with its own answer", async () => {
    const kit = await startServer();
    try {
      const suite = await verifyAgainst(kit.origin);
      expect(verdicts(suite)).toEqual([
        { name: pending, verdict: 'passed', status: 200 },
        { name: shipped, verdict: 'passed', status: 200 },
      ]);
    } finally {
      await kit.close();
    }
  });

  it('fails the interaction a provider answers wrongly for its query, and not the other on the same path', async () => {
    const provider = await startBrokenProvider((request, response) =>
      new URL(request.url).search === '?status=shipped' ? json({ orders: [], nextCursor: null }, 200) : response,
    );
    try {
      const suite = await verifyAgainst(provider.origin);
      expect(verdicts(suite)).toEqual([
        { name: pending, verdict: 'passed', status: 200 },
        { name: shipped, verdict: 'failed', status: 200 },
      ]);
      expect(suite.cases[1]?.exchanges[0]?.violations[0]).toMatchObject({ code: 'body-schema', path: '$.orders' });
    } finally {
      await provider.close();
    }
  });
});
