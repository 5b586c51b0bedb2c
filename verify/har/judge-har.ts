import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../core/checks.js';
import { pageShapeFindings } from '../scenario/page-against-model.js';
import { judgeCall } from '../../core/judge.js';
import { cancelledOrderId } from '../../core/compare.js';
import type { OrderInput } from '../../core/provider-state.js';
import type { Disagreement, PrismOracle } from '../../core/second-oracle.js';
import type { KeyChoice } from '../../core/authorization.js';
import { keyChoiceOf } from '../scenario/key-choice-of.js';
import { nearPathStep, nearRouteOf } from '../scenario/near-path-step.js';
import { Redaction } from '../base/redaction.js';
import { ScenarioRecorder, type WrittenRecordings } from '../recorder/scenario-recorder.js';
import { harConfidences } from './har-confidences.js';
import { selectHarExchanges, type HarExchange, type HarSelection } from './har-exchanges.js';
import { readHarFile, type HarEntry, type HarLimits } from './har-file.js';

/** What to judge a HAR file with. */
export interface HarJudgeOptions {
  /** The HAR file (1.2, as browsers, Playwright and proxies write it). */
  file: string;
  /** The interface's base URL in the HAR; else the first one ending with `/v1` below which a route comes. */
  baseUrl?: string | undefined;
  /**
   * What the deployment held when the HAR began (`--from-scenario`): every step is judged in it from the
   * first, and nothing is inferred. Nothing is set anywhere: a HAR is past traffic.
   */
  knownState?: { scenario: string; orders: readonly OrderInput[] } | undefined;
  /** The key the deployment accepts, to tell each key choice exactly; else from the answers. */
  apiKey?: string | undefined;
  /** Write the HAR as a scenario file of the recorder's format in `directory`, named `name` (else by date). */
  save?: { directory: string; name?: string | undefined } | undefined;
  /** Prism's validator as a second oracle on each answer, or what loads it (once the file is read: a bad file is refused at once). */
  prism?: PrismOracle | (() => Promise<PrismOracle>) | undefined;
  limits?: HarLimits;
}

/** One entry of the interface and its verdict against the specification. */
export interface HarExchangeVerdict {
  entry: number;
  method: string;
  /** Without query, fragment or user information. */
  url: string;
  status: number;
  /** The specification's findings (Ajv). */
  violations: Finding[];
  /** Where Prism disagrees with Ajv. */
  disagreements: Disagreement[];
  /** Why the entry was not judged, when it was not. */
  unjudged?: string;
  /** Why its body was not judged, when only its status and headers were (the HAR does not hold the body). */
  bodyUnjudged?: string;
  /** The documented call its path is near, when it is a near path (`GET /store/orders with a trailing slash`). */
  near?: string;
}

/** The recorder's judgement of the calls against the contract, as last judged. */
export interface HarContractReport {
  /** The steps the calls made (a read repeated with the same answer is one; so are cancels of one order at once: `parallel`). */
  steps: number;
  /** How many findings the model holds against the HAR's answers, and each step's. */
  disagreements: number;
  against: { step: string; findings: Finding[] }[];
  /** The order statuses taken from answers rather than known (no --from-scenario): a bug in them cannot be caught. */
  inferred: { id: bigint; status: 'pending' | 'shipped' | 'cancelled'; because: string }[];
  /**
   * The values of listed orders the state could not hold (a string quantity, a local shipDate), each
   * with why: a saved scenario cannot replay a finding on them. Absent when none.
   */
  dropped?: { id?: bigint; field: string; reason: string }[];
  /**
   * The findings (against the contract, or the specification) the saved scenario cannot replay, and why:
   * a call that ran at once with a cancel the file sends one after the other. Every other finding replays;
   * absent when all do.
   */
  unreplayable?: { step: string; code: string; why: string }[];
  /** The scenario file written with `save`, and its steps. */
  saved: { file: string; steps: number }[];
  /** Why the file could not be written, when it could not. */
  failed?: string;
}

/** What a HAR file held and how it was judged: the console, `--json` and the exit code all come from it. */
export interface HarReport {
  file: string;
  /** The base URL judged, without credentials or query. */
  baseUrl: string | undefined;
  /** The file's entries, and those of other hosts and paths (by host) and of another base URL of the interface. */
  entries: number;
  ignored: HarSelection['ignored'];
  otherBases: HarSelection['otherBases'];
  exchanges: HarExchangeVerdict[];
  judged: number;
  violations: number;
  /** Set when no entry of the interface kept an `Authorization` header: each key choice is taken from its answer. */
  sanitized: boolean;
  /** Set when a key was given (`apiKey`) that no call holds: not compared, each key choice is taken from its answer. */
  keyNotInHar: boolean;
  /**
   * Set when no key was given and the HAR shows its own: one token, the only one accepted, refused
   * under another spelling of the scheme (`bearer`, accepted as `Bearer`). Each key choice is then
   * compared with it, and the refusal is a finding (the scheme is case-insensitive, RFC 9110 §11.1).
   * The entries (from 0) of an acceptance and a refusal.
   */
  keyFromHar?: { accepted: number; refused: number };
  /** The state the steps were judged in: a scenario's (known), or inferred from the answers. */
  state: { scenario: string } | 'inferred';
  /** The recorder's judgement against the contract (the model), and the file it saved with `save`. */
  contract: HarContractReport;
  verdict: 'passed' | 'failed' | 'not-run';
  exitCode: 0 | 1 | 2;
  reason?: string;
}

