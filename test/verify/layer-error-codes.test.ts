// The errors of the harness, the command-line tools and the client carry a code of their layer's table,
// each documented in docs/error-codes.md; the messages stay what they were.
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, cliErrorCodes, integerFlag } from '../../cli/shared.js';
import {
  contractErrorCodes,
  createOrderClient,
  OrderApiError,
  OrderBaseUrlError,
  OrderListError,
} from '../../contracts/client.js';
import { KitError } from '../../core/errors.js';
import { createDirectory } from '../../verify/scenario/create-directory.js';
import { proxyErrorStatuses, verifyErrorCodes } from '../../verify/base/errors.js';
import { Mismatch } from '../../verify/explore/exploration.js';
import { pactProviderBaseUrl, publishPact, readBaseline, ScenarioRecorder } from '../../verify/index.js';
import { observe } from '../../verify/http/observe.js';
import { setKnownState } from '../../verify/proxy/proxy-recording.js';
import { responseText } from '../../verify/http/response-text.js';
import { changeProviderState, requestTimeout } from '../../verify/provider/run.js';

let server: Server;
let origin: string;
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'layer-errors-'));
  server = createServer((_request, response) => response.writeHead(500).end('refused'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await rm(directory, { recursive: true, force: true });
});

const caught = async (run: () => unknown): Promise<Error & { code: string }> => {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof OrderApiError)) expect(error).toBeInstanceOf(KitError);
    return error as Error & { code: string };
  }
  throw new Error('nothing was thrown');
};

