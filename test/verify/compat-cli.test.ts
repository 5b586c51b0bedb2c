// petstore-verify compat as users run it: the cases through the built command (exit codes and
// lines), then its inputs refused with a coded line and exit 2, in process.
import { execFileSync } from 'node:child_process';
import { readFile, truncate } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatCommand } from '../../cli/verify/compat.js';
import { compatErrorCodes, compatRules } from '../../verify/compat/index.js';
import { runToExit, verifyCliPath } from '../support/cli-support.js';
import { CompatFolder, order, shippedPact, specFile } from './compat-support.js';
import { routes } from '../../core/routes.js';

const folder = new CompatFolder();
afterAll(() => folder.remove());

const verify = (...args: string[]) => runToExit(process.execPath, [verifyCliPath, 'compat', ...args]);

async function inProcess(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await compatCommand(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

let removedField: string;
let narrowedType: string;
let removedStatus: string;
let addedField: string;

beforeAll(async () => {
  removedField = await folder.variant((document) => delete order(document).properties.petId, 'removed-field.yaml');
  narrowedType = await folder.variant((document) => {
    order(document).properties.id.format = 'int32';
  }, 'narrowed-type.yaml');
  removedStatus = await folder.variant(
    (document) => delete document.paths['/store/orders/{orderId}'].delete.responses['409'],
    'removed-status.yaml',
  );
  addedField = await folder.variant((document) => {
    order(document).properties.note = { type: 'string', description: 'A note.' };
  }, 'added-field.yaml');
});

describe('petstore-verify compat OLD NEW (the built command)', () => {
  it('flags a removed Order field as breaking: exit 1', async () => {
    const exit = await verify('spec/openapi.yaml', removedField);
    expect(exit).toMatchObject({ code: 1, stderr: '' });
    expect(exit.stdout.split('\n')).toEqual([
      `compat: spec/openapi.yaml (${routes.length} operations) → ${removedField} (${routes.length} operations)`,
      '✗ error response-property-removed: GET /v1/store/orders /responses/200/body/[]/petId: expected the field petId (integer (int64)), got no such field',
      'compat: failed: 1 error (breaking), 0 warnings, 0 info (additive) (exit 1)',
      '',
    ]);
  });

  it('flags a narrowed type (int64 to int32) as breaking: exit 1', async () => {
    const exit = await verify('spec/openapi.yaml', narrowedType);
    expect(exit.code).toBe(1);
    expect(exit.stdout).toContain(
      '✗ error response-property-type-changed: GET /v1/store/orders /responses/200/body/[]/id: expected integer (int64), got integer (int32)\n',
    );
  });

  it('flags a removed status as breaking: exit 1', async () => {
    const exit = await verify('spec/openapi.yaml', removedStatus);
    expect(exit.code).toBe(1);
    expect(exit.stdout).toContain(
      '✗ error response-status-removed: DELETE /v1/store/orders/{orderId} /responses/409: expected the status 409, got only 204, 401, 404\n',
    );
  });

  it('passes an added optional field: exit 0, the change named as info', async () => {
    const exit = await verify('spec/openapi.yaml', addedField);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toContain(
      '+ info response-property-added: GET /v1/store/orders /responses/200/body/[]/note: expected no such field, got an optional field note (string)\n',
    );
    expect(exit.stdout).toContain('compat: passed: 0 errors (breaking), 0 warnings, 1 info (additive) (exit 0)\n');
  });

  it('names the consumer and the interaction a change breaks in its pact: exit 1', async () => {
    const exit = await verify('spec/openapi.yaml', removedField, '--pact', shippedPact);
    expect(exit.code).toBe(1);
    expect(exit.stdout).toContain(
      '✗ error pact-field-removed: petstore-order-client › cancel-cancelled-order › the other order is still listed: GET /v1/store/orders /response/body/0/petId: expected the field petId in the response schema, got no such field\n',
    );
    expect(exit.stdout).toMatch(
      /^compat: pact of petstore-order-client \(.+\): 44 interactions, \d+ broken by .+removed-field\.yaml$/m,
    );
  });

  it('says in one line, with exit 2, that a document is missing', async () => {
    const exit = await verify('spec/openapi.yaml', 'no-such.yaml');
    expect(exit).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr:
        'petstore-verify compat: cannot read the document no-such.yaml: ENOENT (no such file) (unreadable_document)\n',
    });
  });
});

