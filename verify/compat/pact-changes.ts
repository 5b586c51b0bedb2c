import { dateTimeFormat } from '../../core/date-time-format.js';
import { int64Maximum, int64Minimum } from '../../core/int64.js';
import type { JsonValue } from '../../core/parse-json.js';
import { readScalar } from '../../core/request-parameters.js';
import { sameJson } from '../../core/same-json.js';
import {
  type ApiDocument,
  type ApiOperation,
  type ApiParameter,
  type ApiResponse,
  isNode,
  type Node,
} from './api-document.js';
import { CompatError } from './compat-error.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { mergedSchema } from './merged-schema.js';
import { isMultipleOf } from './multiple-of.js';
import type { CompatRuleId } from './compat-rules.js';
import type { PactToCheck, InteractionToCheck } from './consumer-pact-file.js';
import { allowsNull, compareNumbers, describeType, enumOf, typesOf } from './schema-changes.js';

const formatRanges: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [int64Minimum, int64Maximum],
};

function shown(value: JsonValue): string {
  if (typeof value === 'bigint') return value.toString();
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function jsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) return 'integer';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function integerOf(value: JsonValue): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
}

// A pact of many interactions meets the same few patterns again and again: each is compiled once.
const compiledPatterns = new Map<string, RegExp>();

