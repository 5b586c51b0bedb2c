import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Exit } from './cli-support.js';
import { type ConsumerProject, consumerProject, packKit, projectIn } from './consumer-project.js';
import type { NodeBinary } from './node-binaries.js';
import { oncePerRun } from './once-per-run.js';

/** In a shared project's install list, the packed kit: the run's one tarball (packedKit). */
export const theKit = '<the packed kit>';

/** A project several test files use, made once a run: its name, and the installs that make it, in order. */
export interface SharedProjectDefinition {
  name: string;
  /** Each a `npm install --save-dev` of its own, run in turn; `theKit` stands for the packed kit. */
  installs: readonly (readonly string[])[];
}

/** A shared project as one test file sees it. */
export interface SharedProject {
  /** Runs commands in the file's own folder inside the project (`npx` and `node` find its node_modules). */
  project: ConsumerProject;
  /** The project's folder, where its package.json and node_modules are. */
  root: string;
  /** What each install printed and how it ended, in order; an install after a failed one is not run. */
  installs: readonly Exit[];
}

/**
 * The kit as a user gets it (`npm pack` of this checkout), packed once a run for every file that asks.
 *
 * @example
 * const tarball = await packedKit(); // /dev/shm/petstore-run-…/kit/petstore-contract-kit-0.1.0.tgz
 */
export function packedKit(): Promise<string> {
  return oncePerRun('kit', (folder) => packKit(folder));
}

/**
 * The project `definition` names, made once a run under `node` by whichever file asks first (its
 * installs run as a user runs them, the kit's tarball last), and a folder of the asking file's own in
 * it (`workspace`), so that the files' own files (tests, configs, builds) never meet. A shared project
 * is never installed into: `project.install` runs only in a folder with a package.json of its own
 * (`cwd`), and a file that must change the project's node_modules works on a copy.
 *
 * @example
 * const { project, installs } = await sharedProject(
 *   { name: 'node24-provider', installs: [['@stoplight/prism-http@5.16.0'], [theKit]] },
 *   { node: await nodeBinary('24.22.3'), workspace: 'provider-stack' },
 * );
 */
export async function sharedProject(
  definition: SharedProjectDefinition,
  options: { node: NodeBinary; workspace: string },
): Promise<SharedProject> {
  const made = await oncePerRun(definition.name, async (folder) => {
    const tarball = await packedKit();
    const project = await consumerProject({ node: options.node, name: definition.name, folder });
    const installs: Exit[] = [];
    for (const packages of definition.installs) {
      const exit = await project.install(packages.map((name) => (name === theKit ? tarball : name)));
      installs.push(exit);
      if (exit.code !== 0) break;
    }
    return { definition, nodeVersion: options.node.version, root: folder, installs };
  });
  // Every file that names the project must mean the same one: a file that asked for other packages
  // would otherwise get a project it did not describe.
  if (!isDeepStrictEqual(made.definition, definition) || made.nodeVersion !== options.node.version)
    throw new Error(`${definition.name} was made from another definition or Node: ${JSON.stringify(made)}`);
  const root = made.root;
  const shared = projectIn({ node: options.node, folder: root });
  const workspace = join(root, options.workspace);
  await mkdir(workspace, { recursive: true });
  return {
    root,
    installs: made.installs,
    project: {
      ...shared,
      folder: workspace,
      exec: (command, args, execOptions = {}) => shared.exec(command, args, { cwd: workspace, ...execOptions }),
      install: (packages, installOptions = {}) =>
        installOptions.cwd === undefined
          ? Promise.reject(new Error(`${definition.name} is shared: install into a folder of your own (cwd)`))
          : shared.install(packages, installOptions),
    },
  };
}
