// The layers of docs/architecture.md, enforced: which folder may import which. Read from the sources
// as text, type imports included, so a dependency the wrong way fails here before it ships.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/cli-support.js';

/** Each layer, and the layers it may import (besides itself). Third-party code comes from packages only. */
const allowed: Record<string, string[]> = {
  spec: [],
  core: ['spec'],
  mocks: ['spec', 'core'],
  contracts: ['spec', 'core', 'mocks'],
  verify: ['spec', 'core', 'mocks', 'contracts'],
  cli: ['spec', 'core', 'mocks', 'contracts', 'verify'],
};

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(projectRoot, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)));
}

/**
 * The kit's own modules a file imports (relative specifiers, `.js` read as the `.ts` source), and the
 * packages; with `runtime`, only what is loaded when the file runs (no `import type`).
 */
async function importsOf(file: string, runtime = false): Promise<{ modules: string[]; packages: string[] }> {
  const text = await readFile(join(projectRoot, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b(\s+type\b)?[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g),
  ]
    .filter((match) => !runtime || match[1] === undefined)
    .map((match) => match[2] ?? match[3]!);
  return {
    modules: specifiers
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) =>
        relative(projectRoot, join(dirname(join(projectRoot, file)), specifier)).replace(/\.js$/, '.ts'),
      ),
    packages: specifiers.filter((specifier) => !specifier.startsWith('.')),
  };
}

const layerOf = (file: string) => file.split('/')[0]!;

/** The imports, of files of one layer, that go to a layer it may not import. */
function wrongWayImports(layer: string, imports: readonly { file: string; modules: readonly string[] }[]): string[] {
  return imports.flatMap(({ file, modules }) =>
    modules
      .filter((imported) => layerOf(imported) !== layer && !allowed[layer]!.includes(layerOf(imported)))
      .map((imported) => `${file} imports ${imported}`),
  );
}

async function closure(entry: string): Promise<{ modules: Set<string>; packages: Set<string> }> {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    const found = await importsOf(file, true);
    for (const name of found.packages) packages.add(name);
    pending.push(...found.modules);
  }
  return { modules, packages };
}

