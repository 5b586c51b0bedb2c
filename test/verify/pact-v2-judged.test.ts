// v2's interactions judged against v2's document and the model by every pact judge (issue 56): the
// consumer-pact judge (`--pact`), the guard between Pact's verifier and the provider, and the judge
// `mock.pact()` writes with. Pact matches a page's orders by type only, so without the guard's model a
// provider whose page rounds ids past 2^53 or ignores its filter passed; a consumer's v2 interaction no
// provider can honour was sent to the provider and blamed on it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { judgeConsumerPacts } from '../../verify/pact/consumer-pacts.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { authorized, startServer } from '../support/support.js';

const seed = [
  { id: 9007199254740993n, petId: 7n, quantity: 1, status: 'pending' },
  { id: 9007199254740995n, petId: 7n, quantity: 2, status: 'shipped' },
  { id: 9007199254740997n, petId: 7n, quantity: 3, status: 'pending' },
];
/** The app's v2 calls: a filter, a filter with a limit, the default page, and a limit v2 refuses. */
const queries = ['status=pending', 'status=shipped&limit=5', '', 'limit=0'];

let directory: string;
let file: string;
let pact: Record<string, JsonValue>;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-pact-v2-judged-'));
  const app = await startServer({ seed: seed as never });
  try {
    for (const query of queries)
      await fetch(`${app.origin}/v2/store/orders${query === '' ? '' : `?${query}`}`, { headers: authorized });
    const text = await (await app.control('/pact?consumer=web-app')).text();
    pact = parseJson(text) as Record<string, JsonValue>;
    file = join(directory, 'web-app-v2.json');
    await writeFile(file, text);
  } finally {
    await app.close();
  }
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const interactions = () => pact.interactions as Record<string, JsonValue>[];

/** `petstore-verify --pact FILE` against a provider at `origin`, in process. */
const verifyPactCli = (origin: string, key: string, stateUrl: string, pactFile = file) =>
  runVerifyInProcess([
    '--base-url',
    `${origin}/v1`,
    '--api-key',
    key,
    '--state-url',
    stateUrl,
    '--pact',
    pactFile,
    '--no-prism',
  ]);

async function againstHostile(switches: Switches, pactFile = file) {
  const provider = await startHostileProvider(switches);
  try {
    return await verifyPactCli(provider.origin, hostileKey, `${provider.origin}/__state`, pactFile);
  } finally {
    await provider.close();
  }
}

