import { toInt64 } from '../mocks/int64.js';
import { parseJson, stringifyJson, type JsonValue } from '../mocks/json.js';
import type { BodySchemaName, ScenarioId, ScenarioStep } from '../mocks/scenarios.js';
import { openApiDocument, orderInt64Fields, schemaReference, schemaValidator } from '../mocks/spec.js';

/**
 * One way a response breaks the contract or a scenario: where (a JSON Pointer into the body, or a
 * header or `status`), and what was expected and what came. Advisory findings are the kit's own
 * decisions where the specification is open: warnings unless the run is strict.
 */
export interface Finding {
  path: string;
  message: string;
  advisory?: boolean;
}

/** A response as the harness saw it. */
export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
}

type ResponseObject = { $ref?: string; content?: Record<string, { schema: object }> };
type OperationObject = { responses: Record<string, ResponseObject> };

interface OperationMatch {
  template: string;
  operation: OperationObject;
}

const operations = Object.entries(openApiDocument.paths).flatMap(([template, item]) =>
  Object.entries(item as Record<string, OperationObject>).map(([method, operation]) => ({
    method: method.toUpperCase(),
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    template,
    operation,
  })),
);

/** The operation of the document a request is for, if any. */
export function findOperation(method: string, path: string): OperationMatch | undefined {
  const pathname = path.split('?')[0]!;
  const found = operations.find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
  return found && { template: found.template, operation: found.operation };
}

// Turns the document's local references (#/components/...) into references into the Ajv copy (oas#/...).
function intoDocument(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(intoDocument);
  if (schema !== null && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `oas${value}` : intoDocument(value)]),
    );
  }
  return schema;
}

function resolveResponse(response: ResponseObject): ResponseObject {
  if (response.$ref === undefined) return response;
  const [, , name] = response.$ref.split('/').slice(1);
  return (openApiDocument.components.responses as Record<string, ResponseObject>)[name!]!;
}

const bodySchemas: Record<BodySchemaName, object> = {
  'Order[]': { type: 'array', items: { $ref: schemaReference('Order') } },
  Error: { $ref: schemaReference('Error') },
  Pet: { $ref: schemaReference('Pet') },
};

function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = stringifyJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function schemaFindings(key: string, schema: object, body: JsonValue, isOrderList: boolean): Finding[] {
  const findings = schemaValidator(key, schema)(body).map(({ path, message }) => ({
    path,
    message: `expected ${message.replace(/^must (be )?/, '').replace(/^is /, '')}, got ${preview(valueAt(body, path))}`,
  }));
  if (findings.length === 0 && isOrderList && Array.isArray(body)) {
    body.forEach((order, index) => {
      for (const field of orderInt64Fields) {
        const value = (order as Record<string, unknown>)[field];
        if (value !== undefined && toInt64(value) === undefined) {
          findings.push({ path: `/${index}/${field}`, message: `expected an int64, got ${preview(value)}` });
        }
      }
    });
  }
  return findings;
}

function sameId(left: unknown, right: ScenarioId): boolean {
  return (typeof left === 'number' || typeof left === 'bigint') && BigInt(left) === BigInt(right);
}

function listFindings(body: JsonValue | undefined, ids: readonly ScenarioId[], mustBeListed: boolean, advisory: boolean): Finding[] {
  if (!Array.isArray(body)) return ids.length > 0 ? [{ path: '', message: `expected a list to look ids up in, got ${preview(body)}`, advisory }] : [];
  const listed = body.map((order) => (order !== null && typeof order === 'object' && !Array.isArray(order) ? order.id : undefined));
  return ids
    .filter((id) => listed.some((candidate) => sameId(candidate, id)) !== mustBeListed)
    .map((id) => ({
      path: '',
      message: `expected order ${id} ${mustBeListed ? 'in' : 'not in'} the list, got ids [${listed.map((candidate) => preview(candidate)).join(', ')}]`,
      advisory,
    }));
}

/**
 * Checks one response against the specification and against the step's expectations: the status
 * is documented and expected; a documented body is present, JSON, `application/json` and valid
 * against the spec's schema (int64 ids exact); a 204 has no body; an undocumented 409 body, if
 * any, is an Error record; an Error record's `status` is the HTTP status; listed ids, headers.
 * @example
 * checkResponse(step, { status: 204, headers: new Headers(), text: '' }) // []
 */