describe("the harness's errors carry a code of verifyErrorCodes", () => {
  it('a base URL without /v1 for Pact is invalid_base_url', async () => {
    const error = await caught(() => pactProviderBaseUrl('http://127.0.0.1:4010/api'));
    expect(error).toMatchObject({
      code: 'invalid_base_url',
      message:
        'the base URL must end with /v1 for Pact verification (the interface\'s version path), got "http://127.0.0.1:4010/api"',
    });
  });

  it('a refused provider state change is state_change_failed', async () => {
    const stateUrl = `${origin}/__mock/provider-state`;
    const error = await caught(() =>
      changeProviderState({ baseUrl: `${origin}/v1`, apiKey: 'k', stateUrl }, [], 'setup'),
    );
    expect(error).toMatchObject({
      code: 'state_change_failed',
      message: `provider state setup at ${stateUrl} answered 500: refused`,
    });
  });

  it("a recorder's known state that cannot be set is state_not_set", async () => {
    const stateUrl = `${origin}/state`;
    const recorder = { knownState: { scenario: 'smoke', stateUrl, orders: [] } } as unknown as ScenarioRecorder;
    const error = await caught(() => setKnownState(`${origin}/v1`, recorder));
    expect(error).toMatchObject({
      code: 'state_not_set',
      message: `cannot set the state of scenario smoke: provider state setup at ${stateUrl} answered 500: refused`,
    });
  });

  it('a broker that refuses a publication is broker_refused', async () => {
    const error = await caught(() => publishPact({ broker: { url: origin }, consumerVersion: '1' }));
    expect(error).toMatchObject({
      code: 'broker_refused',
      message: `the Pact Broker answered POST ${origin}/contracts/publish with 500: refused`,
    });
  });

  it('a body in an encoding not asked for is undecodable_body', async () => {
    const error = await caught(() => responseText(Buffer.from('x'), 'zstd'));
    expect(error.code).toBe('undecodable_body');
    expect(error.message).toMatch(/^zstd is not an encoding the harness asked for \(/);
  });

  it('a file where a folder is to be made keeps the file system code ENOTDIR', async () => {
    const file = join(directory, 'file');
    await writeFile(file, '');
    const error = await caught(() => createDirectory(file));
    expect(error).toMatchObject({ code: 'ENOTDIR', message: `${file} is not a folder` });
  });

  it('a baseline that cannot be read is invalid_baseline', async () => {
    const file = join(directory, 'missing.json');
    const error = await caught(() => readBaseline(file));
    expect(error).toMatchObject({ code: 'invalid_baseline', message: `cannot read the baseline ${file}: ENOENT` });
  });

  it('a target that does not answer at all is target_unreachable', async () => {
    const error = await caught(() => observe('http://127.0.0.1:1/v1/store/orders', { method: 'GET' }));
    expect(error).toMatchObject({
      code: 'target_unreachable',
      message: 'cannot reach http://127.0.0.1:1/v1/store/orders: ECONNREFUSED',
    });
  });

  it('a folder the recorder cannot write is recording_refused', async () => {
    const file = join(directory, 'not-a-folder');
    await writeFile(file, '');
    const error = await caught(() => ScenarioRecorder.open({ directory: join(file, 'sub'), upstream: `${origin}/v1` }));
    expect(error).toMatchObject({
      code: 'recording_refused',
      message: `cannot write recordings to ${join(file, 'sub')}: ENOTDIR`,
    });
  });

  it('a run past its deadline is run_stopped', async () => {
    const error = await caught(() =>
      requestTimeout({ baseUrl: `${origin}/v1`, apiKey: 'k', deadline: Date.now() - 1 }),
    );
    expect(error).toMatchObject({ code: 'run_stopped', message: 'the run passed its deadline' });
  });

  it('an answer that differs from the model is model_mismatch', () => {
    expect(new Mismatch('cancel 1')).toMatchObject({ code: 'model_mismatch', message: 'cancel 1', name: 'Mismatch' });
  });
});

describe('the CLI and the client carry codes of their own tables', () => {
  it('a usage error is usage', async () => {
    const error = await caught(() => integerFlag('x', 'timeout', 1, 600));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'usage', message: '--timeout must be an integer from 1 to 600, got "x"' });
    expect(Object.keys(cliErrorCodes)).toEqual(['usage']);
  });

  it("an error status carries the Error record's code, else unexpected_status", async () => {
    const answers = [
      new Response(null, { status: 409 }),
      Response.json({ code: 'order_not_found', message: 'No order 2.', status: 404 }, { status: 404 }),
    ];
    const client = createOrderClient({ baseUrl: 'http://api.invalid/v1', fetch: async () => answers.shift()! });
    const bare = await caught(() => client.cancelOrder(1n));
    expect(bare).toBeInstanceOf(OrderApiError);
    expect(bare).toMatchObject({
      code: 'unexpected_status',
      status: 409,
      message: 'The order interface answered 409.',
    });
    expect(await caught(() => client.cancelOrder(2n))).toMatchObject({
      code: 'order_not_found',
      message: 'No order 2.',
    });
    expect(Object.keys(contractErrorCodes)).toEqual(['unexpected_status', 'invalid_order_list', 'no_major_base']);
  });

  it('a list that is not an array is invalid_order_list, still a TypeError', async () => {
    const client = createOrderClient({ baseUrl: 'http://api.invalid/v1', fetch: async () => Response.json({}) });
    const error = await client.listOrders().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OrderListError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ code: 'invalid_order_list', message: 'The order list is not a JSON array.' });
  });

  it('a v2 call beside a baseUrl without /v1 is no_major_base, a TypeError, before any request', async () => {
    let sent = 0;
    const client = createOrderClient({
      baseUrl: 'http://api.invalid/api',
      fetch: async () => {
        sent++;
        return Response.json({ orders: [], nextCursor: null });
      },
    });
    const error = await client.listOrdersV2().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OrderBaseUrlError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({
      code: 'no_major_base',
      message: "the client's baseUrl http://api.invalid/api does not end with /v1, so /v2 cannot be found beside it",
    });
    expect(sent).toBe(0);
  });

  it('docs/error-codes.md lists every code of these tables', async () => {
    const { readFile } = await import('node:fs/promises');
    const page = await readFile(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
    const listed = (title: string) => {
      const section = page.slice(page.indexOf(`## ${title}`));
      const end = section.indexOf('\n## ', 1);
      return [...(end === -1 ? section : section.slice(0, end)).matchAll(/^- `([A-Za-z_]+)`/gm)].map(
        (match) => match[1],
      );
    };
    expect(listed("The harness's errors").sort()).toEqual(Object.keys(verifyErrorCodes).sort());
    expect(listed("The proxy's answers").sort()).toEqual(Object.keys(proxyErrorStatuses).sort());
    expect(listed("The command line's errors")).toEqual(Object.keys(cliErrorCodes));
    expect(listed("The client's errors")).toEqual(Object.keys(contractErrorCodes));
  });
});
