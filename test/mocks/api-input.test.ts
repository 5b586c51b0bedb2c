// Bad input to the mock's API is refused with the kit's coded errors, never a raw TypeError or a file
// somewhere else than asked (issue 48): a pact's folder, its filter and options, the journal's
// filter; and mock.handle() is typed as its documentation uses it.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../mocks/control/control-client.js';
import { createOrderMock } from '../../mocks/adapters/order-mock.js';
import { pactFilePath, writePactFile } from '../../mocks/pact/pact-file.js';
import { operationNames } from '../../core/routes.js';
import { projectRoot } from '../support/cli-support.js';
import { authorized } from '../support/support.js';

const refusedAs = (message: string | RegExp) =>
  expect.objectContaining({ code: 'invalid_option', message: expect.stringMatching(message) });

describe("a pact's folder", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pact-dir-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it.each([
    ['/', '/web-app-petstore-order-interface.json'],
    ['///', '/web-app-petstore-order-interface.json'],
    ['C:\\', 'C:\\web-app-petstore-order-interface.json'],
    ['pacts/', 'pacts/web-app-petstore-order-interface.json'],
    ['/tmp/out//', '/tmp/out/web-app-petstore-order-interface.json'],
    [undefined, 'pacts/web-app-petstore-order-interface.json'],
  ])('is written to as given: dir %j is %s, never the current folder', (dir, file) => {
    expect(pactFilePath({ consumer: 'web-app', ...(dir !== undefined && { dir }) }).file).toBe(file);
  });

  it('writes into a folder given as an absolute path with trailing slashes, and nowhere else', async () => {
    const before = await readdir(process.cwd());
    const document = {
      consumer: { name: 'web-app' },
      provider: { name: 'petstore-order-interface' },
      interactions: [],
    };
    const file = await writePactFile(document, { consumer: 'web-app', dir: `${directory}///` });
    expect(file).toBe(`${directory}/web-app-petstore-order-interface.json`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject(document);
    expect(await readdir(directory)).toEqual(['web-app-petstore-order-interface.json']);
    expect(await readdir(process.cwd())).toEqual(before);
  });

  it.each([[''], [5], [null], ['pacts\0']])('refuses dir %j with invalid_option, writing nothing', async (dir) => {
    const mock = createOrderMock();
    await expect(mock.pact({ consumer: 'web-app', dir: dir as string })).rejects.toEqual(
      refusedAs(/^the pact's dir must be a folder's path such as 'pacts' or '\/tmp\/pacts', not /),
    );
  });
});

describe('filters and options', () => {
  const mock = createOrderMock();

  it.each([
    [
      null,
      /^requests\(filter\): the filter must be an object such as \{ operation: 'cancelOrder', status: 409 \}, or left out, not null$/,
    ],
    ['cancelOrder', /not "cancelOrder"$/],
    [[], /not \[\]$/],
    [
      { operaton: 'cancelOrder' },
      /the filter has no field "operaton"; its fields are operation, status, method, path$/,
    ],
    [{ operation: 'cancelOrders' }, new RegExp(`operation must be one of ${operationNames.join(', ')} or null`)],
    [{ status: '409' }, /status must be an HTTP status \(100 to 599\) or 'network', not "409"$/],
    [{ method: 1 }, /method must be a string, not 1$/],
    [{ path: 7 }, /path must be a string or a RegExp, not 7$/],
  ])('refuses the journal filter %j with invalid_option', (filter, message) => {
    expect(() => mock.requests(filter as never)).toThrow(refusedAs(message));
    expect(() => mock.session('other').requests(filter as never)).toThrow(refusedAs(message));
  });

  it("refuses a pact's filter null, or a pact's options that are no object, with invalid_option", async () => {
    await expect(mock.pact({ consumer: 'web-app', filter: null as never })).rejects.toEqual(
      refusedAs(/^the pact's filter: the filter must be an object/),
    );
    await expect(mock.pactDocument({ consumer: 'web-app', filter: null as never })).rejects.toEqual(
      refusedAs(/^the pact's filter: the filter must be an object/),
    );
    await expect(mock.pact(null as never)).rejects.toEqual(
      refusedAs(/^the pact's options must be an object such as \{ consumer: 'web-app' \}, not null$/),
    );
  });

  it('refuses the same filters in the control client, before any call', async () => {
    // Nothing listens there: a call made would be mock_unreachable, not invalid_option.
    const control = createControlClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(control.requests(null as never)).rejects.toEqual(refusedAs(/^control\.requests\(filter\): /));
    await expect(control.fetchPact({ consumer: 'web-app', filter: null as never })).rejects.toEqual(
      refusedAs(/^the pact's filter: /),
    );
  });
});

describe('mock.handle()', () => {
  // The @example of OrderMock.handle, as written in mocks/pipeline/mock-parts.ts.
  async function documentedExample(): Promise<string[]> {
    const source = await readFile(join(projectRoot, 'mocks/pipeline/mock-parts.ts'), 'utf8');
    const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*readonly handle: HandleRequest;/.exec(source)![1]!;
    const example = comment.split('@example')[1]!;
    return example
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .filter((line) => line.trim() !== '');
  }

  it('type-checks as its documentation uses it (strict TypeScript, the project options)', async () => {
    const lines = await documentedExample();
    const file = join(projectRoot, 'test/mocks/handle-example.virtual.ts');
    const text = [
      "import { createOrderMock } from '../../mocks/adapters/msw.js';",
      'const mock = createOrderMock();',
      ...lines.map((line) => line.replace(/ \/\/ .*$/, ';')),
      'export {};',
    ].join('\n');
    const config = ts.getParsedCommandLineOfConfigFile(
      join(projectRoot, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {},
      },
    )!;
    const host = ts.createCompilerHost(config.options);
    const getSourceFile = host.getSourceFile;
    host.getSourceFile = (name, language, ...rest) =>
      name === file ? ts.createSourceFile(name, text, language) : getSourceFile.call(host, name, language, ...rest);
    const fileExists = host.fileExists;
    host.fileExists = (name) => name === file || fileExists.call(host, name);
    const program = ts.createProgram({ rootNames: [file], options: config.options, host });
    const problems = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems, text).toEqual([]);
  });

  it('answers as documented: a reply, the network error of a fault, undefined outside its paths', async () => {
    const mock = createOrderMock();
    const list = () => mock.handle(new Request('http://localhost/v1/store/orders', { headers: authorized }));
    expect(await list()).toMatchObject({ status: 200 });
    mock.addFaults({ operation: 'listOrders', network: true, times: 1 });
    expect(await list()).toBe('network-error');
    expect(await mock.handle(new Request('http://localhost/elsewhere'))).toBeUndefined();
  });
});
