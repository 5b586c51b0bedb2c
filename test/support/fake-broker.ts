// A fake Pact Broker on 127.0.0.1 that follows the Pact Broker's HAL API (no Pact Broker server installs
// here: it is a Ruby application), and the shipped pact cut to one scenario, as a broker would hold it.
// Shared by the broker tests (test/verify/pact-broker.test.ts) and the provider-stack test, which runs
// the same flow through petstore-verify on another Node.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { listenLocally } from './support.js';

// No CI variable of the machine running the tests reaches the commands: each test sets its own.
export const noCi = Object.fromEntries(
  [
    'GITHUB_ACTIONS',
    'GITHUB_SHA',
    'GITHUB_REF_NAME',
    'GITHUB_HEAD_REF',
    'GITHUB_SERVER_URL',
    'GITHUB_REPOSITORY',
    'GITHUB_RUN_ID',
    'CI_COMMIT_SHA',
    'CI_COMMIT_REF_NAME',
    'CI_JOB_URL',
    'PACT_BROKER_TOKEN',
    'PACT_BROKER_USERNAME',
    'PACT_BROKER_PASSWORD',
  ].map((name) => [name, '']),
);

/** The shipped pact cut to the interactions of one scenario (their ids are small: JSON.parse keeps them). */
export async function pactOf(scenario: string, consumer = 'web-app'): Promise<string> {
  const pact = JSON.parse(await readFile(shippedPactFile, 'utf8')) as {
    consumer: { name: string };
    interactions: { description: string }[];
  };
  pact.consumer.name = consumer;
  pact.interactions = pact.interactions.filter((interaction) => interaction.description.startsWith(`${scenario} ›`));
  return JSON.stringify(pact);
}

export interface FakePact {
  consumer: string;
  text: string;
  pending?: boolean;
  wip?: boolean;
}

interface Received {
  method: string;
  url: string;
  body: string;
  /** Its headers, to see which credentials reached the broker. */
  headers: IncomingMessage['headers'];
}

/**
 * A fake Pact Broker: its index, for-verification, the pacts, branch versions, results and publications;
 * below /moved/, redirects to the same path on its own origin. The pacts whose positions (from 1) are in
 * `holdPacts` are listed but never served: their requests are taken and never answered (a broker that
 * stalls), each answer held in `held` (a test may destroy it: a broker that stalls, then drops the
 * connection), until the broker closes.
 */
export async function startFakeBroker(
  pacts: FakePact[],
  options: { provider?: string; refuseResults?: boolean; refusePublication?: boolean; holdPacts?: number[] } = {},
) {
  const provider = options.provider ?? 'petstore-order-interface';
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const send = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/hal+json' }).end(JSON.stringify(body));
  const broker = await listenLocally(async (request: IncomingMessage, response) => {
    const body = await new Response(request as unknown as ReadableStream).text();
    const url = request.url ?? '/';
    received.push({ method: request.method ?? '', url, body, headers: request.headers });
    const origin = `http://${request.headers.host}`;
    // A broker moved on its own origin: /moved/… redirects to …, 307 keeping a POST's method and body.
    if (url.startsWith('/moved/'))
      return response.writeHead(request.method === 'GET' ? 308 : 307, { location: url.slice('/moved'.length) }).end();
    const pactPath = (index: number) =>
      `/pacts/provider/${provider}/consumer/${pacts[index]!.consumer}/pact-version/${index + 1}`;
    if (request.method === 'GET' && url === '/')
      return send(response, 200, {
        _links: {
          'pb:provider-pacts-for-verification': {
            href: `${origin}/pacts/provider/{provider}/for-verification`,
            templated: true,
          },
          'pb:pacticipant-branch-version': {
            href: `${origin}/pacticipants/{pacticipant}/branches/{branch}/versions/{version}`,
            templated: true,
          },
          'pb:publish-contracts': { href: `${origin}/contracts/publish` },
        },
      });
    // Pact's own verifier GETs the resource first, then POSTs to its self link; the kit POSTs at once.
    if (request.method === 'GET' && url === `/pacts/provider/${provider}/for-verification`)
      return send(response, 200, { _links: { self: { href: `${origin}${url}` } } });
    if (request.method === 'POST' && url === `/pacts/provider/${provider}/for-verification`)
      return send(response, 200, {
        _embedded: {
          pacts: pacts.map((pact, index) => ({
            shortDescription: 'latest from main',
            verificationProperties: { pending: pact.pending === true, wip: pact.wip === true, notices: [] },
            _links: {
              self: {
                href: `${origin}${pactPath(index)}`,
                name: `Pact between ${pact.consumer} (v${index + 1}) and ${provider}`,
              },
            },
          })),
        },
      });
    const index = pacts.findIndex((_, position) => url === pactPath(position));
    if (request.method === 'GET' && index >= 0 && options.holdPacts?.includes(index + 1)) {
      held.push(response);
      return;
    }
    if (request.method === 'GET' && index >= 0) {
      // The pact's text as published, with the broker's links before it: ids beyond 2^53 untouched.
      const links = JSON.stringify({
        'pb:publish-verification-results': { href: `${origin}${pactPath(index)}/verification-results` },
      });
      return response
        .writeHead(200, { 'content-type': 'application/hal+json' })
        .end(pacts[index]!.text.replace(/^\{/, `{"_links":${links},`));
    }
    if (request.method === 'POST' && url.endsWith('/verification-results'))
      return options.refuseResults
        ? send(response, 500, { error: 'database is read-only' })
        : send(response, 201, { success: JSON.parse(body).success });
    if (request.method === 'PUT' && url.startsWith('/pacticipants/')) return send(response, 200, {});
    if (request.method === 'POST' && url === '/contracts/publish')
      return options.refusePublication
        ? send(response, 401, { error: 'unauthorised' })
        : send(response, 200, { notices: [{ type: 'success', text: 'Created pact' }] });
    return send(response, 404, { error: `no ${request.method} ${url}` });
  });
  const bodiesOf = (method: string, ending: string) =>
    received
      .filter((request) => request.method === method && request.url.endsWith(ending))
      .map((request) => JSON.parse(request.body) as Record<string, unknown>);
  return { ...broker, received, held, bodiesOf };
}