export function checkResponse(step: ScenarioStep, response: ObservedResponse): Finding[] {
  const findings: Finding[] = [];
  const { method, path } = step.request;
  const match = findOperation(method, path);
  const expected = Array.isArray(step.expect.status) ? step.expect.status : [step.expect.status];
  if (!expected.includes(response.status)) {
    findings.push({ path: 'status', message: `expected status ${expected.join(' or ')}, got ${response.status}` });
  }
  const documented = match ? Object.keys(match.operation.responses).map(Number) : [];
  const specResponse = match?.operation.responses[String(response.status)];
  if (match && specResponse === undefined) {
    findings.push({ path: 'status', message: `expected a status ${method} ${match.template} documents (${documented.join(', ')}), got ${response.status}` });
  }

  const hasBody = response.text.length > 0;
  const contentType = response.headers.get('content-type');
  let body: JsonValue | undefined;
  let parsed = false;
  const parsedBody = (): JsonValue | undefined => {
    if (parsed) return body;
    parsed = true;
    if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) {
      findings.push({ path: 'content-type', message: `expected content-type application/json, got ${contentType ?? 'none'}` });
    }
    try {
      body = parseJson(response.text);
    } catch {
      findings.push({ path: '', message: `expected a JSON body, got ${JSON.stringify(response.text.slice(0, 40))}` });
    }
    return body;
  };

  const validated = new Set<string>();
  const validate = (name: string, schema: object, isOrderList: boolean) => {
    const value = parsedBody();
    if (value === undefined || validated.has(name)) return;
    validated.add(name);
    findings.push(...schemaFindings(name, schema, value, isOrderList));
  };

  if (specResponse !== undefined) {
    const content = resolveResponse(specResponse).content?.['application/json'];
    if (content !== undefined) {
      if (!hasBody) findings.push({ path: '', message: `expected a JSON body for ${response.status}, got none` });
      else validate(`response ${method} ${match!.template} ${response.status}`, intoDocument(content.schema) as object, response.status === 200 && match!.template === '/store/orders');
    } else if (hasBody) {
      if (response.status === 204) findings.push({ path: '', message: `expected no body with 204, got ${response.text.length} bytes` });
      // A body the specification does not show (the 409) may be absent; present, it is an Error record.
      else validate('Error', bodySchemas.Error, false);
    }
  }

  // A 204 cannot carry content (RFC 9110 §15.3.5): HTTP clients drop whatever bytes follow it, so
  // what betrays a body is its framing, a Content-Length above zero or a Transfer-Encoding.
  if (response.status === 204 && !hasBody) {
    const length = response.headers.get('content-length');
    if (length !== null && length.trim() !== '0') findings.push({ path: 'content-length', message: `expected no body with 204, got content-length ${length}` });
    const encoding = response.headers.get('transfer-encoding');
    if (encoding !== null) findings.push({ path: 'transfer-encoding', message: `expected no body with 204, got transfer-encoding ${encoding}` });
  }

  const expectedBody = step.expect.body;
  if (expectedBody === 'none' && hasBody && response.status !== 204) {
    findings.push({ path: '', message: `expected no body, got ${response.text.length} bytes` });
  } else if (expectedBody !== undefined && expectedBody !== 'none') {
    if (!hasBody && !expectedBody.optional) findings.push({ path: '', message: `expected a body matching ${expectedBody.schema}, got none` });
    if (hasBody) validate(expectedBody.schema === 'Error' ? 'Error' : `scenario ${expectedBody.schema}`, bodySchemas[expectedBody.schema], expectedBody.schema === 'Order[]');
  }

  if (body !== undefined && validated.has('Error') && typeof body === 'object' && body !== null && !Array.isArray(body) && body.status !== response.status) {
    const given = body.status;
    if (typeof given === 'number' || typeof given === 'bigint') {
      findings.push({ path: '/status', message: `expected the Error record's status to be the HTTP status ${response.status}, got ${given}` });
    }
  }
  if ((step.expect.listed ?? step.expect.notListed ?? step.expect.advisory) && hasBody) parsedBody();
  findings.push(...listFindings(body, step.expect.listed ?? [], true, false));
  findings.push(...listFindings(body, step.expect.notListed ?? [], false, false));
  findings.push(...listFindings(body, step.expect.advisory?.listed ?? [], true, true));
  findings.push(...listFindings(body, step.expect.advisory?.notListed ?? [], false, true));
  for (const header of step.expect.headers ?? []) {
    if (!response.headers.has(header)) findings.push({ path: header, message: `expected header ${header}, got none` });
  }
  return findings;
}
