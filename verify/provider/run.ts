import { authorizationHeader, type KeyChoice } from '../../core/authorization.js';
import { stateChangeBody } from '../../core/provider-state.js';
import { contractSteps, injectsFaults, stepTarget, type ContractStep, type Scenario } from '../../core/scenario.js';
import { matchRoute } from '../../core/routes.js';
import { parseJson } from '../../core/parse-json.js';
import type { StoredOrder } from '../../core/records.js';
import { pageAgainstModel, type PageSeen, type PageStart } from '../scenario/page-against-model.js';
import type { Finding, ObservedResponse } from '../../core/checks.js';
import { ProviderHistory, raceFindings } from '../../core/compare.js';
import { judgeCall } from '../../core/judge.js';
import { InterfaceModel } from '../../mocks/pipeline/interface-model.js';
import type { ModelAnswer } from '../../core/compare.js';
import { defaultRequestTimeout, observe, TargetUnreachable } from '../http/observe.js';
import { failureFinding, isFailure, type Observation } from '../../core/observation.js';
import { loadPrismOracle } from '../base/prism.js';
import type { Disagreement, PrismOracle } from '../../core/second-oracle.js';
import {
  caseVerdict,
  findingsOnlyExchange,
  tallySuite,
  type CaseResult,
  type CheckedExchange,
  type SuiteResult,
} from '../base/results.js';
import { KitError } from '../../core/errors.js';
import { VerifyError } from '../base/errors.js';

export { TargetUnreachable };

/** Where and how to reach a target: what every suite shares. */
export interface TargetOptions {
  /** The base URL of the implementation, ending with /v1. */
  baseUrl: string;
  /** An API key the target accepts. */
  apiKey: string;
  /** Where to POST Pact state-change requests; without it, what sets a provider state is skipped. */
  stateUrl?: string;
  /** Milliseconds to wait for one whole answer, headers and body. Default: 10,000. */
  timeout?: number;
  /** When the run must end (a `Date.now()` time): what is left is not run, and the run fails. Default: none. */
  deadline?: number;
  /** Counts the requests that timed out in this run: after `stallLimit` of them the target has stopped answering, and the run stops. */
  watch?: TargetWatch;
  /** Called with every request the harness sends to the target or its state URL, before it is sent (for logs, or to replay them). */
  onRequest?: (url: string, init: Parameters<typeof observe>[1]) => void;
  /** Check every response with Prism's validator too, and report where it and Ajv disagree. Default: true. */
  prism?: boolean;
  /** How to load Prism's oracle when `prism` is not false: `runVerification` passes one loader to all its suites, so Prism loads once a run. Default: `loadPrismOracle`. */
  loadPrism?: () => Promise<PrismOracle>;
  /** Count advisory findings (the kit's own decisions) as violations. */
  strict?: boolean;
}

/** How to run scenarios against a target. */
export interface VerifyOptions extends TargetOptions {
  scenarios: readonly Scenario[];
  /** The stability markers whose operations the run leaves out (`--leave-out-beta`): a scenario calling one is skipped, named. */
  leaveOut?: readonly string[];
  /** Called after every judged exchange, for progress output. */
  onExchange?: (exchange: CheckedExchange, scenario: string) => void;
}

/** Sends a state change (setup or teardown) to the state URL; throws a one-line Error when it is refused or fails. */
export async function changeProviderState(
  options: TargetOptions & { stateUrl: string },
  orders: readonly unknown[],
  action: 'setup' | 'teardown',
): Promise<void> {
  const { stateUrl } = options;
  const observed = await sendToTarget(options, stateUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stateChangeBody(orders, action),
  });
  if (isFailure(observed))
    throw new VerifyError('state_change_failed', `provider state ${action} at ${stateUrl} failed: ${observed.failure}`);
  if (observed.status < 200 || observed.status > 299) {
    // The cut marked (…): the redaction then takes out a key the answer echoed that the cut left half of.
    const quoted = observed.text.length > 200 ? `${observed.text.slice(0, 200)}…` : observed.text;
    throw new VerifyError(
      'state_change_failed',
      `provider state ${action} at ${stateUrl} answered ${observed.status}: ${quoted.replace(/\s+/g, ' ')}`,
    );
  }
}

