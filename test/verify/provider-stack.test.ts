// Issue 55, item 4: a provider team on today's stack (Node 24, pact-js 17 with pact-core 20, prism-http
// 5.16) gets the verdicts the kit's own stack (Node 20, pact-core 19, prism-http 5.12) gives. A fresh
// provider project on Node 24 (the Node 24 cell's, node24Projects) installs the peers, then the packed
// kit, as a user would; every provider
// here (the kit's mock, planted faults, an honest variation, a broker flow) is verified twice at once,
// by that project's `npx petstore-verify` and by this checkout's built command on this Node, each
// against a provider of its own started in this process. The two outputs must agree line for line,
// but for addresses and times; each must also say what the Node 20 suite's own tests assert today.
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedPactFile } from '../../contracts/pact-file.js';
import { isList, json, startBrokenProvider, type Fault } from '../support/broken-provider.js';
import { type Exit, projectRoot, runToExit, scratchFolder, verifyCliPath } from '../support/cli-support.js';
import { type ConsumerProject, projectIn } from '../support/consumer-project.js';
import { noCi, pactOf, startFakeBroker } from '../support/fake-broker.js';
import { startHostileProvider, type Switches } from '../support/hostile-provider.js';
import { nodeBinary } from '../support/node-binaries.js';
import { expectCleanInstalls, node24Projects, supportMatrix } from '../package/support-matrix.js';
import { sharedProject } from '../support/shared-project.js';
import { startServer } from '../support/support.js';

/**
 * Today's stack, as the issue names it: exact versions, so that a new release changes nothing here
 * unseen. The Node 24 cell's provider project installs them, then the kit: this file shares it
 * (node24Projects), made once a run.
 */
const todaysPeers = ['@pact-foundation/pact@17.1.2', '@stoplight/prism-http@5.16.0'];

/** A provider started in this process for one run: the arguments that point petstore-verify at it. */
interface Target {
  args: string[];
  close: () => Promise<void>;
  /** Set by a broker flow: the broker's URL, and what it was sent. */
  broker?: Awaited<ReturnType<typeof startFakeBroker>>;
}

/** One verdict asked of both stacks: the provider, the arguments, the exit code and what the output must say. */
interface Case {
  name: string;
  start: () => Promise<Target>;
  args: string[];
  code: 0 | 1 | 2;
  says: RegExp[];
  /** With a broker: the `success` of each verification result it must be sent, sorted. */
  published?: boolean[];
}

let project: ConsumerProject;
/** The shared project's folder, where its node_modules is; this file works in a folder of its own in it. */
let root: string;
let scratch: string;

beforeAll(async () => {
  // The packed kit is dist/ as built: an old build would test old code (npm test builds first).
  if (!existsSync(verifyCliPath)) throw new Error('dist/ is missing: run `npm run build` before this file');
  scratch = await scratchFolder('petstore-provider-stack-');
  const shared = await sharedProject(node24Projects.provider, {
    node: await nodeBinary(supportMatrix.node24.nodeVersion),
    workspace: 'provider-stack',
  });
  project = shared.project;
  root = shared.root;
  // The peers first, then the kit with no flag: the install must accept pact-core 20 and prism-http 5.16.
  expectCleanInstalls({ definition: node24Projects.provider, installs: shared.installs }, todaysPeers);
}, 600_000);

afterAll(async () => {
  await Promise.all([project?.folder, scratch].map((folder) => folder && rm(folder, { recursive: true, force: true })));
});

