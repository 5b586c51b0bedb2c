// The recipe of docs/architecture.md, "Adding an operation", followed in a copy of the project: the
// document gets GET /store/orders/{orderId} with a query parameter (fields) and the project its one definition (the very blocks of the
// recipe), nothing else. The copy type-checks; the mock serves the operation; the journal, the coverage,
// the consumer pact, the typed client and the recorder see it; exploration passes the mock and catches
// a provider that answers it with a wrong petId or a rounded id; and git shows that no other file was edited.
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { projectRoot, scratchFolder } from '../support/cli-support.js';

const run = promisify(execFile);
const operation = 'getOrder';
const path = '/store/orders/{orderId}';

/** The block of docs/architecture.md after the comment that names what the test does with it. */
async function recipeBlock(mark: string): Promise<string> {
  const text = await readFile(join(projectRoot, 'docs/architecture.md'), 'utf8');
  const at = text.indexOf(`<!-- not-run: ${mark}`);
  expect(at).toBeGreaterThan(-1);
  const block = /```\w*\n([\s\S]*?)```/.exec(text.slice(at));
  return block![1]!;
}

async function git(copy: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=kit', '-c', 'user.email=kit@example.invalid', ...args], {
    cwd: copy,
  });
  return stdout;
}

let copy: string;
let found: Record<string, Record<string, unknown>>;
let changed: string[];
let generated: string[];

beforeAll(async () => {
  copy = await scratchFolder('petstore-add-operation-');
  // The project as committed and as being changed, without what git ignores; its packages shared.
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  const files = stdout.split('\0').filter((file) => file !== '' && !file.startsWith('node_modules'));
  for (const file of files) {
    await mkdir(join(copy, file, '..'), { recursive: true });
    await cp(join(projectRoot, file), join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // a file deleted but not yet staged
    });
  }
  await symlink(join(projectRoot, 'node_modules'), join(copy, 'node_modules'));
  await git(copy, 'init', '-q');
  await git(copy, 'add', '-A');
  await git(copy, 'commit', '-qm', 'before');

  // 1. The document, then the generated files.
  const document = await readFile(join(copy, 'spec/openapi.yaml'), 'utf8');
  const pathLine = `  ${path}:\n`;
  expect(document).toContain(pathLine);
  await writeFile(
    join(copy, 'spec/openapi.yaml'),
    document.replace(pathLine, `${pathLine}${await recipeBlock("added to a copy's spec/openapi.yaml")}`),
  );
  const generator = await run(process.execPath, ['scripts/generate-spec.mjs'], { cwd: copy });
  // What the generator writes (`wrote PATH`): generated from the document, no one's edit.
  generated = [...generator.stdout.matchAll(/^wrote (.+)$/gm)].map((line) => relative(copy, line[1]!));
  // 2. The definition, and its entry in the registry.
  await writeFile(
    join(copy, 'core/operations/get-order.ts'),
    await recipeBlock('written to a copy as core/operations/get-order.ts'),
  );
  const registry = await readFile(join(copy, 'core/operation-definitions.ts'), 'utf8');
  await writeFile(
    join(copy, 'core/operation-definitions.ts'),
    registry
      .replace(/(import [^\n]+ from '\.\/operations\/[^']+';\n)(?!import [^\n]+ from '\.\/operations\/)/, (line) => {
        return `${line}import { getOrderDefinition } from './operations/get-order.js';\n`;
      })
      .replace(/(operationDefinitions[^=]*= \{\n[\s\S]*?)(\n\};)/, `$1\n  ${operation}: getOrderDefinition,$2`),
  );

  await run(process.execPath, [join(copy, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], {
    cwd: copy,
  });
  await build({
    entryPoints: [join(copy, 'test/package/add-operation/check.ts')],
    outfile: join(copy, 'dist/add-operation-check.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const checked = await run(process.execPath, [join(copy, 'dist/add-operation-check.mjs'), operation], {
    cwd: copy,
    maxBuffer: 16 * 1024 * 1024,
  });
  found = parseJson(checked.stdout) as typeof found;
  changed = (await git(copy, 'status', '--porcelain', '--untracked-files=all'))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
}, 600_000);

afterAll(async () => {
  if (copy !== undefined) await rm(copy, { recursive: true, force: true });
});

