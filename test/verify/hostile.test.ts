// petstore-verify against hostile providers: a provider written from scratch on raw sockets
// (test/support/hostile-provider.ts) with a switch for every way a real service can break the contract, and
// for every honest way it can differ from the kit's mock. Each run is the command a CI runs, and each
// test asserts the exit code, that no stack trace is printed, and that the JSON and JUnit reports
// agree with the exit code. Most runs are the command run in this process (runVerifyInProcess: the
// same code from the command line to the reports, without a process and a load of Prism per run);
// the runs marked `command` are the built command in a process of its own, where the process is
// what is at stake (an honest default run, the preflight's exit 2, the deadline).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/parse-json.js';
import { runToExit, runVerifyInProcess, type Exit, verifyCliPath as verifyCli } from '../support/cli-support.js';
import { hostileKey, startHostileProvider, type Switches } from '../support/hostile-provider.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'petstore-hostile-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface Reports {
  exit: Exit;
  json: {
    exitCode: number;
    verdict: string;
    violations: number;
    reasons: string[];
    suites: { suite: string; checks: number }[];
  };
  junit: string;
}

// A run takes about 4 s on a quiet machine; this file starts several at once (describe.concurrent) beside
// other test files. The limits are generous so that a loaded machine makes a run slower, never red.
const slow = { timeout: 180_000 };

let runs = 0;
/**
 * Runs petstore-verify against a hostile provider with these switches, with JSON and JUnit reports.
 * A provider that stalls gets a per-request timeout of 0.5 s: the stalled answers never come, so the
 * timeout decides nothing by speed. Every other run keeps the default (10 s): there an honest answer
 * that a loaded machine delays is slow, not missing.
 */
async function verifyAgainst(
  switches: Switches,
  args: string[] = [],
  how: 'in process' | 'command' = 'in process',
): Promise<Reports> {
  const provider = await startHostileProvider(switches);
  const json = join(directory, `report-${++runs}.json`);
  const junit = join(directory, `report-${runs}.xml`);
  const timeout = switches.stallBody === true || switches.stallHeaders === true ? ['--timeout', '0.5'] : [];
  try {
    const command = [...provider.args, ...timeout, '--json', json, '--junit', junit, ...args];
    const exit =
      how === 'command'
        ? await runToExit(process.execPath, [verifyCli, ...command], { timeout: 170_000 })
        : await runVerifyInProcess(command);
    return {
      exit,
      json: parseJson(await readFile(json, 'utf8')) as unknown as Reports['json'],
      junit: await readFile(junit, 'utf8'),
    };
  } finally {
    await provider.close();
  }
}

/** What every run must show whatever its verdict: no stack trace, and reports that say what the exit code says. */
function expectConsistent({ exit, json, junit }: Reports, code: 0 | 1 | 2): void {
  expect(exit.stderr + exit.stdout).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n|Error: .*\n\s+at /);
  expect(exit.code, exit.stdout).toBe(code);
  expect(json.exitCode).toBe(code);
  expect(json.verdict).toBe({ 0: 'passed', 1: 'failed', 2: 'not-run' }[code]);
  expect(exit.stdout).toMatch(new RegExp(`(^|\\n)verdict: ${json.verdict} \\(exit ${code}; `));
  const failures = Number(/<testsuites [^>]*failures="(\d+)"/.exec(junit)?.[1]);
  if (code === 1) expect(failures).toBeGreaterThan(0);
  else expect(failures).toBe(0);
  if (code === 0) expect(json.violations).toBe(0);
}

describe.concurrent('the default run passes an honest provider', slow, () => {
  it.each<[string, Switches]>([
    ['written from scratch, with nothing switched on', {}],
    ['sends charset parameters with application/json', { charset: true }],
    ['writes ship dates with fractional seconds, as toISOString() does', { fractionalShipDates: true }],
    ['writes ship dates with an offset instead of Z', { offsetShipDates: true }],
    ['gzips its bodies', { gzip: true }],
    ['sends chunked bodies', { chunked: true }],
    ['answers in HTTP/1.0 with close-delimited bodies', { http10: true }],
    ['adds fields of its own to an Order', { extraOrderFields: true }],
    ['adds fields of its own to an Error record', { extraErrorFields: true }],
    ['answers 409 without a body', { conflictWithoutBody: true }],
    ['lists the orders in another order', { reverseListOrder: true }],
    ['keeps cancelled orders in the list', { keepCancelledListed: true }],
    ['answers a second cancel with 409', { secondCancelConflict: true }],
  ])('that %s', async (name, switches) => {
    const reports = await verifyAgainst(
      switches,
      [],
      name === 'written from scratch, with nothing switched on' ? 'command' : 'in process',
    );
    expectConsistent(reports, 0);
    expect(reports.json.suites.map((suite) => [suite.suite, suite.checks > 0])).toEqual([
      ['pact', true],
      ['scenarios', true],
      ['explore', true],
    ]);
  });
});

