import { createRequire } from 'node:module';
import { VerifyError } from './errors.js';

/**
 * The harness's heavy dependencies, which a frontend team that installs the kit for its mock does
 * not need: optional peer dependencies of the package, loaded only by the suites that use them.
 * `range` is the peer range package.json declares (`test/package/package.test.ts` keeps the two
 * equal); `install` is the version the install hint names, the newest of the range that the running
 * Node can run (pact-core 20 needs Node 22, prism-http 5.16 Node 24.18), each one the support matrix
 * installs (`test/package/support-matrix.ts`).
 */
export const optionalDependencies = {
  pact: {
    name: '@pact-foundation/pact-core',
    range: '^19.2.0 || ^20.2.0',
    install: [
      { node: [22, 0], version: '^20.2.0' },
      { node: [20, 19], version: '^19.2.0' },
    ],
    usedBy: 'the pact suite',
  },
  prism: {
    name: '@stoplight/prism-http',
    range: '5.12.0 || >=5.16.0 <5.17.0',
    install: [
      { node: [24, 18], version: '5.16.0' },
      { node: [20, 19], version: '5.12.0' },
    ],
    usedBy: 'Prism, the second oracle; --no-prism does without it',
  },
  fastCheck: {
    name: 'fast-check',
    range: '^4.10.2',
    install: [{ node: [20, 19], version: '^4.10.2' }],
    usedBy: 'exploration from the library; the petstore-verify command carries it inside',
  },
} as const satisfies Record<
  string,
  {
    name: string;
    range: string;
    install: readonly { node: readonly [number, number]; version: string }[];
    usedBy: string;
  }
>;

/** One of the optional dependencies. */
export type OptionalDependency = keyof typeof optionalDependencies;

const require = createRequire(import.meta.url);

/** Whether an optional dependency can be loaded from where the kit is installed. */
export function isInstalled(dependency: OptionalDependency): boolean {
  try {
    require.resolve(optionalDependencies[dependency].name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The version to install on the running Node: the first whose Node floor it meets (the last, the
 * oldest, otherwise).
 *
 * @example
 * installVersion(optionalDependencies.pact.install); // '^20.2.0' on Node 24, '^19.2.0' on Node 20
 */
export function installVersion(
  choices: readonly { node: readonly [number, number]; version: string }[],
  nodeVersion: string = process.versions.node,
): string {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  const fitting = choices.find(({ node: [floorMajor, floorMinor] }) =>
    major === floorMajor ? minor >= floorMinor : major > floorMajor,
  );
  return (fitting ?? choices[choices.length - 1]!).version;
}

/** The one-line hint for what is missing, or undefined when everything asked for is installed. */
export function installHint(needed: readonly OptionalDependency[]): string | undefined {
  const missing = [...new Set(needed)]
    .filter((dependency) => !isInstalled(dependency))
    .map((dependency) => optionalDependencies[dependency]);
  if (missing.length === 0) return undefined;
  const names = missing.map((dependency) => `${dependency.name} (${dependency.usedBy})`).join(' and ');
  return `needs ${names}, which ${missing.length === 1 ? 'is' : 'are'} not installed: npm install --save-dev ${missing.map((dependency) => `${dependency.name}@${installVersion(dependency.install)}`).join(' ')}`;
}

/**
 * Throws the install hint as an Error when an optional dependency a library call needs is missing.
 * @throws Error `petstore-contract-kit needs …, which is not installed: npm install --save-dev …`.
 */
export function requireInstalled(dependency: OptionalDependency): void {
  const hint = installHint([dependency]);
  if (hint !== undefined) throw new VerifyError('missing_optional_dependency', `petstore-contract-kit ${hint}`);
}
