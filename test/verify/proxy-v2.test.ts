// The validating proxy and v2's calls (issue 56): forwarded, never judged as v1's nor passed, and named
// apart in the report as not yet verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyInProcess } from '../support/cli-support.js';
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
