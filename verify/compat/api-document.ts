import * as fileSystem from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { bodyLimit } from '../../core/body-limit.js';
import { parseJson } from '../../core/parse-json.js';
import { readRegularFile } from '../../core/regular-file.js';
import { withSafeIntegers } from '../../core/with-safe-integers.js';
import { CompatError } from './compat-error.js';

/** A JSON value as the documents hold it: an object's fields by name. */
export type Node = Record<string, unknown>;

/** A parameter of an operation: where it goes, its name, whether required, its schema. */
export interface ApiParameter {
  in: string;
  name: string;
  required: boolean;
  schema: unknown;
  /** A list given as the name repeated (a query's `form` style, exploded by default), not comma-joined. */
  explode: boolean;
}

/** A documented response header: whether required, and its schema as written. */
export interface ApiHeader {
  required: boolean;
  schema: unknown;
}

/** A documented response: its JSON body's schema (if it has one), its media types and its headers. */
export interface ApiResponse {
  status: string;
  /** The schema of its JSON media type, `undefined` when it documents no body. */
  schema: unknown;
  /** Whether it documents a JSON body at all. */
  hasBody: boolean;
  /** Every media type of its `content` (lower case, parameters kept as written), with its schema. */
  media: Map<string, unknown>;
  /** Its headers by lower-case name. */
  headers: Map<string, ApiHeader>;
}

/** A documented request body: whether required, and its media types with their schemas. */
export interface ApiRequestBody {
  required: boolean;
  media: Map<string, unknown>;
}

/** One operation at one base path: what the compatibility rules compare. */
export interface ApiOperation {
  method: string;
  basePath: string;
  /** The path template as written below the base path: `/store/orders/{orderId}`. */
  path: string;
  /** Method, base path and path with its parameters unnamed: what makes an operation the same in two documents. */
  key: string;
  /** `GET /v1/store/orders`: how a finding names it. */
  label: string;
  deprecated: boolean;
  /** Its `x-sunset` date (oasdiff's extension), as written. */
  sunset?: string;
  parameters: ApiParameter[];
  /** Its request body, `undefined` when it documents none. */
  requestBody?: ApiRequestBody;
  responses: Map<string, ApiResponse>;
  /** The alternatives of its security requirement, each the scheme names it needs together (`[]`: none). */
  security: string[][];
}

/** An OpenAPI 3.x document read for comparison: its operations, its base paths, its `$ref`s resolved on demand. */
export interface ApiDocument {
  file: string;
  operations: ApiOperation[];
  basePaths: string[];
  securitySchemes: Node;
  /** A node with its local `$ref` followed (to the end of a chain). */
  resolve(node: unknown): unknown;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Whether a value is a JSON object (not an array, not null).
 * @example
 * isNode({ type: 'string' }) // true
 * isNode(['a']) // false
 */
export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether a media type of a document's `content` is JSON: `application/json` or a `+json` type
 * (`application/problem+json`), parameters aside.
 * @example
 * isJsonMediaType('application/problem+json') // true
 * isJsonMediaType('text/csv') // false
 */
export function isJsonMediaType(type: string): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(type);
}

/** The path of a server's URL, its variables given their defaults, without a trailing slash (`/v1`). */
function basePathOf(server: unknown): string {
  if (!isNode(server) || typeof server.url !== 'string') return '';
  const variables = isNode(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const variable = variables[name];
    return isNode(variable) && typeof variable.default === 'string' ? variable.default : '';
  });
  let path: string;
  try {
    path = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    path = '';
  }
  return path.replace(/\/+$/, '');
}

function basePathsOf(servers: unknown): string[] | undefined {
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  return [...new Set(servers.map(basePathOf))];
}

/** Follows a local `$ref` (`#/components/schemas/Order`) in `root`; a `$ref` elsewhere is refused. */
function pointerTarget(root: unknown, reference: string, file: string, written = reference): unknown {
  let node: unknown = root;
  for (const raw of reference.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isNode(node) && !Array.isArray(node)) node = undefined;
    else node = (node as Record<string, unknown>)[key];
    if (node === undefined)
      throw new CompatError('invalid_document', `${file}: the $ref ${written} resolves to nothing`);
  }
  return node;
}

function resolver(root: unknown, file: string): (node: unknown) => unknown {
  return (node) => {
    let current = node;
    for (let hops = 0; isNode(current) && typeof current.$ref === 'string'; hops += 1) {
      if (hops > 64)
        throw new CompatError('invalid_document', `${file}: the $ref ${current.$ref} is a loop of references`);
      current = pointerTarget(root, current.$ref, file);
    }
    return current;
  };
}

// Where the documents another one refers to are mounted in it, so that every $ref becomes local.
const mount = 'x-compat-files';
// At most this many files a document may pull in through its $refs.
const maxReferencedFiles = 64;

function* referencesIn(root: unknown, seen: WeakSet<object>): Generator<Node> {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    // A YAML alias shares a node: it is visited, and its $ref rewritten, once.
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) pending.push(...node);
    else if (isNode(node)) {
      if (typeof node.$ref === 'string') yield node;
      pending.push(...Object.values(node));
    }
  }
}