/** How many requests may time out in one run before the target counts as no longer answering. */
export const stallLimit = 3;

/** The requests of a run that timed out, shared by its suites. */
export interface TargetWatch {
  timeouts: number;
}

/** The run stops sending: its deadline passed, or the target stopped answering. `message` says which. */
export class RunStopped extends KitError<'run_stopped'> {
  override name = 'RunStopped';

  constructor(message: string) {
    super('run_stopped', message);
  }
}

/**
 * The timeout for the next request: the per-request timeout, or what is left before the deadline.
 * @throws RunStopped when the deadline has passed or `stallLimit` requests have timed out.
 */
export function requestTimeout(options: TargetOptions): number {
  const timeout = options.timeout ?? defaultRequestTimeout;
  if (options.watch !== undefined && options.watch.timeouts >= stallLimit)
    throw new RunStopped(
      `the target stopped answering: ${options.watch.timeouts} requests got no complete answer in time`,
    );
  if (options.deadline === undefined) return timeout;
  const left = options.deadline - Date.now();
  if (left <= 0) throw new RunStopped('the run passed its deadline');
  return Math.max(1, Math.min(timeout, left));
}

/**
 * Sends one request to the target under the run's timeout, deadline and watch.
 * @throws TargetUnreachable, RunStopped.
 */
export async function sendToTarget(
  options: TargetOptions,
  url: string,
  init: Parameters<typeof observe>[1],
): Promise<Observation> {
  const timeout = requestTimeout(options);
  options.onRequest?.(url, init);
  const observation = await observe(url, init, timeout);
  if (isFailure(observation) && observation.timedOut && options.watch !== undefined) options.watch.timeouts++;
  return observation;
}

/**
 * The base URL of a major beside the run's (which ends with `/v1`): v2's is v1's with `/v2` for `/v1`.
 * @example
 * majorBaseUrl('http://127.0.0.1:4010/v1/', '/v2') // 'http://127.0.0.1:4010/v2'
 */
export function majorBaseUrl(baseUrl: string, base = '/v1'): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return base === '/v1' ? trimmed : trimmed.replace(/\/v1$/, base);
}

/**
 * Sends one call of a step or a command to the target, with the key choice's header; `path` is below
 * the major's base path (`/v1` unless `base` says another) and may carry a query.
 * @throws TargetUnreachable, RunStopped.
 */
export function sendCall(
  options: TargetOptions,
  method: string,
  path: string,
  key: KeyChoice | undefined,
  base = '/v1',
): Promise<Observation> {
  return sendToTarget(options, `${majorBaseUrl(options.baseUrl, base)}${path}`, {
    method,
    headers: { accept: 'application/json', ...authorizationHeader(key, options.apiKey) },
  });
}

/** One judged response, as `judged` takes it. */
export interface Judgement {
  /** The exchange's name: a step's, an interaction's, a numbered command's. */
  name: string;
  call: { method: string; path: string };
  observed: Observation;
  findings: Finding[];
  disagreements?: Disagreement[];
  /** Whether advisory findings are violations too. */
  strict: boolean;
  /** When the exchange started (`performance.now()`). */
  started: number;
}

/**
 * Turns the findings of one response into an exchange: violations, or warnings when advisory and
 * not strict; a finding given twice counts once.
 */
