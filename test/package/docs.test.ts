import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createOrderMock } from '../../mocks/adapters/msw.js';
import { readSeedFile } from '../../mocks/store/seed-file.js';
import { errorStatuses } from '../../mocks/base/errors.js';
import { tolerances } from '../../core/compare.js';
import { rules } from '../../core/rules.js';
import { loadScenarios } from '../../core/scenario-files.js';
import { injectsFaults } from '../../core/scenario.js';
import { runToExit } from '../support/cli-support.js';
import { type DocBlock, documentBlocks, namedFile, where } from './doc-blocks.js';
import { docFrames } from './doc-frames.js';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
// The README and the pages its guides and reference moved to, read as one document.
const readmeAndPages = async () =>
  (
    await Promise.all(
      ['README.md', 'docs/frontend.md', 'docs/providers.md', 'docs/testers.md', 'docs/reference.md'].map(read),
    )
  ).join('\n');

describe('the documentation', () => {
  it('lists every error code the mock uses, with its status', async () => {
    const catalogue = await read('docs/error-codes.md');
    for (const [code, status] of Object.entries(errorStatuses)) {
      expect(catalogue, code).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
    }
    const documented = [...catalogue.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(errorStatuses).sort());
  });

  it('names, for every spec gap, a test file that exists', async () => {
    const gaps = await read('docs/spec-gaps.md');
    const entries = gaps.split(/^## /m).slice(1);
    expect(entries.length).toBeGreaterThanOrEqual(15);
    for (const entry of entries) {
      const tests = [...entry.matchAll(/`test\/([\w/-]+\.test\.ts)`/g)].map((match) => match[1]!);
      expect(tests.length, entry.split('\n')[0]).toBeGreaterThan(0);
      for (const file of tests) await expect(read(`test/${file}`)).resolves.toBeTruthy();
    }
  });

  it("lists the harness's tolerances in docs/harness.md exactly as the harness holds them", async () => {
    const harness = await read('docs/harness.md');
    const rows = [...harness.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm)].map((match) =>
      match.slice(1).map((cell) => cell.trim()),
    );
    expect(rows).toEqual(
      tolerances.map((tolerance) => [tolerance.id, tolerance.where, tolerance.accepts, tolerance.because]),
    );
  });

  it("lists the harness's rules in docs/harness.md exactly as the harness holds them", async () => {
    const harness = await read('docs/harness.md');
    const section = harness.slice(
      harness.indexOf('### The rules'),
      harness.indexOf('\n## ', harness.indexOf('### The rules')),
    );
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \| ([^|]+) \|$/gm)].map((match) =>
      match.slice(1).map((cell) => cell.trim()),
    );
    expect(rows).toEqual(rules.map((rule) => [rule.code, rule.means, rule.tolerates]));
  });

  it('names in each rule only tolerances the table holds', () => {
    const known = new Set(tolerances.map((tolerance) => tolerance.id));
    for (const rule of rules) {
      const named = [...rule.tolerates.matchAll(/\b[a-z]+(?:-[a-z0-9]+)+\b/g)].map((match) => match[0]);
      for (const id of named.filter((word) => !['Content-Length', 'date-time'].includes(word)))
        expect(known.has(id), `${rule.code}: ${id}`).toBe(true);
    }
  });

  it('counts in the README and its pages the scenarios the kit ships, and names those that inject faults', async () => {
    const readme = await readmeAndPages();
    const scenarios = await loadScenarios();
    const faulty = scenarios.filter(injectsFaults).map((scenario) => scenario.name);
    expect(Number(/`list-without-key\.yaml`, (\d+) in all\)/.exec(readme)?.[1])).toBe(scenarios.length - faulty.length);
    const more = /(\d+) more inject\s+faults \(([^)]*)\)/.exec(readme);
    expect(Number(more?.[1])).toBe(faulty.length);
    expect([...more![2]!.matchAll(/`([a-z0-9-]+)`/g)].map((match) => match[1]).sort()).toEqual(faulty.sort());
  });

  it('lists every scenario the kit ships in docs/harness.md', async () => {
    const harness = await read('docs/harness.md');
    for (const scenario of await loadScenarios()) expect(harness, scenario.name).toContain(`| \`${scenario.name}\` |`);
  });
});

