// A pact file read and checked up front, before any call to a provider: what petstore-verify cannot
// use (not JSON, nested past reason, an unknown Pact version, a wrong shape, a state it cannot set)
// is said as data, one diagnostic per place, and refused as the consumer's input error (exit 2).
import { readFile } from 'node:fs/promises';
import { duplicateOrderId, orderInputViolations, providerState, type OrderInput } from '../../core/provider-state.js';
import { JsonBoundsScanner } from '../../core/json-bounds-scanner.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { VerifyError } from '../base/errors.js';

/**
 * The codes of what makes a pact file unusable, and what each means (docs/error-codes.md).
 * @example
 * pactDiagnosticCodes['pact-version'] // 'metadata.pactSpecification.version missing, or not a Pact version ...'
 */
export const pactDiagnosticCodes = {
  'pact-unreadable': 'the file cannot be read (missing, a folder, no permission)',
  'pact-not-json': 'the file is empty, or not JSON (a syntax error, a duplicate key with another value)',
  'pact-too-deep':
    'JSON nested more than 64 levels deep, or a number of more than 1,000 digits: refused before parsing',
  'pact-version':
    "metadata.pactSpecification.version missing, or not a Pact version Pact's verifier reads (1.x to 4.x)",
  'pact-shape':
    'a part of the document that is not what a Pact file holds there (an interaction without a request, say)',
  'state-orders':
    "a provider state's orders that the state protocol cannot set: not orders, an int64 beyond its range, or an id held by two orders",
  'state-name': 'a provider state other than the one the state protocol sets ("the store holds orders")',
} as const;

/** A code of `pactDiagnosticCodes`. */
export type PactDiagnosticCode = keyof typeof pactDiagnosticCodes;

/**
 * One thing that makes a pact file unusable, as data: its code, where (a JSON Pointer into the
 * document; `""` is the whole file), and what is wrong there.
 * @example
 * const diagnostic: PactDiagnostic = { code: 'pact-shape', path: '/interactions', message: 'must be a list of interactions, got an object' };
 */
export interface PactDiagnostic {
  code: PactDiagnosticCode;
  path: string;
  message: string;
}

type Json = { [key: string]: JsonValue };

/** A pact document whose shape was checked: its interactions are HTTP interactions with a request and a response. */
export interface PactDocument extends Json {
  interactions: Json[];
}

/** A pact's text checked: the document, or why it cannot be used. */
export type PactCheck = { ok: true; pact: PactDocument } | { ok: false; diagnostics: PactDiagnostic[] };

const bounds = { maxDepth: 64, maxDigits: 1000 };
const knownVersion = /^[1-4](\.[0-9]+){0,2}$/;
// Diagnostics beyond these are not looked for: the first ones are what a user fixes first.
const mostDiagnostics = 20;

const isObject = (value: JsonValue | undefined): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a value is, in a message: `an object`, `a list`, `a string`, `null`... */
function kindOf(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'bigint') return 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Collects diagnostics, with a bound. */
class Diagnostics {
  readonly found: PactDiagnostic[] = [];

  add(code: PactDiagnosticCode, path: string, message: string): void {
    if (this.found.length < mostDiagnostics) this.found.push({ code, path, message });
  }

  /** A shape diagnostic: `path` must be `what`, and got something else. */
  shape(path: string, what: string, value: JsonValue | undefined): void {
    this.add('pact-shape', path, `must be ${what}, got ${kindOf(value)}`);
  }
}

function checkVersion(document: Json, diagnostics: Diagnostics): void {
  const path = '/metadata/pactSpecification/version';
  const metadata = document.metadata;
  const specification = isObject(metadata) ? metadata.pactSpecification : undefined;
  const version = isObject(specification) ? specification.version : undefined;
  if (version === undefined) diagnostics.add('pact-version', path, 'missing: the Pact specification version is needed');
  else if (typeof version !== 'string' || !knownVersion.test(version))
    diagnostics.add(
      'pact-version',
      path,
      `must be a Pact specification version from 1 to 4 (such as "4.0" or "3.0.0"), got ${JSON.stringify(typeof version === 'bigint' ? String(version) : version)}`,
    );
}

function checkParticipants(document: Json, diagnostics: Diagnostics): void {
  for (const role of ['consumer', 'provider'] as const) {
    const participant = document[role];
    if (!isObject(participant) || typeof participant.name !== 'string')
      diagnostics.shape(`/${role}`, `an object with a "name"`, participant);
  }
}