// What a sanitized export leaves of a request's key: a bearer token nobody knows, taken as accepted unless refused with 401.
const sanitizedKey = 'Bearer (not in the HAR: a sanitized export)';

/**
 * Judges the order interface's exchanges of a HAR file, in the order their answers ended, with the judge
 * the proxy and the recorder use: each answer against the specification (and Prism, when given), and
 * against the contract in the state the tester names or else the state the answers imply, through the
 * recorder, which also writes the file with `save`. The report is redacted of every credential and URL
 * secret of the HAR, and so are the files saved.
 * @throws VerifyError `invalid_har` for a file it cannot read as a HAR; RecordingError for a folder it cannot write.
 * @example
 * const { report } = await judgeHar({ file: 'staging.har', knownState: { scenario: 'cancel-shipped-order', orders } });
 * report.exitCode // 1 when an answer breaks the specification or the contract
 */
export async function judgeHar(options: HarJudgeOptions): Promise<{ report: HarReport; redaction: Redaction }> {
  const { entries } = await readHarFile(options.file, options.limits);
  const redaction = new Redaction(harConfidences(entries));
  const selection = await selectHarExchanges(withRedactedNotes(entries, redaction), { baseUrl: options.baseUrl });
  const calls = selection.exchanges.filter((exchange) => exchange.unjudged === undefined);
  const sanitized = calls.length > 0 && calls.every((exchange) => exchange.authorization === undefined);
  // A key no call holds (a stale $PETSTORE_API_KEY) is not the app's: compared, each accepted call would read as a wrong key's.
  const keyNotInHar =
    !sanitized &&
    options.apiKey !== undefined &&
    !calls.some(({ authorization }) => tokenOf(authorization) === options.apiKey);
  const keyFromHar = options.apiKey === undefined && !sanitized ? keyShownByHar(calls) : undefined;
  const prism = typeof options.prism === 'function' && calls.length > 0 ? await options.prism() : options.prism;
  const directory = options.save?.directory ?? (await mkdtemp(join(tmpdir(), 'petstore-har-')));
  try {
    // The key the HAR shows itself, when none was given: compared with, as a given key would be.
    const apiKey = options.apiKey ?? keyFromHar?.key;
    const recorder = await openRecorder({ ...options, apiKey }, selection, {
      directory,
      sanitized: sanitized || keyNotInHar,
    });
    const keyOf = (exchange: HarExchange) =>
      keyChoiceOf(sanitized ? sanitizedKey : exchange.authorization, {
        apiKey: sanitized || keyNotInHar ? undefined : apiKey,
        status: exchange.status,
      });
    const verdicts = selection.exchanges.map((exchange) => {
      const verdict = judged(exchange, keyOf(exchange), typeof prism === 'function' ? undefined : prism);
      if (verdict.unjudged === undefined && recorder !== undefined)
        recorder.record({
          ...exchange,
          authorization: sanitized ? sanitizedKey : exchange.authorization,
          findings: verdict.violations,
        });
      return verdict;
    });
    // A cancel the browser aborted may have been applied at any time after it was sent: it comes last, at
    // once with every call after it, so the race rules allow each of those either order.
    for (const exchange of selection.exchanges.filter(isAbortedCancel))
      recorder?.record({
        ...exchange,
        authorization: sanitized ? sanitizedKey : exchange.authorization,
        findings: [],
        endedAt: Number.POSITIVE_INFINITY,
        aborted: true,
      });
    await recorder?.close();
    const recording = recorder?.written() ?? {
      files: [],
      disagreements: 0,
      against: [],
      inferred: [],
      unreplayable: [],
    };
    if (options.save !== undefined) await redactFiles(recording, redaction);
    const report = reportOf(options, selection, {
      verdicts,
      recording,
      sanitized,
      keyNotInHar,
      keyFromHar,
      entries: entries.length,
    });
    return { report: redaction.value(report), redaction };
  } finally {
    if (options.save === undefined) await rm(directory, { recursive: true, force: true });
  }
}