// Each command as the README and its pages name it, and how to run its help.
const commands: [string, string[]][] = [
  ['petstore-mock', ['dist/bin/petstore-mock.js']],
  ['petstore-verify', ['dist/bin/petstore-verify.js']],
  ['petstore-verify explore', ['dist/bin/petstore-verify.js', 'explore']],
  ['petstore-verify proxy', ['dist/bin/petstore-verify.js', 'proxy']],
  ['petstore-verify har', ['dist/bin/petstore-verify.js', 'har']],
  ['petstore-verify publish-pact', ['dist/bin/petstore-verify.js', 'publish-pact']],
  ['petstore-verify compat', ['dist/bin/petstore-verify.js', 'compat']],
];
// Flags the README and its pages give to other tools, each with the tool it is given to.
const otherToolsFlags: Record<string, string> = {
  '--save-dev': 'npm',
  '--no-save': 'npm',
  '--expose-gc': 'node',
  '--reporter': 'playwright test',
  '--grep': 'playwright test',
  '--repeat-each': 'playwright test',
  '--path-as-is': 'curl',
  '--consumer-version-selectors': 'pact-verifier',
};

async function helpOf(args: string[]): Promise<string> {
  const exit = await runToExit(process.execPath, [...args, '--help']);
  expect(exit.code).toBe(0);
  return exit.stdout;
}

// The flags a help's Options list, in order.
function optionFlags(help: string): string[] {
  const options = help.slice(help.indexOf('\nOptions:\n'));
  return [...new Set([...options.matchAll(/^ {2}(--[a-z][a-z0-9-]*)/gm)].map((match) => match[1]!))];
}

