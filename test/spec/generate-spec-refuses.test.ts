// The generator refuses what its route table cannot hold. An operation's cookie parameter, a query or
// header parameter in a style the judge of a request does not read, or its request body used to be
// dropped without a word: the mock, the harness, exploration and the recorder then never sent nor
// judged it. Query and header parameters in OpenAPI's default styles are held (issue 56).
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
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
  await mkdir(join(folder, 'spec/generated'), { recursive: true });
  await mkdir(join(folder, 'mocks/generated'), { recursive: true });
  await mkdir(join(folder, 'mocks/control'));
  await symlink(join(projectRoot, 'mocks/control/page'), join(folder, 'mocks/control/page'));
  // v2's document, which the generator reads beside v1's (its references point into the changed one).
  await cp(join(projectRoot, 'spec/openapi-v2.yaml'), join(folder, 'spec/openapi-v2.yaml'));
  // The generator writes the scenario schema's lists: a copy, so that the project's stays as it is.
  await cp(join(projectRoot, 'scenarios'), join(folder, 'scenarios'), { recursive: true });
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
async function generateWith(
  change: (document: Document) => void,
  mode: '--check' | '--write' = '--check',
): Promise<{ code: number; stderr: string }> {
  const document = parse(await readFile(join(projectRoot, 'spec/openapi.yaml'), 'utf8'));
  change(document);
  await writeFile(join(folder, 'spec/openapi.yaml'), stringify(document));
  try {
    await run(process.execPath, ['scripts/generate-spec.mjs', ...(mode === '--check' ? ['--check'] : [])], {
      cwd: folder,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('scripts/generate-spec.mjs and what the route table cannot hold', () => {
  it('holds a query parameter in the route table, with its defaults written out', async () => {
    const { code } = await generateWith((document) => {
      document.paths['/store/orders']!.get!.parameters = [{ name: 'status', in: 'query', schema: { type: 'string' } }];
    }, '--write');
    expect(code).toBe(0);
    const contract = await readFile(join(folder, 'spec/generated/contract.ts'), 'utf8');
    const routes = JSON.parse(contract.slice(contract.indexOf('routes = ') + 9, contract.indexOf(' as const;')));
    expect(routes[0].query).toEqual([{ name: 'status', required: false, schema: { type: 'string' }, explode: true }]);
  });

  it("holds an operation's parameter in place of the path item's of the same name and place", async () => {
    const { code } = await generateWith((document) => {
      document.paths['/store/orders']!.parameters = [
        { name: 'status', in: 'query', required: true, schema: { type: 'string' } },
      ];
      document.paths['/store/orders']!.get!.parameters = [{ name: 'status', in: 'query', schema: { type: 'integer' } }];
    }, '--write');
    expect(code).toBe(0);
    const contract = await readFile(join(folder, 'spec/generated/contract.ts'), 'utf8');
    const routes = JSON.parse(contract.slice(contract.indexOf('routes = ') + 9, contract.indexOf(' as const;')));
    expect(routes[0].query).toEqual([{ name: 'status', required: false, schema: { type: 'integer' }, explode: true }]);
  });

  it('refuses a cookie parameter, naming the operation and the parameter', async () => {
    const { code, stderr } = await generateWith((document) => {
      document.paths['/store/orders']!.get!.parameters = [
        { name: 'session', in: 'cookie', schema: { type: 'string' } },
      ];
    });
    expect(code).toBe(1);
    expect(stderr).toContain('GET /store/orders: the route table holds no cookie parameter (session)');
  });

  it('refuses a query parameter in a style the judge does not read, given by reference', async () => {
    const { stderr } = await generateWith((document) => {
      document.components.parameters = {
        Filter: { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object' } },
      };
      document.paths['/store/orders/{orderId}']!.parameters = [{ $ref: '#/components/parameters/Filter' }];
    });
    expect(stderr).toContain(
      'DELETE /store/orders/{orderId}: the query parameter filter has the deepObject style, which the judge of a request does not read',
    );
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

  it("refuses a v1 operation named as one of v2's, naming both", async () => {
    const { code, stderr } = await generateWith((document) => {
      (document.paths['/store/orders']!.get as { operationId?: string }).operationId = 'listOrdersV2';
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'the operation name listOrdersV2 is given to GET /v1/store/orders and GET /v2/store/orders: the journal, faults, coverage and the definitions know an operation by its name alone (spec gap 51)',
    );
  });
});