async function openRecorder(
  options: HarJudgeOptions,
  selection: HarSelection,
  { directory, sanitized }: { directory: string; sanitized: boolean },
): Promise<ScenarioRecorder | undefined> {
  // `sanitized` here: no key of the HAR to compare with the one given.
  if (selection.baseUrl === undefined) return undefined;
  const began = Math.min(...selection.exchanges.map((exchange) => exchange.startedAt));
  return ScenarioRecorder.open({
    directory,
    name: options.save?.name,
    // A sanitized export has no key to compare: each choice comes from its answer.
    apiKey: sanitized ? undefined : options.apiKey,
    upstream: selection.baseUrl,
    now: () => new Date(Number.isFinite(began) ? began : 0),
    knownState: options.knownState,
    source: 'petstore-verify har',
    // Every exchange is at hand: the file is written once, complete, when the recorder closes.
    writeAtClose: true,
  });
}

// A cancel with no answer (`status: 0`): the browser gave up on it, the deployment may still have applied it.
function isAbortedCancel(exchange: HarExchange): boolean {
  return exchange.status === 0 && cancelledOrderId(exchange.method, exchange.operationPath) !== undefined;
}

function judged(exchange: HarExchange, key: KeyChoice, prism: PrismOracle | undefined): HarExchangeVerdict {
  const { entry, method, url, status, observed, unjudged, bodyUnjudged, tooLarge } = exchange;
  const verdict = {
    entry,
    method,
    url,
    status,
    violations: [],
    disagreements: [],
    ...(bodyUnjudged !== undefined && { bodyUnjudged }),
  };
  if (tooLarge !== undefined) return { ...verdict, violations: [tooLarge] };
  if (observed === undefined) return { ...verdict, unjudged: unjudged ?? 'no answer to judge' };
  const call = { method, path: exchange.operationPath, base: exchange.base ?? '/v1' };
  const near = exchange.base === undefined ? nearRouteOf(method, call.path) : undefined;
  if (near !== undefined) {
    // Judged by the recorder, against the contract: its rule is the tolerance near-path-refusals.
    const named = { ...verdict, near: `${near.route.method} ${near.route.path} with ${near.kind}` };
    if (nearPathStep({ ...call, key }) !== undefined) return named;
    return {
      ...named,
      unjudged: `a path near ${named.near}, with an accepted key: the specification defines nothing there but its authentication`,
    };
  }
  // Prism's oracle reads v1's document only.
  const judgement = judgeCall({ call, observed, prism: exchange.base === undefined ? prism : undefined });
  return {
    ...verdict,
    violations: [
      ...(exchange.evidence ?? []),
      ...judgement.findings,
      ...pageShapeFindings({ method, path: call.path, base: exchange.base, query: exchange.query, observed }),
    ],
    disagreements: judgement.disagreements,
  };
}

/** The saved files with every secret of the HAR taken out (the recorder writes no header or query; a finding may quote a body). */
async function redactFiles(recording: WrittenRecordings, redaction: Redaction): Promise<void> {
  for (const { file } of recording.files) {
    const text = await readFile(file, 'utf8');
    const redacted = redaction.text(text);
    if (redacted !== text) await writeFile(file, redacted);
  }
}

/**
 * The HAR's own texts that har-exchanges.ts quotes cut short (Chrome's `_error` and
 * `Non-Authoritative-Reason`, Playwright's `_failureText`, an unknown `encoding`), redacted first: a cut
 * would leave a secret's first characters where the whole one is no longer there to be found.
 */
function withRedactedNotes(entries: readonly HarEntry[], redaction: Redaction): HarEntry[] {
  const redacted = (text: unknown) => (typeof text === 'string' ? redaction.text(text) : text);
  return entries.map((entry) => {
    const { response } = entry;
    return {
      ...entry,
      response: {
        ...response,
        headers: response.headers.map((field) =>
          field.name.toLowerCase() === 'non-authoritative-reason'
            ? { ...field, value: redaction.text(field.value) }
            : field,
        ),
        content: { ...response.content, encoding: redacted(response.content.encoding) as string | undefined },
        ...(response._error !== undefined && { _error: redacted(response._error) as string | null }),
        ...(response._failureText !== undefined && { _failureText: redacted(response._failureText) as string }),
      },
    };
  });
}

/**
 * The key a HAR shows without being told it: the one token its calls had accepted (any answer but 401),
 * when a call refused it under another spelling of the Bearer scheme. Two tokens accepted (two users,
 * a key rotated) show no one key: then nothing.
 */
