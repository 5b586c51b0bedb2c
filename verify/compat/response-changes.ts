import { type ApiDocument, type ApiOperation, type ApiResponse, isJsonMediaType } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { headerChanges } from './header-changes.js';
import { mediaTypeChanges } from './media-type-changes.js';
import { compareSchemas } from './schema-changes.js';

type Pair = { old: ApiDocument; next: ApiDocument; oldOperation: ApiOperation; newOperation: ApiOperation };

/** `2XX` for a status class (OpenAPI's range, upper case as it requires), `undefined` for a status or `default`. */
function rangeOf(status: string): string | undefined {
  return /^[1-5]XX$/.test(status) ? status : undefined;
}

/** The response `responses` documents for the class of `status` (`2XX` for 200), if it has one. */
function classResponse(responses: ReadonlyMap<string, ApiResponse>, status: string): ApiResponse | undefined {
  for (const [key, response] of responses) if (rangeOf(key) === `${status[0]}XX`) return response;
  return undefined;
}

/** The statuses of `responses` in the class of `range` (`2XX`), the range itself aside. */
function statusesIn(responses: ReadonlyMap<string, ApiResponse>, range: string): string[] {
  return [...responses.keys()].filter((status) => rangeOf(status) === undefined && status[0] === range[0]);
}

/** A response of the old document against the one the new document gives the same status: body, media types, headers, schema. */
function compareResponse(pair: Pair, findings: CompatFinding[], path: string, was: ApiResponse, is: ApiResponse): void {
  const { old, next, newOperation } = pair;
  const operation = newOperation.label;
  const bodyRemoved = was.hasBody && !is.hasBody;
  if (bodyRemoved) {
    findings.push(
      compatFinding('response-body-removed', {
        operation,
        path: `${path}/body`,
        expected: 'a JSON body',
        actual: 'none',
      }),
    );
  }
  // The JSON media types of a body removed are named by response-body-removed, not again one by one.
  const oldMedia = bodyRemoved ? new Map([...was.media].filter(([type]) => !isJsonMediaType(type))) : was.media;
  mediaTypeChanges({ operation, path, side: 'response', findings }, oldMedia, is.media);
  headerChanges(
    { operation, path, resolveOld: old.resolve, resolveNew: next.resolve, findings },
    was.headers,
    is.headers,
  );
  if (was.hasBody && !bodyRemoved) {
    compareSchemas(
      { side: 'response', operation, resolveOld: old.resolve, resolveNew: next.resolve, findings },
      was.schema,
      is.schema,
      `${path}/body`,
    );
  }
}

/**
 * The responses of an operation kept in both documents: statuses removed (an error) and added (a
 * warning), a status now documented by its class (`200` by `2XX`) or a class by some of its statuses
 * (warnings: what a consumer reads is still documented, and compared across the pairing), and for
 * each status in both its JSON body, media types, headers and schema, field by field.
 * @example
 * responseChanges({ old, next, oldOperation, newOperation }).map((finding) => finding.code) // ['response-status-removed']
 */
export function responseChanges(pair: Pair): CompatFinding[] {
  const { oldOperation, newOperation } = pair;
  const operation = newOperation.label;
  const findings: CompatFinding[] = [];
  const oldResponses = oldOperation.responses;
  const newResponses = newOperation.responses;
  const statusList = (responses: ReadonlyMap<string, ApiResponse>) => [...responses.keys()].join(', ');
  // Statuses of the new document already named by a pairing with a class: not named again as added.
  const covered = new Set<string>();
  for (const [status, response] of oldResponses) {
    const path = `/responses/${status}`;
    const kept = newResponses.get(status);
    if (kept !== undefined) {
      compareResponse(pair, findings, path, response, kept);
      continue;
    }
    const range = rangeOf(status);
    const byRange = range === undefined ? classResponse(newResponses, status) : undefined;
    if (byRange !== undefined) {
      findings.push(
        compatFinding('response-status-replaced-by-range', {
          operation,
          path,
          expected: `the status ${status}`,
          actual: `the class ${status[0]}XX, which holds it`,
        }),
      );
      // The class is named here, as what replaced the status: not again as a status added.
      for (const key of newResponses.keys()) if (rangeOf(key) === `${status[0]}XX`) covered.add(key);
      compareResponse(pair, findings, path, response, byRange);
      continue;
    }
    const narrowed = range === undefined ? [] : statusesIn(newResponses, range);
    if (range !== undefined && narrowed.length > 0) {
      findings.push(
        compatFinding('response-status-range-narrowed', {
          operation,
          path,
          expected: `any status of the class ${range}`,
          actual: `only ${narrowed.join(', ')} of it`,
        }),
      );
      // A status the old document also documented on its own is compared with that, below.
      for (const one of narrowed.filter((kept) => !oldResponses.has(kept))) {
        covered.add(one);
        compareResponse(pair, findings, `/responses/${one}`, response, newResponses.get(one)!);
      }
      continue;
    }
    findings.push(
      compatFinding('response-status-removed', {
        operation,
        path,
        expected: `the status ${status}`,
        actual: `only ${statusList(newResponses) || 'no status'}`,
      }),
    );
  }
  for (const [status, response] of newResponses) {
    if (oldResponses.has(status) || covered.has(status)) continue;
    const oldClass = rangeOf(status) === undefined ? classResponse(oldResponses, status) : undefined;
    if (oldClass !== undefined) {
      // Documented before by its class: what a consumer reads of it is compared, no status is new.
      compareResponse(pair, findings, `/responses/${status}`, oldClass, response);
      continue;
    }
    findings.push(
      compatFinding('response-status-added', {
        operation,
        path: `/responses/${status}`,
        expected: `only ${statusList(oldResponses)}`,
        actual: `also ${status}`,
      }),
    );
  }
  return findings;
}
