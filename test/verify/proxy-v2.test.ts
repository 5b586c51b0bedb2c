// The validating proxy and v2's calls (issue 56): forwarded, never judged as v1's nor passed, and named
// apart in the report as not yet verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyInProcess } from '../support/cli-support.js';
import { hostileKey, startHostileProvider } from '../support/hostile-provider.js';
import { authorized, startServer } from '../support/support.js';

describe('petstore-verify proxy with a v2 call', () => {
  let upstream: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    upstream = await startServer();
  });
  afterAll(() => upstream.close());

  it("forwards it, names it unchecked as v2's, and does not pass on it alone", async () => {
    const proxy = await startProxyInProcess(['--upstream', `${upstream.origin}/v1`, '--port', '0']);
    try {
      const answer = await fetch(`${proxy.origin}/v2/store/orders?limit=1`, { headers: authorized });
      expect(answer.status).toBe(200);
      const report = (await (await fetch(`${proxy.origin}/__verify/report`)).json()) as Record<string, unknown>;
      expect({ unchecked: report.unchecked, verdict: report.verdict, checked: report.checked }).toEqual({
        unchecked: [{ reason: 'v2, not yet verified by petstore-verify', exchanges: 1 }],
        verdict: 'not-run',
        checked: 0,
      });
    } finally {
      await proxy.stop();
    }
  });
});

describe('petstore-verify proxy with a v2 call, its upstream below a prefix (/api/v1 beside /api/v2)', () => {
  it("forwards it to v2's base beside the upstream's, /api/v2, not to the upstream's origin", async () => {
    const upstream = await startHostileProvider({ bases: { v1: '/api/v1', v2: '/api/v2' } });
    const proxy = await startProxyInProcess(['--upstream', `${upstream.origin}/api/v1`, '--port', '0']);
    try {
      const answer = await fetch(`${proxy.origin}/v2/store/orders?status=shipped&limit=1`, {
        headers: { authorization: `Bearer ${hostileKey}` },
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(
        '{"orders":[{"id":2,"petId":102,"quantity":2,"status":"shipped"}],"nextCursor":null}',
      );
      const listed = await fetch(`${proxy.origin}/v1/store/orders`, {
        headers: { authorization: `Bearer ${hostileKey}` },
      });
      expect(listed.status).toBe(200);
    } finally {
      await proxy.stop();
      await upstream.close();
    }
  });
});