describe('the layers', () => {
  it.each(Object.keys(allowed))('%s imports only the layers below it', async (layer) => {
    const files = await sourceFiles(layer);
    expect(files.length).toBeGreaterThan(0);
    const imports = await Promise.all(files.map(async (file) => ({ file, modules: (await importsOf(file)).modules })));
    expect(wrongWayImports(layer, imports)).toEqual([]);
  });

  it('catches an import the wrong way: the core importing the mock, the mock the harness', () => {
    expect(
      wrongWayImports('core', [
        { file: 'core/routes.ts', modules: ['spec/generated/contract.ts', 'mocks/handlers.ts'] },
      ]),
    ).toEqual(['core/routes.ts imports mocks/handlers.ts']);
    expect(
      wrongWayImports('mocks', [
        { file: 'mocks/server.ts', modules: ['core/routes.ts', 'verify/provider/run.ts', 'contracts/client.ts'] },
      ]),
    ).toEqual(['mocks/server.ts imports verify/provider/run.ts', 'mocks/server.ts imports contracts/client.ts']);
  });

  it('reads type imports and dynamic imports as imports', async () => {
    expect((await importsOf('core/records.ts')).modules).toEqual([
      'spec/generated/contract.ts',
      'core/order-status.ts',
      'spec/generated/openapi-exact-types.ts',
      'spec/generated/openapi-types.ts',
    ]);
    expect((await importsOf('core/records.ts', true)).modules).toEqual(['spec/generated/contract.ts']);
    expect((await importsOf('cli/verify/publish-pact.ts')).modules).toContain('verify/pact/pact-broker.ts');
  });

  it('keeps the browser client light: no Ajv, no whole OpenAPI document', async () => {
    const { modules, packages } = await closure('contracts/client.ts');
    expect([...modules].sort()).toEqual([
      'contracts/client.ts',
      'core/exact-fetch.ts',
      'core/int64.ts',
      'core/major-base.ts',
      'core/parse-json.ts',
      'core/records.ts',
      'core/routes.ts',
      'spec/generated/contract.ts',
    ]);
    expect([...packages].sort()).toEqual(['lossless-json']);
  });

  // The unbundled entry points load these from the user's node_modules: a package that is neither a
  // dependency nor a peer would be there only by chance (the CLI, bundled, carries its own).
  it('loads, from its entry points, only its dependencies, its peers and Node built-ins: no @msw/playwright', async () => {
    const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      exports: Record<string, string | Record<string, { default: string }>>;
    };
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const entries = Object.values(manifest.exports)
      .flatMap((target) => (typeof target === 'string' ? [] : Object.values(target).map((use) => use.default)))
      .filter((target) => target.startsWith('./dist/') && target.endsWith('.js'))
      .map((target) => target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
    expect(entries).toContain('mocks/adapters/playwright.ts');
    const packageName = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const loaded = new Set<string>();
    for (const entry of new Set(entries)) for (const name of (await closure(entry)).packages) loaded.add(name);
    const undeclared = [...loaded].filter((name) => !name.startsWith('node:') && !declared.has(packageName(name)));
    expect(undeclared).toEqual([]);
    expect(declared.has('@msw/playwright')).toBe(false);
  });

  it('keeps the control client light: fetch and exact JSON, no store, no Ajv, no MSW', async () => {
    const { packages } = await closure('mocks/control/control-client.ts');
    expect([...packages].sort()).toEqual(['lossless-json']);
  });

  it('runs the store on the published @msw/data, imported as a package: no vendored copy', async () => {
    const { modules, packages } = await closure('mocks/store/order-store.ts');
    expect(packages).toContain('@msw/data');
    expect([...modules].filter((file) => !['spec', 'core', 'mocks'].includes(layerOf(file)))).toEqual([]);
    expect(existsSync(join(projectRoot, 'vendor'))).toBe(false);
  });

  it.each([
    'mocks/adapters/browser.ts',
    'mocks/index-browser.ts',
    'mocks/control/control-client.ts',
    'mocks/adapters/storybook.ts',
  ])('keeps %s, which browsers load, free of Node built-ins', async (entry) => {
    const { modules, packages } = await closure(entry);
    expect([...packages].filter((name) => name.startsWith('node:'))).toEqual([]);
    expect(
      [...modules].filter((file) =>
        [
          'core/scenario-files.ts',
          'core/package-folder.ts',
          'mocks/server/server.ts',
          'mocks/store/seed-file.ts',
        ].includes(file),
      ),
    ).toEqual([]);
  });

  it("keeps spec/ to the documents (v1's and v2's) and what is generated from them: no hand-written code", async () => {
    const entries = await readdir(join(projectRoot, 'spec'), { withFileTypes: true, recursive: true });
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)));
    expect(
      files.filter(
        (file) =>
          ![join('spec', 'openapi.yaml'), join('spec', 'openapi-v2.yaml')].includes(file) &&
          !file.startsWith(join('spec', 'generated')),
      ),
    ).toEqual([]);
    for (const file of files.filter((file) => file.endsWith('.ts')))
      expect(await readFile(join(projectRoot, file), 'utf8'), file).toMatch(
        /^\/\/ Generated by scripts\/generate-spec\.mjs/,
      );
  });

  it('keeps core/ free of Node built-ins, but for the scenario files and the package folder (Node only)', async () => {
    const nodeOnly = [join('core', 'scenario-files.ts'), join('core', 'package-folder.ts')];
    const withNode: string[] = [];
    for (const file of await sourceFiles('core'))
      if ((await importsOf(file)).packages.some((name) => name.startsWith('node:'))) withNode.push(file);
    expect(withNode.sort()).toEqual(nodeOnly.sort());
  });
});

/**
 * The rooms of `mocks/` (docs/architecture.md), and the rooms each may import besides itself: one way,
 * from the entry points at the root down to what every room shares. `.` is the root's files (the
 * package's entries); `generated` is written by scripts/generate-spec.mjs. A new folder is added here.
 */