/**
 * Makes every `$ref` of the document local, and checks that each resolves: a `$ref` to another file
 * (`./openapi.yaml#/components/schemas/Order`, relative to the file that holds it, as v2's document
 * refers to v1's records) mounts that file under `x-compat-files` and points there; a `$ref` to a URL
 * is refused. So a comparison never meets a broken reference halfway.
 */
async function bundled(root: Node, file: string): Promise<Node> {
  const mounted: unknown[] = [];
  const indexes = new Map<string, number>([[resolvePath(file), -1]]);
  const queue: { tree: unknown; at: string }[] = [{ tree: root, at: file }];
  const pending: { reference: string; tree: unknown; file: string; target: string }[] = [];
  const seen = new WeakSet<object>();
  while (queue.length > 0) {
    const { tree, at } = queue.shift()!;
    for (const node of referencesIn(tree, seen)) {
      const reference = node.$ref as string;
      const hash = reference.indexOf('#');
      const filePart = hash === -1 ? reference : reference.slice(0, hash);
      const pointer = hash === -1 ? '' : reference.slice(hash + 1);
      if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) {
        throw new CompatError(
          'invalid_document',
          `${at}: the $ref ${reference} is a URL: only $refs inside the document or to files beside it are read`,
        );
      }
      const target = filePart === '' ? resolvePath(at) : resolvePath(dirname(at), filePart);
      let index = indexes.get(target);
      if (index === undefined) {
        if (indexes.size > maxReferencedFiles) {
          throw new CompatError('invalid_document', `${file}: its $refs pull in more than ${maxReferencedFiles} files`);
        }
        index = mounted.length;
        indexes.set(target, index);
        const value = await documentValue(target, 'document');
        mounted.push(value);
        queue.push({ tree: value, at: target });
      }
      pending.push({ reference, tree: index === -1 ? root : mounted[index], file: at, target: pointer });
      node.$ref = index === -1 ? `#${pointer}` : `#/${mount}/${index}${pointer}`;
    }
  }
  // Each reference checked in the file it points into, named as written.
  for (const { reference, tree, file: at, target } of pending) pointerTarget(tree, `#${target}`, at, reference);
  if (mounted.length > 0) root[mount] = mounted;
  return root;
}

// A document or a pact is at most what the kit reads of any body (32 MiB): past it, refused before reading.
const maxFileBytes = bodyLimit;

async function documentText(file: string, what: string): Promise<string> {
  let text: string | undefined;
  try {
    // Opened without waiting: a FIFO named like a document is refused, never read for ever.
    const stats = await fileSystem.stat(file).catch(() => undefined);
    if (stats?.isFile() && stats.size > maxFileBytes) {
      throw new CompatError(
        'unreadable_document',
        `cannot read the ${what} ${file}: over ${maxFileBytes / 1024 / 1024} MiB`,
      );
    }
    text = await readRegularFile(fileSystem, { path: file, action: `read the ${what} ${file}` });
  } catch (error) {
    if (error instanceof CompatError) throw error;
    throw new CompatError('unreadable_document', (error as Error).message, { cause: error });
  }
  if (text === undefined)
    throw new CompatError('unreadable_document', `cannot read the ${what} ${file}: ENOENT (no such file)`);
  return text;
}