function checkProviderStates(states: JsonValue | undefined, at: string, diagnostics: Diagnostics): void {
  if (states === undefined) return;
  if (!Array.isArray(states)) {
    diagnostics.shape(at, 'a list of provider states', states);
    return;
  }
  states.forEach((state, index) => {
    const path = `${at}/${index}`;
    if (!isObject(state) || typeof state.name !== 'string') {
      diagnostics.shape(path, 'a provider state with a "name"', state);
      return;
    }
    // Any other name is one no provider following the state protocol can set up: the consumer's error,
    // named before any call, not the provider's state URL refusing it.
    if (state.name !== providerState)
      diagnostics.add(
        'state-name',
        `${path}/name`,
        `must be ${JSON.stringify(providerState)}, the one state the state protocol sets, got ${JSON.stringify(state.name)}`,
      );
    if (state.params === undefined) return;
    if (!isObject(state.params)) {
      diagnostics.shape(`${path}/params`, 'an object', state.params);
      return;
    }
    if (state.params.orders === undefined) return;
    const violations = orderInputViolations(state.params.orders, `${path}/params/orders`);
    for (const violation of violations) diagnostics.add('state-orders', violation.path, violation.message);
    // Two orders of one id are refused by the state protocol (the kit's and any store keyed by id): a
    // state no provider can set is the consumer's error, named before any call, never the provider's.
    const duplicate =
      violations.length === 0
        ? duplicateOrderId(state.params.orders as OrderInput[], `${path}/params/orders`)
        : undefined;
    if (duplicate !== undefined) diagnostics.add('state-orders', duplicate.violation.path, duplicate.violation.message);
  });
}

function checkRequest(request: JsonValue | undefined, at: string, diagnostics: Diagnostics): void {
  if (!isObject(request)) {
    diagnostics.shape(at, 'a request (an object with a method and a path)', request);
    return;
  }
  if (typeof request.method !== 'string' || request.method === '')
    diagnostics.shape(`${at}/method`, 'an HTTP method', request.method);
  if (typeof request.path !== 'string' || !request.path.startsWith('/'))
    diagnostics.shape(`${at}/path`, 'a path starting with "/"', request.path);
  if (request.headers !== undefined && !isObject(request.headers))
    diagnostics.shape(`${at}/headers`, 'an object of header fields', request.headers);
}

function checkResponse(response: JsonValue | undefined, at: string, diagnostics: Diagnostics): void {
  if (!isObject(response)) {
    diagnostics.shape(at, 'a response (an object with a status)', response);
    return;
  }
  const { status } = response;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    diagnostics.shape(`${at}/status`, 'an HTTP status from 100 to 599', status);
  if (response.headers !== undefined && !isObject(response.headers))
    diagnostics.shape(`${at}/headers`, 'an object of header fields', response.headers);
}

function checkInteraction(interaction: JsonValue, at: string, diagnostics: Diagnostics): void {
  if (!isObject(interaction)) {
    diagnostics.shape(at, 'an interaction (an object)', interaction);
    return;
  }
  if (typeof interaction.description !== 'string')
    diagnostics.shape(`${at}/description`, 'a description', interaction.description);
  // The kit's interface is HTTP: a message interaction (Pact V4) has no request to send it.
  if (interaction.type !== undefined && interaction.type !== 'Synchronous/HTTP')
    diagnostics.add(
      'pact-shape',
      `${at}/type`,
      `must be "Synchronous/HTTP" (petstore-verify verifies an HTTP interface), got ${JSON.stringify(String(interaction.type))}`,
    );
  if (interaction.providerState !== undefined && typeof interaction.providerState !== 'string')
    diagnostics.shape(`${at}/providerState`, 'the name of a provider state', interaction.providerState);
  checkProviderStates(interaction.providerStates, `${at}/providerStates`, diagnostics);
  checkRequest(interaction.request, `${at}/request`, diagnostics);
  checkResponse(interaction.response, `${at}/response`, diagnostics);
}

