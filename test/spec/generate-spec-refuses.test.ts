// The generator refuses what its route table cannot hold. An operation's query, header or cookie
// parameter or its request body used to be dropped without a word: the mock, the harness, exploration
// and the recorder then never sent nor judged it, and the next operation of the document (the v2
// list's filter, say) would have looked supported.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { projectRoot, scratchFolder } from '../support/cli-support.js';

const run = promisify(execFile);

/** The parts of the document these tests change. */
interface Operation {
  parameters?: unknown[];
  requestBody?: unknown;
}
interface Document {
  paths: Record<string, { parameters?: unknown[]; get?: Operation; delete?: Operation }>;
  components: Record<string, unknown>;
}
let folder: string;

beforeAll(async () => {
  folder = await scratchFolder('petstore-generate-refuses-');
  await mkdir(join(folder, 'scripts'));
  await mkdir(join(folder, 'spec'));
  await writeFile(
    join(folder, 'scripts/generate-spec.mjs'),
    await readFile(join(projectRoot, 'scripts/generate-spec.mjs')),
  );
  await symlink(join(projectRoot, 'node_modules'), join(folder, 'node_modules'));
});

afterAll(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

/** Runs the generator on the project's document changed by `change`: its exit code and what it printed. */
async function generateWith(change: (document: Document) => void): Promise<{ code: number; stderr: string }> {
  const document = parse(await readFile(join(projectRoot, 'spec/openapi.yaml'), 'utf8'));
  change(document);
  await writeFile(join(folder, 'spec/openapi.yaml'), stringify(document));
  try {
    await run(process.execPath, ['scripts/generate-spec.mjs', '--check'], { cwd: folder });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('scripts/generate-spec.mjs and what the route table cannot hold', () => {
  it('refuses a query parameter, naming the operation and the parameter', async () => {
    const { code, stderr } = await generateWith((document) => {
      document.paths['/store/orders']!.get!.parameters = [{ name: 'status', in: 'query', schema: { type: 'string' } }];
    });
    expect(code).toBe(1);
    expect(stderr).toContain('GET /store/orders: the route table holds no query parameter (status)');
  });

  it('refuses one given by reference, and a header parameter of the path', async () => {
    const { stderr } = await generateWith((document) => {
      document.components.parameters = { Trace: { name: 'X-Trace', in: 'header', schema: { type: 'string' } } };
      document.paths['/store/orders/{orderId}']!.parameters = [{ $ref: '#/components/parameters/Trace' }];
    });
    expect(stderr).toContain('DELETE /store/orders/{orderId}: the route table holds no header parameter (X-Trace)');
  });

  it('refuses a request body', async () => {
    const { code, stderr } = await generateWith((document) => {
      document.paths['/store/orders/{orderId}']!.delete!.requestBody = {
        content: { 'application/json': { schema: { type: 'object' } } },
      };
    });
    expect(code).toBe(1);
    expect(stderr).toContain('DELETE /store/orders/{orderId}: the route table holds no request body');
  });
});