/** The installed versions, read off a project (the Node 24 one, or this checkout): what the verdicts below are of. */
async function installedVersion(name: string, folder = root): Promise<string> {
  const manifest = join(folder, 'node_modules', name, 'package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

// What differs between two honest runs: the provider's (and broker's) port, and times.
const normalised = (text: string) =>
  text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/\b\d+(?:\.\d+)? (?:ms|s)\b/g, 'T');

const environment = (target: Target) => ({
  ...noCi,
  PACT_DO_NOT_TRACK: 'true',
  PACT_BROKER_BASE_URL: target.broker?.origin ?? '',
});

/** `npx petstore-verify` in the Node 24 project, as its user runs it. */
function onTodaysStack(target: Target, args: string[], from = project): Promise<Exit> {
  return from.exec('npx', ['petstore-verify', ...target.args, ...args], {
    env: environment(target),
    timeout: 170_000,
  });
}

/** This checkout's built command on this Node (20), with the devDependencies' pact-core 19 and prism-http 5.12. */
function onTheKitsStack(target: Target, args: string[]): Promise<Exit> {
  return runToExit(process.execPath, [verifyCliPath, ...target.args, ...args], {
    env: environment(target),
    timeout: 170_000,
  });
}

async function bothStacks(verdict: Case): Promise<{ today: Exit; kit: Exit; targets: Target[] }> {
  const targets = await Promise.all([verdict.start(), verdict.start()]);
  try {
    const [today, kit] = await Promise.all([
      onTodaysStack(targets[0]!, verdict.args),
      onTheKitsStack(targets[1]!, verdict.args),
    ]);
    return { today, kit, targets };
  } finally {
    await Promise.all(targets.map((target) => target.close()));
  }
}

const brokenProvider = (fault: Fault) => () => startBrokenProvider(fault);
const hostileProvider = (switches: Switches) => () => startHostileProvider(switches);
const cancelsShipped: Fault = (_request, response) =>
  response.status === 409 ? new Response(null, { status: 204 }) : response;

const interactionCount = async () =>
  (JSON.parse(await readFile(shippedPactFile, 'utf8')) as { interactions: unknown[] }).interactions.length;

const cases: Case[] = [
  {
    name: "the kit's own mock, every suite and Prism",
    start: async () => {
      const mock = await startServer();
      const args = ['--base-url', `${mock.origin}/v1`, '--api-key', 'petstore-dev-key'];
      return { args: [...args, '--state-url', `${mock.origin}/__mock/provider-state`], close: mock.close };
    },
    args: ['--verbose'],
    code: 0,
    says: [
      new RegExp(`\\npact: ${await interactionCount()} passed, 0 failed \\(interactions;`),
      /\nscenarios: [1-9]\d* passed, 0 failed \(scenarios;/,
      /\nexplore: [1-9]\d* passed, 0 failed/,
      /\nsecond oracle, Prism: ([1-9]\d*) disagreements with Ajv, \1 of them known Prism limits/,
      /\nverdict: passed \(exit 0; /,
    ],
  },
  {
    name: 'a provider that cancels a shipped order (pact, scenarios, exploration, Prism)',
    start: brokenProvider(cancelsShipped),
    args: [],
    code: 1,
    says: [
      /\n {4}pact › cancel-shipped-order › cancel the shipped order: expected status 409, got 204 \(at status\) \[status-unexpected\]\n/,
      /\n {4}cancel-shipped-order › cancel the shipped order: expected status 409, got 204/,
      /\nexplore: \d+ passed, [1-9]\d* failed/,
      /\nverdict: failed \(exit 1; /,
    ],
  },
  {
    name: "a provider that puts another status in the Error record (Pact's own mismatch text)",
    start: brokenProvider((_request, response) =>
      response.status === 401 ? json({ code: 'unauthorized', message: 'no', status: 403 }, 401) : response,
    ),
    args: ['--suite', 'pact'],
    code: 1,
    says: [
      /\n {4}pact › list-without-key › list the orders without a key: expected 401, got 403 \(Pact: Expected 403 \(Integer\) to be equal to 401 \(Integer\)\) \(at \$\.status\) \[body-schema\]\n/,
    ],
  },
  {
    name: 'a provider that rounds ids beyond 2^53 (pact)',
    start: brokenProvider(async (request, response) =>
      isList(request) && response.status === 200
        ? json(JSON.stringify(JSON.parse(await response.text())), 200)
        : response,
    ),
    args: ['--suite', 'pact'],
    code: 1,
    says: [
      /\n {4}pact › cancel-order-beyond-2-53 › list both orders with exact ids: expected .*9007199254740993.* \(Pact: .*\n/,
    ],
  },
  {
    name: 'a provider that lists an id of 2.5 (scenarios, both oracles)',
    start: hostileProvider({ fractionalId: true }),
    args: ['--suite', 'scenarios', '--verbose'],
    code: 1,
    says: [/list-orders › list the orders: expected integer, got 2\.5 \(at \/0\/id\) \[body-schema\]\n/],
  },
  {
    name: "a provider that sends bytes after a 204 (Pact's verifier's own proxy)",
    start: hostileProvider({ bytesAfter204: true }),
    args: ['--suite', 'pact'],
    code: 1,
    says: [/pact › cancel-pending-order › cancel the pending order: expected nothing after the end of the response/],
  },
  {
    // Pact's verifier lists header mismatches in a hash map's order, which changes from run to run on
    // both stacks: the kit orders them by name (pact-cases.ts, inStableOrder), so the two outputs agree.
    name: 'a provider that leaves out Deprecation and Sunset (two header mismatches of Pact)',
    start: brokenProvider(async (_request, response) => {
      const headers = new Headers(response.headers);
      headers.delete('deprecation');
      headers.delete('sunset');
      return new Response(await response.text(), { status: response.status, headers });
    }),
    args: ['--suite', 'pact', '--scenario', 'read-deprecated-pet'],
    code: 1,
    says: [
      /\n {4}pact › read-deprecated-pet › read pet 1: expected "@\d+", got {2}\(Pact: Expected a header 'Deprecation' but was missing\) \(at Deprecation\) \[header-missing\]\n {4}pact › read-deprecated-pet › read pet 1: expected "[^"]+ GMT", got {2}\(Pact: Expected a header 'Sunset' but was missing\) \(at Sunset\) \[header-missing\]\n/,
    ],
  },
  {
    name: 'an honest provider written from scratch that varies where the contract allows',
    start: hostileProvider({
      charset: true,
      fractionalShipDates: true,
      gzip: true,
      extraOrderFields: true,
      extraErrorFields: true,
      conflictWithoutBody: true,
    }),
    args: ['--verbose'],
    code: 0,
    says: [
      /\npact: [1-9]\d* passed, 0 failed/,
      /\nscenarios: [1-9]\d* passed, 0 failed/,
      /\nverdict: passed \(exit 0; /,
    ],
  },
  {
    name: "a broker's pending pact that fails, beside one that passes, results published",
    start: async () => {
      const broker = await startFakeBroker([
        { consumer: 'web-app', text: await pactOf('cancel-shipped-order'), pending: true },
        { consumer: 'admin-app', text: await pactOf('list-orders', 'admin-app') },
      ]);
      const provider = await startBrokenProvider(cancelsShipped);
      return {
        args: provider.args,
        broker,
        close: async () => {
          await Promise.all([provider.close(), broker.close()]);
        },
      };
    },
    args: ['--enable-pending', '--provider-version', '1.2.5', '--no-prism'],
    code: 0,
    published: [false, true],
    says: [
      /(?:^|\n)~ pact › cancel-shipped-order › cancel the shipped order \(DELETE [^\n]*\n {4}pending pact \(fails nothing\): pact › cancel-shipped-order › cancel the shipped order: expected status 409, got 204 \(at status\) \[status-unexpected\]\n/,
      /\npact: the pending pact "Pact between web-app \(v1\) and petstore-order-interface" failed; pending, it fails nothing/,
      /\nverdict: passed \(exit 0; /,
    ],
  },
];

describe('petstore-verify on Node 24 with pact-core 20 and prism-http 5.16 gives the verdicts of Node 20, pact-core 19, prism-http 5.12', () => {
  it('installs the versions the issue names', async () => {
    expect(project.node.version).toMatch(/^24\./);
    expect(await installedVersion('@pact-foundation/pact-core')).toMatch(/^20\./);
    expect(await installedVersion('@stoplight/prism-http')).toBe('5.16.0');
    // The other side: this checkout's devDependencies, on the Node running the suite, which must be 20
    // for the comparison to be the one this file names.
    expect(process.versions.node, 'the suite runs on Node 20').toMatch(/^20\./);
    expect(await installedVersion('@pact-foundation/pact-core', projectRoot)).toMatch(/^19\./);
    expect(await installedVersion('@stoplight/prism-http', projectRoot)).toBe('5.12.0');
  });

  it.concurrent.each(cases.map((verdict) => [verdict.name, verdict] as const))('%s', async (_, verdict) => {
    const { today, kit, targets } = await bothStacks(verdict);
    for (const exit of [kit, today]) {
      expect(exit.code, exit.stdout + exit.stderr).toBe(verdict.code);
      for (const line of verdict.says) expect(exit.stdout).toMatch(line);
      expect(exit.stderr).toBe('');
    }
    expect(normalised(today.stdout)).toBe(normalised(kit.stdout));
    // A broker is told the same of each pact by both stacks.
    const published = (target: Target) =>
      target.broker
        ?.bodiesOf('POST', '/verification-results')
        .map((body) => body.success as boolean)
        .sort();
    expect(published(targets[0]!)).toEqual(verdict.published);
    expect(published(targets[1]!)).toEqual(verdict.published);
  });
});

describe("a verifier that cannot run on today's stack is the tool's failure, not the provider's", () => {
  it('exits 2, naming why, and publishes nothing to a broker, when pact-core is installed without its native package (npm install --omit=optional)', async () => {
    // The project is shared with other files, which need it whole: a copy of it loses the package
    // instead, its files hard links to the project's (nothing is copied but the folders).
    const copy = await scratchFolder('petstore-provider-without-native-');
    const copied = await runToExit('cp', ['-al', join(root, 'node_modules'), join(root, 'package.json'), copy]);
    expect(copied.code, copied.stderr).toBe(0);
    const withoutNative = projectIn({ node: project.node, folder: copy });
    const native = join(copy, 'node_modules', '@pact-foundation', 'pact-core-linux-x64-glibc');
    // Pact's native core for this machine (linux-x64, glibc): a package of its own, which --omit=optional leaves out.
    expect(existsSync(native)).toBe(true);
    await rm(native, { recursive: true });
    const mock = await startServer();
    const broker = await startFakeBroker([{ consumer: 'web-app', text: await pactOf('cancel-shipped-order') }]);
    try {
      const target = {
        args: ['--base-url', `${mock.origin}/v1`, '--api-key', 'petstore-dev-key'],
        close: mock.close,
      };
      const state = ['--state-url', `${mock.origin}/__mock/provider-state`, '--suite', 'pact'];
      const [alone, withBroker] = await Promise.all([
        onTodaysStack(target, state, withoutNative),
        onTodaysStack({ ...target, broker }, [...state, '--provider-version', '1.2.6'], withoutNative),
      ]);
      for (const exit of [alone, withBroker]) {
        expect(exit.stdout).toMatch(
          /\nverdict: not-run \(exit 2; [^\n]*pact › verifier: Pact's verifier could not run: [^\n]*pact-core-linux-x64-glibc/,
        );
        expect(exit.stdout).not.toMatch(/✗ pact › verifier/);
        expect(exit.code).toBe(2);
      }
      // Nothing was verified: the broker is told nothing of the provider's version, neither pass nor failure.
      expect(broker.bodiesOf('POST', '/verification-results')).toEqual([]);
    } finally {
      await Promise.all([mock.close(), broker.close(), rm(copy, { recursive: true, force: true })]);
    }
  });
});