describe('petstore-verify compat: its report and its refusals', () => {
  it('writes the report as JSON with --format json', async () => {
    const { code, stdout } = await inProcess(specFile, removedStatus, '--format', 'json');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      verdict: 'failed',
      exitCode: 1,
      counts: { error: 1, warning: 0, info: 0 },
      findings: [
        {
          code: 'response-status-removed',
          severity: 'error',
          operation: 'DELETE /v1/store/orders/{orderId}',
          path: '/responses/409',
        },
      ],
    });
  });

  it('also writes the JSON report to --json FILE', async () => {
    const file = await folder.file('report.json', '');
    const { code, stdout } = await inProcess(specFile, addedField, '--json', file);
    expect(code).toBe(0);
    expect(stdout).toContain('compat: passed');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ verdict: 'passed', counts: { info: 1 } });
  });

  it('writes a JUnit testcase per finding with --junit, an error a failure, the pact a suite of its own', async () => {
    const file = await folder.file('compat.xml', '');
    const { code } = await inProcess(specFile, removedStatus, '--pact', shippedPact, '--junit', file);
    expect(code).toBe(1);
    const xml = await readFile(file, 'utf8');
    expect(xml).toContain(
      `<testsuite name="compat › ${specFile} → ${removedStatus}" tests="1" failures="1" errors="0" skipped="0">`,
    );
    expect(xml).toContain(
      '<failure type="response-status-removed" message="✗ error response-status-removed: DELETE /v1/store/orders/{orderId} /responses/409: expected the status 409, got only 204, 401, 404"/>',
    );
    expect(xml).toMatch(/<testsuite name="compat › pact of petstore-order-client" tests="(\d+)" failures="\1" /);
  });

  it('writes one error testcase with --junit when it could not judge', async () => {
    const file = await folder.file('compat-error.xml', '');
    expect((await inProcess(specFile, 'no-such.yaml', '--junit', file)).code).toBe(2);
    expect(await readFile(file, 'utf8')).toContain(
      '<error message="exit 2: cannot read the document no-such.yaml: ENOENT (no such file) (unreadable_document)"/>',
    );
  });

  it('refuses a FIFO in place of a document at once, without waiting on it: unreadable_document, exit 2', async () => {
    const fifo = await folder.file('placeholder', '').then((file) => `${file}.fifo.yaml`);
    execFileSync('mkfifo', [fifo]);
    expect(await inProcess(specFile, fifo)).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-verify compat: cannot read the document ${fifo}: ${fifo} is a FIFO (named pipe), not a regular file; move it away, or choose another folder (unreadable_document)\n`,
    });
  });

  it('refuses a document past 32 MiB before reading it: unreadable_document, exit 2', async () => {
    const big = await folder.file('big.yaml', '');
    await truncate(big, 32 * 1024 * 1024 + 1);
    expect((await inProcess(specFile, big)).stderr).toBe(
      `petstore-verify compat: cannot read the document ${big}: over 32 MiB (unreadable_document)\n`,
    );
  });

  it('refuses a file that is not OpenAPI: invalid_document, exit 2', async () => {
    const file = await folder.file('scenario.yaml', 'name: a-scenario\nsteps: []\n');
    expect(await inProcess(specFile, file)).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-verify compat: ${file}: not an OpenAPI 3.x document (no "openapi: 3.x" field) (invalid_document)\n`,
    });
  });

  it('refuses a file that is neither YAML nor JSON: invalid_document, exit 2', async () => {
    const file = await folder.file('broken.json', '{"openapi": "3.1.0",');
    const { code, stderr } = await inProcess(specFile, file);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`^petstore-verify compat: ${file}: not YAML or JSON: .+ \\(invalid_document\\)\\n$`),
    );
  });

  it('refuses a $ref that resolves to nothing: invalid_document, exit 2', async () => {
    const file = await folder.variant((document) => {
      document.paths['/store/orders'].get.responses['200'].content['application/json'].schema.items.$ref =
        '#/components/schemas/Gone';
    });
    expect((await inProcess(specFile, file)).stderr).toBe(
      `petstore-verify compat: ${file}: the $ref #/components/schemas/Gone resolves to nothing (invalid_document)\n`,
    );
  });

  it('refuses a pact that is not a pact: invalid_pact, exit 2', async () => {
    const file = await folder.file('not-a-pact.json', '{"consumer": {"name": "web"}}');
    expect(await inProcess(specFile, '--pact', file)).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-verify compat: ${file}: not a Pact file: no interactions list (invalid_pact)\n`,
    });
  });

  it('never passes two documents with no operation: nothing_compared, exit 2', async () => {
    const empty = await folder.file('empty.yaml', 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n');
    expect(await inProcess(empty, empty)).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-verify compat: neither ${empty} nor ${empty} holds an operation: nothing was compared (nothing_compared)\n`,
    });
  });

  it('never passes an OLD with no operation against a NEW with some: nothing_compared, exit 2, naming OLD', async () => {
    const empty = await folder.file('empty-old.yaml', 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n');
    expect(await inProcess(empty, specFile)).toEqual({
      code: 2,
      stdout: '',
      stderr: `petstore-verify compat: ${empty} holds no operation: nothing was compared (nothing_compared)\n`,
    });
  });

  it('never passes a pact with no interaction: nothing_compared, exit 2', async () => {
    const file = await folder.file(
      'empty-pact.json',
      JSON.stringify({
        consumer: { name: 'web' },
        provider: { name: 'p' },
        interactions: [],
        metadata: { pactSpecification: { version: '4.0' } },
      }),
    );
    expect((await inProcess(specFile, '--pact', file)).stderr).toBe(
      `petstore-verify compat: ${file}: the pact of web holds no interaction: nothing was checked (nothing_compared)\n`,
    );
  });

  it('refuses one document without --pact as a usage error, exit 2', async () => {
    expect(await inProcess(specFile)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'petstore-verify: compat with one document checks pacts against it: give --pact FILE, or OLD and NEW (see --help)\n',
    });
  });

  it('refuses a --date that is no day, exit 2', async () => {
    expect((await inProcess(specFile, specFile, '--date', '29/11/2026')).stderr).toBe(
      'petstore-verify: --date must be a day as YYYY-MM-DD (RFC 3339), not 29/11/2026 (see --help)\n',
    );
  });

  it('refuses a --date of a day no calendar has, exit 2', async () => {
    expect(await inProcess(specFile, specFile, '--date', '2026-02-30')).toMatchObject({
      code: 2,
      stderr: 'petstore-verify: --date must be a day as YYYY-MM-DD (RFC 3339), not 2026-02-30 (see --help)\n',
    });
  });

  it('takes --date for the sunset: the pet read removed after its x-sunset passes with a warning', async () => {
    const old = await folder.variant((document) => {
      document.paths['/pets/{petId}'].get['x-sunset'] = '2026-06-01';
    });
    const next = await folder.variant((document) => delete document.paths['/pets/{petId}']);
    expect((await inProcess(old, next, '--date', '2026-06-02')).code).toBe(0);
    expect((await inProcess(old, next, '--date', '2026-05-31')).code).toBe(1);
  });
});

