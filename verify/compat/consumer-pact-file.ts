import { type JsonValue, parseJson } from '../../core/parse-json.js';
import { isNode, type Node, readJsonOrYaml } from './api-document.js';
import { CompatError } from './compat-error.js';

/** One HTTP interaction of a consumer's pact, as the compatibility check reads it. */
export interface InteractionToCheck {
  description: string;
  method: string;
  /** The path as sent, base path included: `/v1/store/orders/1`. */
  path: string;
  query: Map<string, string[]>;
  /** Header names in lower case. */
  headers: Map<string, string[]>;
  /** The statuses the interaction accepts: its own, or those of a `statusCode` matcher. */
  statuses: (number | string)[];
  /**
   * The media type its response states (its Content-Type, else a V4 body's `contentType`), lower case
   * and without parameters; `undefined` when it states none, or a matching rule makes the header a pattern.
   */
  mediaType?: string;
  /** The response headers it expects, by lower-case name. */
  responseHeaders: Map<string, string[]>;
  /** The response headers its matching rules judge (by a pattern, a type): their values are examples. */
  matchedHeaders: Set<string>;
  /** The response body's JSON, `undefined` when it has none. */
  body: JsonValue | undefined;
  /** The body paths its matching rules name (`[*]`, then a field): what it relies on beyond the example. */
  rulePaths: string[][];
}

/** A consumer's pact read for the compatibility check. */
export interface PactToCheck {
  file: string;
  consumer: string;
  provider: string;
  interactions: InteractionToCheck[];
}

function refused(file: string, why: string): CompatError {
  return new CompatError('invalid_pact', `${file}: not a Pact file: ${why}`);
}

function valuesOf(raw: unknown, lower: boolean): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (typeof raw === 'string') {
    // Pact V2 writes the query as a string.
    for (const [name, value] of new URLSearchParams(raw)) found.set(name, [...(found.get(name) ?? []), value]);
    return found;
  }
  if (!isNode(raw)) return found;
  for (const [name, value] of Object.entries(raw)) {
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    found.set(lower ? name.toLowerCase() : name, values);
  }
  return found;
}

function bodyOf(raw: unknown): JsonValue | undefined {
  if (raw === undefined || raw === null) return undefined;
  // Pact V4 wraps the body: { content, contentType, encoded }.
  if (isNode(raw) && 'content' in raw && ('contentType' in raw || 'encoded' in raw)) {
    if (raw.encoded !== undefined && raw.encoded !== false && raw.encoded !== 'json') return undefined;
    const content = raw.content;
    if (typeof content === 'string' && /json/i.test(String(raw.contentType ?? ''))) {
      try {
        return parseJson(content);
      } catch {
        return content;
      }
    }
    return content as JsonValue;
  }
  return raw as JsonValue;
}

/** The response headers a matching rule judges, by lower-case name (V3/V4 `header`, V2 `$.headers.X`). */
function matchedHeadersOf(response: Node): Set<string> {
  const rules = isNode(response.matchingRules) ? response.matchingRules : {};
  const names = Object.keys(isNode(rules.header) ? rules.header : {});
  for (const key of Object.keys(rules)) if (key.startsWith('$.headers.')) names.push(key.slice('$.headers.'.length));
  return new Set(names.map((name) => name.toLowerCase()));
}

function mediaTypeOf(response: Node): string | undefined {
  const headers = valuesOf(response.headers, true);
  // A Content-Type a matcher judges by a pattern: its example is one value of many, not what is relied on.
  if (matchedHeadersOf(response).has('content-type')) return undefined;
  const body = response.body;
  const stated =
    headers.get('content-type')?.[0] ??
    (isNode(body) && typeof body.contentType === 'string' ? body.contentType : undefined);
  const essence = stated?.split(';')[0]?.trim().toLowerCase();
  return essence === '' ? undefined : essence;
}

const statusClasses: Record<string, string> = {
  information: '1XX',
  success: '2XX',
  redirect: '3XX',
  clientError: '4XX',
  serverError: '5XX',
  nonError: '2XX',
  error: '4XX',
};

function statusesOf(response: Node): (number | string)[] {
  const rules = isNode(response.matchingRules) ? response.matchingRules : {};
  const status = isNode(rules.status) ? rules.status : {};
  const root = isNode(status.$) ? status.$ : {};
  for (const matcher of Array.isArray(root.matchers) ? root.matchers : []) {
    if (isNode(matcher) && matcher.match === 'statusCode') {
      const listed = Array.isArray(matcher.status) ? matcher.status : [matcher.status];
      return listed.map((one) => (typeof one === 'string' ? (statusClasses[one] ?? one) : Number(one)));
    }
  }
  return [Number(response.status)];
}

