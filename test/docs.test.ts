import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorStatuses } from '../mocks/errors.js';
import { tolerances } from '../verify/compare.js';
import { rules } from '../verify/rules.js';
import { loadScenarios } from '../mocks/scenarios.js';

const read = (path: string) => readFile(new URL(`../${path}`, import.meta.url), 'utf8');

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
      const tests = [...entry.matchAll(/`test\/([\w-]+\.test\.ts)`/g)].map((match) => match[1]!);
      expect(tests.length, entry.split('\n')[0]).toBeGreaterThan(0);
      for (const file of tests) await expect(read(`test/${file}`)).resolves.toBeTruthy();
    }
  });

  it('documents every CLI flag in the README', async () => {
    const readme = await read('README.md');
    for (const flag of [
      '--port',
      '--host',
      '--api-key',
      '--seed',
      '--scenario',
      '--no-control',
      '--pet-deprecation',
      '--pet-sunset',
      '--body-limit',
      '--verbose',
      '--help',
      '--version',
    ]) {
      expect(readme, flag).toContain(flag);
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

  it('documents every petstore-verify flag, and every scenario the kit ships', async () => {
    const readme = await read('README.md');
    const harness = await read('docs/harness.md');
    const help = await read('cli/petstore-verify.ts');
    const flags = [...new Set([...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]!))];
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(readme + harness, flag).toContain(flag);
    for (const scenario of await loadScenarios()) expect(harness, scenario.name).toContain(`| \`${scenario.name}\` |`);
  });
});