const rooms: Record<string, string[]> = {
  generated: [],
  base: [],
  journal: ['base'],
  store: ['base'],
  pact: ['base', 'journal', 'store'],
  session: ['base', 'journal', 'store', 'pact'],
  control: ['base', 'generated', 'journal', 'store', 'pact', 'session'],
  pipeline: ['base', 'generated', 'journal', 'store', 'pact', 'session', 'control'],
  server: ['base', 'journal', 'store', 'session', 'control', 'pipeline'],
  adapters: ['base', 'generated', 'journal', 'store', 'pact', 'session', 'control', 'pipeline'],
  '.': ['base', 'generated', 'journal', 'store', 'pact', 'session', 'control', 'pipeline', 'server', 'adapters'],
};

/**
 * The rooms of `verify/` (docs/architecture.md), and the rooms each may import besides itself: one way,
 * from the entry points at the root down to what every room shares; `compat` is the breaking-change
 * check's. `.` is the root's files, the package's entry and the script of Pact's verifier processes: it
 * may import every room.
 */
const verifyRooms: Record<string, string[]> = {
  base: [],
  http: ['base'],
  scenario: ['base'],
  provider: ['base', 'http', 'scenario'],
  recorder: ['base', 'scenario'],
  explore: ['base', 'http', 'scenario', 'provider'],
  pact: ['base', 'http', 'scenario', 'provider'],
  proxy: ['base', 'http', 'scenario', 'provider', 'recorder'],
  har: ['base', 'http', 'scenario', 'recorder'],
  compat: ['base', 'http', 'scenario', 'provider', 'pact'],
  run: ['base', 'http', 'scenario', 'provider', 'explore', 'pact', 'compat'],
  report: ['base', 'provider', 'recorder', 'har', 'compat', 'run'],
};
verifyRooms['.'] = Object.keys(verifyRooms);

/** The most files `verify/`'s root may hold: past it, a file needs a room. */
const verifyRootLimit = 12;

/** The room of a file of a layer with rooms: its folder below the layer, or `.` for the root's files. */
const roomOf = (file: string) => {
  const parts = file.split(/[\\/]/);
  return parts.length > 2 ? parts[1]! : '.';
};

/** The imports, between files of one layer, that go to a room the importing file's room may not import (`mocks/` unless told). */
function wrongRoomImports(
  imports: readonly { file: string; modules: readonly string[] }[],
  { layer, table }: { layer: string; table: Record<string, string[]> } = { layer: 'mocks', table: rooms },
): string[] {
  return imports.flatMap(({ file, modules }) =>
    modules
      .filter((imported) => layerOf(imported) === layer && roomOf(imported) !== roomOf(file))
      .filter((imported) => !(table[roomOf(file)] ?? []).includes(roomOf(imported)))
      .map((imported) => `${file} imports ${imported}`),
  );
}

/** The import graph of a layer's files (file → the kit's files it imports), type imports included. */
async function importGraph(layer: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sourceFiles(layer)) graph.set(file, (await importsOf(file)).modules);
  return graph;
}

/**
 * The rows a section of docs/architecture.md draws, from its heading to the next heading or block: each
 * room of its table, and the rooms its last column names in backquotes.
 */
function drawnRows(text: string, heading: string): { room: string; imports: string[] }[] {
  const start = text.indexOf(heading);
  if (start < 0) return [];
  const after = text.slice(start + heading.length);
  const end = Math.min(...['\n#', '<!--'].map((mark) => after.indexOf(mark)).filter((index) => index >= 0));
  return [...after.slice(0, end).matchAll(/^\| `([a-z]+)\/` \|.*\|([^|]*)\|$/gm)].map(([, room, imports]) => ({
    room: room!,
    imports: [...imports!.matchAll(/`([a-z]+)`/g)].map(([, name]) => name!),
  }));
}

