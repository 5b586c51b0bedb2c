import { type CompatFinding, compatFinding } from './compat-finding.js';
import type { CompatRuleId } from './compat-rules.js';

const rules: Record<'response' | 'request-body', Record<'removed' | 'added', CompatRuleId>> = {
  response: { removed: 'response-media-type-removed', added: 'response-media-type-added' },
  'request-body': { removed: 'request-body-media-type-removed', added: 'request-body-media-type-added' },
};

/**
 * The media types of a response's or a request body's `content` removed and added (by type and
 * subtype, case and parameters aside), one finding each:
 * `application/json` changed to `application/problem+json` is one removed and one added (the body's
 * schema is compared apart, across them). What a removal breaks depends on the side: a consumer reading
 * a response's Content-Type, or a client sending a body of the type.
 * @example
 * const findings: CompatFinding[] = [];
 * mediaTypeChanges({ operation: 'GET /v1/store/orders', path: '/responses/200', side: 'response', findings },
 *   new Map([['application/json', {}]]), new Map([['application/problem+json', {}]]));
 * findings.map((finding) => finding.code) // ['response-media-type-removed', 'response-media-type-added']
 */
export function mediaTypeChanges(
  where: { operation: string; path: string; side: 'response' | 'request-body'; findings: CompatFinding[] },
  old: ReadonlyMap<string, unknown>,
  next: ReadonlyMap<string, unknown>,
): void {
  const { operation, path, side, findings } = where;
  // Compared by type and subtype (RFC 9110 §8.3.1): a charset parameter written out is no other type.
  const essence = (type: string) => type.split(';')[0]!.trim();
  const oldEssences = new Set([...old.keys()].map(essence));
  const newEssences = new Set([...next.keys()].map(essence));
  const rule = (change: 'removed' | 'added') => rules[side][change];
  const listed = (types: ReadonlyMap<string, unknown>) => (types.size === 0 ? 'no body' : [...types.keys()].join(', '));
  for (const type of old.keys()) {
    if (newEssences.has(essence(type))) continue;
    findings.push(
      compatFinding(rule('removed'), {
        operation,
        path: `${path}/content/${type}`,
        expected: `the media type ${type}`,
        actual: `only ${listed(next)}`,
      }),
    );
  }
  for (const type of next.keys()) {
    if (oldEssences.has(essence(type))) continue;
    findings.push(
      compatFinding(rule('added'), {
        operation,
        path: `${path}/content/${type}`,
        expected: `only ${listed(old)}`,
        actual: `also ${type}`,
      }),
    );
  }
}
