// A scenario step that says a query and a base (issue 56): a v2 walk written as steps, each page
// judged by the one judge against v2's document and against the model's store from where the page
// starts; a step that follows the page before it sends that page's nextCursor, since a cursor belongs
// to the provider that gave it. Replayed on the kit's mock and on an independent provider (its own
// cursors), honest variations pass and planted cursor defects fail with their exact finding.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateChangeBody } from '../../core/provider-state.js';
import { loadScenarios } from '../../core/scenario-files.js';
import { verify } from '../../verify/provider/run.js';
import { scenarioFaults } from '../../mocks/session/mock-session.js';
import { deriveInteractions, inPact } from '../../contracts/interactions.js';
import { blocksOf } from '../package/doc-blocks.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { authorized, developmentKey, startServer } from '../support/support.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-scenario-query-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const state = `state:
  name: the store holds orders
  params:
    orders:
      - { id: 1, petId: 7, quantity: 1, status: pending }
      - { id: 2, petId: 7, quantity: 1, status: pending }
      - { id: 3, petId: 7, quantity: 1, status: shipped }
      - { id: 4, petId: 7, quantity: 1, status: pending }
      - { id: 5, petId: 7, quantity: 1, status: pending }
      - { id: 9007199254740993, petId: 7, quantity: 1, status: pending }
`;

const page = (name: string, extra = '') =>
  `  - name: ${name}
    request: { method: GET, base: /v2, path: /store/orders, query: { status: pending, limit: "2" }${extra} }
    expect: { status: 200, body: { schema: OrderPage } }
`;

/** A walk of the five pending orders two by two: three pages, the last one's nextCursor null. */
const walk = `description: pending orders, two by two
${state}steps:
${page('page 1')}${page('page 2', ', cursor: follow')}${page('page 3', ', cursor: follow')}`;

async function scenarioFile(name: string, text: string): Promise<string> {
  await writeFile(join(directory, `${name}.yaml`), text);
  return name;
}

async function replayOn(switches: Switches | 'mock', name: string) {
  const [scenario] = await loadScenarios({ directory, names: [name] });
  if (switches === 'mock') {
    const mock = await startServer();
    try {
      return await verify({
        baseUrl: `${mock.origin}/v1`,
        apiKey: developmentKey,
        stateUrl: `${mock.origin}/__mock/provider-state`,
        scenarios: [scenario!],
        prism: false,
      });
    } finally {
      await mock.close();
    }
  }
  const provider = await startHostileProvider(switches);
  try {
    return await verify({
      baseUrl: `${provider.origin}/v1`,
      apiKey: hostileKey,
      stateUrl: `${provider.origin}/__state`,
      scenarios: [scenario!],
      prism: false,
    });
  } finally {
    await provider.close();
  }
}

const violationsOf = (suite: Awaited<ReturnType<typeof verify>>) =>
  suite.cases.flatMap((result) =>
    result.exchanges.flatMap((exchange) =>
      exchange.violations.map(({ code, path, expected, actual }) => ({
        step: exchange.name,
        code,
        path,
        expected,
        actual,
      })),
    ),
  );