/** The cycles of an import graph (file → the files it imports), each as the files it passes, from where it was found. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (state.get(file) === undefined) visit(file);
  return cycles;
}

describe.each([
  ['mocks', rooms],
  ['verify', verifyRooms],
] as const)('the rooms of %s/', (layer, table) => {
  it('puts every file of the layer in a room of the table', async () => {
    const files = await sourceFiles(layer);
    expect([...new Set(files.map(roomOf))].filter((room) => table[room] === undefined)).toEqual([]);
  });

  it('lets each room import only the rooms of its row (type imports included)', async () => {
    const files = await sourceFiles(layer);
    const imports = await Promise.all(files.map(async (file) => ({ file, modules: (await importsOf(file)).modules })));
    expect(wrongRoomImports(imports, { layer, table })).toEqual([]);
  });

  it('keeps the table one way: no room may import, through others, itself', () => {
    expect(importCycles(new Map(Object.entries(table)))).toEqual([]);
  });

  it('draws every room of the table, and no other, in docs/architecture.md', async () => {
    const text = await readFile(join(projectRoot, 'docs', 'architecture.md'), 'utf8');
    expect(
      drawnRows(text, `### The rooms of \`${layer}/\``)
        .map(({ room }) => room)
        .sort(),
    ).toEqual(
      Object.keys(table)
        .filter((room) => room !== '.')
        .sort(),
    );
  });

  it('has no import cycle among the files of the layer, type imports included', async () => {
    expect(importCycles(await importGraph(layer))).toEqual([]);
  });
});

describe('the rooms of mocks/', () => {
  it('catches a cycle and an import against the table: the old layout (errors ↔ consumer-pact, pact ↔ pipeline)', () => {
    // The cycle the rooms broke: errors.ts type-imported PactFinding from consumer-pact.ts, and
    // consumer-pact → judge-interaction → interface-model → mock-parts → consumer-pact at run time.
    const old = new Map<string, string[]>([
      ['mocks/errors.ts', ['mocks/consumer-pact.ts', 'mocks/reply.ts']],
      ['mocks/consumer-pact.ts', ['mocks/errors.ts', 'mocks/judge-interaction.ts']],
      ['mocks/judge-interaction.ts', ['mocks/interface-model.ts']],
      ['mocks/interface-model.ts', ['mocks/mock-parts.ts']],
      ['mocks/mock-parts.ts', ['mocks/consumer-pact.ts', 'core/routes.ts']],
      ['mocks/reply.ts', []],
    ]);
    expect(importCycles(old)).toEqual([
      ['mocks/consumer-pact.ts', 'mocks/errors.ts', 'mocks/consumer-pact.ts'],
      [
        'mocks/consumer-pact.ts',
        'mocks/judge-interaction.ts',
        'mocks/interface-model.ts',
        'mocks/mock-parts.ts',
        'mocks/consumer-pact.ts',
      ],
    ]);
    expect(
      wrongRoomImports([
        {
          file: 'mocks/base/errors.ts',
          modules: ['mocks/pact/consumer-pact.ts', 'mocks/base/reply.ts', 'core/finding.ts'],
        },
        {
          file: 'mocks/pact/consumer-pact.ts',
          modules: ['mocks/pipeline/judge-interaction.ts', 'mocks/journal/journal.ts'],
        },
        { file: 'mocks/index.ts', modules: ['mocks/server/server.ts'] },
      ]),
    ).toEqual([
      'mocks/base/errors.ts imports mocks/pact/consumer-pact.ts',
      'mocks/pact/consumer-pact.ts imports mocks/pipeline/judge-interaction.ts',
    ]);
    expect(importCycles(new Map(Object.entries({ ...rooms, base: ['pact'] })))).not.toEqual([]);
  });
});

describe('the rooms of verify/', () => {
  it('draws in docs/architecture.md what each room may import, as the table has it', async () => {
    const text = await readFile(join(projectRoot, 'docs', 'architecture.md'), 'utf8');
    const drawn = drawnRows(text, '### The rooms of `verify/`');
    expect(Object.fromEntries(drawn.map(({ room, imports }) => [room, imports]))).toEqual(
      Object.fromEntries(Object.entries(verifyRooms).filter(([room]) => room !== '.')),
    );
  });

  it(`keeps at most ${verifyRootLimit} files at the root of verify/`, async () => {
    const root = (await sourceFiles('verify')).filter((file) => roomOf(file) === '.');
    expect(root.length).toBeLessThanOrEqual(verifyRootLimit);
  });

  it('catches an import against the table: base/ importing provider/, the recorder a suite', () => {
    expect(
      wrongRoomImports(
        [
          { file: 'verify/base/results.ts', modules: ['verify/provider/run.ts', 'verify/base/errors.ts'] },
          { file: 'verify/recorder/step-judging.ts', modules: ['verify/explore/judged-call.ts', 'core/judge.ts'] },
          { file: 'verify/run/verification.ts', modules: ['verify/pact/pact.ts', 'mocks/base/reply.ts'] },
          { file: 'verify/index.ts', modules: ['verify/report/html.ts'] },
        ],
        { layer: 'verify', table: verifyRooms },
      ),
    ).toEqual([
      'verify/base/results.ts imports verify/provider/run.ts',
      'verify/recorder/step-judging.ts imports verify/explore/judged-call.ts',
    ]);
    expect(importCycles(new Map(Object.entries({ ...verifyRooms, base: ['report'] })))).not.toEqual([]);
  });

  it('catches the cycle explore/ had: the model and the target took ExploreOptions from the runs', () => {
    const old = new Map<string, string[]>([
      ['verify/explore/explore.ts', ['verify/explore/arbitraries.ts', 'verify/explore/exploration.ts']],
      ['verify/explore/arbitraries.ts', ['verify/explore/commands.ts', 'verify/explore/exploration.ts']],
      ['verify/explore/commands.ts', ['verify/explore/exploration.ts', 'verify/provider/run.ts']],
      ['verify/explore/exploration.ts', ['verify/explore/explore.ts', 'verify/base/results.ts']],
    ]);
    expect(importCycles(old)).toEqual([
      [
        'verify/explore/arbitraries.ts',
        'verify/explore/commands.ts',
        'verify/explore/exploration.ts',
        'verify/explore/explore.ts',
        'verify/explore/arbitraries.ts',
      ],
      ['verify/explore/exploration.ts', 'verify/explore/explore.ts', 'verify/explore/exploration.ts'],
    ]);
    old.set('verify/explore/exploration.ts', ['verify/explore/explore-options.ts', 'verify/base/results.ts']);
    expect(importCycles(old)).toEqual([]);
  });
});

describe('core/', () => {
  it('has no import cycle among the files of core/, type imports included', async () => {
    expect(importCycles(await importGraph('core'))).toEqual([]);
  });

  it('catches the two cycles core/ had (checks ↔ header-checks, records ↔ provider-state), and passes shared modules below both', () => {
    const old = new Map<string, string[]>([
      ['core/checks.ts', ['core/header-checks.ts', 'core/routes.ts']],
      ['core/header-checks.ts', ['core/checks.ts', 'core/routes.ts']],
      ['core/provider-state.ts', ['core/records.ts', 'core/int64.ts']],
      ['core/records.ts', ['core/provider-state.ts']],
      ['core/routes.ts', []],
      ['core/int64.ts', []],
    ]);
    expect(importCycles(old)).toEqual([
      ['core/checks.ts', 'core/header-checks.ts', 'core/checks.ts'],
      ['core/provider-state.ts', 'core/records.ts', 'core/provider-state.ts'],
    ]);
    // Today's: each shared piece below both, which a diamond of imports reaches twice without a cycle.
    const now = new Map(old);
    now.set('core/header-checks.ts', ['core/observed-response.ts', 'core/routes.ts']);
    now.set('core/checks.ts', ['core/header-checks.ts', 'core/observed-response.ts', 'core/routes.ts']);
    now.set('core/records.ts', ['core/order-status.ts']);
    now.set('core/provider-state.ts', ['core/records.ts', 'core/order-status.ts', 'core/int64.ts']);
    now.set('core/observed-response.ts', []);
    now.set('core/order-status.ts', []);
    expect(importCycles(now)).toEqual([]);
  });
});

/** The names exported twice by these files (declarations, not re-exports), each with where it is first declared. */
function repeatedNames(files: readonly { file: string; text: string }[]): string[] {
  const seen = new Map<string, string>();
  const repeated: string[] = [];
  const exported =
    /^export (?:declare )?(?:default )?(?:async )?(?:abstract )?(?:function\*?|const|let|var|class|interface|type|enum) ([A-Za-z0-9_$]+)/gm;
  for (const { file, text } of files)
    for (const [, name] of text.matchAll(exported)) {
      const first = seen.get(name!);
      if (first !== undefined) repeated.push(`${name} in ${first} and ${file}`);
      else seen.set(name!, file);
    }
  return repeated;
}

