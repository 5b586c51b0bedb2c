// A consumer's pact with v2 interactions (issue 56): v2 is not yet verified, so each is named skipped,
// never sent to the provider (where it would "pass" unpaired), never blamed on its consumer.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeConsumerPacts } from '../../verify/pact/consumer-pacts.js';

const devKey = { Authorization: ['Bearer petstore-dev-key'] };
const state = { providerStates: [{ name: 'the store holds these orders', params: { orders: [] } }] };
const v2List = {
  type: 'Synchronous/HTTP',
  description: 'list a page of pending orders',
  ...state,
  request: { method: 'GET', path: '/v2/store/orders', query: { status: ['pending'] }, headers: devKey },
  response: { status: 200 },
};
const v1List = {
  type: 'Synchronous/HTTP',
  description: 'list the orders without a key',
  ...state,
  request: { method: 'GET', path: '/v1/store/orders' },
  response: {
    status: 401,
    headers: { 'Content-Type': ['application/json'] },
    body: {
      content: { code: 'missing_api_key', message: 'No key.', status: 401 },
      contentType: 'application/json',
      encoded: false,
    },
  },
};

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-consumer-pacts-v2-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("a consumer's pact with v2 interactions", () => {
  it('names each v2 interaction skipped as not yet verified and keeps only v1 for the verifier', async () => {
    const file = join(directory, 'v2.json');
    await writeFile(
      file,
      JSON.stringify({
        consumer: { name: 'web-app' },
        provider: { name: 'petstore-order-interface' },
        interactions: [v1List, v2List],
        metadata: { pactSpecification: { version: '4.0' } },
      }),
    );
    const judged = await judgeConsumerPacts([file], {});
    try {
      expect(judged.contradicted).toEqual([
        {
          name: 'list a page of pending orders',
          verdict: 'skipped',
          reason: 'v2, not yet verified by petstore-verify: the interaction is not sent to the provider',
          exchanges: [],
        },
      ]);
      expect(judged.pactUrls).toHaveLength(1);
      expect(judged.pactUrls[0]).not.toBe(file);
    } finally {
      await judged.remove();
    }
  });
});
