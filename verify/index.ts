/**
 * The conformance harness as a library: run the kit's suites against any implementation (the pact,
 * the scenarios), check single responses against the specification, or put a validating proxy in
 * front of a deployment. The `petstore-verify` command is a thin layer over these.
 * @example
 * import { loadScenarios } from 'petstore-contract-kit';
 * import { runVerification } from 'petstore-contract-kit/verify';
 * const report = await runVerification({ baseUrl: 'https://staging.example.com/v1', apiKey: process.env.PETSTORE_API_KEY!,
 *   suites: ['scenarios'], scenarios: await loadScenarios(), version: '0.1.0' });
 * process.exitCode = report.exitCode;
 */
export {
  BaselineError,
  baselineText,
  KnownFailures,
  readBaseline,
  type Baseline,
  type BaselineOutcome,
  type KnownFailure,
} from './run/baseline.js';
export {
  proxyErrorStatuses,
  VerifyError,
  verifyErrorCodes,
  type ProxyErrorCode,
  type VerifyErrorCode,
} from './base/errors.js';
export { checkAgainstSpec, checkResponse, type ObservedResponse } from '../core/checks.js';
export { githubAnnotations, githubSummary } from './report/github.js';
export { findingMessage, type Finding, type SpecArea } from '../core/finding.js';
export { rules, type Rule, type RuleCode } from '../core/rules.js';
export { compareWithModel, ProviderHistory, tolerances, type ComparedCall, type Tolerance } from '../core/compare.js';
export {
  defaultExplorationSeed,
  explorationSettings,
  explore,
  type ExplorationResult,
  type ExplorationSettings,
  type ExploreOptions,
  type SavedScenario,
} from './explore/explore.js';
export { InterfaceModel } from '../mocks/pipeline/interface-model.js';
export type { ModelAnswer } from '../core/compare.js';
export { observe, TargetUnreachable } from './http/observe.js';
export { bodyLimit } from '../core/body-limit.js';
export type { Observation, TargetFailure } from '../core/observation.js';
export { loadPrismOracle, prismLoader } from './base/prism.js';
export { compareOracles, type Disagreement, type PrismDiagnostic, type PrismOracle } from '../core/second-oracle.js';
export { pactProviderBaseUrl, verifyPact, type PactVerifyOptions } from './pact/pact.js';
export {
  checkPactText,
  PactFileError,
  pactDiagnosticCodes,
  readPactDocument,
  type PactCheck,
  type PactDiagnostic,
  type PactDiagnosticCode,
  type PactDocument,
} from './pact/pact-document.js';
export {
  BrokerError,
  fetchListedPact,
  fetchPactsForVerification,
  listPactsForVerification,
  publishPact,
  publishVerificationResult,
  type BrokerAccess,
  type BrokerPact,
  type BrokerPacts,
  type BrokerWaits,
  type ListedPact,
  type ConsumerVersionSelector,
  type PactBroker,
  type PactPublication,
} from './pact/pact-broker.js';
export { ciBuild, type CiBuild, type CiValue } from './pact/ci-environment.js';
export { createValidatingProxy, type ProxyOptions, type ValidatingProxy } from './proxy/proxy.js';
export type { ProxyExchange, ProxyReport, ProxyVerdict } from './proxy/proxy-report.js';
export {
  judgeHar,
  type HarContractReport,
  type HarExchangeVerdict,
  type HarJudgeOptions,
  type HarReport,
} from './har/judge-har.js';
export { harLimits, readHarFile, type HarEntry, type HarLimits } from './har/har-file.js';
export {
  RecordingError,
  ScenarioRecorder,
  type ExchangeToRecord,
  type DroppedValue,
  type RecordedStep,
  type RecorderOptions,
} from './recorder/scenario-recorder.js';
export {
  coverageOf,
  reportedFindings,
  runReport,
  type Coverage,
  type CoverageEntry,
  type ReportedFinding,
  type RunReport,
} from './run/run-report.js';
export {
  disagreementLine,
  exchangeLines,
  findingLine,
  shownDisagreements,
  summaryLines,
  type LineOptions,
} from './report/console.js';
export { findingText } from '../core/finding.js';
export { toHtml } from './report/html.js';
export { harToHtml } from './report/har-html.js';
export { toJson } from './report/json.js';
export { toJunit } from './report/junit.js';
export { compatErrorJunit, compatToJunit } from './report/compat-junit.js';
export { compatFindingLine, compatLines } from './report/compat-lines.js';
export {
  checkCompatibility,
  CompatError,
  compatErrorCodes,
  compatRules,
  type CheckedPact,
  type CompatFinding,
  type CompatibilityOptions,
  type CompatLevel,
  type CompatReport,
  type CompatRuleId,
} from './compat/index.js';
export {
  suiteNames,
  type CaseResult,
  type CheckedExchange,
  type SuiteName,
  type SuiteResult,
  type Verdict,
} from './base/results.js';
export { verify, type TargetOptions, type VerifyOptions } from './provider/run.js';
export { runVerification, type VerificationOptions } from './run/verification.js';
