// The check of a pact file before petstore-verify --pact calls any provider: its diagnostics as data.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { checkPactText, pactDiagnosticCodes, readPactDocument } from '../../verify/pact/pact-document.js';

const pact = (fields: Record<string, unknown>) =>
  JSON.stringify({
    consumer: { name: 'web-app' },
    provider: { name: 'petstore-order-interface' },
    metadata: { pactSpecification: { version: '4.0' } },
    ...fields,
  });
const cancel = {
  type: 'Synchronous/HTTP',
  description: 'cancel',
  providerStates: [{ name: 'the store holds orders', params: { orders: [{ id: 1, status: 'pending' }] } }],
  request: { method: 'DELETE', path: '/v1/store/orders/1' },
  response: { status: 204 },
};

describe('checkPactText', () => {
  it("passes the shipped pact and a V3 pact's shape", async () => {
    expect(checkPactText(await readFile(shippedPactFile, 'utf8')).ok).toBe(true);
    const v3 = { ...cancel, type: undefined, request: { ...cancel.request, headers: { Authorization: 'Bearer k' } } };
    expect(checkPactText(pact({ interactions: [v3], metadata: { pactSpecification: { version: '3.0.0' } } })).ok).toBe(
      true,
    );
  });

  it('keeps state ids exact: 2^63 - 1 passes, 2^63 is named where it is', () => {
    const withId = (id: string) =>
      pact({
        interactions: [{ ...cancel, providerStates: [{ name: 'the store holds orders', params: { orders: ['ID'] } }] }],
      }).replace('"ID"', `{"id":${id},"status":"shipped"}`);
    const check = checkPactText(withId('9223372036854775807'));
    expect(check.ok && check.pact.interactions[0]!.providerStates).toEqual([
      { name: 'the store holds orders', params: { orders: [{ id: 9223372036854775807n, status: 'shipped' }] } },
    ]);
    expect(checkPactText(withId('9223372036854775808'))).toEqual({
      ok: false,
      diagnostics: [
        {
          code: 'state-orders',
          path: '/interactions/0/providerStates/0/params/orders/0/id',
          message: 'must be an integer from -9223372036854775808 to 9223372036854775807, written exactly',
        },
      ],
    });
  });

  it("names a state's id held by two orders, which the state protocol refuses: the consumer's error, before any call", () => {
    const twice = {
      name: 'the store holds orders',
      params: { orders: [{ id: 1 }, { id: 2 }, { id: 1, status: 'shipped' }] },
    };
    expect(checkPactText(pact({ interactions: [{ ...cancel, providerStates: [twice] }] }))).toEqual({
      ok: false,
      diagnostics: [
        {
          code: 'state-orders',
          path: '/interactions/0/providerStates/0/params/orders/2/id',
          message: 'duplicates the id of an earlier order (1)',
        },
      ],
    });
  });

  it("names a provider state the state protocol does not know: the consumer's error, before any call", () => {
    const other = { name: 'an order exists', params: { id: 1 } };
    expect(checkPactText(pact({ interactions: [{ ...cancel, providerStates: [other] }] }))).toEqual({
      ok: false,
      diagnostics: [
        {
          code: 'state-name',
          path: '/interactions/0/providerStates/0/name',
          message: 'must be "the store holds orders", the one state the state protocol sets, got "an order exists"',
        },
      ],
    });
  });

  it('names every wrong part, as data, each with its code and place', () => {
    const check = checkPactText(
      pact({
        consumer: 'web-app',
        metadata: { pactSpecification: { version: 4 } },
        interactions: [
          { ...cancel, request: { method: 'DELETE' }, response: { status: 1000 } },
          { ...cancel, type: 'Asynchronous/Messages' },
          { description: 'no request' },
        ],
      }),
    );
    expect(check.ok === false && check.diagnostics.map(({ code, path }) => `${code} ${path}`)).toEqual([
      'pact-version /metadata/pactSpecification/version',
      'pact-shape /consumer',
      'pact-shape /interactions/0/request/path',
      'pact-shape /interactions/0/response/status',
      'pact-shape /interactions/1/type',
      'pact-shape /interactions/2/request',
      'pact-shape /interactions/2/response',
    ]);
  });

  it('refuses what cannot be parsed safely, before parsing', () => {
    expect(checkPactText(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)).toEqual({
      ok: false,
      diagnostics: [{ code: 'pact-too-deep', path: '', message: 'nests arrays and objects more than 64 levels deep' }],
    });
    expect(checkPactText(`[${'9'.repeat(1001)}]`)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'pact-too-deep' }],
    });
    expect(checkPactText(' \n')).toEqual({
      ok: false,
      diagnostics: [{ code: 'pact-not-json', path: '', message: 'is empty' }],
    });
    expect(checkPactText('[]')).toEqual({
      ok: false,
      diagnostics: [{ code: 'pact-shape', path: '', message: 'must be an object, got a list' }],
    });
  });

  it('says a file that cannot be read as pact-unreadable, with the code invalid_consumer_pact', async () => {
    await expect(readPactDocument('/nonexistent/pact.json')).rejects.toMatchObject({
      code: 'invalid_consumer_pact',
      message: 'the pact /nonexistent/pact.json cannot be verified: cannot be read: ENOENT',
      diagnostics: [{ code: 'pact-unreadable', path: '', message: 'cannot be read: ENOENT' }],
    });
  });

  it('docs/error-codes.md lists every diagnostic code', async () => {
    const page = await readFile(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
    const listed = [...page.matchAll(/^- `((?:pact|state)-[a-z-]+)`/gm)].map((match) => match[1]);
    expect(listed).toEqual(Object.keys(pactDiagnosticCodes));
  });
});