describe('adding GET /store/orders/{orderId} and its query parameter by the recipe', () => {
  it('needed the document, its generated files and the definition, and no other edit', () => {
    expect(generated).toContain('spec/generated/contract.ts');
    expect(changed.filter((file) => !generated.includes(file)).sort()).toEqual([
      'core/operation-definitions.ts',
      'core/operations/get-order.ts',
      'spec/openapi.yaml',
    ]);
  });

  it('is served by the mock: the order exactly, 404 for an unknown or cancelled one, 401 without a key', () => {
    const answers = found.inProcess!.answers as Record<string, { status: number; body: string }>;
    expect(answers.big!.status).toBe(200);
    expect(parseJson(answers.big!.body)).toEqual({ id: 9007199254740993n, petId: 7, quantity: 2 });
    expect(answers.shipped!.status).toBe(200);
    expect([answers.cancelled!.status, answers.unknown!.status, answers.withoutKey!.status]).toEqual([404, 404, 401]);
    expect((parseJson(answers.unknown!.body) as { code: string }).code).toBe('order_not_found');
  });

  it('reads its query parameter: the fields asked for, and a field the Order does not have refused with 400', () => {
    const answers = found.inProcess!.answers as Record<string, { status: number; body: string }>;
    expect([answers.fields!.status, parseJson(answers.fields!.body)]).toEqual([
      200,
      { id: 9007199254740993n, petId: 7 },
    ]);
    expect([answers.unknownField!.status, parseJson(answers.unknownField!.body)]).toEqual([
      400,
      {
        code: 'invalid_parameter',
        message:
          'The query parameter fields must be one of "id", "petId", "quantity", "shipDate", "complete"; got "status".',
        status: 400,
      },
    ]);
  });

  it('is in the journal and the coverage', () => {
    expect((found.inProcess!.journal as JsonValue[]).map((entry) => (entry as JsonValue[]).slice(1))).toEqual([
      [200, null],
      [200, null],
      [404, null],
      [404, null],
      [401, null],
      [200, 'fields=id&fields=petId'],
      [400, 'fields=status'],
    ]);
    expect(found.inProcess!.coverage).toEqual([
      { status: 200, seen: 3 },
      { status: 400, seen: 1 },
      { status: 401, seen: 1 },
      { status: 404, seen: 2 },
    ]);
  });

  it('is in the consumer pact, each read with the state it depended on, and nothing contradicts the document', () => {
    const pact = found.inProcess!.pact as {
      interactions: { path: string; states: JsonValue }[];
      findings: number;
      leftOut: JsonValue[];
    };
    expect(pact.findings).toBe(0);
    // A call with a query is written with it (issue 56): nothing is left out.
    expect(pact.leftOut).toEqual([]);
    const read = pact.interactions.find((interaction) => interaction.path === '/v1/store/orders/9007199254740993');
    expect(JSON.stringify(read?.states, (_, value) => (typeof value === 'bigint' ? String(value) : value))).toContain(
      '9007199254740993',
    );
  });

  it('has a typed client method that sends the query and reads the id exactly', () => {
    expect(found.harness!.client).toBe('{"id":9007199254740993,"petId":7}');
  });

  it('is explored: the mock passes, and a provider that answers it with a wrong petId or a rounded id is caught', () => {
    expect(found.harness!.explored).toBeGreaterThan(0);
    expect(found.harness!.honest).toEqual({ verdict: 'passed', violations: 0 });
    const wrong = found.harness!.wrong as Record<string, { verdict: string; last: string[] }>;
    expect(wrong.petId!.verdict).toBe('failed');
    expect(wrong.petId!.last).toContain('order-field');
    expect(wrong.roundedId!.verdict).toBe('failed');
    expect(wrong.roundedId!.last.filter((code) => code === 'order-field' || code === 'int64-exact')).not.toEqual([]);
  });

  it('is recorded with its title and the state its answers prove, and the recording replays on the mock', () => {
    const recording = found.recording as {
      statuses: number[];
      steps: [string, number][];
      state: string;
      replayed: number;
    };
    expect(recording.statuses).toEqual([200, 404]);
    expect(recording.steps.map(([name, status]) => [name.replace(/^\d+\. /, ''), status])).toEqual([
      // No title in the recipe's definition: the operation's name in words.
      ['get order 3', 200],
      ['get order 42', 404],
    ]);
    expect(recording.state).toContain('"id":3');
    expect(recording.replayed).toBe(0);
  });
});