export function judged(judgement: Judgement): CheckedExchange {
  const { name, call, observed, findings, disagreements = [], strict, started } = judgement;
  const unique = findings.filter(
    (finding, index) =>
      findings.findIndex(
        (other) =>
          other.code === finding.code &&
          other.path === finding.path &&
          other.expected === finding.expected &&
          other.actual === finding.actual &&
          other.about === finding.about,
      ) === index,
  );
  return {
    name,
    method: call.method,
    path: call.path,
    ...(!isFailure(observed) && { status: observed.status }),
    violations: unique.filter((finding) => strict || !finding.advisory),
    warnings: unique.filter((finding) => !strict && finding.advisory === true),
    disagreements,
    durationMs: performance.now() - started,
  };
}

interface ScenarioContext {
  options: VerifyOptions;
  prism: PrismOracle | undefined;
  /** The model, for scenarios that set a provider state (a scenario without one runs against any store). */
  model: InterfaceModel | undefined;
  history: ProviderHistory;
  /** What the last v2 page answered showed: the cursor a `cursor: follow` step sends, and where its page starts. */
  page?: PageSeen;
}

/** The step that follows a cursor where the page before it gave none: named, not sent, never a violation. */
function walkEndedExchange(step: ContractStep, path: string): CheckedExchange {
  return {
    name: step.name,
    method: step.request.method,
    path,
    violations: [],
    warnings: [
      {
        code: 'walk-ended',
        path: '/nextCursor',
        expected: 'a nextCursor on the v2 page before this step, to follow',
        actual: 'none: the walk ended there, so this step was not sent',
      },
    ],
    disagreements: [],
    durationMs: 0,
  };
}

async function runStep(
  context: ScenarioContext,
  step: ContractStep,
): Promise<{ exchange: CheckedExchange; failed: boolean }> {
  const { options, model } = context;
  const started = performance.now();
  const { method, path, key, base = '/v1' } = step.request;
  const follows = step.request.cursor === 'follow';
  if (follows && typeof context.page?.nextCursor !== 'string')
    return { exchange: walkEndedExchange(step, `${base}${stepTarget(step.request)}`), failed: false };
  const target = stepTarget(step.request, follows ? (context.page?.nextCursor ?? undefined) : undefined);
  const before = model === undefined ? [] : await model.orders();
  const count = step.parallel ?? 1;
  const observations = await Promise.all(
    Array.from({ length: count }, () => sendCall(options, method, target, key, base)),
  );
  const answers: ModelAnswer[] = [];
  for (let call = 0; call < count && model !== undefined; call++) {
    // The model never saw the provider's cursor: it answers the page's query without it, and the page is
    // judged against its store from where the page before it ended (`pageAgainstModel`).
    const answer = await model.call(method, stepTarget(step.request), key, base);
    if (answer !== undefined) answers.push(answer);
  }
  const after = model === undefined ? [] : await model.orders();
  const failure = observations.find(isFailure);
  if (failure !== undefined) {
    return {
      exchange: judged({
        name: step.name,
        call: step.request,
        observed: failure,
        findings: [failureFinding(failure)],
        strict: true,
        started,
      }),
      failed: true,
    };
  }
  const responses = observations as ObservedResponse[];
  const { findings, disagreements } =
    count === 1
      ? judgeCall({
          call: { method, path, base },
          observed: responses[0]!,
          step,
          model: answers[0] === undefined ? undefined : { answer: answers[0], before, after, history: context.history },
          prism: base === '/v1' ? context.prism : undefined,
        })
      : { findings: raceJudgement(step, responses), disagreements: [] };
  if (matchRoute(method, path, base)?.route.operation === 'listOrdersV2') {
    // Each answer of a step sent several times at once is a page too, named by its answer as the race's
    // findings are; the step that follows a cursor follows the first answer's.
    const previous = context.page;
    const pages = responses.map((observed, index) =>
      judgedPage(context, { step, target, observed, before, answer: answers[index], previous }),
    );
    context.page = pages[0]?.seen;
    findings.push(
      ...pages.flatMap(({ findings: found }, index) =>
        count === 1
          ? found
          : found.map((finding) => ({
              ...finding,
              path: `answer ${index + 1}${finding.path ? ` ${finding.path}` : ''}`,
            })),
      ),
    );
  }
  return {
    exchange: judged({
      name: step.name,
      call: { method, path: base === '/v1' ? target : `${base}${target}` },
      observed: responses[0]!,
      findings,
      disagreements,
      strict: options.strict ?? false,
      started,
    }),
    failed: false,
  };
}