describe.concurrent('a v2 walk as scenario steps: honest providers pass', () => {
  it('replays on the kit mock: three pages sent, each with the cursor the page before gave', async () => {
    await scenarioFile('walk', walk);
    const suite = await replayOn('mock', 'walk');
    expect(violationsOf(suite)).toEqual([]);
    expect(
      suite.cases[0]!.exchanges.map((exchange) => [exchange.name, exchange.status, exchange.path.split('&cursor=')[0]]),
    ).toEqual([
      ['page 1', 200, '/v2/store/orders?status=pending&limit=2'],
      ['page 2', 200, '/v2/store/orders?status=pending&limit=2'],
      ['page 3', 200, '/v2/store/orders?status=pending&limit=2'],
    ]);
    expect(suite.cases[0]!.exchanges.map((exchange) => exchange.path.includes('&cursor='))).toEqual([
      false,
      true,
      true,
    ]);
  });

  it.each<[string, Switches]>([
    ['an independent provider with cursors of its own', {}],
    ['one whose cursors name a position', { v2OffsetCursor: true }],
    ['one that ends a full walk with an empty page', { v2EmptyLastPage: true }],
  ])('replays on %s', async (_name, switches) => {
    await scenarioFile('walk-honest', walk);
    const suite = await replayOn(switches, 'walk-honest');
    expect(violationsOf(suite)).toEqual([]);
    expect(suite.cases[0]!.verdict).toBe('passed');
  });

  it('names a step that follows a walk already ended, sends nothing and passes', async () => {
    await scenarioFile('walk-longer', `${walk}${page('page 4', ', cursor: follow')}`);
    const suite = await replayOn({}, 'walk-longer');
    const last = suite.cases[0]!.exchanges.at(-1)!;
    expect(suite.cases[0]!.verdict).toBe('passed');
    expect(last.status).toBeUndefined();
    expect(last.warnings).toEqual([
      {
        code: 'walk-ended',
        path: '/nextCursor',
        expected: 'a nextCursor on the v2 page before this step, to follow',
        actual: 'none: the walk ended there, so this step was not sent',
      },
    ]);
  });

  it('names it, through petstore-verify --strict, as a warning --strict leaves one (exit 0)', async () => {
    await scenarioFile('walk-longer-strict', `${walk}${page('page 4', ', cursor: follow')}`);
    const mock = await startServer();
    try {
      const exit = await runVerifyInProcess([
        '--scenarios',
        directory,
        '--scenario',
        'walk-longer-strict',
        '--base-url',
        `${mock.origin}/v1`,
        '--api-key',
        developmentKey,
        '--state-url',
        `${mock.origin}/__mock/provider-state`,
        '--no-prism',
        '--strict',
      ]);
      expect(exit.stdout.split('\n').filter((line) => line.includes('[walk-ended]'))).toEqual([
        '    warning: walk-longer-strict › page 4: expected a nextCursor on the v2 page before this step, to follow, got none: the walk ended there, so this step was not sent (at /nextCursor) [walk-ended]',
      ]);
      expect(exit.code).toBe(0);
    } finally {
      await mock.close();
    }
  });

  it("judges each answer of a v2 step sent several times at once against v2's document", async () => {
    await scenarioFile(
      'v2-at-once',
      `description: two pages at once
${state}steps:
  - name: the first page twice at once
    request: { method: GET, base: /v2, path: /store/orders, query: { limit: "2" } }
    parallel: 2
    expect: { status: 200, body: { schema: OrderPage } }
`,
    );
    const suite = await replayOn('mock', 'v2-at-once');
    expect(violationsOf(suite)).toEqual([]);
    expect(suite.cases[0]!.exchanges[0]!.status).toBe(200);
  });

  it('sends a list of values as the name once a value, in order: a status sent twice is refused 400', async () => {
    await scenarioFile(
      'status-twice',
      `description: status sent twice
steps:
  - name: two statuses
    request: { method: GET, base: /v2, path: /store/orders, query: { status: [pending, shipped] } }
    expect: { status: 400, body: { schema: Error } }
`,
    );
    const suite = await replayOn('mock', 'status-twice');
    expect(suite.cases[0]!.exchanges[0]!.path).toBe('/v2/store/orders?status=pending&status=shipped');
    expect(violationsOf(suite)).toEqual([]);
  });
});

describe('a scenario with v2 steps in a run that leaves beta out', () => {
  it('is skipped whole, naming the operation it calls, and nothing of it is sent', async () => {
    await scenarioFile('walk-left-out', walk);
    const [scenario] = await loadScenarios({ directory, names: ['walk-left-out'] });
    const suite = await verify({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: developmentKey,
      stateUrl: 'http://127.0.0.1:9/__mock/provider-state',
      scenarios: [scenario!],
      prism: false,
      leaveOut: ['beta', 'experimental'],
    });
    expect(suite.cases.map(({ verdict, reason, exchanges }) => ({ verdict, reason, sent: exchanges.length }))).toEqual([
      {
        verdict: 'skipped',
        reason: 'it calls listOrdersV2 (GET /v2/store/orders, beta), which the run leaves out',
        sent: 0,
      },
    ]);
  });
});