describe('the docs', () => {
  it('list every rule in docs/providers.md with its level, as compatRules holds them', async () => {
    const providers = await readFile(new URL('../../docs/providers.md', import.meta.url), 'utf8');
    const rows = [...providers.matchAll(/^\| `([a-z-]+)` \| (error|warning|info) \| ([^|]+) \|$/gm)].map((match) => [
      match[1],
      match[2],
      match[3]!.trim(),
    ]);
    expect(rows).toEqual(compatRules.map((rule) => [rule.id, rule.level, rule.means]));
  });

  it('list every code of compatErrorCodes in docs/error-codes.md', async () => {
    const catalogue = await readFile(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
    for (const code of Object.keys(compatErrorCodes))
      expect(catalogue, code).toContain(`- \`${code}\` (\`CompatError\`)`);
  });
});

describe("petstore-verify compat on the reviews' leftovers (in process)", () => {
  it("passes the list's 200 replaced by 2XX, naming it a warning: exit 0", async () => {
    const ranged = await folder.variant((document) => {
      const responses = document.paths['/store/orders'].get.responses;
      responses['2XX'] = responses['200'];
      delete responses['200'];
    });
    const exit = await inProcess('spec/openapi.yaml', ranged);
    expect(exit).toMatchObject({ code: 0, stderr: '' });
    expect(exit.stdout.split('\n').slice(1)).toEqual([
      '! warning response-status-replaced-by-range: GET /v1/store/orders /responses/200: expected the status 200, got the class 2XX, which holds it',
      'compat: passed: 0 errors (breaking), 1 warning, 0 info (additive) (exit 0)',
      '',
    ]);
  });

  it("flags the cancel's 404 answered as application/problem+json as breaking: exit 1", async () => {
    const problem = await folder.variant((document) => {
      const notFound = document.paths['/store/orders/{orderId}'].delete.responses['404'];
      notFound.content = { 'application/problem+json': notFound.content['application/json'] };
    });
    const exit = await inProcess('spec/openapi.yaml', problem);
    expect(exit.code).toBe(1);
    expect(exit.stdout.split('\n').slice(1, 3)).toEqual([
      '✗ error response-media-type-removed: DELETE /v1/store/orders/{orderId} /responses/404/content/application/json: expected the media type application/json, got only application/problem+json',
      '+ info response-media-type-added: DELETE /v1/store/orders/{orderId} /responses/404/content/application/problem+json: expected only application/json, got also application/problem+json',
    ]);
  });
});
