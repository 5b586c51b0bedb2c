import { matchRoute } from '../../core/routes.js';
import type { Finding, ObservedResponse } from '../../core/checks.js';
import { judgeCall } from '../../core/judge.js';
import type { PrismOracle } from '../../core/second-oracle.js';
import type { ProxyExchange } from './proxy-report.js';
import type { RawResponseReader } from '../http/raw-response.js';
import { responseText } from '../http/response-text.js';
import { bodyTooLargeFinding } from '../../core/body-limit.js';
import { VerifyError } from '../base/errors.js';
import { keyChoiceOf } from '../scenario/key-choice-of.js';
import { nearPathStep, nearRouteOf } from '../scenario/near-path-step.js';
import { pageShapeFindings } from '../scenario/page-against-model.js';

type ReadResponse = ReturnType<RawResponseReader['result']>;

/** Why a response cannot be judged against the spec, as a violation: truncated, not HTTP, or a body past the bound as sent. */
function unjudgeable(read: ReadResponse, checkLimit: number): { violation: Finding } | undefined {
  if (read.malformed !== undefined)
    return {
      violation: {
        code: 'no-answer',
        path: '',
        expected: 'an HTTP/1.1 response',
        actual: `one the proxy cannot read: ${read.malformed}`,
      },
    };
  if (read.status === undefined || !read.complete)
    return {
      violation: {
        code: 'no-answer',
        path: '',
        expected: 'a whole response',
        actual:
          read.status === undefined
            ? 'the connection closed before the status line'
            : 'the connection closed before the whole body came',
      },
    };
  if (read.overLimit)
    return { violation: bodyTooLargeFinding(`a body of more than ${checkLimit} bytes as sent`, checkLimit) };
  return undefined;
}

/**
 * The header fields as the checks read them, or the violation of a field line no HTTP recipient can
 * read (a name that is no token, a value with a control character: RFC 9110 §5.1, §5.5), which Fetch's
 * Headers refuses by throwing.
 */
function headersOf(fields: readonly [string, string][]): Headers | { violation: Finding } {
  const headers = new Headers();
  for (const [name, value] of fields) {
    try {
      headers.append(name, value);
    } catch {
      return {
        violation: {
          code: 'unreadable',
          path: name,
          expected:
            'header fields an HTTP recipient can read (a token, a colon, a value of visible characters: RFC 9110 §5)',
          actual: `the field line ${JSON.stringify(`${name}: ${value}`.slice(0, 60))}`,
        },
      };
    }
  }
  return headers;
}

/**
 * The response as the checks read it, or the violation of a field line or a body that cannot be read
 * (past the bound, decoding stops there).
 */
async function observedOf(
  read: ReadResponse & { status: number },
  checkLimit: number,
): Promise<ObservedResponse | { violation: Finding }> {
  const headers = headersOf(read.headers);
  if (!(headers instanceof Headers)) return headers;
  try {
    const { text, invalidUtf8 } = await responseText(
      read.body,
      headers.get('content-encoding') ?? undefined,
      checkLimit,
    );
    return {
      status: read.status,
      headers,
      text,
      ...(invalidUtf8 && { invalidUtf8 }),
      ...(read.trailingBytes && { trailingBytes: true }),
    };
  } catch (error) {
    if (error instanceof VerifyError && error.code === 'body_too_large')
      return { violation: bodyTooLargeFinding(error.message, checkLimit) };
    return {
      violation: {
        code: 'no-answer',
        path: 'content-encoding',
        expected: 'a body encoded as its Content-Encoding says',
        actual: `one that cannot be decoded (${(error as Error).message})`,
      },
    };
  }
}

/** What `checkExchange` judges with, and what it knows of the request. */
export interface ExchangeChecks {
  prism: PrismOracle | undefined;
  checkLimit: number;
  /** The request's `Authorization` header: whether a near path was called without a key. */
  authorization?: string | undefined;
  /** Whether a recorder takes the exchange: then it judges a near path, as a step of its file (once). */
  recording?: boolean | undefined;
  /** The request's query, without the `?`: what a page of v2's list shows of itself is judged by it. */
  query?: string | undefined;
}

/**
 * Checks what the reader read for an exchange, with the harness's checks and Prism's, into the exchange;
 * returns the response as the checks read it, when it could be read. A body past `checkLimit`, as
 * sent or decoded, is a `body-too-large` finding. A path near an operation's without an accepted key is
 * judged by the rule near-path-refusals (any redirect or 4xx, never a 2xx), as `har` judges it.
 * @example
 * const observed = await checkExchange(exchange, reader, { prism: undefined, checkLimit: bodyLimit });
 * exchange.violations // what the checks found
 */
export async function checkExchange(
  exchange: ProxyExchange,
  reader: RawResponseReader,
  oracles: ExchangeChecks,
): Promise<ObservedResponse | undefined> {
  const { method, operationPath, base } = exchange;
  const read = reader.result();
  if (operationPath === undefined || matchRoute(method, operationPath, base) === undefined) {
    const near = operationPath === undefined ? undefined : nearRouteOf(method, operationPath);
    if (near === undefined || operationPath === undefined) {
      exchange.unchecked = 'no operation of the specification';
      return undefined;
    }
    const named = `a path near ${near.route.method} ${near.route.path} with ${near.kind}`;
    // Without the key the deployment accepts, a token it did not refuse with 401 is taken as accepted.
    const key = keyChoiceOf(oracles.authorization, { status: read.status ?? 0 });
    const step = nearPathStep({ method, path: operationPath, key });
    if (step === undefined || oracles.recording === true) {
      exchange.unchecked =
        step === undefined
          ? `${named}, with an accepted key: the specification defines nothing there but its authentication`
          : `${named}: judged by the recording, rule near-path-refusals`;
      return undefined;
    }
    const problem = unjudgeable(read, oracles.checkLimit);
    if (problem !== undefined) exchange.violations.push(problem.violation);
    else {
      // The rule reads the status alone: a body at a path of no operation is no operation's.
      const observed = { status: read.status!, headers: new Headers(), text: '', bodyUnknown: true };
      exchange.violations.push(...judgeCall({ call: { method, path: operationPath }, observed, step }).findings);
    }
    return undefined;
  }
  const problem = unjudgeable(read, oracles.checkLimit);
  const observed = problem ?? (await observedOf(read as ReadResponse & { status: number }, oracles.checkLimit));
  if ('violation' in observed) exchange.violations.push(observed.violation);
  else {
    // Prism's oracle reads v1's document only.
    const judgement = judgeCall({
      call: { method, path: operationPath, base: base ?? '/v1' },
      observed,
      prism: base === undefined ? oracles.prism : undefined,
    });
    exchange.disagreements = judgement.disagreements;
    exchange.violations.push(
      ...judgement.findings,
      ...pageShapeFindings({ method, path: operationPath, base, query: oracles.query, observed }),
    );
    return observed;
  }
  return undefined;
}