/** Whether a text matches a schema's pattern, read as JSON Schema reads it: an ECMA-262 regular expression, unanchored, in Unicode mode (as Ajv compiles it). */
function matches(pattern: string, text: string, file: string): boolean {
  let expression = compiledPatterns.get(pattern);
  if (expression !== undefined) return expression.test(text);
  try {
    expression = new RegExp(pattern, 'u');
    compiledPatterns.set(pattern, expression);
  } catch (error) {
    // A pattern no value can be judged against is a document the check cannot read, never a pass.
    throw new CompatError(
      'invalid_document',
      `${file}: the pattern ${pattern} is no regular expression: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return expression.test(text);
}

/** Why a value is not one the schema takes: the rule and the words, `undefined` when it is. */
function refusal(value: JsonValue, schema: Node, file: string): { code: CompatRuleId; expected: string } | undefined {
  if (value === null) return allowsNull(schema) ? undefined : { code: 'pact-value-refused', expected: 'not null' };
  const types = typesOf(schema);
  const type = jsonType(value);
  if (types !== undefined && !types.includes(type) && !(type === 'integer' && types.includes('number'))) {
    return { code: 'pact-field-type-changed', expected: describeType(schema) };
  }
  const integer = integerOf(value);
  const range = typeof schema.format === 'string' ? formatRanges[schema.format] : undefined;
  if (range !== undefined && integer !== undefined && (integer < range[0] || integer > range[1])) {
    return { code: 'pact-field-type-changed', expected: describeType(schema) };
  }
  if (schema.format === 'date-time' && typeof value === 'string' && !dateTimeFormat.validate(value)) {
    return { code: 'pact-field-type-changed', expected: describeType(schema) };
  }
  const values = enumOf(schema);
  if (values !== undefined && !values.some((allowed) => sameJson(allowed, value))) {
    return { code: 'pact-value-refused', expected: `one of ${values.map(shown).join(', ')}` };
  }
  // Exactly: an int64 past 2^53 is a bigint in the body and in the document, and a number would round it.
  const number = typeof value === 'number' || typeof value === 'bigint' ? value : undefined;
  const beyond = (bound: unknown, above: boolean, exclusive: boolean): boolean => {
    if (number === undefined || (typeof bound !== 'number' && typeof bound !== 'bigint')) return false;
    const order = compareNumbers(number, bound) * (above ? 1 : -1);
    return exclusive ? order >= 0 : order > 0;
  };
  const bounds: [string, boolean][] = [
    ['maximum', beyond(schema.maximum, true, false)],
    ['exclusiveMaximum', beyond(schema.exclusiveMaximum, true, true)],
    ['minimum', beyond(schema.minimum, false, false)],
    ['exclusiveMinimum', beyond(schema.exclusiveMinimum, false, true)],
    [
      'maxLength',
      typeof value === 'string' && typeof schema.maxLength === 'number' && [...value].length > schema.maxLength,
    ],
    [
      'minLength',
      typeof value === 'string' && typeof schema.minLength === 'number' && [...value].length < schema.minLength,
    ],
    ['maxItems', Array.isArray(value) && typeof schema.maxItems === 'number' && value.length > schema.maxItems],
    ['minItems', Array.isArray(value) && typeof schema.minItems === 'number' && value.length < schema.minItems],
    [
      'multipleOf',
      number !== undefined &&
        (typeof schema.multipleOf === 'number' || typeof schema.multipleOf === 'bigint') &&
        !isMultipleOf(number, schema.multipleOf),
    ],
    [
      'pattern',
      typeof value === 'string' && typeof schema.pattern === 'string' && !matches(schema.pattern, value, file),
    ],
  ];
  const broken = bounds.find(([, outside]) => outside);
  if (broken !== undefined)
    return { code: 'pact-value-refused', expected: `${broken[0]} ${String(schema[broken[0]])}` };
  return undefined;
}

/** A path parameter or a query value (text on the wire) as the JSON value its schema's type reads it as. */
function wireValue(text: string, schema: Node): JsonValue {
  const types = typesOf(schema) ?? [];
  // Read as the mock reads it (core's reader): a text no declared type takes stays a text, refused by the type.
  for (const type of ['integer', 'number', 'boolean'] as const) {
    const read = types.includes(type) ? readScalar({ type, format: schema.format }, text) : undefined;
    if (read !== undefined) return typeof read === 'number' && type === 'integer' ? BigInt(read) : read;
  }
  return text;
}

/**
 * Why a parameter's texts are not a value its schema takes, read as the kit's mock reads them (spec gap
 * 50): a list from the name repeated where it is exploded (a query's default) or from one comma-joined
 * text, each item as the items' type; anything else given once.
 */
function parameterRefusal(
  context: Context,
  parameter: ApiParameter,
  schema: Node,
  texts: readonly string[],
): { expected: string } | undefined {
  if (typesOf(schema)?.includes('array')) {
    const items = parameter.in === 'query' && parameter.explode ? texts : texts.flatMap((text) => text.split(','));
    const resolved = context.document.resolve(schema.items);
    const itemSchema = isNode(resolved) ? resolved : {};
    const values = items.map((item) => wireValue(item, itemSchema));
    return (
      refusal(values, schema, context.document.file) ??
      values.map((value) => refusal(value, itemSchema, context.document.file)).find((why) => why !== undefined)
    );
  }
  if (texts.length > 1) return { expected: 'one value' };
  return refusal(wireValue(texts[0]!, schema), schema, context.document.file);
}

interface Context {
  document: ApiDocument;
  pact: PactToCheck;
  interaction: InteractionToCheck;
  operation: string;
  findings: CompatFinding[];
}

function note(context: Context, code: CompatRuleId, path: string, expected: string, actual: string): void {
  const { pact, interaction, operation } = context;
  context.findings.push(
    compatFinding(code, {
      operation,
      path,
      expected,
      actual,
      consumer: pact.consumer,
      interaction: interaction.description,
    }),
  );
}

/** The body's values against the new schema, field by field. */
function checkValue(context: Context, value: JsonValue, rawSchema: unknown, path: string): void {
  const raw = context.document.resolve(rawSchema);
  if (!isNode(raw)) return;
  // An allOf (v2's OrderWithStatus over v1's Order) is one object: its fields are the members'.
  const resolved = mergedSchema(raw, context.document.resolve);
  const why = refusal(value, resolved, context.document.file);
  if (why !== undefined) {
    note(context, why.code, path, why.expected, shown(value));
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkValue(context, item, resolved.items, `${path}/${index}`);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const properties = isNode(resolved.properties) ? resolved.properties : undefined;
  for (const [name, field] of Object.entries(value)) {
    if (properties === undefined) continue;
    if (!Object.hasOwn(properties, name)) {
      note(
        context,
        'pact-field-removed',
        `${path}/${name}`,
        `the field ${name} in the response schema`,
        'no such field',
      );
      continue;
    }
    checkValue(context, field, properties[name], `${path}/${name}`);
  }
}

/** A field a matching rule names, which the example body may not hold: still in the schema? */
function checkRulePath(context: Context, segments: string[], rawSchema: unknown, body: JsonValue | undefined): void {
  let schema = context.document.resolve(rawSchema);
  let value: JsonValue | undefined = body;
  const walked: string[] = [];
  for (const segment of segments) {
    if (!isNode(schema)) return;
    const object = mergedSchema(schema, context.document.resolve);
    if (segment === '[*]') {
      schema = context.document.resolve(object.items);
      value = Array.isArray(value) ? value[0] : undefined;
      walked.push('[]');
      continue;
    }
    const properties = isNode(object.properties) ? object.properties : undefined;
    if (segment === '*' || properties === undefined) return;
    walked.push(segment);
    // A field the example holds is judged with its value already.
    const held = isNode(value) && Object.hasOwn(value, segment);
    if (!Object.hasOwn(properties, segment)) {
      if (!held) {
        note(
          context,
          'pact-field-removed',
          `/response/body/${walked.join('/')}`,
          `the field ${segment} its matching rules name`,
          'no such field',
        );
      }
      return;
    }
    schema = context.document.resolve(properties[segment]);
    value = held ? (value as Record<string, JsonValue>)[segment] : undefined;
  }
}

function templateMatch(operation: ApiOperation, method: string, path: string): Map<string, string> | undefined {
  if (operation.method !== method) return undefined;
  const expected = `${operation.basePath}${operation.path}`.split('/');
  const actual = path.split('?')[0]!.split('/');
  if (expected.length !== actual.length) return undefined;
  const parameters = new Map<string, string>();
  for (const [index, part] of expected.entries()) {
    const sent = actual[index]!;
    const name = /^\{([^}]*)\}$/.exec(part)?.[1];
    if (name !== undefined) {
      if (sent === '') return undefined;
      parameters.set(name, decodeURIComponent(sent));
    } else if (part !== sent) return undefined;
  }
  return parameters;
}

/** The response documented for a status (exactly, by its class `4XX`, or `default`); a class a matcher accepts (`2XX`) takes any of it. */
function documentedResponse(operation: ApiOperation, status: number | string): ApiResponse | undefined {
  const text = String(status);
  const { responses } = operation;
  const ofClass = /^\dXX$/.test(text)
    ? [...responses.values()].find((response) => response.status[0] === text[0])
    : undefined;
  return responses.get(text) ?? responses.get(`${text[0]}XX`) ?? ofClass ?? responses.get('default');
}

/**
 * The response headers a pact interaction expects, against those its status documents: one the
 * document does not declare is a warning (a provider following it need not send it); one it declares
 * has its value judged by the header's schema, unless a matching rule makes the value an example.
 */
function checkResponseHeaders(context: Context, interaction: InteractionToCheck, response: ApiResponse): void {
  for (const [name, values] of interaction.responseHeaders) {
    // The media type is judged by its own rule; a header's text is judged once, its first value.
    if (name === 'content-type' || values[0] === undefined) continue;
    const path = `/response/headers/${name}`;
    const documented = response.headers.get(name);
    if (documented === undefined) {
      note(context, 'pact-header-undocumented', path, `the header ${name} documented for its status`, 'no such header');
      continue;
    }
    const schema = context.document.resolve(documented.schema);
    if (interaction.matchedHeaders.has(name) || !isNode(schema)) continue;
    const why = refusal(wireValue(values[0], schema), schema, context.document.file);
    if (why !== undefined) note(context, why.code, path, why.expected, JSON.stringify(values[0]));
  }
}

/** Whether a response's `content` documents a media type: by name (parameters aside), or by a range (`application/*`, any type). */
function documentsMediaType(media: ReadonlyMap<string, unknown>, type: string): boolean {
  const [kind] = type.split('/');
  return [...media.keys()].some((key) => {
    const documented = key.split(';')[0]!.trim();
    return documented === type || documented === `${kind}/*` || documented === '*/*';
  });
}

function credentialsMet(context: Context, operation: ApiOperation): boolean {
  const { interaction, document } = context;
  const has = (scheme: string): boolean => {
    const definition = document.resolve(document.securitySchemes[scheme]);
    if (!isNode(definition)) return true;
    if (definition.type === 'apiKey' && typeof definition.name === 'string') {
      if (definition.in === 'query') return interaction.query.has(definition.name);
      if (definition.in === 'cookie')
        return (interaction.headers.get('cookie') ?? []).some((cookie) => cookie.includes(`${definition.name}=`));
      return interaction.headers.has(definition.name.toLowerCase());
    }
    const authorization = interaction.headers.get('authorization')?.[0];
    if (authorization === undefined) return false;
    if (definition.type === 'http' && typeof definition.scheme === 'string') {
      return authorization.toLowerCase().startsWith(`${definition.scheme.toLowerCase()} `);
    }
    return true;
  };
  return operation.security.length === 0 || operation.security.some((alternative) => alternative.every(has));
}

function checkRequest(context: Context, operation: ApiOperation, pathValues: Map<string, string>): void {
  const { interaction } = context;
  // An interaction that expects a client error (the 400 of a bad parameter, the 401 a provider answers
  // before reading any) states the refusal: a parameter the document refuses is what it tests, not a
  // request the change broke. Only one that expects success is broken by a refusal, as by credentials.
  const expectsSuccess = interaction.statuses.every((status) => Number(String(status)[0]) < 4);
  for (const parameter of operation.parameters) {
    if (!expectsSuccess) break;
    const schema = context.document.resolve(parameter.schema);
    const first = (texts: readonly string[] | undefined) => (texts?.[0] === undefined ? [] : [texts[0]]);
    const pathValue = pathValues.get(parameter.name);
    const texts =
      parameter.in === 'path'
        ? pathValue === undefined
          ? []
          : [pathValue]
        : parameter.in === 'query'
          ? (interaction.query.get(parameter.name) ?? [])
          : parameter.in === 'header'
            ? first(interaction.headers.get(parameter.name))
            : [];
    const path = `/request/${parameter.in}/${parameter.name}`;
    if (texts.length === 0) {
      if (parameter.required && parameter.in !== 'cookie') {
        note(
          context,
          'pact-parameter-refused',
          path,
          `the required ${parameter.in} parameter ${parameter.name}`,
          'none sent',
        );
      }
      continue;
    }
    if (!isNode(schema)) continue;
    const sent = texts.map((text) => JSON.stringify(text)).join(', ');
    const why = parameterRefusal(context, parameter, schema, texts);
    if (why !== undefined) note(context, 'pact-parameter-refused', path, why.expected, sent);
  }
  const declared = new Set(
    operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
  );
  for (const name of interaction.query.keys()) {
    if (!declared.has(name))
      note(
        context,
        'pact-parameter-unknown',
        `/request/query/${name}`,
        'a query parameter the operation declares',
        name,
      );
  }
  if (expectsSuccess && !credentialsMet(context, operation)) {
    const needed = operation.security.map((alternative) => alternative.join(' and ')).join(', or ');
    note(context, 'pact-security-unmet', '/request/headers', `the credentials of ${needed}`, 'none sent');
  }
}

/**
 * Checks every interaction of a consumer's pact against the documents a provider serves (the new one,
 * and any served beside it: another major): its method and path still an operation (at a base path a
 * document serves), a status it accepts still documented, its request still accepted (required
 * parameters, values, credentials), and each field its body holds or its matching rules name still in
 * the response schema with a value of its type. Each finding names the consumer and the interaction's
 * description.
 * @example
 * const findings = checkPact([await readApiDocument('changed.yaml')], await readConsumerPact('contracts/pacts/web-app-petstore.json'));
 */
export function checkPact(documents: readonly ApiDocument[], pact: PactToCheck): CompatFinding[] {
  const findings: CompatFinding[] = [];
  for (const interaction of pact.interactions) {
    const where = { pact, interaction, findings, operation: `${interaction.method} ${interaction.path}` };
    let matched: { document: ApiDocument; operation: ApiOperation; values: Map<string, string> } | undefined;
    for (const document of documents) {
      for (const operation of document.operations) {
        const values = templateMatch(operation, interaction.method, interaction.path);
        // A concrete path wins over a template that also matches (OpenAPI's rule): fewer parameters first.
        if (values !== undefined && (matched === undefined || values.size < matched.values.size)) {
          matched = { document, operation, values };
        }
      }
    }
    if (matched === undefined) {
      note(
        { ...where, document: documents[0]! },
        'pact-operation-removed',
        '/request',
        'an operation for this method and path',
        'none in the new document',
      );
      continue;
    }
    const { operation, document } = matched;
    const context = { ...where, document, operation: operation.label };
    checkRequest(context, operation, matched.values);
    const response = interaction.statuses
      .map((status) => documentedResponse(operation, status))
      .find((found) => found !== undefined);
    if (response === undefined) {
      note(
        context,
        'pact-status-undocumented',
        '/response/status',
        `the status ${interaction.statuses.join(' or ')}`,
        `only ${[...operation.responses.keys()].join(', ')}`,
      );
      continue;
    }
    if (!response.hasBody) {
      if (interaction.body !== undefined) {
        note(context, 'pact-field-removed', '/response/body', 'a JSON body documented for its status', 'none');
      }
      continue;
    }
    const mediaType = interaction.mediaType;
    if (mediaType !== undefined && !documentsMediaType(response.media, mediaType)) {
      note(
        context,
        'pact-media-type-undocumented',
        '/response/headers/content-type',
        `the media type ${mediaType} documented for its status`,
        `only ${[...response.media.keys()].join(', ')}`,
      );
    }
    checkResponseHeaders(context, interaction, response);
    if (interaction.body !== undefined) checkValue(context, interaction.body, response.schema, '/response/body');
    for (const segments of interaction.rulePaths) checkRulePath(context, segments, response.schema, interaction.body);
  }
  return findings;
}
