import { parseJson, type JsonValue } from './parse-json.js';
import { documentedResponse, majorRoutes, matchRoute, schemaNameOf, type DocumentedResponse } from './routes.js';
import type { BodySchemaName, ContractStep } from './scenario.js';
import { documentSchema, int64Message, schemaValidator } from './schema-validator.js';
import type { Finding, SpecArea } from './finding.js';
import { challengeFindings, headerFindings } from './header-checks.js';
import { duplicateIdFindings, listedIdFindings } from './list-checks.js';
import { mediaTypeProblem, mediaTypeProblemText } from './media-type.js';
import { preview } from './preview.js';
import type { ObservedResponse } from './observed-response.js';

export type { Finding, ObservedResponse, SpecArea };

// Each documented response schema by the name a step gives it, its references pointed into the
// document Ajv holds: read from the route table, so a new schema of the document is checked too.
// Both majors': a v2 step names v2's `OrderPage`, read in v2's document; a name both give (`Error`) is v1's.
const bodySchemas = Object.fromEntries(
  majorRoutes
    .flatMap((route) =>
      route.responses.flatMap((response) => {
        const name = schemaNameOf(response);
        return name === undefined ? [] : [[name, documentSchema(response.schema, route.base)] as const];
      }),
    )
    .reverse(),
) as Record<BodySchemaName, object>;

/** The value at a JSON Pointer (RFC 6901) into a parsed body, or undefined. */
export function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function schemaFindings(key: string, schema: object, body: JsonValue): Finding[] {
  return schemaValidator(
    key,
    schema,
  )(body).map(({ path, message }) => ({
    code: message === int64Message ? 'int64-exact' : 'body-schema',
    path,
    expected: message === int64Message ? 'an int64' : message.replace(/^must (be )?/, '').replace(/^is /, ''),
    actual: preview(valueAt(body, path)),
  }));
}

// The parsed body, kept on the response it was parsed from (not enumerable: a spread or a copy of the
// response does not carry it, so a copy with another text is parsed again).
const parsedBody = Symbol('parsed body');
type ParsedResponse = ObservedResponse & { [parsedBody]?: { value: JsonValue | undefined } };

/**
 * A response's body as JSON, parsed losslessly once for every check that reads it (the spec checks,
 * the model comparison, Prism's): undefined when it is not JSON. A byte order mark is skipped here
 * and reported on its own (`encodingFindings`), so the JSON after it is still judged.
 */
export function jsonBody(response: ObservedResponse): JsonValue | undefined {
  const parsed = (response as ParsedResponse)[parsedBody];
  if (parsed !== undefined) return parsed.value;
  let value: JsonValue | undefined;
  try {
    value = parseJson(response.text.replace(/^\uFEFF/, ''));
  } catch {
    value = undefined;
  }
  Object.defineProperty(response, parsedBody, { value: { value }, enumerable: false });
  return value;
}

/** A response's body, read once: parsed losslessly, with the findings that reading it gave. */
class ResponseBody {
  readonly present: boolean;
  private parsed = false;
  private value: JsonValue | undefined;

  constructor(
    private readonly response: ObservedResponse,
    private readonly findings: Finding[],
  ) {
    this.present = response.text.length > 0 && response.bodyUnknown !== true;
  }

  /** The body as JSON; the first call checks the media type and the syntax, tagging findings with `area`. */
  json(area?: SpecArea): JsonValue | undefined {
    if (this.parsed) return this.value;
    this.parsed = true;
    this.findings.push(...mediaTypeFindings(this.response, area));
    this.value = jsonBody(this.response);
    if (this.value === undefined)
      this.findings.push({
        code: 'body-json',
        path: '',
        expected: 'a JSON body',
        actual: JSON.stringify(this.response.text.slice(0, 40)),
        ...(area && { area }),
      });
    return this.value;
  }
}

/** The Content-Type of a JSON body is `application/json` (parameters allowed), one valid media type. */
function mediaTypeFindings(response: ObservedResponse, area: SpecArea | undefined): Finding[] {
  const contentType = response.headers.get('content-type');
  const problem = contentType === null ? undefined : mediaTypeProblem(contentType);
  if (problem === undefined && /^application\/json\s*(;|$)/i.test(contentType ?? '')) return [];
  return [
    {
      code: 'media-type',
      path: 'content-type',
      expected: 'content-type application/json',
      actual:
        contentType === null
          ? 'none'
          : problem === undefined
            ? contentType
            : `${JSON.stringify(contentType)}, ${mediaTypeProblemText[problem]}`,
      ...(area && { area: 'content-type' as const }),
    },
  ];
}

