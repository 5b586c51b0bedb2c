import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { type Exit, projectRoot, runToExit, scratchFolder } from './cli-support.js';
import type { NodeBinary } from './node-binaries.js';

const run = promisify(execFile);

/** A fresh project of a user's, on one Node: where it is, and how to run commands in it under that Node. */
export interface ConsumerProject {
  folder: string;
  node: NodeBinary;
  /** The environment its commands run with: the project's Node first on PATH, so npm, npx and scripts use it. */
  env: NodeJS.ProcessEnv;
  /**
   * Runs `npm install --save-dev PACKAGES` as a user would (no flag but quiet ones), to its end: in the
   * project, or in `cwd`, a folder inside it with a package.json of its own.
   */
  install: (packages: readonly string[], options?: { cwd?: string }) => Promise<Exit>;
  /**
   * Runs a command in the project under its Node (`node` and `npx` resolve to it) to its end; `env` is
   * laid over the project's environment.
   */
  exec: (
    command: string,
    args: readonly string[],
    options?: { timeout?: number; cwd?: string; env?: NodeJS.ProcessEnv },
  ) => Promise<Exit>;
}

/**
 * The kit as a user gets it: `npm pack` of this checkout (built by the suite's prefix) into `folder`.
 * Resolves with the tarball's file name.
 *
 * @example
 * const tarball = await packKit(folder); // petstore-contract-kit-0.1.0.tgz
 */
export async function packKit(folder: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], {
    cwd: projectRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(folder, packed!.filename);
}

/**
 * A new, empty ES-module project in a scratch folder (or in `folder`, an empty one), whose commands run
 * under `node`: npm itself runs under it too, so engines and peer ranges are judged as that Node's users
 * see them.
 *
 * @example
 * const project = await consumerProject({ node: await nodeBinary('24.22.3'), name: 'frontend' });
 * const exit = await project.install(['msw@3.0.5', 'vitest@5.1.2']);
 */
export async function consumerProject(options: {
  node: NodeBinary;
  name: string;
  folder?: string;
}): Promise<ConsumerProject> {
  const folder = options.folder ?? (await scratchFolder(`petstore-${options.name}-`));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: options.name, private: true, type: 'module' }));
  return projectIn({ node: options.node, folder });
}

/**
 * A project that exists already in `folder` (its package.json and node_modules as they are), whose
 * commands run under `node`, as consumerProject's.
 *
 * @example
 * const project = projectIn({ node: await nodeBinary('24.22.3'), folder });
 * await project.exec('npx', ['petstore-mock', '--port', '0']);
 */
export function projectIn(options: { node: NodeBinary; folder: string }): ConsumerProject {
  const { node, folder } = options;
  const env = userEnvironment(node);
  const exec: ConsumerProject['exec'] = (command, args, execOptions = {}) =>
    runToExit(command, [...args], {
      cwd: execOptions.cwd ?? folder,
      env: { ...env, ...execOptions.env },
      timeout: execOptions.timeout ?? 180_000,
    });
  return {
    folder,
    node,
    env,
    exec,
    install: (packages, installOptions = {}) =>
      exec(
        'npm',
        ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', ...packages],
        installOptions,
      ),
  };
}

/**
 * The environment a user's shell would give a command: the suite's own, without what npm set for the
 * suite's scripts (`npm_*`, among them `npm_config_local_prefix`, which points npm at this checkout,
 * and the `node_modules/.bin` folders npm put on PATH), with the given Node first on PATH.
 */
export function userEnvironment(node: NodeBinary): NodeJS.ProcessEnv {
  // Removed names are set to undefined, which spawn ignores: runToExit lays this over process.env.
  const inherited = Object.entries(process.env).map(([name, value]) =>
    /^npm_/i.test(name) || ['NODE', 'NODE_OPTIONS', 'INIT_CWD'].includes(name) ? [name, undefined] : [name, value],
  );
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((folder) => !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(folder));
  return {
    ...Object.fromEntries(inherited),
    PATH: [node.binFolder, ...path].join(delimiter),
    PACT_DO_NOT_TRACK: 'true',
  };
}