describe.concurrent("docs/testers.md's v2 scenario", () => {
  const docsExample = async (name: string) => {
    const text = await readFile(new URL('../../docs/testers.md', import.meta.url), 'utf8');
    const block = blocksOf('docs/testers.md', text).find(
      (each) => each.mark?.kind === 'scenario-file' && each.code.includes('base: /v2'),
    );
    return scenarioFile(name, block!.code);
  };

  it('replays green on the kit mock', async () => {
    const suite = await replayOn('mock', await docsExample('docs-v2'));
    expect(violationsOf(suite)).toEqual([]);
    expect(suite.cases[0]!.exchanges.map((exchange) => exchange.status)).toEqual([200, 200, 400]);
  });

  it('replays red on a provider whose cursor skips an order: its first page ends the walk too soon', async () => {
    const suite = await replayOn({ v2CursorSkips: true }, await docsExample('docs-v2-skips'));
    expect(violationsOf(suite)).toEqual([
      {
        step: 'the first page',
        code: 'page-skips-order',
        path: '/nextCursor',
        expected: 'a next cursor while orders of the filter are left (9007199254740993)',
        actual: 'null',
      },
    ]);
    expect(suite.cases[0]!.exchanges[1]!.warnings.map((warning) => warning.code)).toEqual(['walk-ended']);
  });
});

describe.concurrent('a v2 walk as scenario steps: broken cursors are caught on the page that shows them', () => {
  it('a cursor that skips an order', async () => {
    await scenarioFile('walk-skips', walk);
    const suite = await replayOn({ v2CursorSkips: true }, 'walk-skips');
    expect(violationsOf(suite)).toEqual([
      {
        step: 'page 2',
        code: 'page-skips-order',
        path: '/orders/0/id',
        expected: '4, the next order of the filter after 2',
        actual: '5',
      },
    ]);
  });

  it('a cursor that repeats an order', async () => {
    await scenarioFile('walk-repeats', walk);
    const suite = await replayOn({ v2CursorRepeats: true }, 'walk-repeats');
    // Each page's repeat once, on the page that shows it: none judged twice.
    expect(violationsOf(suite)).toEqual([
      {
        step: 'page 2',
        code: 'page-repeats-order',
        path: '/orders/0/id',
        expected: 'an order not given before',
        actual: '2 again',
      },
      {
        step: 'page 3',
        code: 'page-repeats-order',
        path: '/orders/0/id',
        expected: 'an order not given before',
        actual: '4 again',
      },
    ]);
  });

  it('a page whose id past 2^53 is rounded', async () => {
    await scenarioFile('walk-rounds', walk);
    const suite = await replayOn({ v2RoundsIds: true }, 'walk-rounds');
    expect(violationsOf(suite)).toEqual([
      {
        step: 'page 3',
        code: 'int64-exact',
        path: '/orders/0/id',
        expected: '9007199254740993',
        actual: '9007199254740992 (rounded past 2^53)',
      },
    ]);
  });

  it('each answer of a page sent several times at once, ignoring its filter, named by its answer', async () => {
    await scenarioFile(
      'at-once-filter',
      `description: a page of the pending orders twice at once
${state}steps:
  - name: the first page twice at once
    request: { method: GET, base: /v2, path: /store/orders, query: { status: pending, limit: "3" } }
    parallel: 2
    expect: { status: 200, body: { schema: OrderPage } }
`,
    );
    const suite = await replayOn({ v2FilterIgnoresStatus: true }, 'at-once-filter');
    expect(violationsOf(suite).map(({ code, path, actual }) => `${code} ${path} ${actual}`)).toEqual([
      'filter-ignored answer 1 /orders/2/status shipped',
      'filter-ignored answer 2 /orders/2/status shipped',
    ]);
  });

  it('a page that ignores the filter, judged against v2 and the model', async () => {
    await scenarioFile('walk-filter', walk);
    const suite = await replayOn({ v2FilterIgnoresStatus: true }, 'walk-filter');
    expect(violationsOf(suite)).toEqual([
      {
        step: 'page 2',
        code: 'filter-ignored',
        path: '/orders/0/status',
        expected: 'pending',
        actual: 'shipped',
      },
    ]);
  });
});