/**
 * A v2 page a step was answered: judged against the model's store from where it starts (the first page,
 * after the page whose cursor it follows, or unknown for a cursor written in the step), or by what it
 * shows of itself where there is no store; and what it shows, for the step that follows its cursor.
 */
function judgedPage(
  context: ScenarioContext,
  input: {
    step: ContractStep;
    target: string;
    observed: ObservedResponse;
    before: readonly StoredOrder[];
    answer: ModelAnswer | undefined;
    /** What the v2 page answered before this step showed. */
    previous: PageSeen | undefined;
  },
): { findings: Finding[]; seen: PageSeen | undefined } {
  const { step, target, observed, before, answer, previous } = input;
  if (observed.status !== 200) return { findings: [], seen: undefined };
  let body: unknown;
  try {
    body = parseJson(observed.text);
  } catch {
    return { findings: [], seen: undefined }; // the specification's check names a body that is not JSON
  }
  const query = new URLSearchParams(target.split('?')[1] ?? '');
  const start: PageStart =
    step.request.cursor === 'follow' ? (previous?.next ?? 'unknown') : query.has('cursor') ? 'unknown' : 'first';
  // Without a model, or where it refused the call, there is no store to judge the page against: the page
  // is judged by what it shows of itself (its limit, its filter, ascending ids), as a HAR's page is.
  const store = context.model === undefined || answer?.status !== 200 ? undefined : before;
  return pageAgainstModel({ query, start, body, store });
}

/** The answers of a step sent several times at once: the race rule, and each answer against the specification. */
function raceJudgement(step: ContractStep, responses: readonly ObservedResponse[]): Finding[] {
  const statuses = responses.map((response) => response.status);
  return [
    ...raceFindings(step.expect, statuses),
    ...eachAnswerAgainstSpec(step.request.method, step.request.path, responses, step.request.base),
  ];
}

/** The exchange that records why the run stopped: a violation, so the run cannot end green. */
export function stoppedExchange(reason: string): CheckedExchange {
  return findingsOnlyExchange('stopped', [
    { code: 'run-stopped', path: '', expected: 'the run to finish', actual: reason },
  ]);
}

/**
 * The answers of N identical requests sent at once, each against the specification (of the major at
 * `base`, `/v1` unless given), each finding named by its answer (`answer 2 /0/id`).
 */
export function eachAnswerAgainstSpec(
  method: string,
  path: string,
  responses: readonly ObservedResponse[],
  base = '/v1',
): Finding[] {
  return responses.flatMap((observed, index) =>
    judgeCall({ call: { method, path, base }, observed }).findings.map((finding) => ({
      ...finding,
      path: `answer ${index + 1}${finding.path ? ` ${finding.path}` : ''}`,
    })),
  );
}