describe('the commands and their documents', () => {
  it('gives each subcommand a help of its own', async () => {
    for (const [name, args] of commands) expect(await helpOf(args), name).toMatch(new RegExp(`^Usage: ${name} `));
  });

  it('lists in the README and its pages exactly the flags of each command', async () => {
    const readme = await readmeAndPages();
    for (const [name, args] of commands) {
      const line = new RegExp(`^- \`${name}\`: (.*)$`, 'm').exec(readme);
      expect(line, name).not.toBeNull();
      const listed = [...line![1]!.matchAll(/`(--[a-z0-9-]+)`/g)].map((match) => match[1]);
      expect(listed, name).toEqual(optionFlags(await helpOf(args)));
    }
  });

  it('names in the README and its pages no flag that no command has, but for the other tools it names', async () => {
    const readme = await readmeAndPages();
    const known = new Set<string>(Object.keys(otherToolsFlags));
    for (const [, args] of commands) for (const flag of optionFlags(await helpOf(args))) known.add(flag);
    const named = new Set([...readme.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((match) => match[0]));
    expect([...named].filter((flag) => !known.has(flag))).toEqual([]);
  });

  it('holds in docs/cli.md each help as the commands print it', async () => {
    const written = await runToExit(process.execPath, ['scripts/write-cli-docs.mjs', '--stdout']);
    expect(await read('docs/cli.md'), 'run `node scripts/write-cli-docs.mjs` after changing a help').toBe(
      written.stdout,
    );
  });
});

describe("the docs' code blocks", () => {
  it('marks every code block of the README and docs/ as run, type-checked in a named frame, or not run with a reason', async () => {
    const blocks = await documentBlocks();
    const unmarked = blocks
      .filter((block) => block.mark === undefined)
      .map((block) => `${where(block)} ${block.markText ?? '(no mark)'}`);
    expect(
      unmarked,
      'put <!-- block: KIND --> or <!-- not-run: REASON --> on the line before (test/package/doc-blocks.ts)',
    ).toEqual([]);
    for (const block of blocks) {
      const mark = block.mark!;
      if (mark.kind === 'fragment') expect(Object.keys(docFrames), where(block)).toContain(mark.frame);
      if (mark.kind === 'vitest-file' || mark.kind === 'vitest-file-msw3')
        expect(namedFile(block), where(block)).toMatch(/^[\w-]+\.test\.ts$/);
      if (mark.kind === 'vite-app-msw3')
        expect(namedFile(block), where(block)).toMatch(/^(vite\.config|src\/[\w.-]+)\.ts$/);
      if (mark.kind === 'vitest-suite')
        expect(namedFile(block), where(block)).toMatch(/^(vitest\.config|test\/[\w.-]+)\.ts$/);
      if (mark.kind === 'shell-mock' || mark.kind === 'shell-verify') expect(block.language, where(block)).toBe('sh');
      if (
        ['vitest-file', 'vitest-file-msw3', 'vite-app-msw3', 'vitest-suite', 'module', 'fragment'].includes(mark.kind)
      )
        expect(block.language, where(block)).toMatch(/^(ts|js)$/);
      // Storybook refuses a CSF file without a default export ("CSF: missing default export").
      if (/\.stories\.[jt]s$/.test(namedFile(block) ?? ''))
        expect(block.code, where(block)).toMatch(/^export default /m);
    }
    const count = (kinds: string[]) => blocks.filter((block) => kinds.includes(block.mark!.kind)).length;
    const notRun = blocks.filter((block) => block.mark!.kind === 'not-run');
    console.log(
      `docs' code blocks: ${blocks.length} in all; run ${count(['vitest-file', 'vitest-file-msw3', 'vite-app-msw3', 'vitest-suite', 'shell-mock', 'shell-verify', 'scenario-file', 'seed-file', 'workflow', 'journal-entry'])}, type-checked ${count(['module', 'fragment'])}, not run ${notRun.length}:\n${notRun.map((block) => `  ${where(block)}: ${(block.mark as { reason: string }).reason}`).join('\n')}`,
    );
    // Every block the suite runs is one of these, so none escapes by a kind nothing runs.
    expect(blocks.length).toBeGreaterThan(60);
  });

  const blocksOf = async (kind: NonNullable<DocBlock['mark']>['kind']) =>
    (await documentBlocks()).filter((block) => block.mark?.kind === kind);

  it("loads every scenario file the docs show with the kit's loader", async () => {
    const blocks = await blocksOf('scenario-file');
    expect(blocks.length).toBeGreaterThan(0);
    const directory = await mkdtemp(join(tmpdir(), 'petstore-doc-scenarios-'));
    try {
      for (const [index, block] of blocks.entries()) await writeFile(join(directory, `doc-${index}.yaml`), block.code);
      expect((await loadScenarios({ directory })).length).toBe(blocks.length);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('reads every seed file the docs show with readSeedFile', async () => {
    const blocks = await blocksOf('seed-file');
    expect(blocks.length).toBeGreaterThan(0);
    const directory = await mkdtemp(join(tmpdir(), 'petstore-doc-seeds-'));
    try {
      for (const [index, block] of blocks.entries()) {
        const file = join(directory, `seed-${index}.yaml`);
        await writeFile(file, block.code);
        await expect(readSeedFile(file), where(block)).resolves.toBeDefined();
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("gives the kit's GitHub Action, in every workflow the docs show, only inputs action.yml declares, and every required one", async () => {
    const action = parse(await read('action.yml')) as { inputs: Record<string, { required?: boolean }> };
    const required = Object.entries(action.inputs)
      .filter(([, input]) => input.required === true)
      .map(([name]) => name);
    const blocks = await blocksOf('workflow');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const workflow = parse(block.code) as {
        jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
      };
      const steps = Object.values(workflow.jobs)
        .flatMap((job) => job.steps)
        .filter((step) => step.uses === './node_modules/petstore-contract-kit');
      expect(steps.length, where(block)).toBeGreaterThan(0);
      for (const step of steps) {
        const given = Object.keys(step.with ?? {});
        expect(
          given.filter((name) => !(name in action.inputs)),
          where(block),
        ).toEqual([]);
        expect(
          required.filter((name) => !given.includes(name)),
          where(block),
        ).toEqual([]);
      }
    }
  });

  it('shows journal entries as the mock journals the call they name, field for field', async () => {
    const blocks = await blocksOf('journal-entry');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const shown = JSON.parse(block.code) as { method: string; path: string; time: string };
      const mock = createOrderMock();
      await mock.handle(
        new Request(`http://localhost${shown.path}`, {
          method: shown.method,
          headers: { authorization: 'Bearer petstore-dev-key' },
        }),
      );
      const answer = await mock.handle(new Request('http://localhost/__mock/requests'));
      if (typeof answer !== 'object') throw new Error(`GET /__mock/requests answered ${answer}`);
      const [entry] = JSON.parse(answer.body as string) as { time: string }[];
      expect(entry!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect({ ...entry, time: shown.time }, where(block)).toEqual(shown);
    }
  });

  it("lists in docs/providers.md's Flags paragraph every flag of petstore-verify", async () => {
    const providers = await read('docs/providers.md');
    const paragraph = /^Flags: [\s\S]*?\n\n/m.exec(providers)![0];
    const listed = new Set([...paragraph.matchAll(/`(--[a-z][a-z0-9-]*)/g)].map((match) => match[1]));
    expect([...listed].sort()).toEqual(optionFlags(await helpOf(['dist/bin/petstore-verify.js'])).sort());
  });
});