/**
 * A JSON text is UTF-8 without a byte order mark (RFC 8259 §8.1): fetch would strip the mark and
 * replace invalid bytes silently, so the harness reads the bytes itself and says what it found.
 */
function encodingFindings(response: ObservedResponse): Finding[] {
  const findings: Finding[] = [];
  if (response.text.startsWith('\uFEFF'))
    findings.push({
      code: 'encoding',
      path: '',
      expected: 'a JSON text without a byte order mark (RFC 8259 §8.1)',
      actual: 'one before the JSON',
    });
  if (response.invalidUtf8)
    findings.push({
      code: 'encoding',
      path: '',
      expected: 'a body in UTF-8 (RFC 8259 §8.1)',
      actual: 'bytes that are not valid UTF-8',
    });
  if (response.trailingBytes) {
    const why =
      response.status === 204
        ? 'a 204 cannot carry content, RFC 9110 §15.3.5'
        : 'its framing says where it ends, RFC 9112 §6';
    findings.push({
      code: 'framing',
      path: '',
      expected: `nothing after the end of the response (${why})`,
      actual: 'more bytes on the connection',
    });
  }
  return findings;
}

/** What a check of one response leaves behind for the checks after it. */
interface Checked {
  findings: Finding[];
  body: ResponseBody;
  validated: Set<string>;
}

function validateBody(checked: Checked, name: string, schema: object, area?: SpecArea): void {
  const value = checked.body.json(area);
  if (value === undefined || checked.validated.has(name)) return;
  checked.validated.add(name);
  checked.findings.push(
    ...schemaFindings(name, schema, value).map((finding) => (area ? { ...finding, area } : finding)),
  );
}

/** A response's body where the document gives its schema: present, JSON, valid, no id twice (or, unknown, its media type). */
function documentedBodyFindings(
  checked: Checked,
  { operation, base, documented }: { operation: string; base: string; documented: DocumentedResponse },
  response: ObservedResponse,
): void {
  const { findings } = checked;
  // A body nobody kept: its Content-Type, when sent, still says what it was.
  if (response.bodyUnknown === true) {
    if (response.headers.has('content-type')) findings.push(...mediaTypeFindings(response, 'content-type'));
  } else if (!checked.body.present)
    findings.push({
      code: 'body-missing',
      path: '',
      expected: `a JSON body for ${response.status}`,
      actual: 'none',
      area: 'body',
    });
  else {
    validateBody(checked, `response ${operation} ${response.status}`, documentSchema(documented.schema, base), 'body');
    findings.push(...duplicateIdFindings(documented, checked.body.json()));
  }
}

function checkSpec(method: string, path: string, response: ObservedResponse, base = '/v1'): Checked {
  const findings: Finding[] = [];
  const checked: Checked = { findings, body: new ResponseBody(response, findings), validated: new Set() };
  const route = matchRoute(method, path, base)?.route;
  if (route === undefined) return checked;
  findings.push(...encodingFindings(response));
  if (response.status === 401) findings.push(...challengeFindings(response));
  const documented = documentedResponse(route, response.status);
  if (documented === undefined) {
    const statuses = route.responses.map((candidate) => candidate.status).join(', ');
    const location = response.headers.get('location');
    const redirect =
      response.status >= 300 && response.status < 400
        ? ` (a redirect${location === null ? '' : ` to ${location}`}; the specification documents none)`
        : '';
    findings.push({
      code: 'status-undocumented',
      path: 'status',
      expected: `a status ${method} ${route.path} documents (${statuses})`,
      actual: `${response.status}${redirect}`,
      area: 'status',
    });
    return checked;
  }
  findings.push(...headerFindings(documented, response));
  if (documented.schema !== null) {
    documentedBodyFindings(checked, { operation: route.operation, base: route.base, documented }, response);
  } else if (response.status === 204) {
    // A 204 cannot carry content (RFC 9110 §15.3.5): HTTP clients drop whatever bytes follow it, so
    // what betrays a body is its framing, a Content-Length above zero or a Transfer-Encoding.
    const length = response.headers.get('content-length');
    const encoding = response.headers.get('transfer-encoding');
    const noBody = { code: 'no-content', expected: 'no body with 204' } as const;
    if (checked.body.present) findings.push({ ...noBody, path: '', actual: `${response.text.length} bytes` });
    else if (length !== null && length.trim() !== '0')
      findings.push({ ...noBody, path: 'content-length', actual: `content-length ${length}` });
    if (encoding !== null)
      findings.push({ ...noBody, path: 'transfer-encoding', actual: `transfer-encoding ${encoding}` });
  } else if (checked.body.present) {
    // A body the specification does not show (the 409) may be absent; present, it is an Error record.
    validateBody(checked, 'Error', bodySchemas.Error);
  }
  return checked;
}

