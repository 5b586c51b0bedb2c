import { createRequire } from 'node:module';
import { VerifyError } from './errors.js';

/**
 * The harness's heavy dependencies, which a frontend team that installs the kit for its mock does
 * not need: optional peer dependencies of the package, loaded only by the suites that use them.
 * `test/package/package.test.ts` keeps this table equal to package.json's `peerDependencies`.
 */
export const optionalDependencies = {
  pact: { name: '@pact-foundation/pact-core', range: '^19.2.0', usedBy: 'the pact suite' },
  prism: {
    name: '@stoplight/prism-http',
    range: '5.12.0',
    usedBy: 'Prism, the second oracle; --no-prism does without it',
  },
  fastCheck: {
    name: 'fast-check',
    range: '^4.10.2',
    usedBy: 'exploration from the library; the petstore-verify command carries it inside',
  },
} as const;

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

/** The one-line hint for what is missing, or undefined when everything asked for is installed. */
export function installHint(needed: readonly OptionalDependency[]): string | undefined {
  const missing = [...new Set(needed)]
    .filter((dependency) => !isInstalled(dependency))
    .map((dependency) => optionalDependencies[dependency]);
  if (missing.length === 0) return undefined;
  const names = missing.map((dependency) => `${dependency.name} (${dependency.usedBy})`).join(' and ');
  return `needs ${names}, which ${missing.length === 1 ? 'is' : 'are'} not installed: npm install --save-dev ${missing.map((dependency) => `${dependency.name}@${dependency.range}`).join(' ')}`;
}

/**
 * Throws the install hint as an Error when an optional dependency a library call needs is missing.
 * @throws Error `petstore-contract-kit needs …, which is not installed: npm install --save-dev …`.
 */
export function requireInstalled(dependency: OptionalDependency): void {
  const hint = installHint([dependency]);
  if (hint !== undefined) throw new VerifyError('missing_optional_dependency', `petstore-contract-kit ${hint}`);
}