/** Parses the text within bounds: the value, or the diagnostic that stops the check. */
function parsed(text: string): { value: JsonValue } | { diagnostic: PactDiagnostic } {
  const breach = new JsonBoundsScanner(bounds).feed(text);
  if (breach !== undefined)
    return {
      diagnostic: {
        code: 'pact-too-deep',
        path: '',
        message:
          breach.bound === 'depth'
            ? `nests arrays and objects more than ${breach.limit} levels deep`
            : `holds a number of more than ${breach.limit} digits`,
      },
    };
  if (text.trim() === '') return { diagnostic: { code: 'pact-not-json', path: '', message: 'is empty' } };
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return {
      diagnostic: {
        code: 'pact-not-json',
        path: '',
        message: `is not JSON: ${(error as Error).message.split('\n')[0]}`,
      },
    };
  }
}

/**
 * Checks a pact file's text as petstore-verify reads it, before any provider is called: valid JSON
 * within bounds, a Pact specification version from 1 to 4, the consumer and provider, HTTP
 * interactions each with a description, a request and a response, provider states whose orders the
 * state protocol can set (ids exact int64). Throws nothing: the diagnostics are data.
 * @example
 * const check = checkPactText('{"interactions":{}}');
 * check.ok // false
 * if (!check.ok) check.diagnostics.map((diagnostic) => diagnostic.path)
 * // ['/metadata/pactSpecification/version', '/consumer', '/provider', '/interactions']
 */
export function checkPactText(text: string): PactCheck {
  const read = parsed(text);
  if ('diagnostic' in read) return { ok: false, diagnostics: [read.diagnostic] };
  const document = read.value;
  if (!isObject(document))
    return {
      ok: false,
      diagnostics: [{ code: 'pact-shape', path: '', message: `must be an object, got ${kindOf(document)}` }],
    };
  const diagnostics = new Diagnostics();
  checkVersion(document, diagnostics);
  checkParticipants(document, diagnostics);
  const { interactions } = document;
  if (!Array.isArray(interactions)) diagnostics.shape('/interactions', 'a list of interactions', interactions);
  else
    for (const [index, interaction] of interactions.entries())
      checkInteraction(interaction, `/interactions/${index}`, diagnostics);
  if (diagnostics.found.length > 0) return { ok: false, diagnostics: diagnostics.found };
  return { ok: true, pact: document as PactDocument };
}

/**
 * A pact file petstore-verify cannot use: a `VerifyError` (code `invalid_consumer_pact`) whose message
 * names the file and the first diagnostic, on one line; `diagnostics` holds them all, as data.
 * @example
 * try { await readPactDocument('pacts/web-app.json'); } catch (error) { if (error instanceof PactFileError) console.log(error.diagnostics); }
 */
export class PactFileError extends VerifyError {
  override name = 'PactFileError';
  readonly file: string;
  readonly diagnostics: readonly PactDiagnostic[];

  constructor(file: string, diagnostics: readonly PactDiagnostic[]) {
    const [first] = diagnostics;
    const where = first === undefined || first.path === '' ? '' : `${first.path}: `;
    const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : '';
    super(
      'invalid_consumer_pact',
      `the pact ${file} cannot be verified: ${where}${first?.message ?? 'unusable'}${more}`,
    );
    this.file = file;
    this.diagnostics = diagnostics;
  }
}

/**
 * Reads and checks a pact file (`checkPactText`).
 * @throws PactFileError (code `invalid_consumer_pact`) when it cannot be read or used.
 * @example
 * const pact = await readPactDocument('pacts/web-app-petstore-order-interface.json');
 * pact.interactions.length // 7
 */
export async function readPactDocument(file: string): Promise<PactDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PactFileError(file, [{ code: 'pact-unreadable', path: '', message: `cannot be read: ${reason}` }]);
  }
  const check = checkPactText(text);
  if (!check.ok) throw new PactFileError(file, check.diagnostics);
  return check.pact;
}

/** Whether a pact "URL" is a file here (checked up front) rather than an http(s) URL Pact's verifier fetches itself. */
export const isLocalPact = (url: string): boolean => !/^https?:/i.test(url);

/**
 * Reads and checks every pact file given (an http(s) URL is left to Pact's verifier), in order.
 * @throws PactFileError for the first that cannot be used.
 * @example
 * await checkPactFiles(['pacts/web-app-petstore-order-interface.json']);
 */
export async function checkPactFiles(files: readonly string[]): Promise<void> {
  for (const file of files) if (isLocalPact(file)) await readPactDocument(file);
}