describe.concurrent('a v2 step of a scenario without a provider state: its page judged by what it shows of itself', () => {
  /** The walk's steps without its state, replayed on a provider whose store was set beforehand, with no model. */
  async function replayStateless(switches: Switches, name: string) {
    await scenarioFile(
      name,
      `description: pending orders, two by two, on any store\nsteps:\n${page('page 1')}${page('page 2', ', cursor: follow')}`,
    );
    const [scenario] = await loadScenarios({ directory, names: [name] });
    const provider = await startHostileProvider(switches);
    try {
      const orders = [1, 2, 3, 4].map((id) => ({
        id,
        petId: 7,
        quantity: 1,
        status: id === 3 ? 'shipped' : 'pending',
      }));
      await fetch(`${provider.origin}/__state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stateChangeBody(orders),
      });
      return await verify({
        baseUrl: `${provider.origin}/v1`,
        apiKey: hostileKey,
        scenarios: [scenario!],
        prism: false,
      });
    } finally {
      await provider.close();
    }
  }

  it('a page that ignores its filter is caught', async () => {
    expect(violationsOf(await replayStateless({ v2FilterIgnoresStatus: true }, 'stateless-filter'))).toEqual([
      { step: 'page 2', code: 'filter-ignored', path: '/orders/0/status', expected: 'pending', actual: 'shipped' },
    ]);
  });

  it('an honest provider passes', async () => {
    const suite = await replayStateless({}, 'stateless-honest');
    expect({
      violations: violationsOf(suite),
      statuses: suite.cases[0]!.exchanges.map((exchange) => exchange.status),
    }).toEqual({
      violations: [],
      statuses: [200, 200],
    });
  });
});

describe.concurrent('a step with a query or a base: bad input is refused, naming the file, step and field', () => {
  const refused = async (name: string, request: string) => {
    await scenarioFile(
      name,
      `description: bad
steps:
  - name: a page
    request: { method: GET, base: /v2, path: /store/orders }
    expect: { status: 200 }
  - name: the bad one
    request: ${request}
    expect: { status: 200 }
`,
    );
    return loadScenarios({ directory, names: [name] }).then(
      () => undefined,
      (error: { code: string; message: string }) => ({ code: error.code, message: error.message }),
    );
  };

  it('a query value that is a YAML number', async () => {
    expect(await refused('number', '{ method: GET, base: /v2, path: /store/orders, query: { limit: 2 } }')).toEqual({
      code: 'invalid_scenario',
      message: `${join(directory, 'number.yaml')}: /steps/1/request/query/limit must be string; /steps/1/request/query/limit must be array; /steps/1/request/query/limit must match exactly one schema in oneOf`,
    });
  });

  it('a base that is no major', async () => {
    expect((await refused('base', '{ method: GET, base: /v3, path: /store/orders }'))?.message).toBe(
      `${join(directory, 'base.yaml')}: /steps/1/request/base must be one of "/v1", "/v2"`,
    );
  });

  it('a query both in the path and in query', async () => {
    expect(
      (await refused('twice', '{ method: GET, base: /v2, path: /store/orders?limit=2, query: { limit: "2" } }'))
        ?.message,
    ).toBe(
      `${join(directory, 'twice.yaml')}: /steps/1/request/path holds a query beside request/query: write the query in one place`,
    );
  });

  it('a cursor to follow on v1', async () => {
    expect((await refused('v1-follow', '{ method: GET, path: /store/orders, cursor: follow }'))?.message).toBe(
      `${join(directory, 'v1-follow.yaml')}: /steps/1/request/cursor follow needs base /v2: only v2's pages give a nextCursor`,
    );
  });

  it('a query name the operation does not declare (a typo the provider would ignore)', async () => {
    expect(
      (await refused('typo', '{ method: GET, base: /v2, path: /store/orders, query: { stauts: pending } }'))?.message,
    ).toBe(
      `${join(directory, 'typo.yaml')}: /steps/1/request/query/stauts is no query parameter of listOrdersV2 (GET /v2/store/orders): it takes status, limit, cursor`,
    );
  });

  it('a query on an operation that takes none', async () => {
    expect((await refused('v1-query', '{ method: GET, path: /store/orders, query: { limit: "2" } }'))?.message).toBe(
      `${join(directory, 'v1-query.yaml')}: /steps/1/request/query/limit is no query parameter of listOrders (GET /v1/store/orders): it takes none`,
    );
  });

  it('a query list too long for any server to take, refused before anything is sent', async () => {
    const statuses = Array.from({ length: 600 }, () => 'pending').join(', ');
    expect(
      (await refused('huge', `{ method: GET, base: /v2, path: /store/orders, query: { status: [${statuses}] } }`))
        ?.message,
    ).toBe(
      `${join(directory, 'huge.yaml')}: /steps/1/request/query makes a target of 9016 octets, past the 8000 every server must take (RFC 9110 section 4.1)`,
    );
  });

  it("a cursor to follow on a call that is not a page of v2's list", async () => {
    expect(
      (await refused('delete-follows', '{ method: DELETE, base: /v2, path: /store/orders/1, cursor: follow }'))
        ?.message,
    ).toBe(
      `${join(directory, 'delete-follows.yaml')}: /steps/1/request/cursor follow is for v2's list (GET /v2/store/orders): only its pages take a cursor`,
    );
  });

  it('a cursor to follow with no v2 page before it, through petstore-verify (exit 2)', async () => {
    await scenarioFile(
      'first-follows',
      `description: bad
steps:
  - name: follows nothing
    request: { method: GET, base: /v2, path: /store/orders, cursor: follow }
    expect: { status: 200 }
`,
    );
    const exit = await runVerifyInProcess([
      '--scenarios',
      directory,
      '--scenario',
      'first-follows',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      developmentKey,
    ]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(
      `${join(directory, 'first-follows.yaml')}: /steps/0/request/cursor follow needs a v2 page before it to follow: no earlier step is a call of v2's list (GET /v2/store/orders)`,
    );
  });
});

describe("a v2 step's fault, loaded into the mock", () => {
  const withFault = `description: v2's list unavailable once
steps:
  - name: v1's list
    request: { method: GET, path: /store/orders }
    expect: { status: 200 }
  - name: v2's list, failing
    request: { method: GET, base: /v2, path: /store/orders, query: { limit: "1" } }
    fault: { status: 503 }
    expect: { status: 503 }
`;

  it("is v2's list's, counted among v2's calls alone", async () => {
    await scenarioFile('v2-fault', withFault);
    const [scenario] = await loadScenarios({ directory, names: ['v2-fault'] });
    expect(scenarioFaults(scenario!)).toEqual([{ status: 503, operation: 'listOrdersV2', after: 0, times: 1 }]);
  });

  it("hits v2's list and leaves v1's alone, through the server", async () => {
    await scenarioFile('v2-fault-served', withFault);
    const scenarios = await loadScenarios({ directory, names: ['v2-fault-served'] });
    const mock = await startServer({ scenarios });
    try {
      expect((await fetch(`${mock.origin}/__mock/scenarios/v2-fault-served`, { method: 'POST' })).status).toBe(200);
      expect((await fetch(`${mock.origin}/v1/store/orders`, { headers: authorized })).status).toBe(200);
      expect((await fetch(`${mock.origin}/v2/store/orders?limit=1`, { headers: authorized })).status).toBe(503);
      expect((await fetch(`${mock.origin}/v2/store/orders?limit=1`, { headers: authorized })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe('a step with a base, a query or a cursor, and the pact the kit ships', () => {
  it('is left out of the pact, and the steps around it are derived as before', async () => {
    const [scenario] = await loadScenarios({
      directory,
      names: [
        await scenarioFile(
          'in-pact',
          `${walk}  - name: the list
    request: { method: GET, path: /store/orders }
    expect: { status: 200, body: { schema: "Order[]" }, listed: [1, 2, 3, 4, 5, 9007199254740993] }
`,
        ),
      ],
    });
    expect(scenario!.steps.map(inPact)).toEqual([false, false, false, true]);
    expect((await deriveInteractions([scenario!])).map((interaction) => interaction.description)).toEqual([
      'in-pact › the list',
    ]);
  });
});
