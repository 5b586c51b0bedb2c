import { createRequire } from 'node:module';
import type { HttpMethod } from '@stoplight/types';
import { toInt64 } from '../core/int64.js';
import { openApiDocument } from '../core/schema-validator.js';
import { jsonBody, valueAt, type ObservedResponse } from './checks.js';
import { findingMessage, type Finding, type SpecArea } from './finding.js';
import { requireInstalled } from './optional-dependencies.js';

// Prism ships CommonJS, and its validators and router only under dist/ (not in its index, which
// would also load the mocker and faker: 1.1 s against 0.4 s for these two).
const require = createRequire(import.meta.url);
type ValidatorModule = typeof import('@stoplight/prism-http/dist/validator/index.js');
type OperationsModule = typeof import('@stoplight/prism-http/dist/utils/operations.js');
type RouterModule = { default: typeof import('@stoplight/prism-http/dist/router/index.js').default };

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

/**
 * Loads Prism (`@stoplight/prism-http` 5.12) and turns the kit's OpenAPI document into its
 * operations. Each call loads a new oracle; to share one, see `prismLoader`.
 * @example
 * const prism = await loadPrismOracle();
 * prism.check('GET', '/store/orders', { status: 200, headers, text: '[{"id":"1"}]' })
 * // [{ area: 'body', path: '/0/id', message: 'Response body property 0.id must be integer', severity: 'error' }]
 */
export function loadPrismOracle(): Promise<PrismOracle> {
  return createPrismOracle();
}

/**
 * A loader of Prism's oracle that loads it on its first call and gives the same one after: what a
 * run passes its suites (`TargetOptions.loadPrism`) so that Prism is loaded once, and only when a
 * suite needs it. A failed load (Prism not installed) is not kept: installing it fixes the next call.
 * @example
 * const loadPrism = prismLoader();
 * (await loadPrism()) === (await loadPrism()) // true
 */
export function prismLoader(): () => Promise<PrismOracle> {
  let loading: Promise<PrismOracle> | undefined;
  return () => {
    loading ??= createPrismOracle();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}

async function createPrismOracle(): Promise<PrismOracle> {
  requireInstalled('prism');
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http/dist/utils/operations') as OperationsModule;
  const { validateOutput } = require('@stoplight/prism-http/dist/validator') as ValidatorModule;
  const route = (require('@stoplight/prism-http/dist/router') as RouterModule).default;
  const operations = await getHttpOperationsFromSpec(structuredClone(openApiDocument) as object);
  return {
    check(method, path, response) {
      const routed = route({
        resources: operations,
        input: { method: method.toLowerCase() as HttpMethod, url: { path: path.split('?')[0]! } },
      });
      if (routed._tag === 'Left') return [];
      const headers = Object.fromEntries(response.headers);
      let body: unknown;
      if (response.text.length > 0) {
        try {
          // Prism's own validator reads numbers as JavaScript numbers: this is how it sees a body.
          body = JSON.parse(response.text);
        } catch {
          body = response.text;
        }
      }
      const result = validateOutput({
        resource: routed.right,
        element: { statusCode: response.status, headers, body },
      });
      if (result._tag === 'Right') return [];
      return result.left.map((diagnostic) => {
        const [first, ...rest] = (diagnostic.path ?? []).map(String);
        const message = diagnostic.message ?? String(diagnostic.code);
        const area: PrismDiagnostic['area'] =
          first === 'body'
            ? 'body'
            : first === 'header' || first === 'headers'
              ? 'headers'
              : /media type/.test(message)
                ? 'content-type'
                : /status code/.test(message)
                  ? 'status'
                  : 'body';
        const where =
          area === 'body' ? (rest.length > 0 ? `/${rest.join('/')}` : '') : area === 'headers' ? (rest[0] ?? '') : area;
        return { area, path: where, message, severity: diagnostic.severity === 0 ? 'error' : 'warning' };
      });
    },
  };
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
  const compared = compareOracles(findings, prism.check(method, path, observed), observed);
  findings.push(...compared.violations);
  return compared.disagreements;
}
