// Issue 59: credentials go only where they were given. The broker's token (or user and password) goes
// to the broker's origin only: a HAL link or a redirect to another origin is refused (exit 2, one
// line, `broker_foreign_origin`) and nothing reaches that origin; on the broker's own origin, links
// and redirects carry it as before. The provider's key reaches neither the broker nor another origin,
// and no token or key is in a report. Every server is on 127.0.0.1, port 0; a second listener records
// every request that reaches "another origin".
import type { IncomingMessage, RequestListener } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { brokerRequest } from '../../verify/pact/broker-client.js';
import { startBrokenProvider } from '../support/broken-provider.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { noCi, pactOf, startFakeBroker } from '../support/fake-broker.js';
import { listenLocally } from '../support/support.js';

const token = 's3cret-broker-token';
const apiKey = 'petstore-dev-key';
const tokenEnv = { PACT_BROKER_TOKEN: token };
const basicEnv = { PACT_BROKER_USERNAME: 'ci-user', PACT_BROKER_PASSWORD: 's3cret-password' };

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function listen(handler: RequestListener) {
  const server = await listenLocally(handler);
  servers.push(server);
  return server;
}

/** Another origin that records every request's method, path and headers, and answers 404. */
async function otherOrigin() {
  const received: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
  const server = await listen((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not here"}');
  });
  return { ...server, received };
}

/** A broker whose every answer `answer` writes, recording what it is sent. */
async function brokerFront(
  answer: (
    request: IncomingMessage,
    origin: string,
  ) => { status: number; headers: Record<string, string>; body: string },
) {
  const received: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
  const server = await listen((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const { status, headers, body } = answer(request, `http://${request.headers.host}`);
    response.writeHead(status, headers).end(body);
  });
  return { ...server, received };
}

const hal = (links: Record<string, string>) => ({
  status: 200,
  headers: { 'content-type': 'application/hal+json' },
  body: JSON.stringify({ _links: Object.fromEntries(Object.entries(links).map(([name, href]) => [name, { href }])) }),
});
const redirect = (status: number, location: string) => ({ status, headers: { location }, body: '' });
const forVerification = '/pacts/provider/petstore-order-interface/for-verification';

async function honestProvider() {
  const started = await startBrokenProvider((_request, response) => response);
  servers.push(started);
  return started;
}

async function verify(brokerUrl: string, env: Record<string, string>, args: string[] = []) {
  const target = await honestProvider();
  return runVerifyInProcess([...target.args, '--suite', 'pact', '--no-prism', ...args], {
    ...noCi,
    PACT_DO_NOT_TRACK: 'true',
    PACT_BROKER_BASE_URL: brokerUrl,
    ...env,
  });
}

/** Every header value a server was sent, on one line each, to search for a secret. */
const headerTexts = (received: { headers: IncomingMessage['headers'] }[]) =>
  received.flatMap((request) => Object.values(request.headers).flat().map(String));

const refusal = (broker: string, how: string, hop: string, other: string) =>
  `petstore-verify: the Pact Broker at ${broker} ${how} another origin, ${hop}: its credentials go to ${broker} only, so it is not sent (if ${other} is the broker too, set PACT_BROKER_BASE_URL to it)\n`;