async function documentValue(file: string, what: string): Promise<unknown> {
  const text = await documentText(file, what);
  try {
    if (/^\s*[[{]/.test(text)) return parseJson(text);
    const { parse } = (await import('yaml')).default;
    return withSafeIntegers(parse(text, { intAsBigInt: true }));
  } catch (error) {
    throw new CompatError('invalid_document', `${file}: not YAML or JSON: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
}

/**
 * A file's JSON or YAML value, read exactly (integers past 2^53 as bigints); a file that cannot be read
 * is `unreadable_document`, one that is neither JSON nor YAML `invalid_document`.
 * @example
 * const pact = await readJsonOrYaml('contracts/pacts/a-b.json', 'pact');
 */
export async function readJsonOrYaml(file: string, what: string): Promise<unknown> {
  return documentValue(file, what);
}

function securityOf(requirement: unknown): string[][] {
  if (!Array.isArray(requirement)) return [];
  return requirement.map((alternative) => (isNode(alternative) ? Object.keys(alternative).sort() : []));
}

function mediaOf(content: unknown, resolve: (node: unknown) => unknown): Map<string, unknown> {
  const media = new Map<string, unknown>();
  for (const [type, raw] of Object.entries(isNode(content) ? content : {})) {
    const resolved = resolve(raw);
    media.set(type.toLowerCase(), isNode(resolved) ? resolved.schema : undefined);
  }
  return media;
}

function requestBodyOf(raw: unknown, resolve: (node: unknown) => unknown, where: string): ApiRequestBody {
  const body = resolve(raw);
  if (!isNode(body)) throw new CompatError('invalid_document', `${where} is not an object`);
  return { required: body.required === true, media: mediaOf(body.content, resolve) };
}

function responsesOf(responses: unknown, resolve: (node: unknown) => unknown): Map<string, ApiResponse> {
  const found = new Map<string, ApiResponse>();
  if (!isNode(responses)) return found;
  for (const [status, raw] of Object.entries(responses)) {
    const response = resolve(raw);
    if (!isNode(response)) continue;
    const content = isNode(response.content) ? response.content : {};
    const jsonType = Object.keys(content).find(isJsonMediaType);
    const media = jsonType === undefined ? undefined : resolve(content[jsonType]);
    const headers = new Map<string, ApiHeader>();
    for (const [name, header] of Object.entries(isNode(response.headers) ? response.headers : {})) {
      const resolved = resolve(header);
      headers.set(name.toLowerCase(), {
        required: isNode(resolved) && resolved.required === true,
        schema: isNode(resolved) ? resolved.schema : undefined,
      });
    }
    found.set(status, {
      status,
      hasBody: jsonType !== undefined,
      schema: isNode(media) ? media.schema : undefined,
      media: mediaOf(content, resolve),
      headers,
    });
  }
  return found;
}

function parametersOf(lists: unknown[], resolve: (node: unknown) => unknown, where: string): ApiParameter[] {
  const byKey = new Map<string, ApiParameter>();
  // The operation's list comes last: it overrides the path item's parameter of the same name and place.
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const [index, raw] of list.entries()) {
      const parameter = resolve(raw);
      if (!isNode(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') {
        const at = where.replace('{n}', String(index + 1));
        throw new CompatError('invalid_document', `${at} has no name or no place (in)`);
      }
      const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
      byKey.set(`${parameter.in} ${name}`, {
        in: parameter.in,
        name,
        required: parameter.required === true,
        schema: parameter.schema,
        explode: typeof parameter.explode === 'boolean' ? parameter.explode : (parameter.style ?? 'form') === 'form',
      });
    }
  }
  return [...byKey.values()];
}

/**
 * Reads an OpenAPI 3.x document (YAML or JSON), checks that every `$ref` in it resolves, and lists its
 * operations at each base path they are served under (an operation's `servers`, else its path's, else
 * the document's). Throws `CompatError` (`unreadable_document`, `invalid_document`).
 * @example
 * const document = await readApiDocument('spec/openapi.yaml');
 * document.operations.map((operation) => operation.label) // ['GET /v1/store/orders', ...]
 */
export async function readApiDocument(file: string): Promise<ApiDocument> {
  const root = await documentValue(file, 'document');
  if (!isNode(root) || typeof root.openapi !== 'string' || !/^3\.\d+(\.\d+)?/.test(root.openapi)) {
    throw new CompatError('invalid_document', `${file}: not an OpenAPI 3.x document (no "openapi: 3.x" field)`);
  }
  await bundled(root, file);
  if (!isNode(root.paths) && root.paths !== undefined) {
    throw new CompatError('invalid_document', `${file}: its "paths" is not an object`);
  }
  const resolve = resolver(root, file);
  const rootBases = basePathsOf(root.servers) ?? [''];
  const operations: ApiOperation[] = [];
  for (const [path, rawItem] of Object.entries(isNode(root.paths) ? root.paths : {})) {
    const item = resolve(rawItem);
    // A malformed part is refused, never skipped: skipped, it would read as an operation removed (exit 1).
    if (!isNode(item)) throw new CompatError('invalid_document', `${file}: the path ${path} is not an object`);
    for (const method of methods) {
      const operation = item[method];
      if (operation === undefined) continue;
      if (!isNode(operation))
        throw new CompatError('invalid_document', `${file}: the operation ${method} ${path} is not an object`);
      const bases = basePathsOf(operation.servers) ?? basePathsOf(item.servers) ?? rootBases;
      for (const basePath of bases) {
        const upper = method.toUpperCase();
        operations.push({
          method: upper,
          basePath,
          path,
          key: `${upper} ${basePath}${path.replace(/\{[^}]*\}/g, '{}')}`,
          label: `${upper} ${basePath}${path}`,
          deprecated: operation.deprecated === true,
          ...(typeof operation['x-sunset'] === 'string' ? { sunset: operation['x-sunset'] } : {}),
          parameters: parametersOf(
            [item.parameters, operation.parameters],
            resolve,
            `${file}: parameter {n} of ${method} ${path}`,
          ),
          ...(operation.requestBody === undefined
            ? {}
            : {
                requestBody: requestBodyOf(
                  operation.requestBody,
                  resolve,
                  `${file}: the request body of ${method} ${path}`,
                ),
              }),
          responses: responsesOf(operation.responses, resolve),
          security: securityOf(operation.security ?? root.security),
        });
      }
    }
  }
  const components = isNode(root.components) ? root.components : {};
  return {
    file,
    operations,
    basePaths: [...new Set(operations.map((operation) => operation.basePath))],
    securitySchemes: isNode(components.securitySchemes) ? components.securitySchemes : {},
    resolve,
  };
}