// The default run where what is at stake is the pact's or the whole run's (a stall, a broken body);
// the scenario suite alone where a scenario shows the defect: the same checks, in a third of the time.
const needsDefaultRun = (switches: Switches, reason: RegExp) =>
  /pact ›/.test(reason.source) ||
  switches.stallBody === true ||
  switches.stallHeaders === true ||
  switches.closeMidBody === true ||
  switches.badGzip === true;

describe.concurrent('a run fails a provider that breaks the contract, with a one-line reason', slow, () => {
  it.each<[string, Switches, RegExp]>([
    [
      'sends bytes after a 204',
      { bytesAfter204: true },
      /cancel-pending-order › cancel the pending order: expected nothing after the end of the response \(a 204 cannot carry content, RFC 9110 §15\.3\.5\), got more bytes on the connection \[framing\]\n/,
    ],
    [
      'lists an id of 2.5',
      { fractionalId: true },
      /list-orders › list the orders: expected integer, got 2\.5 \(at \/0\/id\) \[body-schema\]\n/,
    ],
    [
      'closes the socket in the middle of a body',
      { closeMidBody: true },
      /list-orders › list the orders: expected a whole answer in time, got the connection closed before the whole response came \[no-answer\]\n/,
    ],
    [
      "cuts its first list (the preflight's) short, then answers honestly",
      { firstListBroken: 'cut' },
      /preflight › list the orders with the key: expected a whole answer in time, got the connection closed before the whole response came \[no-answer\]\n/,
    ],
    [
      "frames its first list (the preflight's) badly, then answers honestly",
      { firstListBroken: 'framing' },
      /preflight › list the orders with the key: expected a whole answer in time, got [^\n]+\n/,
    ],
    [
      "labels its first list (the preflight's) gzip when it is not, then answers honestly",
      { firstListBroken: 'encoding' },
      /preflight › list the orders with the key: expected a whole answer in time, got the body could not be decoded as its Content-Encoding \(gzip\) says: incorrect header check \[no-answer\]\n/,
    ],
    [
      'labels a body gzip that is not gzip',
      { badGzip: true },
      /list-shape › list the orders: expected a whole answer in time, got the body could not be decoded as its Content-Encoding \(gzip\) says: incorrect header check \[no-answer\]\n/,
    ],
    [
      'stalls after the headers',
      { stallBody: true },
      /: expected a whole answer in time, got no complete answer within 500 ms \(the headers or the body stalled\) \[no-answer\]\n[\s\S]*expected the run to finish, got the target stopped answering: \d+ requests got no complete answer in time/,
    ],
    [
      'lists an order twice',
      { duplicateIds: true },
      /list-orders › list the orders: expected each order id once, got 1 again \(first at \/0\) \(at \/2\/id\) \[id-unique\]\n/,
    ],
    [
      'lists another petId than the state gives',
      { wrongField: 'petId' },
      /list-orders › list the orders: expected petId 101 as the provider state gives it, got 102 \(at \/0\/petId\) \[order-field\]\n/,
    ],
    [
      'lists another quantity than the state gives',
      { wrongField: 'quantity' },
      /list-orders-edge-values › list the orders: expected quantity 0 as the provider state gives it, got 1 \(at \/0\/quantity\) \[order-field\]\n/,
    ],
    [
      'lists another complete flag than the state gives',
      { wrongField: 'complete' },
      /list-orders-edge-values › list the orders: expected complete false as the provider state gives it, got true \(at \/0\/complete\) \[order-field\]\n/,
    ],
    [
      'lists another ship date than the state gives',
      { wrongField: 'shipDate' },
      /list-orders › list the orders: expected shipDate "2026-12-01T09:00:00Z" as the provider state gives it, got "2026-12-02T09:00:00\.000Z" \(at \/0\/shipDate\) \[order-field\]\n/,
    ],
    [
      'revives a cancelled order on a second cancel (404, but pending again)',
      { reviveOnSecondCancel: true },
      /cancel-cancelled-order › cancel it a third time: expected status 404 or 409, got 204 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'matches ids through a float',
      { lossyIds: true },
      /cancel-order-beyond-2-53 › the shipped neighbour still refuses: expected status 409, got 404 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'sends a 401 without a challenge',
      { noChallenge: true },
      /list-without-key › list the orders without a key: expected a Bearer challenge in WWW-Authenticate with 401 \(RFC 6750 §3\), got no WWW-Authenticate \(at www-authenticate\) \[auth-challenge\]\n/,
    ],
    [
      'sends a 401 with a Basic challenge',
      { basicChallenge: true },
      /list-without-key › list the orders without a key: expected a Bearer challenge in WWW-Authenticate with 401 \(RFC 6750 §3\), got "Basic realm=\\"hostile\\"" \(at www-authenticate\) \[auth-challenge\]\n/,
    ],
    [
      'accepts any Basic credentials',
      { acceptBasic: true },
      /list-with-another-scheme › list the orders with Basic credentials: expected status 401, got 200 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'accepts a wrong key on the pet read',
      { petAcceptsAnyKey: true },
      /read-pet-with-wrong-key › read pet 1 with a wrong key: expected status 401, got 200 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'errors on a list of no orders',
      { emptyStoreErrors: true },
      /pact › list-shape › list the orders: expected a status GET \/store\/orders documents \(200, 401\), got 500 \(at status\) \[status-undocumented\]\n/,
    ],
  ])('that %s', async (_, switches, reason) => {
    const reports = await verifyAgainst(switches, needsDefaultRun(switches, reason) ? [] : ['--suite', 'scenarios']);
    expectConsistent(reports, 1);
    expect(reports.exit.stdout).toMatch(reason);
  });
});