describe("the broker's credentials, to the broker's origin only", () => {
  it.each([
    ['a token', tokenEnv],
    ['a user and password', basicEnv],
  ])('refuses a HAL link to another origin with %s: exit 2, one line, nothing sent there', async (_, env) => {
    const other = await otherOrigin();
    const broker = await brokerFront(() =>
      hal({ 'pb:provider-pacts-for-verification': `${other.origin}/pacts/provider/{provider}/for-verification` }),
    );
    const exit = await verify(broker.origin, env);
    expect(exit.stderr).toBe(
      refusal(broker.origin, 'links to', `POST ${other.origin}${forVerification}`, other.origin),
    );
    expect(exit.code).toBe(2);
    expect(other.received).toEqual([]);
    // The broker itself had its credentials, and not the provider's key.
    expect(broker.received.map((request) => request.headers.authorization)).toEqual([
      expect.stringMatching(/^(Bearer|Basic) /),
    ]);
    expect(headerTexts(broker.received).join('\n')).not.toContain(apiKey);
  });

  it.each([307, 308])(
    'refuses a %i redirect to another origin: exit 2, one line, nothing sent there',
    async (status) => {
      const other = await otherOrigin();
      const broker = await brokerFront(() => redirect(status, `${other.origin}/`));
      const exit = await verify(broker.origin, tokenEnv);
      expect(exit.stderr).toBe(
        refusal(broker.origin, `redirects GET ${broker.origin}/ to`, `GET ${other.origin}/`, other.origin),
      );
      expect(exit.code).toBe(2);
      expect(other.received).toEqual([]);
    },
  );

  it("refuses a redirect of the for-verification POST to another origin, after the broker's own index", async () => {
    const other = await otherOrigin();
    const broker = await brokerFront((request, origin) =>
      request.method === 'GET'
        ? hal({ 'pb:provider-pacts-for-verification': `${origin}/pacts/provider/{provider}/for-verification` })
        : redirect(307, `${other.origin}${request.url}`),
    );
    const exit = await verify(broker.origin, tokenEnv);
    expect(exit.stderr).toBe(
      refusal(
        broker.origin,
        `redirects POST ${broker.origin}${forVerification} to`,
        `POST ${other.origin}${forVerification}`,
        other.origin,
      ),
    );
    expect(exit.code).toBe(2);
    expect(other.received).toEqual([]);
    expect(
      broker.received.map((request) => `${request.method} ${request.url} ${request.headers.authorization}`),
    ).toEqual([`GET / Bearer ${token}`, `POST ${forVerification} Bearer ${token}`]);
  });

  it('follows a link to another origin when no credentials are set: there is nothing to leak', async () => {
    const other = await otherOrigin();
    const broker = await brokerFront(() =>
      hal({ 'pb:provider-pacts-for-verification': `${other.origin}/pacts/provider/{provider}/for-verification` }),
    );
    const exit = await verify(broker.origin, {});
    expect(exit.stderr).toBe(
      `petstore-verify: the Pact Broker answered POST ${other.origin}${forVerification} with 404: {"error":"not here"}\n`,
    );
    expect(exit.code).toBe(2);
    expect(other.received.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([
      ['POST', forVerification, undefined],
    ]);
    expect(headerTexts(other.received).join('\n')).not.toContain(apiKey);
  });
});

describe("the broker's own origin: links and redirects carry its credentials, the verdict unchanged", () => {
  it('verifies through a same-origin redirect of the index, every request with the token, none with the key, no token or key in the console or a report', async () => {
    const broker = await startFakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }]);
    servers.push(broker);
    const directory = await mkdtemp(join(tmpdir(), 'broker-credentials-'));
    servers.push({ close: () => rm(directory, { recursive: true, force: true }) });
    const reports = ['report.json', 'report.xml', 'report.html'].map((name) => join(directory, name));
    const exit = await verify(`${broker.origin}/moved`, tokenEnv, [
      '--provider-version',
      '1.2.3',
      '--json',
      reports[0]!,
      '--junit',
      reports[1]!,
      '--html',
      reports[2]!,
    ]);
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
    expect(exit.code).toBe(0);
    const requests = broker.received.map((request) => `${request.method} ${request.url}`);
    expect(requests.slice(0, 2)).toEqual(['GET /moved/', 'GET /']);
    expect(requests).toContain(
      'POST /pacts/provider/petstore-order-interface/consumer/web-app/pact-version/1/verification-results',
    );
    expect(broker.received.map((request) => request.headers.authorization)).toEqual(
      broker.received.map(() => `Bearer ${token}`),
    );
    expect(headerTexts(broker.received).join('\n')).not.toContain(apiKey);
    for (const text of [
      exit.stdout,
      exit.stderr,
      ...(await Promise.all(reports.map((file) => readFile(file, 'utf8')))),
    ])
      for (const secret of [token, apiKey]) expect(text).not.toContain(secret);
  });

  it('follows a same-origin 307 of a POST with its method, body and token', async () => {
    const broker = await startFakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }]);
    servers.push(broker);
    const body = { consumerVersionSelectors: [{ mainBranch: true }], includePendingStatus: false };
    const { json } = await brokerRequest(
      { url: broker.origin, token },
      { method: 'POST', url: `${broker.origin}/moved${forVerification}`, body },
    );
    expect(json).toMatchObject({ _embedded: { pacts: [{ verificationProperties: { pending: false } }] } });
    expect(broker.received.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([
      ['POST', `/moved${forVerification}`, `Bearer ${token}`],
      ['POST', forVerification, `Bearer ${token}`],
    ]);
    // The redirect and its target both got the body: it was sent again, unchanged.
    expect(broker.bodiesOf('POST', forVerification)).toEqual([body, body]);
  });

  it('refuses, in publish-pact, a redirect of the publication to another origin: exit 2, one line, nothing sent there', async () => {
    const other = await otherOrigin();
    const broker = await brokerFront((request) => redirect(308, `${other.origin}${request.url}`));
    const exit = await runVerifyInProcess(['publish-pact', '--consumer-version', 'v1'], {
      ...noCi,
      PACT_BROKER_BASE_URL: broker.origin,
      ...tokenEnv,
    });
    expect(exit.stderr).toBe(
      refusal(
        broker.origin,
        `redirects POST ${broker.origin}/contracts/publish to`,
        `POST ${other.origin}/contracts/publish`,
        other.origin,
      ),
    );
    expect(exit.code).toBe(2);
    expect(other.received).toEqual([]);
  });

  it('gives up after 20 redirects on its own origin, as fetch would: broker_unreachable, one line', async () => {
    const broker = await brokerFront(() => redirect(307, '/'));
    await expect(
      brokerRequest({ url: broker.origin, token }, { method: 'GET', url: `${broker.origin}/` }),
    ).rejects.toMatchObject({
      code: 'broker_unreachable',
      message: `the Pact Broker did not answer GET ${broker.origin}/: more than 20 redirects`,
    });
    expect(broker.received).toHaveLength(21);
  });
});

describe("the provider's key, to --base-url only", () => {
  it('sends no key to a state URL on another origin, and the verdict is unchanged', async () => {
    const target = await honestProvider();
    // The state URL on another origin: it records what it is sent and passes it on to the provider's own.
    const received: IncomingMessage['headers'][] = [];
    const stateServer = await listen(async (request, response) => {
      received.push(request.headers);
      const body = await new Response(request as unknown as ReadableStream).text();
      const answer = await fetch(`${target.origin}/__mock/provider-state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    const args = [...target.args];
    args[args.indexOf('--state-url') + 1] = `${stateServer.origin}/state`;
    const exit = await runVerifyInProcess([...args, '--suite', 'pact', '--no-prism'], {
      ...noCi,
      PACT_DO_NOT_TRACK: 'true',
    });
    expect(exit.stdout).toMatch(/\nverdict: passed \(exit 0; /);
    expect(exit.code).toBe(0);
    expect(received.length).toBeGreaterThan(0);
    expect(received.flatMap((headers) => Object.values(headers).flat().map(String)).join('\n')).not.toContain(apiKey);
    expect(received.map((headers) => headers.authorization)).toEqual(received.map(() => undefined));
  });
});