describe('names', () => {
  it('gives no two exported functions, constants, classes, interfaces, types or enums the same name (but the browser root, which mirrors the Node root, and generated files)', async () => {
    const files: { file: string; text: string }[] = [];
    for (const layer of Object.keys(allowed))
      for (const file of await sourceFiles(layer)) {
        if (file === join('mocks', 'index-browser.ts') || file.split(/[\\/]/).includes('generated')) continue;
        files.push({ file, text: await readFile(join(projectRoot, file), 'utf8') });
      }
    expect(repeatedNames(files)).toEqual([]);
  });

  it('catches a name exported twice, as the issue found RecordedCall and Judgement, in any declaration form', () => {
    expect(
      repeatedNames([
        { file: 'mocks/journal/journal.ts', text: 'export type RecordedCall = {};\nexport interface Judgement {}' },
        {
          file: 'verify/recorder/recorded-call.ts',
          text: 'export interface RecordedCall {}\nexport declare abstract class Judgement {}',
        },
        {
          file: 'verify/provider/run.ts',
          text: 'export { RecordedCall } from "../mocks/journal/journal.js";\nexport const judged = 1;',
        },
      ]),
    ).toEqual([
      'RecordedCall in mocks/journal/journal.ts and verify/recorder/recorded-call.ts',
      'Judgement in mocks/journal/journal.ts and verify/recorder/recorded-call.ts',
    ]);
  });
});

