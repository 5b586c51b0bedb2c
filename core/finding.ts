import type { RuleCode } from './rules.js';

/** Which part of a response a spec-level finding is about: what both oracles, Ajv and Prism, judge. */
export type SpecArea = 'status' | 'content-type' | 'body';

/**
 * One way a response breaks the contract or a scenario, as data: the rule it breaks (`code`, from
 * the table in rules.ts), where (a JSON Pointer into the body, a header's name, or `status`), what
 * was expected and what came. `about` names the call it is about when that is not the exchange's own
 * (the list the harness sent after a cancel, one of several answers sent at once). `area` marks what
 * the specification itself decides (a documented status, the media type, the body's schema), as
 * opposed to the kit's rules and the scenario's expectations. Advisory findings are the kit's own
 * decisions where the specification is open: warnings unless the run is strict.
 */
export interface Finding {
  code: RuleCode;
  path: string;
  expected: string;
  actual: string;
  about?: string;
  area?: SpecArea;
  advisory?: boolean;
}

/**
 * A finding as one sentence, without where it is: `expected integer, got "1"`. Made by the reports,
 * never parsed back.
 * @example
 * findingMessage({ code: 'body-schema', path: '/0/id', expected: 'integer', actual: '"1"' }) // 'expected integer, got "1"'
 */
export function findingMessage(finding: Finding): string {
  return `${finding.about === undefined ? '' : `${finding.about}: `}expected ${finding.expected}, got ${finding.actual}`;
}

/**
 * A finding's message with where it is: `expected integer, got "1" (at /0/id)`.
 * @example
 * findingText({ code: 'body-json', path: '', expected: 'a JSON body', actual: '"oops"' }) // 'expected a JSON body, got "oops"'
 */
export function findingText(finding: Finding): string {
  return `${findingMessage(finding)}${finding.path === '' ? '' : ` (at ${finding.path})`}`;
}

/**
 * The finding for an answer a checker throws on instead of judging (Prism's validator on two
 * Content-Type fields, or one of the kit's own checks): rule `unreadable`, on that exchange alone.
 * @example
 * unreadableFinding("Prism's validator", new TypeError('invalid media type'))
 * // { code: 'unreadable', path: '', expected: "an answer Prism's validator can read", actual: 'one it throws on (TypeError: invalid media type)' }
 */
export function unreadableFinding(checker: string, error: unknown): Finding {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    code: 'unreadable',
    path: '',
    expected: `an answer ${checker} can read`,
    actual: `one it throws on (${reason})`,
  };
}
