/**
 * The conformance harness as a library: run the kit's scenarios against any implementation, check
 * single responses against the specification, or put a validating proxy in front of a deployment.
 * The `petstore-verify` command is a thin layer over these.
 * @example
 * import { loadScenarios } from 'petstore-contract-kit';
 * import { verify } from 'petstore-contract-kit/verify';
 * const report = await verify({ baseUrl: 'https://staging.example.com/v1', apiKey: process.env.PETSTORE_API_KEY!, scenarios: await loadScenarios() });
 * if (report.violations > 0) process.exitCode = 1;
 */
export { checkAgainstSpec, checkResponse, type Finding, type ObservedResponse, type SpecArea } from './checks.js';
export { compareOracles, loadPrismOracle, type Disagreement, type PrismDiagnostic, type PrismOracle } from './prism.js';
export { pactProviderBaseUrl, publishPact, verifyPact, type PactBroker, type PactPublication, type PactVerifyOptions } from './pact.js';
export { createValidatingProxy, type ProxyExchange, type ProxyOptions, type ProxyReport, type ValidatingProxy } from './proxy.js';
export { disagreementLine, findingLine, stepLines, summaryLines, toJunit } from './report.js';
export { TargetUnreachable, verify, type ScenarioResult, type StepResult, type VerifyOptions, type VerifyReport } from './run.js';
