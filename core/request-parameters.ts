// The one judge of a request's query and header parameters: the mock answers a call that breaks one
// with its 400 Error, and a definition's behaviour reads the values it gives. What a text is read as
// (Ajv's coercion, decided here rather than left to Ajv's `coerceTypes`) is docs/spec-gaps.md gap 50.
import { schemaValidator } from './schema-validator.js';
import type { Route } from './routes.js';

/**
 * A query or header parameter as the route table holds it (`scripts/generate-spec.mjs` writes OpenAPI's
 * defaults out: a query parameter is `form` and exploded unless it says otherwise, a header `simple`).
 * @example
 * const limit: HeldParameter = { name: 'limit', required: false, schema: { type: 'integer', maximum: 100 }, explode: true };
 */
export interface HeldParameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: unknown;
  readonly explode: boolean;
}

/**
 * A parameter's value once read: an int64 as a `bigint` (whatever its size), another integer or a
 * number as a `number`, a boolean, a text, or a list of them.
 * @example
 * const limit: ParameterValue = 20;
 */
export type ParameterValue = string | number | bigint | boolean | readonly (string | number | bigint | boolean)[];

/**
 * The values of a call's parameters, by where they came and their name; a parameter not sent (and
 * without a default) is not there.
 * @example
 * const values: ParameterValues = { query: { status: 'pending', limit: 20 }, header: {} };
 */
export interface ParameterValues {
  readonly query: Readonly<Record<string, ParameterValue>>;
  readonly header: Readonly<Record<string, ParameterValue>>;
}

/**
 * One parameter a request sent wrong, as data: where (`query` or `header`), its name, what it must be,
 * and what came (the text as sent, or `nothing`).
 * @example
 * const broken: ParameterViolation = { in: 'query', name: 'limit', expected: 'must be <= 100', actual: '"500"' };
 */
export interface ParameterViolation {
  in: 'query' | 'header';
  name: string;
  expected: string;
  actual: string;
}

/** What a request's parameters were read as: their values, or why not. */
export type ParameterReading =
  | { ok: true; values: ParameterValues }
  | { ok: false; violations: readonly ParameterViolation[] };

/** The parts of a request its parameters are read from. */
export interface ParameterSource {
  /**
   * The query string as sent, without its `?` and still percent-encoded (`status=%FF&limit=2`), at the
   * first ask (a route without query parameters never asks): read here, so that a refusal can say what came.
   */
  query(): string;
  headers: { get(name: string): string | null };
}

type Scalar = string | number | bigint | boolean;

const noValues: ParameterValues = Object.freeze({ query: Object.freeze({}), header: Object.freeze({}) });

/** The route's query parameters, typed as what the generated table holds of any route. */
export function queryParametersOf(route: Route): readonly HeldParameter[] {
  return route.query as readonly HeldParameter[];
}

/** The route's header parameters. */
export function headerParametersOf(route: Route): readonly HeldParameter[] {
  return route.requestHeaders as readonly HeldParameter[];
}

/**
 * Reads and judges a call's query and header parameters against its route: each text is read as its
 * schema's declared type only (an integer exactly, an int64 as a `bigint` past 2^53), a list only where
 * the parameter is exploded (repeated) or a comma-joined one, then checked against the whole schema
 * (enum, bounds). A parameter sent twice that is no list, a required one missing and a text that is not
 * its type are violations; a parameter the route does not declare is ignored (gap 50). A route with no
 * such parameter reads nothing.
 * @example
 * readParameters(route, { query: () => 'limit=500', headers: new Headers() })
 * // { ok: false, violations: [{ in: 'query', name: 'limit', expected: 'must be <= 100', actual: '"500"' }] }
 */
export function readParameters(route: Route, source: ParameterSource): ParameterReading {
  const query = queryParametersOf(route);
  const header = headerParametersOf(route);
  if (query.length === 0 && header.length === 0) return { ok: true, values: noValues };
  const violations: ParameterViolation[] = [];
  const queryValues: Record<string, ParameterValue> = {};
  const headerValues: Record<string, ParameterValue> = {};
  if (query.length > 0) {
    const pairs = queryPairs(source.query());
    for (const parameter of query) {
      const sent = pairs.filter((pair) => pair.name === parameter.name);
      readOne(route, 'query', parameter, sent, queryValues, violations);
    }
  }
  for (const parameter of header) {
    const text = source.headers.get(parameter.name);
    readOne(route, 'header', parameter, text === null ? [] : [{ text, sent: text }], headerValues, violations);
  }
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, values: { query: queryValues, header: headerValues } };
}

// A value as read (undefined: its percent-decoded bytes are not UTF-8) and as it came.
interface SentValue {
  text: string | undefined;
  sent: string;
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

// A query string's pairs as `application/x-www-form-urlencoded` reads them (WHATWG URL, as
// URLSearchParams does: `&` between pairs, the first `=` between name and value, `+` a space, `%XX` a
// byte, a `%` without two hex digits kept), except that a value whose bytes are not UTF-8 is kept as
// sent rather than read with U+FFFD in place of them: the refusal says what came (spec gap 58).
function queryPairs(query: string): { name: string; text: string | undefined; sent: string }[] {
  const pairs: { name: string; text: string | undefined; sent: string }[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    const sent = equals === -1 ? '' : pair.slice(equals + 1);
    pairs.push({ name: lenientUtf8.decode(percentDecoded(name)), text: utf8Text(percentDecoded(sent)), sent });
  }
  return pairs;
}

function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const isHexDigit = (byte: number | undefined) =>
  byte !== undefined &&
  ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));