/**
 * A matching rule's path as segments: `[*]` for any item (or an index), else a field's name;
 * `undefined` for a path it cannot read.
 * @example
 * rulePathSegments('$.items[*].id') // ['items', '[*]', 'id']
 */
export function rulePathSegments(path: string): string[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: string[] = [];
  const pattern = /\.([^.[\]]+)|\[(\*|\d+)\]|\['([^']*)'\]/gy;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) return undefined;
    segments.push(match[1] ?? (match[2] !== undefined ? '[*]' : match[3]!));
  }
  return segments;
}

function rulePathsOf(response: Node, v2: boolean): string[][] {
  const rules = isNode(response.matchingRules) ? response.matchingRules : {};
  const paths: string[][] = [];
  const collect = (table: unknown, prefix: string[]) => {
    if (!isNode(table)) return;
    for (const [key, rule] of Object.entries(table)) {
      const segments = rulePathSegments(key);
      if (segments === undefined) continue;
      const at = [...prefix, ...segments];
      if (at.length > 0) paths.push(at);
      // arrayContains: each variant's rules are relative to an item of the array.
      for (const matcher of isNode(rule) && Array.isArray(rule.matchers) ? rule.matchers : []) {
        for (const variant of isNode(matcher) && Array.isArray(matcher.variants) ? matcher.variants : []) {
          if (isNode(variant)) collect(variant.rules, [...at, '[*]']);
        }
      }
    }
  };
  if (v2) {
    // Pact V2 keys its rules by `$.body...` at the top of matchingRules.
    const body = Object.fromEntries(
      Object.entries(rules)
        .filter(([key]) => key.startsWith('$.body'))
        .map(([key, rule]) => [`$${key.slice('$.body'.length)}`, rule]),
    );
    collect(body, []);
  } else collect(rules.body, []);
  return paths;
}

/**
 * Reads a consumer's Pact file (V2 to V4, as the kit and Pact's DSL write them): its consumer and each
 * HTTP interaction's request, accepted statuses, body and matching rules' paths. A file that is not a
 * pact is refused with `invalid_pact` naming what is missing; one that cannot be read `unreadable_document`.
 * @example
 * const pact = await readConsumerPact('contracts/pacts/petstore-order-client-petstore-order-interface.json');
 * pact.consumer // 'petstore-order-client'
 */
export async function readConsumerPact(file: string): Promise<PactToCheck> {
  let document: unknown;
  try {
    document = await readJsonOrYaml(file, 'pact');
  } catch (error) {
    if ((error as CompatError).code === 'invalid_document') throw refused(file, 'not JSON');
    throw error;
  }
  if (!isNode(document)) throw refused(file, 'not a JSON object');
  const consumer = isNode(document.consumer) ? document.consumer.name : undefined;
  if (typeof consumer !== 'string' || consumer === '') throw refused(file, 'no consumer name (consumer.name)');
  const provider =
    isNode(document.provider) && typeof document.provider.name === 'string' ? document.provider.name : '';
  if (!Array.isArray(document.interactions)) throw refused(file, 'no interactions list');
  const metadata = isNode(document.metadata) ? document.metadata : {};
  const specification = isNode(metadata.pactSpecification) ? metadata.pactSpecification.version : undefined;
  const v2 = typeof specification === 'string' && specification.startsWith('2');
  const interactions = document.interactions.map((raw, index): InteractionToCheck => {
    const at = `interaction ${index}`;
    if (!isNode(raw)) throw refused(file, `${at} is not an object`);
    const { request, response } = raw;
    if (!isNode(request) || typeof request.method !== 'string' || typeof request.path !== 'string') {
      throw refused(file, `${at} has no request method and path`);
    }
    if (!isNode(response) || !Number.isInteger(Number(response.status)))
      throw refused(file, `${at} has no response status`);
    return {
      description: typeof raw.description === 'string' ? raw.description : at,
      method: request.method.toUpperCase(),
      path: request.path,
      query: valuesOf(request.query, false),
      headers: valuesOf(request.headers, true),
      statuses: statusesOf(response),
      ...(mediaTypeOf(response) === undefined ? {} : { mediaType: mediaTypeOf(response) }),
      responseHeaders: valuesOf(response.headers, true),
      matchedHeaders: matchedHeadersOf(response),
      body: bodyOf(response.body),
      rulePaths: rulePathsOf(response, v2),
    };
  });
  return { file, consumer, provider, interactions };
}