// Defects the catch-rate work added scenarios for: the scenario suite alone shows each (the
// default run, pact and exploration included, is proved on the honest variations above).
describe.concurrent('the scenarios fail a provider that breaks the contract near its edges', slow, () => {
  it.each<[string, Switches, RegExp]>([
    [
      'accepts any Bearer token that starts with the key',
      { keyPrefixMatch: true },
      /list-with-near-keys › list the orders with the key and a character after it: expected status 401, got 200 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'serves the list at a trailing slash without asking for a key',
      { openTrailingSlash: true },
      /near-paths-without-key › list with a trailing slash: expected status 301 or 302 or 307 or 308 or 400 or 401 or 403 or 404 or 405, got 200 \(at status\) \[status-unexpected\]\n/,
    ],
    [
      'puts a cancelled order back into the list when a second cancel is refused',
      { relistOnSecondCancel: true },
      /cancel-cancelled-order-then-list › list after the refused cancel: expected cancelled order 1 to stay out of the list once it left, got it listed again \(at \/\d\/id\) \[order-relisted\]\n/,
    ],
    [
      'keeps quantities in 32 bits',
      { int32Quantity: true },
      /cancel-orders-at-int64-edges › list the orders at the edges: expected quantity 4294967296 as the provider state gives it, got 0 \(at \/0\/quantity\) \[order-field\]\n/,
    ],
    [
      'refuses to cancel orders with negative ids',
      { refuseNegativeIds: true },
      /cancel-orders-at-int64-edges › cancel the order at the int64 minimum: expected status 204, got 404 \(at status\) \[status-unexpected\]\n/,
    ],
  ])('that %s', async (_, switches, reason) => {
    const reports = await verifyAgainst(switches, ['--suite', 'scenarios']);
    expectConsistent(reports, 1);
    expect(reports.exit.stdout).toMatch(reason);
  });
});

describe.concurrent('the preflight stops a run that could check nothing, with exit 2 and one line', slow, () => {
  it('stops on a provider that never sends its headers, naming the base URL', async () => {
    const reports = await verifyAgainst({ stallHeaders: true }, [], 'command');
    expectConsistent(reports, 2);
    expect(reports.json.suites).toEqual([]);
    expect(reports.exit.stderr).toMatch(
      /^petstore-verify: the base URL does not answer: GET http:\/\/127\.0\.0\.1:\d+\/v1\/store\/orders: no complete answer within 500 ms \(the headers or the body stalled\); check --base-url\n$/,
    );
  });

  it('stops on a key the provider refuses, naming --api-key', async () => {
    const reports = await verifyAgainst({}, ['--api-key', 'not-the-key'], 'command');
    expectConsistent(reports, 2);
    expect(reports.exit.stderr).toBe('petstore-verify: the API key was refused (401): check --api-key\n');
  });
});