function percentDecoded(text: string): Uint8Array {
  const bytes = utf8.encode(text.replaceAll('+', ' '));
  const decoded = new Uint8Array(bytes.length);
  let length = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index]!;
    if (byte === 0x25 && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])) {
      decoded[length++] = Number.parseInt(String.fromCharCode(bytes[index + 1]!, bytes[index + 2]!), 16);
      index += 2;
    } else decoded[length++] = byte;
  }
  return decoded.subarray(0, length);
}

function readOne(
  route: Route,
  where: 'query' | 'header',
  parameter: HeldParameter,
  given: readonly SentValue[],
  values: Record<string, ParameterValue>,
  violations: ParameterViolation[],
): void {
  const schema = parameter.schema as {
    type?: unknown;
    format?: unknown;
    items?: { type?: unknown; format?: unknown };
    default?: unknown;
  };
  const broken = (expected: string, actual: string) =>
    violations.push({ in: where, name: parameter.name, expected, actual });
  // What came, for a refusal: the values as read, or as sent where one is not UTF-8 once decoded.
  const undecodable = given.filter((value) => value.text === undefined);
  const shown = (undecodable.length > 0 ? given.map((value) => value.sent) : given.map((value) => value.text!)).map(
    (text) => JSON.stringify(text),
  );
  const sent = shown.join(', ');
  if (undecodable.length > 0) return void broken('must be UTF-8 once percent-decoded', sent);
  const texts = given.map((value) => value.text!);
  if (texts.length === 0) {
    if (parameter.required) broken('is required', 'nothing');
    else if (schema.default !== undefined) values[parameter.name] = schema.default as ParameterValue;
    return;
  }
  let value: ParameterValue | undefined;
  if (schema.type === 'array') {
    // Exploded (form): one pair per item; else one text, its items joined by commas (RFC 9110 5.3 for a header).
    const items =
      where === 'query' && parameter.explode
        ? texts
        : texts.flatMap((text) => text.split(',').map((item) => (where === 'header' ? item.trim() : item)));
    const read = items.map((item) => readScalar(schema.items ?? {}, item));
    const wrong = items.find((_, index) => read[index] === undefined);
    if (wrong !== undefined) {
      const canonical = canonicalInteger(schema.items ?? {}, wrong);
      return void broken(
        canonical === undefined
          ? `must be a list of ${pluralOf(schema.items?.type)}`
          : `must be a list of integers, each without leading zeros or -0 (${canonical}, not ${wrong})`,
        sent,
      );
    }
    value = read as Scalar[];
  } else {
    if (texts.length > 1) return void broken('must be given once', sent);
    value = readScalar(schema, texts[0]!);
    if (value === undefined) return void broken(typeWords(schema, texts[0]!), sent);
  }
  const found = schemaValidator(`parameter:${route.method} ${route.path}:${where}:${parameter.name}`, schema)(value);
  const [first] = found;
  if (first !== undefined) return void broken(first.message, sent);
  values[parameter.name] = value;
}

// An integer in its one decimal form: no leading zero, no `+`, no `-0` (spec gap 58).
const integerText = /^(?:0|-?[1-9][0-9]*)$/;
const decimalDigits = /^-?[0-9]+$/;
// JSON's number grammar (RFC 8259, 6): what a number parameter is written as.
const numberText = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * A parameter's text as its schema's declared type, as the mock reads it (spec gaps 50, 58), or
 * undefined when it is not one. An integer is read exactly: an int64 always as a bigint (as a path's
 * id is), another as a number when safe, else a bigint (the checks then bound it); `01` and `-0` are no
 * integer. `petstore-verify compat --pact` reads a pact's query with it, so both agree.
 * @example
 * readScalar({ type: 'integer' }, '20') // 20
 * readScalar({ type: 'integer' }, '020') // undefined
 */
export function readScalar({ type, format }: { type?: unknown; format?: unknown }, text: string): Scalar | undefined {
  switch (type) {
    case 'integer': {
      if (!integerText.test(text)) return undefined;
      const exact = BigInt(text);
      return format !== 'int64' && Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
    }
    case 'number':
      return numberText.test(text) ? Number(text) : undefined;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    default:
      return text;
  }
}

function pluralOf(type: unknown): string {
  return type === 'boolean' ? 'true or false values' : `${String(type)}s`;
}

// The one way to write an integer sent with leading zeros or as -0 (`007` → `7`), for the refusal.
function canonicalInteger(schema: { type?: unknown }, text: string): string | undefined {
  return schema.type === 'integer' && decimalDigits.test(text) ? String(BigInt(text)) : undefined;
}

function typeWords(schema: { type?: unknown }, text: string): string {
  const canonical = canonicalInteger(schema, text);
  if (canonical !== undefined) return `must be an integer written as ${canonical}, without leading zeros or -0`;
  if (schema.type === 'integer') return 'must be an integer';
  if (schema.type === 'number') return 'must be a number';
  if (schema.type === 'boolean') return 'must be true or false';
  return `must be a ${String(schema.type)}`;
}

/**
 * The first violation as the sentence of the mock's 400 Error, and how many more there are.
 * @example
 * parameterMessage([{ in: 'query', name: 'limit', expected: 'must be <= 100', actual: '"500"' }])
 * // 'The query parameter limit must be <= 100; got "500".'
 */
export function parameterMessage(violations: readonly ParameterViolation[]): string {
  const [first] = violations;
  if (first === undefined) return 'No parameter is wrong.';
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
  return `The ${first.in} parameter ${first.name} ${first.expected}; got ${first.actual}${more}.`;
}