/**
 * What a test file leaves behind for the next file in its worker (the suite runs without isolation,
 * vitest.config.ts): a mocked module or global, fake timers, an MSW server left listening.
 */
function leftBehind(text: string): string[] {
  const count = (pattern: RegExp) => [...text.matchAll(pattern)].length;
  const left: string[] = [];
  if (/\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/.test(text)) left.push('mocks a module or a global');
  if (count(/\bvi\.useFakeTimers\(/g) > count(/\bvi\.useRealTimers\(/g)) left.push('keeps fake timers');
  // A spy on an object the file made goes with the object; one on a global stays.
  if (
    /\bvi\.spyOn\((console|process|globalThis|Date|Math|performance)\b/.test(text) &&
    !/\bvi\.restoreAllMocks\(|\.mockRestore\(/.test(text)
  )
    left.push('spies on a global without restoring');
  if (count(/\bsetupServer\(/g) > count(/\.close\(\)/g)) left.push('leaves an MSW server listening');
  return left;
}

describe('tests', () => {
  it('leave nothing behind for the next file in their worker', async () => {
    const entries = await readdir(join(projectRoot, 'test'), { withFileTypes: true, recursive: true });
    const leaking: string[] = [];
    for (const entry of entries.filter((each) => each.isFile() && /\.(test\.)?ts$/.test(each.name))) {
      const file = join(entry.parentPath, entry.name);
      if (file === fileURLToPath(import.meta.url)) continue;
      for (const what of leftBehind(await readFile(file, 'utf8')))
        leaking.push(`${relative(projectRoot, file)} ${what}`);
    }
    expect(leaking).toEqual([]);
  });

  it('catches a file that leaves fake timers, a module mock or a listening server behind', () => {
    expect(
      leftBehind('vi.useFakeTimers();\nvi.mock("x");\nvi.spyOn(console, "error");\nconst server = setupServer();'),
    ).toEqual([
      'mocks a module or a global',
      'keeps fake timers',
      'spies on a global without restoring',
      'leaves an MSW server listening',
    ]);
    expect(
      leftBehind('vi.useFakeTimers();\nvi.useRealTimers();\nconst s = setupServer();\nafterAll(() => s.close());'),
    ).toEqual([]);
  });
});
