import { type CompatLevel, type CompatRuleId, compatLevel } from './compat-rules.js';

/**
 * One change between two documents, or one way a consumer's pact breaks against the new one, as data:
 * the rule (`code`) and its level (`severity`), the operation it is about (`GET /v1/store/orders`, or
 * `''` for the document), where in it (`path`: `/responses/200/body/[]/petId`, `/parameters/query/limit`,
 * `/security`, `/servers`), and what the old document (or the pact) had beside what the new one has.
 * A pact's finding also names its consumer and the interaction's description.
 */
export interface CompatFinding {
  code: CompatRuleId;
  severity: CompatLevel;
  operation: string;
  path: string;
  expected: string;
  actual: string;
  consumer?: string;
  interaction?: string;
}

/**
 * A finding of a rule, its severity read from the rule table.
 * @example
 * compatFinding('api-added', { operation: 'GET /v2/store/orders', path: '', expected: 'no operation', actual: 'one' }).severity // 'info'
 */
export function compatFinding(code: CompatRuleId, where: Omit<CompatFinding, 'code' | 'severity'>): CompatFinding {
  return { code, severity: compatLevel(code), ...where };
}
