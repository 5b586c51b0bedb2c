// Writing a consumer's pact to a file, apart from judging it, so that the control client (which
// fetches a pact the server judged) writes it the same way without loading the judge.
import type { JsonValue } from '../core/parse-json.js';
import { stringifyJson } from '../core/stringify-json.js';
import { MockOptionError, MockUsageError } from './errors.js';
import type { RequestFilter } from './journal.js';

/** The provider a consumer's pact names unless told otherwise: the interface's own name. */
export const defaultPactProvider = 'petstore-order-interface';

/** Who the pact is between, and which calls of the journal it holds. */
export interface PactSelection {
  consumer: string;
  provider?: string;
  /** Only the calls this filter picks, as `requests(filter)` does; the others are left out. Default: every call. */
  filter?: RequestFilter;
}

/** Where and between whom `mock.pact()` writes: `dir/CONSUMER-PROVIDER.json`, `dir` being `pacts` unless given. */
export interface PactOptions extends PactSelection {
  dir?: string;
}

/** What a pact's consumer or provider may be named: it becomes part of a file's name. */
export const pactParticipantName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

interface FileSystem {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

// Node's file system without an import: this module also runs in browsers, where a pact has no file to go to.
function nodeFileSystem(): FileSystem {
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fileSystem = node?.getBuiltinModule?.('node:fs/promises') as FileSystem | undefined;
  if (fileSystem === undefined)
    throw new MockUsageError(
      'node_only',
      'mock.pact() writes a file, which needs Node.js 20.16 or later; in a browser, use mock.pactDocument() and save what it returns.',
    );
  return fileSystem;
}

/**
 * The pact's consumer and provider (the interface's own name unless given), each checked to be a
 * plain name. Throws `MockOptionError` (`invalid_option`) otherwise.
 * @example
 * checkedParties({ consumer: 'web-app' }) // { consumer: 'web-app', provider: 'petstore-order-interface' }
 */
export function checkedParties(parties: PactSelection): { consumer: string; provider: string } {
  const provider = parties.provider ?? defaultPactProvider;
  for (const [role, name] of [
    ['consumer', parties.consumer],
    ['provider', provider],
  ] as const)
    if (typeof name !== 'string' || !pactParticipantName.test(name))
      throw new MockOptionError(
        'invalid_option',
        `the pact's ${role} must be a name of letters, digits, '.', '_' and '-', not ${JSON.stringify(name)}`,
      );
  return { consumer: parties.consumer, provider };
}

/**
 * Writes a pact document to `dir/CONSUMER-PROVIDER.json` (`dir` is `pacts` unless given), all at once:
 * a new file, then renamed over the old one. Resolves with the file's path. Node.js only.
 * @example
 * await writePactFile(document, { consumer: 'web-app' }) // 'pacts/web-app-petstore-order-interface.json'
 */
export async function writePactFile(document: JsonValue, options: PactOptions): Promise<string> {
  const { consumer, provider } = checkedParties(options);
  const fileSystem = nodeFileSystem();
  const dir = (options.dir ?? 'pacts').replace(/[\\/]+$/, '') || '.';
  const file = `${dir}/${consumer}-${provider}.json`;
  await fileSystem.mkdir(dir, { recursive: true });
  const partial = `${file}.${Math.random().toString(36).slice(2)}.partial`;
  await fileSystem.writeFile(partial, `${stringifyJson(document)}\n`);
  await fileSystem.rename(partial, file);
  return file;
}