function checkErrorStatus(checked: Checked, response: ObservedResponse): void {
  if (response.status < 400 && !checked.validated.has('Error')) return;
  const body = checked.body.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const given = body.status;
  if ((typeof given === 'number' || typeof given === 'bigint') && given !== response.status) {
    checked.findings.push({
      code: 'error-status',
      path: '/status',
      expected: `the Error record's status to be the HTTP status ${response.status}`,
      actual: String(given),
    });
  }
}

/**
 * Checks one response against the specification and the kit's rules where it is open, with no
 * scenario: the status is one the operation documents; a documented body is present, JSON,
 * `application/json` and valid against the spec's schema (int64 ids exact); a 204 has no body; an
 * undocumented 409 body, if any, is an Error record; an Error record's `status` is the HTTP status.
 * Requests for no operation of the document give no findings.
 * @example
 * checkAgainstSpec('DELETE', '/store/orders/1', { status: 204, headers: new Headers(), text: '' }) // []
 */
export function checkAgainstSpec(method: string, path: string, response: ObservedResponse, base = '/v1'): Finding[] {
  const checked = checkSpec(method, path, response, base);
  if (checked.body.present) checkErrorStatus(checked, response);
  return checked.findings;
}

/** The status is one of those accepted (rule `status-unexpected`): no finding, or the one that says so. */
export function statusFindings(accepted: readonly number[], actual: number): Finding[] {
  if (accepted.includes(actual)) return [];
  return [
    { code: 'status-unexpected', path: 'status', expected: `status ${accepted.join(' or ')}`, actual: String(actual) },
  ];
}

/**
 * Checks one response against the specification (as `checkAgainstSpec`) and against the step's
 * expectations: the expected status, the body's schema or its absence, listed and unlisted ids
 * (compared exactly over the whole int64 range), headers.
 * @example
 * checkResponse(step, { status: 204, headers: new Headers(), text: '' }) // []
 */
export function checkResponse(step: ContractStep, response: ObservedResponse): Finding[] {
  const { method, path, base } = step.request;
  const checked = checkSpec(method, path, response, base);
  const { findings, body } = checked;
  findings.unshift(...statusFindings([step.expect.status].flat(), response.status));

  const expectedBody = step.expect.body;
  if (expectedBody === 'none' && body.present && response.status !== 204) {
    findings.push({ code: 'no-content', path: '', expected: 'no body', actual: `${response.text.length} bytes` });
  } else if (expectedBody !== undefined && expectedBody !== 'none') {
    if (!body.present && !expectedBody.optional && response.bodyUnknown !== true)
      findings.push({
        code: 'body-missing',
        path: '',
        expected: `a body matching ${expectedBody.schema}`,
        actual: 'none',
      });
    if (body.present)
      validateBody(
        checked,
        expectedBody.schema === 'Error' ? 'Error' : `scenario ${expectedBody.schema}`,
        bodySchemas[expectedBody.schema],
      );
  }
  if (body.present) checkErrorStatus(checked, response);

  const { listed = [], notListed = [], advisory = {} } = step.expect;
  if (
    listed.length + notListed.length + (advisory.listed?.length ?? 0) + (advisory.notListed?.length ?? 0) > 0 &&
    body.present
  ) {
    const value = body.json();
    findings.push(...listedIdFindings(value, listed, true, false));
    findings.push(...listedIdFindings(value, notListed, false, false));
    findings.push(...listedIdFindings(value, advisory.listed ?? [], true, true));
    findings.push(...listedIdFindings(value, advisory.notListed ?? [], false, true));
  } else if (listed.length > 0 && response.bodyUnknown !== true) {
    findings.push(...listedIdFindings(undefined, listed, true, false));
  }
  for (const header of step.expect.headers ?? []) {
    if (!response.headers.has(header))
      findings.push({ code: 'header-missing', path: header, expected: `header ${header}`, actual: 'none' });
  }
  return findings;
}
