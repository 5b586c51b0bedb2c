// Prism as a second, independent oracle, as the judge sees it: what it says of a response, and how
// its diagnostics are weighed against Ajv's. Loading Prism itself is the harness's (verify/base/prism.ts).
import { toInt64 } from './int64.js';
import { mediaTypeProblem } from './media-type.js';
import { jsonBody, valueAt, type ObservedResponse } from './checks.js';
import { findingMessage, unreadableFinding, type Finding, type SpecArea } from './finding.js';

/** One judgement of Prism's validator on a response, in the kit's `{ path, message }` shape. */
export interface PrismDiagnostic {
  area: SpecArea | 'headers';
  path: string;
  message: string;
  /** Prism's severity: only errors fail a response; Prism gives warnings for what it tolerates. */
  severity: 'error' | 'warning';
}

/** Where Ajv and Prism judge one part of a response differently. */
export interface Disagreement {
  area: SpecArea | 'headers';
  ajv: string[];
  prism: string[];
  /** Set when the difference is a documented limit of Prism, not a defect of the response or of Ajv. */
  knownPrismLimit?: string;
}

/** Prism's validator over the kit's OpenAPI document: the second, independent oracle. */
export interface PrismOracle {
  /** Prism's diagnostics for a response to `method path` (a path below the base URL, such as `/store/orders`). */
  check(method: string, path: string, response: ObservedResponse): PrismDiagnostic[];
}

const int64CapLimit =
  'Prism caps format int64 at ±(2^53 - 1), the range of a JavaScript number; the value is an exact int64, which Ajv checks losslessly';
const statusWarningLimit =
  'Prism only warns of an undocumented status outside 2xx; the specification documents every status an operation answers, so the kit fails it';

function isInt64Cap(diagnostic: PrismDiagnostic, body: unknown): boolean {
  return (
    /must be [<>]= -?9007199254740991$/.test(diagnostic.message) &&
    toInt64(valueAt(body, diagnostic.path)) !== undefined
  );
}

/**
 * Compares Ajv's spec-level findings with Prism's diagnostics, part by part (status, media type,
 * body, headers). Where only Prism finds an error, that error becomes a violation (`Prism: ...`)
 * unless it is a known Prism limit; every difference is reported as a disagreement.
 * @example
 * compareOracles(ajvFindings, prismDiagnostics, response)
 * // { violations: [], disagreements: [{ area: 'body', ajv: [], prism: ['... must be <= 9007199254740991'], knownPrismLimit: '...' }] }
 */
export function compareOracles(
  ajvFindings: readonly Finding[],
  prismDiagnostics: readonly PrismDiagnostic[],
  response: ObservedResponse,
): { violations: Finding[]; disagreements: Disagreement[] } {
  const violations: Finding[] = [];
  const disagreements: Disagreement[] = [];
  // Without a body there is no media type to judge: Prism's complaint about it is the missing body again.
  const bodyMissing = ajvFindings.some((finding) => finding.area === 'body' && finding.code === 'body-missing');
  for (const area of ['status', 'content-type', 'body', 'headers'] as const) {
    if (area === 'content-type' && bodyMissing) continue;
    const ajv = ajvFindings.filter((finding) => finding.area === area);
    const prismErrors = prismDiagnostics.filter(
      (diagnostic) => diagnostic.area === area && diagnostic.severity === 'error',
    );
    const prismWarnings = prismDiagnostics.filter(
      (diagnostic) => diagnostic.area === area && diagnostic.severity === 'warning',
    );
    const ajvMessages = ajv.map(
      (finding) => `${findingMessage(finding)}${finding.path && finding.path !== area ? ` (at ${finding.path})` : ''}`,
    );
    const prismMessages = (diagnostics: PrismDiagnostic[]) => diagnostics.map((diagnostic) => diagnostic.message);
    if (ajv.length > 0 && prismErrors.length === 0) {
      disagreements.push({
        area,
        ajv: ajvMessages,
        prism: prismMessages(prismWarnings),
        ...(area === 'status' && prismWarnings.length > 0 && { knownPrismLimit: statusWarningLimit }),
      });
    } else if (ajv.length === 0 && prismErrors.length > 0) {
      const body = jsonBody(response);
      const unexplained = prismErrors.filter((diagnostic) => !isInt64Cap(diagnostic, body));
      disagreements.push({
        area,
        ajv: [],
        prism: prismMessages(prismErrors),
        ...(unexplained.length === 0 && { knownPrismLimit: int64CapLimit }),
      });
      for (const diagnostic of unexplained) {
        violations.push({
          code: 'prism',
          path: diagnostic.path,
          expected: 'a response both oracles accept',
          actual: `Prism: ${diagnostic.message} (Ajv finds nothing here)`,
          ...(area !== 'headers' && { area }),
        });
      }
    }
  }
  return { violations, disagreements };
}

/**
 * Judges a response with Prism too, when a Prism oracle is given: the violations only Prism finds are
 * added to `findings` (Ajv's, for the same response), and every disagreement is returned.
 */
export function withSecondOracle(
  prism: PrismOracle | undefined,
  method: string,
  path: string,
  observed: ObservedResponse,
  findings: Finding[],
): Disagreement[] {
  if (prism === undefined) return [];
  let diagnostics: PrismDiagnostic[];
  try {
    diagnostics = prism.check(method, path, observed);
  } catch (error) {
    // Prism throws on what it cannot read (two Content-Type fields, a parameter without a value): that
    // is a judgement of this answer, never an end to the command that judges it.
    return prismThrew(error, observed, findings);
  }
  const compared = compareOracles(findings, diagnostics, observed);
  findings.push(...compared.violations);
  return compared.disagreements;
}

const emptyParameterLimit =
  "Prism's media type parser refuses empty parameters (`;;`, a trailing `;`), which RFC 9110 §5.6.6 allows; the kit reads the Content-Type itself";

/**
 * What Prism throwing on an answer means. Where the kit's own check already fails its media type (a
 * list, a broken parameter), Prism's throw says the same thing: no second finding. Where the
 * Content-Type is a media type RFC 9110 allows and Prism's parser refuses it anyway, that is Prism's
 * limit, a disagreement. Anything else Prism cannot read is an `unreadable` finding on the answer.
 */
function prismThrew(error: unknown, observed: ObservedResponse, findings: Finding[]): Disagreement[] {
  if (findings.some((finding) => finding.code === 'media-type')) return [];
  const contentType = observed.headers.get('content-type');
  const message = error instanceof Error ? error.message : String(error);
  if (
    contentType !== null &&
    mediaTypeProblem(contentType) === undefined &&
    /^invalid (parameter format|media type)$/.test(message)
  )
    return [{ area: 'content-type', ajv: [], prism: [`throws: ${message}`], knownPrismLimit: emptyParameterLimit }];
  findings.push(unreadableFinding("Prism's validator", error));
  return [];
}
