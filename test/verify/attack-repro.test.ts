import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { startBrokenProvider } from '../support/broken-provider.js';
import { runVerifyInProcess } from '../support/cli-support.js';
import { noCi, pactOf } from '../support/fake-broker.js';

it('attack: 40 pacts each served in 2.5 s, --timeout 3 --deadline 20', async () => {
  const pact = await pactOf('list-orders');
  const server = createServer((request, response) => {
    const origin = `http://${request.headers.host}`;
    const url = request.url ?? '/';
    const send = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/hal+json' }).end(JSON.stringify(body));
    if (url === '/')
      return send({ _links: { 'pb:provider-pacts-for-verification': { href: `${origin}/fv/{provider}` } } });
    if (url.startsWith('/fv/'))
      return send({
        _embedded: {
          pacts: Array.from({ length: 40 }, (_, i) => ({
            _links: { self: { href: `${origin}/pact/${i + 1}`, name: `pact ${i + 1}` } },
          })),
        },
      });
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(pact), 2500);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const target = await startBrokenProvider((_q, r) => r);
  const started = performance.now();
  const exit = await runVerifyInProcess(
    [...target.args, '--suite', 'pact', '--no-prism', '--timeout', '3', '--deadline', '20'],
    { ...noCi, PACT_DO_NOT_TRACK: 'true', PACT_BROKER_BASE_URL: origin },
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`REPRO exit ${exit.code} in ${seconds.toFixed(1)} s`);
  console.log(
    exit.stdout
      .split('\n')
      .filter((l) => /^(pact:|verdict|! error in pact › pact (7|8|9|10|40):)/.test(l))
      .join('\n'),
  );
  server.closeAllConnections();
  server.close();
  await target.close();
  expect(exit.code).toBe(2);
}, 200_000);
