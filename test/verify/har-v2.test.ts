// petstore-verify har and v2's calls (issue 56): v2 is served by the mock but not yet verified, so its
// entries in a HAR are named as not verified, never judged, never passed, and never blamed on v1.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVerifyInProcess } from '../support/cli-support.js';
import { writeHar, type HarExchangeSpec } from '../support/har-files.js';
import { authorized } from '../support/support.js';

const json = { 'content-type': 'application/json' };
const v2List: HarExchangeSpec = {
  url: 'https://staging.example.com/v2/store/orders?limit=1',
  status: 200,
  requestHeaders: authorized,
  responseHeaders: json,
  body: '{"orders":[{"id":1,"status":"pending"}],"nextCursor":null}',
};
const v1List: HarExchangeSpec = {
  url: 'https://staging.example.com/v1/store/orders',
  status: 200,
  requestHeaders: authorized,
  responseHeaders: json,
  body: '[{"id":1}]',
};

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-har-v2-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const verifyHar = async (exchanges: HarExchangeSpec[]) =>
  runVerifyInProcess([
    'har',
    await writeHar(join(directory, 'v2.har'), exchanges, { browser: 'chrome' }),
    '--no-prism',
  ]);

describe("petstore-verify har with v2's calls", () => {
  it('names the v2 entries as not verified beside the v1 ones it judges', async () => {
    const run = await verifyHar([v1List, v2List]);
    expect(run.stdout).toContain(
      'not verified: 1 entry of v2 (https://staging.example.com/v2): v2 is not yet verified by petstore-verify, so none of them is judged\n',
    );
    expect(run.code).toBe(0);
  });

  it('does not pass a HAR of v2 calls alone: nothing was judged (exit 2), and it says why', async () => {
    const run = await verifyHar([v2List]);
    expect(run.stdout).toContain(
      'no entry was judged: 1 of the 1 is a call of v2, not yet verified, and none of v1 (a path of its routes below a base URL ending with /v1)',
    );
    expect(run.code).toBe(2);
  });
});
