// The support matrix said three ways, held to one: the cells the suite runs (support-matrix.ts), the
// README's "Supported versions" table, and package.json's peer ranges and engines with the versions the
// install hint names (verify/base/optional-dependencies.ts). A range wider than the cells, a table row no
// cell runs, or a hint naming a version no cell installs fails here, before any install.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { optionalDependencies } from '../../verify/base/optional-dependencies.js';
import { projectRoot } from '../support/cli-support.js';
import { type MatrixCell, supportMatrix } from './support-matrix.js';

const cells: readonly MatrixCell[] = Object.values(supportMatrix).sort((one, other) => one.node - other.node);

const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  engines: { node: string };
};

/** The README's table, as rows of cells (the header and the rule left out). */
async function readmeTable(): Promise<string[][]> {
  const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Supported versions'));
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim()),
  );
}

/** A package's exact version as a cell installs it (`name@version` in its lists), or undefined. */
function installed(cell: MatrixCell, name: string): string | undefined {
  const spec = [...cell.frontend, ...cell.provider].find((entry) => entry.startsWith(`${name}@`));
  return spec?.slice(name.length + 1);
}

describe("the support matrix, the README's table and package.json agree", () => {
  it('has one README row for each cell, with the versions the cell installs', async () => {
    const rows = await readmeTable();
    expect(rows.map((row) => row[0]!.split('.')[0])).toEqual(cells.map((cell) => String(cell.node)));
    for (const [index, cell] of cells.entries()) {
      const [, msw, vitest, pact, prism, typescript] = rows[index]!;
      expect(msw, cell.name).toBe(installed(cell, 'msw'));
      expect(vitest, cell.name).toBe(installed(cell, 'vitest'));
      expect(pact, cell.name).toContain(cell.resolved['@pact-foundation/pact-core']!);
      const pactJs = installed(cell, '@pact-foundation/pact');
      if (pactJs !== undefined) expect(pact, cell.name).toContain(`pact-js ${pactJs}`);
      expect(prism, cell.name).toBe(installed(cell, '@stoplight/prism-http'));
      // The Node 20 cell's TypeScript is the kit's own, which package.test.ts uses.
      if (cell.typescript !== undefined) expect(typescript, cell.name).toBe(cell.typescript);
    }
  });

  it('declares peer ranges that every cell satisfies, whose floors cells install, and no major that no cell installs', () => {
    for (const name of ['msw', '@pact-foundation/pact-core', '@stoplight/prism-http']) {
      const range = manifest.peerDependencies[name]!;
      const versions = cells.map((cell) => cell.resolved[name]!);
      for (const version of versions)
        expect(semver.satisfies(version, range), `${name}@${version} in ${range}`).toBe(true);
      // The floor of each alternative of the range is a version some cell installs.
      for (const alternative of range.split('||'))
        expect(versions, `${name}: the floor of ${alternative.trim()}`).toContain(
          semver.minVersion(alternative)!.version,
        );
      // Every major the range admits is one some cell installs.
      const majors = new Set(versions.map((version) => semver.major(version)));
      for (let major = 0; major <= 40; major++)
        if (semver.intersects(range, `${major}.x`))
          expect(majors.has(major), `${name}: a cell on ${major}.x`).toBe(true);
    }
    // prism-http's range ends where the cells end: 5.16.0 is the newest any cell installs.
    expect(
      semver.maxSatisfying(['5.16.0', '5.17.0', '6.0.0'], manifest.peerDependencies['@stoplight/prism-http']!),
    ).toBe('5.16.0');
  });

  it("admits in engines every cell's Node, and no major that no cell runs", () => {
    const majorsRun = new Set(cells.map((cell) => cell.node));
    for (const major of [18, 19, 20, 21, 22, 23, 24, 25, 26, 27]) {
      const admitted = semver.intersects(manifest.engines.node, `${major}.x`);
      expect(admitted, `Node ${major}`).toBe(majorsRun.has(major));
    }
  });

  it('names in the install hint only versions some cell installs, each within its peer range', () => {
    for (const { name, range, install } of [optionalDependencies.pact, optionalDependencies.prism]) {
      for (const { version } of install) {
        expect(semver.intersects(version, range), `${name}@${version}`).toBe(true);
        const cellVersions = cells.map((cell) => cell.resolved[name]!);
        expect(
          cellVersions.some((installedVersion) => semver.satisfies(installedVersion, version)),
          `${name}@${version} is installed by a cell`,
        ).toBe(true);
      }
    }
  });
});