describe.concurrent('the scenario suite alone (--suite scenarios) fails what only it used to pass', slow, () => {
  it.each<[string, Switches, RegExp]>([
    [
      'lists an order the state does not hold',
      { phantomOrder: true },
      /list-orders › list the orders: expected only orders of the provider state, got order 424242, which it does not hold \(at \/2\/id\) \[order-unknown\]\n/,
    ],
    [
      'sends invalid UTF-8',
      { invalidUtf8: true },
      /list-orders › list the orders: expected a body in UTF-8 \(RFC 8259 §8\.1\), got bytes that are not valid UTF-8 \[encoding\]\n/,
    ],
    [
      'puts a byte order mark before the JSON',
      { byteOrderMark: true },
      /list-orders › list the orders: expected a JSON text without a byte order mark \(RFC 8259 §8\.1\), got one before the JSON \[encoding\]\n/,
    ],
    [
      'sends Deprecation: true',
      { deprecationTrue: true },
      /read-deprecated-pet › read pet 1: expected Deprecation as a Structured Field Date such as @1767225600 \(RFC 9745\), got "true" \(at Deprecation\) \[header-syntax\]\n/,
    ],
    [
      'sends Sunset: soon',
      { sunsetSoon: true },
      /read-deprecated-pet › read pet 1: expected Sunset as an HTTP-date such as Wed, 30 Jun 2027 23:59:59 GMT \(RFC 8594\), got "soon" \(at Sunset\) \[header-syntax\]\n/,
    ],
    [
      'looks the order up before the auth check',
      { lookupBeforeAuth: true },
      /cancel-without-key › cancel an unknown order without a key: expected status 401, got 404 \(at status\) \[status-unexpected\]\n/,
    ],
  ])('that %s', async (_, switches, reason) => {
    const reports = await verifyAgainst(switches, ['--suite', 'scenarios']);
    expectConsistent(reports, 1);
    expect(reports.exit.stdout).toMatch(reason);
  });
});

describe.concurrent('the pact suite alone fails what only it used to pass', slow, () => {
  it.each<[string, Switches, RegExp]>([
    [
      'redirects the list to another path',
      { redirectList: true },
      /pact › list-orders › list the orders: expected a status GET \/store\/orders documents \(200, 401\), got 302 \(a redirect to \/v1\/store\/orders-moved; the specification documents none\) \(at status\) \[status-undocumented\]\n/,
    ],
    [
      'removes another order on a cancel',
      { cancelRemovesNeighbour: true },
      /pact › cancel-pending-order › cancel the pending order: after this call, GET \/store\/orders: expected order 2 in the list, got ids \[\] \[order-listed\]\n/,
    ],
  ])('that %s', async (_, switches, reason) => {
    const reports = await verifyAgainst(switches, ['--suite', 'pact']);
    expectConsistent(reports, 1);
    expect(reports.exit.stdout).toMatch(reason);
  });

  it("ends, with a verdict, when a 204 is followed by bytes (Pact's own proxy used to hang there)", async () => {
    const reports = await verifyAgainst({ bytesAfter204: true }, ['--suite', 'pact']);
    expectConsistent(reports, 1);
    expect(reports.exit.stdout).toMatch(
      /pact › cancel-pending-order › cancel the pending order: expected nothing after the end of the response/,
    );
  });
});

describe('the run has a deadline', slow, () => {
  it("stops Pact's verifier at the deadline, sends none of the suites after it, and fails with the reason", async () => {
    // Cancels are never answered (and the per-request timeout is the default 10 s): whatever the
    // machine's speed, the verifier is still waiting when the deadline comes, and the scenarios and the
    // exploration start past it: not run (issue 59: time spent elsewhere is no evidence against the provider).
    const reports = await verifyAgainst({ stallCancels: true }, ['--deadline', '3'], 'command');
    expectConsistent(reports, 1);
    expect(reports.exit.stdout).toMatch(
      /pact › verifier: expected Pact's verifier to verify the pact, got Pact's verifier was stopped: the run passed its deadline \[pact-verifier\]\n/,
    );
    expect(reports.exit.stdout.split('\n')).toContain(
      '! error in scenarios: not run: the run passed its deadline before this suite started (nothing of it was sent)',
    );
  });
});

describe('a run that checks nothing is not green', slow, () => {
  it('exits 2, naming what was missing, when every scenario asked for needs --state-url', async () => {
    const provider = await startHostileProvider();
    const json = join(directory, 'nothing.json');
    try {
      const exit = await runVerifyInProcess([
        '--base-url',
        `${provider.origin}/v1`,
        '--api-key',
        hostileKey,
        '--scenario',
        'cancel-shipped-order',
        '--json',
        json,
      ]);
      expect(exit.stdout).toContain(
        '- skipped cancel-shipped-order: it sets a provider state, and no --state-url was given\n',
      );
      expect(exit.stdout).toMatch(
        /\nverdict: not-run \(exit 2; 0 checks, 0 violations, [\d.]+ s\): no check ran: everything asked for sets a provider state, and no --state-url was given\n$/,
      );
      expect(exit.code).toBe(2);
      expect((parseJson(await readFile(json, 'utf8')) as { exitCode: number }).exitCode).toBe(2);
    } finally {
      await provider.close();
    }
  });
});