// A scenario's result, and why the run stopped when it stopped during this scenario.
async function runScenario(
  options: VerifyOptions,
  prism: PrismOracle | undefined,
  scenario: Scenario,
): Promise<{ result: CaseResult; stopped?: string }> {
  const result: CaseResult = {
    name: scenario.name,
    description: scenario.description,
    verdict: 'passed',
    exchanges: [],
  };
  if (injectsFaults(scenario))
    return { result: { ...result, verdict: 'skipped', reason: 'it injects faults, which only the mock can replay' } };
  if (scenario.state !== undefined && options.stateUrl === undefined)
    return {
      result: { ...result, verdict: 'skipped', reason: 'it sets a provider state, and no --state-url was given' },
    };
  // Its steps depend on one another: a scenario that calls an operation the run leaves out is left out whole.
  const leftOut = scenario.steps
    .map((step) => matchRoute(step.request.method, step.request.path, step.request.base)?.route)
    .find(
      (route) => route !== undefined && route.stability !== null && (options.leaveOut ?? []).includes(route.stability),
    );
  if (leftOut !== undefined)
    return {
      result: {
        ...result,
        verdict: 'skipped',
        reason: `it calls ${leftOut.operation} (${leftOut.method} ${leftOut.base}${leftOut.path}, ${leftOut.stability}), which the run leaves out`,
      },
    };
  const orders = scenario.state?.params.orders;
  try {
    if (orders !== undefined) await changeProviderState({ ...options, stateUrl: options.stateUrl! }, orders, 'setup');
  } catch (error) {
    if (error instanceof TargetUnreachable || error instanceof RunStopped) throw error;
    return { result: { ...result, verdict: 'error', reason: (error as Error).message } };
  }
  let stopped: string | undefined;
  const context: ScenarioContext = {
    options,
    prism,
    model: orders === undefined ? undefined : await InterfaceModel.seeded(orders),
    history: new ProviderHistory(),
  };
  try {
    for (const step of contractSteps(scenario)) {
      const { exchange, failed } = await runStep(context, step);
      result.exchanges.push(exchange);
      options.onExchange?.(exchange, scenario.name);
      if (failed) {
        result.reason = 'the target failed to answer a step; the steps after it were not sent';
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof RunStopped)) throw error;
    const exchange = stoppedExchange(error.message);
    result.exchanges.push(exchange);
    options.onExchange?.(exchange, scenario.name);
    result.reason = stopped = error.message;
  } finally {
    // Pact's teardown after each scenario that set a state; a failure to tear down is not the contract's.
    if (orders !== undefined)
      await changeProviderState({ ...options, stateUrl: options.stateUrl! }, [], 'teardown').catch(() => undefined);
  }
  return { result: { ...result, verdict: caseVerdict(result.exchanges) }, ...(stopped !== undefined && { stopped }) };
}

/**
 * Runs scenarios against a target: sets each scenario's provider state through `stateUrl` (and the
 * same state in the model, the kit's own mock), sends its steps, and checks every response against
 * the specification, the step's expectations and the model's answer; tears the state down after.
 * Every failure of the target (a reset, a truncation, a bad encoding, a timeout) is a violation.
 * @throws TargetUnreachable when the target or the state URL does not answer at all.
 * @example
 * const suite = await verify({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key',
 *   stateUrl: 'http://127.0.0.1:4010/__mock/provider-state', scenarios: await loadScenarios() });
 * suite.violations // 0
 */
export async function verify(options: VerifyOptions): Promise<SuiteResult> {
  const started = performance.now();
  const prism = options.prism === false ? undefined : await (options.loadPrism ?? loadPrismOracle)();
  const cases: CaseResult[] = [];
  let stopped: string | undefined;
  for (const scenario of options.scenarios) {
    if (stopped === undefined) {
      try {
        requestTimeout(options);
      } catch (error) {
        if (!(error instanceof RunStopped)) throw error;
        stopped = error.message;
        const exchange = stoppedExchange(error.message);
        cases.push({
          name: scenario.name,
          description: scenario.description,
          verdict: 'failed',
          reason: stopped,
          exchanges: [exchange],
        });
        options.onExchange?.(exchange, scenario.name);
        continue;
      }
      const outcome = await runScenario(options, prism, scenario);
      cases.push(outcome.result);
      stopped = outcome.stopped;
    } else {
      cases.push({
        name: scenario.name,
        description: scenario.description,
        verdict: 'skipped',
        reason: `not run: ${stopped}`,
        exchanges: [],
      });
    }
  }
  return tallySuite('scenarios', cases, performance.now() - started);
}
