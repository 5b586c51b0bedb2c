import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeRequest } from '../../mocks/server/node-request.js';
import { RequestTarget } from '../../mocks/base/request-target.js';

const origin = 'http://127.0.0.1:4010';

function nodeRequest(target: string): NodeRequest {
  const incoming = { method: 'GET', url: target, rawHeaders: [], headers: {} } as unknown as IncomingMessage;
  return new NodeRequest(incoming, { origin, limit: 1024, boundsAt: () => undefined });
}

// Characters a path may hold, the ones the URL parser rewrites or encodes among them.
const pathCharacter = fc.constantFrom(...'abcXYZ019-_~/.%2eE\\?#é {}|^`"<>[]:@!$&\'()*+,;='.split(''));

describe('NodeRequest', () => {
  it('reads the same path as the URL parser for any target it does not refuse as written', () => {
    fc.assert(
      fc.property(fc.array(pathCharacter, { maxLength: 24 }), (characters) => {
        const target = `/${characters.join('')}`;
        const request = nodeRequest(target);
        if (request.pathAsWritten === undefined) expect(request.pathname).toBe(new URL(origin + target).pathname);
        else expect(request.pathname).toBe(request.pathAsWritten);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the path as written when the URL parser would resolve a dot segment', () => {
    const request = nodeRequest('/v1/store/../orders?x=1');
    expect(request.pathAsWritten).toBe('/v1/store/../orders');
    expect(request.pathname).toBe('/v1/store/../orders');
  });

  it('declares a body only with a length above 0 or chunks', () => {
    const declared = (headers: Record<string, string>) =>
      new NodeRequest({ method: 'POST', url: '/', rawHeaders: [], headers } as unknown as IncomingMessage, {
        origin,
        limit: 1024,
        boundsAt: () => undefined,
      }).declaresBody;
    expect(declared({})).toBe(false);
    expect(declared({ 'content-length': '0' })).toBe(false);
    expect(declared({ 'content-length': '2' })).toBe(true);
    expect(declared({ 'transfer-encoding': 'chunked' })).toBe(true);
  });
});

describe('RequestTarget', () => {
  it('takes the path a request knows already, and parses the URL only when asked', () => {
    const target = RequestTarget.of(nodeRequest('/v1/store/orders?limit=3'))!;
    expect(target.pathname).toBe('/v1/store/orders');
    expect(target.url.search).toBe('?limit=3');
  });

  it('parses a Fetch Request, which knows no path of its own', () => {
    const target = RequestTarget.of(new Request('http://localhost/v1/store/orders/%33?x'))!;
    expect(target.pathname).toBe('/v1/store/orders/%33');
  });

  it('is undefined for a URL that is not one', () => {
    expect(
      RequestTarget.of({ method: 'GET', url: 'not a url', headers: { get: () => null }, text: async () => '' }),
    ).toBe(undefined);
  });
});