describe("the v2 interactions mock.pact() writes, by the one judge against v2's document", () => {
  it('writes each v2 call as an interaction, the refused limit included', () => {
    expect(interactions().map((interaction) => interaction.description)).toEqual([
      'GET /v2/store/orders?status=pending 200 (with the key)',
      'GET /v2/store/orders?status=shipped&limit=5 200 (with the key)',
      'GET /v2/store/orders 200 (with the key)',
      'GET /v2/store/orders?limit=0 400 (with the key)',
    ]);
  });

  it('finds nothing against any of them: the consumer-pact judge keeps the file as it is', async () => {
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
});

describe("petstore-verify --pact with v2's interactions", () => {
  it("passes the kit's mock", async () => {
    const kit = await startServer();
    try {
      const exit = await verifyPactCli(kit.origin, 'petstore-dev-key', `${kit.origin}/__mock/provider-state`);
      expect(exit.stdout).toMatch(/\npact: 4 passed, 0 failed \(interactions; 4 checks, 0 violations,/);
      expect(exit.code).toBe(0);
    } finally {
      await kit.close();
    }
  });

  it('passes an honest provider written from scratch, with a cursor of its own', async () => {
    const exit = await againstHostile({ v2OffsetCursor: true });
    expect(exit.stdout).toMatch(/\npact: 4 passed, 0 failed \(interactions; 4 checks, 0 violations,/);
    expect(exit.code).toBe(0);
  });

  it('fails a provider whose pages round ids past 2^53, at the ids the provider state holds', async () => {
    const exit = await againstHostile({ v2RoundsIds: true });
    expect(exit.stdout).toContain(
      '\n    pact › GET /v2/store/orders?status=shipped&limit=5 200 (with the key): expected 9007199254740995, got 9007199254740996 (rounded past 2^53) (at /orders/0/id) [int64-exact]\n',
    );
    expect(exit.stdout).toMatch(/\npact: 1 passed, 3 failed \(interactions; 4 checks \(3 failed\),/);
    expect(exit.code).toBe(1);
  });

  it("fails a provider whose page's orders lack the status v2's document requires", async () => {
    const exit = await againstHostile({ v2OrderWithoutStatus: true });
    expect(exit.stdout).toContain(
      '\n    pact › GET /v2/store/orders?status=shipped&limit=5 200 (with the key): expected required, got nothing (at /orders/0/status) [body-schema]\n',
    );
    expect(exit.code).toBe(1);
  });

  it('fails a provider whose filter ignores status, which Pact, matching a page by its values present, passes', async () => {
    const exit = await againstHostile({ v2FilterIgnoresStatus: true }, await broadStatePact());
    expect(exit.stdout).toContain(
      '\n    pact › GET /v2/store/orders?status=pending 200 (with the key): expected pending, got shipped (at /orders/1/status) [filter-ignored]\n',
    );
    expect(exit.stdout).toMatch(/\npact: 3 passed, 1 failed \(interactions;/);
    expect(exit.code).toBe(1);
  });

  it('passes an honest provider on the same pact, whose state holds more than the filter keeps', async () => {
    const exit = await againstHostile({}, await broadStatePact());
    expect(exit.stdout).toMatch(/\npact: 4 passed, 0 failed \(interactions; 4 checks, 0 violations,/);
    expect(exit.code).toBe(0);
  });
});

const pendingPage = 'GET /v2/store/orders?status=pending 200 (with the key)';

/** The mock's pact with its `status=pending` interaction changed: a consumer's own v2 interaction. */
async function consumerPact(name: string, change: (interaction: Record<string, JsonValue>) => void) {
  const changed = structuredClone(pact);
  const list = changed.interactions as Record<string, JsonValue>[];
  change(list.find((interaction) => interaction.description === pendingPage)!);
  const path = join(directory, `${name}.json`);
  await writeFile(path, stringifyJson(changed));
  return path;
}

type State = { params: { orders: JsonValue[] } }[];

/** The pending page's interaction in a state that also holds a shipped order, which the page leaves out. */
const broadStatePact = () =>
  consumerPact('broad-state', (interaction) => {
    const [state] = interaction.providerStates as State;
    state!.params.orders.splice(1, 0, { id: 9007199254740994n, petId: 7n, quantity: 9, status: 'shipped' });
  });

/** The pending page's interaction as a walk's first page of one order (`limit=1`), showing order `id`, more to come. */
const firstPagePact = (name: string, id: bigint) =>
  consumerPact(name, (interaction) => {
    (interaction.request as Record<string, JsonValue>).query = { status: ['pending'], limit: ['1'] };
    const response = interaction.response as Record<string, Record<string, JsonValue>>;
    const content = response.body!.content as { orders: Record<string, JsonValue>[]; nextCursor: JsonValue };
    content.orders = content.orders.filter((order) => order.id === id);
    content.nextCursor = 'more';
    delete (interaction.response as Record<string, JsonValue>).matchingRules;
  });

/** `petstore-verify --pact` of a consumer's pact against the kit's mock, in process. */
async function againstTheMock(pactFile: string) {
  const kit = await startServer();
  try {
    return await verifyPactCli(kit.origin, 'petstore-dev-key', `${kit.origin}/__mock/provider-state`, pactFile);
  } finally {
    await kit.close();
  }
}

describe("a consumer's v2 interaction that v2's document or the model contradicts", () => {
  it("is the consumer's error, exit 2: a 200 page for limit=0, which v2 refuses", async () => {
    const exit = await againstTheMock(
      await consumerPact('limit-zero', (interaction) => {
        (interaction.request as Record<string, JsonValue>).query = { limit: ['0'] };
      }),
    );
    expect(exit.stdout).toContain(
      `\n! error in pact › ${pendingPage}: the consumer's pact contradicts the specification, so no provider can pass it: expected status 400, got 200 (at status)\n`,
    );
    expect(exit.stdout).toMatch(/\npact: 3 passed, 0 failed, 1 errors \(interactions; 3 checks, 0 violations,/);
    expect(exit.code).toBe(2);
  });

  it("is the consumer's error: a page whose order lacks the status v2's document requires", async () => {
    const judged = await judgeConsumerPacts(
      [
        await consumerPact('no-status', (interaction) => {
          const body = (interaction.response as Record<string, Record<string, JsonValue>>).body!;
          const [first] = (body.content as { orders: Record<string, JsonValue>[] }).orders;
          delete first!.status;
        }),
      ],
      {},
    );
    try {
      expect(judged.contradicted.map((result) => [result.name, result.reason])).toEqual([
        [
          pendingPage,
          "the consumer's pact contradicts the specification, so no provider can pass it: expected required, got nothing (at /orders/0/status)",
        ],
      ]);
    } finally {
      await judged.remove();
    }
  });

  it("is the consumer's error: a last page that leaves out an order of its filter in its state", async () => {
    const judged = await judgeConsumerPacts(
      [
        await consumerPact('skips', (interaction) => {
          const [state] = interaction.providerStates as State;
          state!.params.orders.push({ id: 9007199254740999n, petId: 7n, quantity: 4, status: 'pending' });
          delete (interaction.response as Record<string, JsonValue>).matchingRules;
        }),
      ],
      {},
    );
    try {
      expect(judged.contradicted.map((result) => result.contradictions)).toEqual([
        [
          {
            code: 'page-skips-order',
            path: '/orders',
            expected: 'every order of the filter once across the walk (3)',
            actual: '1 never given: 9007199254740999',
          },
        ],
      ]);
    } finally {
      await judged.remove();
    }
  });

  it("is the consumer's error: a walk's first page that is not its last and leaves out an order below its last id", async () => {
    const judged = await judgeConsumerPacts([await firstPagePact('first-page-skips', 9007199254740997n)], {});
    try {
      expect(judged.contradicted.map((result) => result.contradictions)).toEqual([
        [
          {
            code: 'page-skips-order',
            path: '/orders',
            expected: 'every order of the filter up to the last id the page gives, 9007199254740997 (2)',
            actual: '1 never given: 9007199254740993',
          },
        ],
      ]);
    } finally {
      await judged.remove();
    }
  });

  it('passes a first page that is not the last and gives the first orders of its filter', async () => {
    const judged = await judgeConsumerPacts([await firstPagePact('first-page', 9007199254740993n)], {});
    try {
      expect(judged.contradicted).toEqual([]);
    } finally {
      await judged.remove();
    }
  });

  it("is judged by the document alone when it sends a cursor: the cursor is the provider state's no more than the page", async () => {
    const judged = await judgeConsumerPacts(
      [
        await consumerPact('cursor', (interaction) => {
          (interaction.request as Record<string, JsonValue>).query = { status: ['pending'], cursor: ['theirs'] };
        }),
      ],
      {},
    );
    try {
      expect(judged.contradicted).toEqual([]);
    } finally {
      await judged.remove();
    }
  });
});

describe('a pact with v2 interactions under --leave-out-beta', () => {
  const leavingOutBeta = async (pactFile: string) => {
    const kit = await startServer();
    try {
      return await runVerifyInProcess([
        '--base-url',
        `${kit.origin}/v1`,
        '--api-key',
        'petstore-dev-key',
        '--state-url',
        `${kit.origin}/__mock/provider-state`,
        '--pact',
        pactFile,
        '--no-prism',
        '--leave-out-beta',
      ]);
    } finally {
      await kit.close();
    }
  };

  it('leaves each v2 interaction out, a skipped case never sent: a pact of v2 alone judged nothing (exit 2)', async () => {
    const exit = await leavingOutBeta(file);
    expect(exit.stdout.split('\n')).toContain(
      `- skipped pact › ${pendingPage}: left out: its operation is marked beta, which --leave-out-beta leaves out (not sent to the provider)`,
    );
    expect(exit.stdout).toMatch(/\npact: 0 passed, 0 failed, 4 skipped \(interactions; 0 checks,/);
    expect(exit.code).toBe(2);
  });

  it("still verifies the pact's v1 interactions beside them, and passes on them", async () => {
    const app = await startServer({ seed: seed as never });
    let mixed: string;
    try {
      for (const path of ['/v1/store/orders', '/v2/store/orders?status=pending'])
        await fetch(`${app.origin}${path}`, { headers: authorized });
      mixed = join(directory, 'web-app-mixed.json');
      await writeFile(mixed, await (await app.control('/pact?consumer=web-app')).text());
    } finally {
      await app.close();
    }
    const exit = await leavingOutBeta(mixed);
    expect(exit.stdout).toMatch(/\npact: 1 passed, 0 failed, 1 skipped \(interactions; 1 check,/);
    expect(exit.code).toBe(0);
  });
});
