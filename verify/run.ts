import { authorizationHeader } from '../spec/authorization.js';
import { stateChangeBody } from '../spec/provider-state.js';
import { contractSteps, injectsFaults, type Scenario } from '../spec/scenarios.js';
import { checkResponse, type Finding, type ObservedResponse } from './checks.js';
import { compareOracles, loadPrismOracle, type Disagreement } from './prism.js';

/** How to verify a target. */
export interface VerifyOptions {
  /** The base URL of the implementation, ending with /v1. */
  baseUrl: string;
  /** An API key the target accepts. */
  apiKey: string;
  /** Where to POST Pact state-change requests; without it, scenarios that set a state are skipped. */
  stateUrl?: string;
  scenarios: readonly Scenario[];
  /** Count advisory findings (the kit's own decisions) as violations. */
  strict?: boolean;
  /** Check every response with Prism's validator too, and report where it and Ajv disagree. Default: true. */
  prism?: boolean;
  /** Called after every step, for progress output. */
  onStep?: (result: StepResult) => void;
}

/** The outcome of one step. */
export interface StepResult {
  scenario: string;
  step: string;
  method: string;
  path: string;
  status?: number;
  violations: Finding[];
  warnings: Finding[];
  /** Where Prism and Ajv judged this response differently. */
  disagreements: Disagreement[];
  durationMs: number;
}

/** The outcome of one scenario: its steps, or why it was skipped, or the error that stopped it. */
export interface ScenarioResult {
  name: string;
  description: string;
  steps: StepResult[];
  skipped?: string;
  error?: string;
}

/** The whole run. */
export interface VerifyReport {
  baseUrl: string;
  strict: boolean;
  scenarios: ScenarioResult[];
  violations: number;
  warnings: number;
  /** Disagreements between Prism and Ajv, and how many of them are documented Prism limits. */
  disagreements: number;
  knownPrismLimits: number;
  /** Whether Prism checked the responses too. */
  prism: boolean;
  skipped: number;
  errors: number;
  durationMs: number;
}

/** The target did not answer at all (refused, unknown host, reset): the run cannot go on. */
export class TargetUnreachable extends Error {
  override name = 'TargetUnreachable';
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new TargetUnreachable(`cannot reach ${url}: ${describeFailure(error)}`);
  }
}

async function setState(stateUrl: string, scenario: Scenario): Promise<void> {
  const response = await send(stateUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stateChangeBody(scenario.state!.params.orders),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`provider state setup at ${stateUrl} answered ${response.status}: ${text.slice(0, 200)}`);
}

/**
 * Runs scenarios against a target: sets each scenario's provider state through `stateUrl`, sends its
 * steps, and checks every response with `checkResponse`.
 * @throws TargetUnreachable when the target or the state URL does not answer at all.
 * @example
 * const report = await verify({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key',
 *   stateUrl: 'http://127.0.0.1:4010/__mock/provider-state', scenarios: await loadScenarios() });
 * report.violations // 0
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const prism = options.prism === false ? undefined : await loadPrismOracle();
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const results: ScenarioResult[] = [];
  for (const scenario of options.scenarios) {
    const result: ScenarioResult = { name: scenario.name, description: scenario.description, steps: [] };
    results.push(result);
    if (injectsFaults(scenario)) {
      result.skipped = 'it injects faults, which only the mock can replay';
      continue;
    }
    if (scenario.state !== undefined && options.stateUrl === undefined) {
      result.skipped = 'it sets a provider state, and no --state-url was given';
      continue;
    }
    try {
      if (scenario.state !== undefined) await setState(options.stateUrl!, scenario);
    } catch (error) {
      if (error instanceof TargetUnreachable) throw error;
      result.error = (error as Error).message;
      continue;
    }
    for (const step of contractSteps(scenario)) {
      const stepStarted = performance.now();
      const response = await send(`${baseUrl}${step.request.path}`, {
        method: step.request.method,
        headers: { accept: 'application/json', ...authorizationHeader(step.request.key, options.apiKey) },
      });
      const observed: ObservedResponse = { status: response.status, headers: response.headers, text: await response.text() };
      const findings = checkResponse(step, observed);
      let disagreements: Disagreement[] = [];
      if (prism !== undefined) {
        const compared = compareOracles(findings, prism.check(step.request.method, step.request.path, observed), observed);
        findings.push(...compared.violations);
        disagreements = compared.disagreements;
      }
      const stepResult: StepResult = {
        scenario: scenario.name,
        step: step.name,
        method: step.request.method,
        path: step.request.path,
        status: response.status,
        violations: findings.filter((finding) => options.strict || !finding.advisory),
        warnings: findings.filter((finding) => !options.strict && finding.advisory),
        disagreements,
        durationMs: performance.now() - stepStarted,
      };
      result.steps.push(stepResult);
      options.onStep?.(stepResult);
    }
  }
  const steps = results.flatMap((result) => result.steps);
  return {
    baseUrl,
    strict: options.strict ?? false,
    scenarios: results,
    violations: steps.reduce((sum, step) => sum + step.violations.length, 0),
    warnings: steps.reduce((sum, step) => sum + step.warnings.length, 0),
    disagreements: steps.reduce((sum, step) => sum + step.disagreements.length, 0),
    knownPrismLimits: steps.reduce((sum, step) => sum + step.disagreements.filter((disagreement) => disagreement.knownPrismLimit !== undefined).length, 0),
    prism: prism !== undefined,
    skipped: results.filter((result) => result.skipped !== undefined).length,
    errors: results.filter((result) => result.error !== undefined).length,
    durationMs: performance.now() - started,
  };
}
