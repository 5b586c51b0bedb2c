// The compatibility check: two OpenAPI documents compared, and consumers' pacts checked against the
// new one (petstore-verify compat). A room of its own: it reads documents and pacts itself.
export { type ApiDocument, type ApiOperation, readApiDocument } from './api-document.js';
export {
  type CompatibilityOptions,
  type CompatReport,
  type CheckedPact,
  checkCompatibility,
} from './check-compatibility.js';
export { calendarDay } from './calendar-day.js';
export { CompatError, type CompatErrorCode, compatErrorCodes } from './compat-error.js';
export { type CompatFinding, compatFinding } from './compat-finding.js';
export { type CompatLevel, type CompatRule, type CompatRuleId, compatLevel, compatRules } from './compat-rules.js';
export { compareDocuments } from './compare-documents.js';
export { type PactToCheck, type InteractionToCheck, readConsumerPact } from './consumer-pact-file.js';
export { checkPact } from './pact-changes.js';
