// Documents for the compatibility check's tests: the kit's own document, changed by a test, in a
// scratch folder.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { projectRoot } from './../support/cli-support.js';

export const specFile = join(projectRoot, 'spec/openapi.yaml');
export const shippedPact = join(projectRoot, 'contracts/pacts/petstore-order-client-petstore-order-interface.json');

// biome-ignore lint/suspicious/noExplicitAny: a test changes the document's plain data as it likes
export type Document = any;

const original = readFileSync(specFile, 'utf8');

/** A folder of documents for one test file, made at the first ask and removed with `remove()`. */
export class CompatFolder {
  #folder: string | undefined;
  #count = 0;

  async file(name: string, text: string): Promise<string> {
    this.#folder ??= await mkdtemp(join(tmpdir(), 'compat-'));
    const file = join(this.#folder, name);
    await writeFile(file, text);
    return file;
  }

  /** The kit's document as changed by `change`, written as YAML. */
  async variant(change: (document: Document) => void, name = `variant-${++this.#count}.yaml`): Promise<string> {
    const document = YAML.parse(original);
    change(document);
    return this.file(name, YAML.stringify(document));
  }

  async remove(): Promise<void> {
    if (this.#folder !== undefined) await rm(this.#folder, { recursive: true, force: true });
  }
}

/** The Order schema of a document. */
export const order = (document: Document) => document.components.schemas.Order;
/** The list operation of a document. */
export const listOrders = (document: Document) => document.paths['/store/orders'].get;