function keyShownByHar(calls: readonly HarExchange[]): { key: string; accepted: number; refused: number } | undefined {
  const bearer = calls.flatMap((call) => {
    const [, scheme = '', token = ''] = /^\s*(\S+)\s+(\S+)\s*$/.exec(call.authorization ?? '') ?? [];
    return scheme.toLowerCase() === 'bearer' ? [{ entry: call.entry, status: call.status, scheme, token }] : [];
  });
  const accepted = bearer.filter((call) => call.status !== 401);
  const tokens = new Set(accepted.map((call) => call.token));
  const [key] = tokens;
  if (tokens.size !== 1 || key === undefined) return undefined;
  for (const refused of bearer.filter((call) => call.status === 401 && call.token === key)) {
    const acceptance = accepted.find((call) => call.scheme !== refused.scheme);
    if (acceptance !== undefined) return { key, accepted: acceptance.entry, refused: refused.entry };
  }
  return undefined;
}

// The token of an Authorization value (`Bearer k` → `k`).
const tokenOf = (authorization: string | undefined) => /^\s*\S+\s+(.*?)\s*$/.exec(authorization ?? '')?.[1];

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function reportOf(
  options: HarJudgeOptions,
  selection: HarSelection,
  parts: {
    verdicts: HarExchangeVerdict[];
    recording: WrittenRecordings;
    sanitized: boolean;
    keyNotInHar: boolean;
    keyFromHar: { key: string; accepted: number; refused: number } | undefined;
    entries: number;
  },
): HarReport {
  const { verdicts, recording } = parts;
  const judgedCount = verdicts.filter((verdict) => verdict.unjudged === undefined).length;
  const violations = verdicts.reduce((total, verdict) => total + verdict.violations.length, 0);
  const base = {
    file: options.file,
    baseUrl: selection.baseUrl,
    entries: parts.entries,
    ignored: selection.ignored,
    otherBases: selection.otherBases,
    exchanges: verdicts,
    judged: judgedCount,
    violations,
    sanitized: parts.sanitized,
    keyNotInHar: parts.keyNotInHar,
    ...(parts.keyFromHar !== undefined && {
      keyFromHar: { accepted: parts.keyFromHar.accepted, refused: parts.keyFromHar.refused },
    }),
    state: options.knownState === undefined ? ('inferred' as const) : { scenario: options.knownState.scenario },
    contract: contractOf(recording, options.save !== undefined),
  };
  // A scenario that could not be saved is the tool's or the disk's failure, not the deployment's: exit 2
  // unless an answer broke the contract.
  if (violations === 0 && recording.disagreements === 0 && recording.failed !== undefined)
    return { ...base, verdict: 'not-run', exitCode: 2, reason: `the scenario could not be saved: ${recording.failed}` };
  if (violations > 0 || recording.disagreements > 0) {
    const why = [
      ...(violations > 0 ? [`${plural(violations, 'violation')} of the specification`] : []),
      ...(recording.disagreements > 0 ? [`${plural(recording.disagreements, 'finding')} against the contract`] : []),
      ...(recording.failed !== undefined ? [recording.failed] : []),
    ];
    return { ...base, verdict: 'failed', exitCode: 1, reason: why.join(', ') };
  }
  if (judgedCount > 0) return { ...base, verdict: 'passed', exitCode: 0 };
  // With --base-url, only entries below it are the interface's: the reason names it, not any /v1.
  const below = options.baseUrl === undefined ? 'a base URL ending with /v1' : selection.baseUrl;
  const reason =
    verdicts.length === 0
      ? `no entry was judged: none of the ${parts.entries} is a call of the order interface (a path of its routes below ${below}, or of v2's below the same base with /v2)`
      : `no entry was judged: ${verdicts.length} ${verdicts.length === 1 ? 'entry' : 'entries'} of the interface, none judged (${unjudgedReasons(verdicts)})`;
  return { ...base, verdict: 'not-run', exitCode: 2, reason };
}

// What the recorder wrote, without the folder it judged in when nothing was to be saved.
function contractOf(recording: WrittenRecordings, saved: boolean): HarContractReport {
  return {
    steps: recording.files.reduce((total, { steps }) => total + steps, 0),
    disagreements: recording.disagreements,
    against: recording.against.map(({ step, findings }) => ({ step, findings })),
    inferred: recording.inferred.map(({ id, status, because }) => ({ id, status, because })),
    ...(recording.dropped !== undefined && {
      dropped: recording.dropped.map(({ id, field, reason }) => ({ ...(id !== undefined && { id }), field, reason })),
    }),
    ...(recording.unreplayable.length > 0 && {
      unreplayable: recording.unreplayable.map(({ step, code, why }) => ({ step, code, why })),
    }),
    saved: saved ? recording.files : [],
    ...(recording.failed !== undefined && { failed: recording.failed }),
  };
}

/** Why the entries were not judged, each reason once, with how many it kept out: `2 × a CORS preflight, …`. */
function unjudgedReasons(verdicts: readonly HarExchangeVerdict[]): string {
  const counts = new Map<string, number>();
  for (const { unjudged } of verdicts) {
    const reason = unjudged ?? 'no answer to judge';
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => (count === 1 ? reason : `${count} × ${reason}`)).join('; ');
}
