import type { DocumentedResponse } from './routes.js';
import type { ObservedResponse } from './observed-response.js';
import type { Finding } from './finding.js';

// A challenge names its scheme first, at the start of the field or after a comma (RFC 9110 §11.6.1).
const bearerChallenge = /(?:^|,)\s*Bearer(?:\s|,|$)/i;

/** A 401 carries `WWW-Authenticate` with a Bearer challenge (RFC 9110 §11.6.1 and RFC 6750 §3: MUST). */
export function challengeFindings(response: ObservedResponse): Finding[] {
  const challenge = response.headers.get('www-authenticate');
  if (challenge === null)
    return [
      {
        code: 'auth-challenge',
        path: 'www-authenticate',
        expected: 'a Bearer challenge in WWW-Authenticate with 401 (RFC 6750 §3)',
        actual: 'no WWW-Authenticate',
      },
    ];
  if (!bearerChallenge.test(challenge))
    return [
      {
        code: 'auth-challenge',
        path: 'www-authenticate',
        expected: 'a Bearer challenge in WWW-Authenticate with 401 (RFC 6750 §3)',
        actual: JSON.stringify(challenge),
      },
    ];
  return [];
}

const weekday = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const month = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
// RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms a recipient must accept.
const httpDate = new RegExp(
  `^(?:${weekday}, \\d{2} ${month} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT` +
    `|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${month}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT` +
    `|${weekday} ${month} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})$`,
);
// RFC 9745 §2.1: Deprecation is a Structured Field Date (RFC 9651 §3.3.7): "@" and an integer, parameters allowed.
const structuredDate = /^@-?\d{1,15}(?:;.*)?$/;

/**
 * The headers a documented response names have their RFCs' syntax where they are sent: `Deprecation`
 * a Structured Field Date (RFC 9745), `Sunset` an HTTP-date (RFC 8594).
 */
export function headerFindings(documented: DocumentedResponse, response: ObservedResponse): Finding[] {
  const findings: Finding[] = [];
  for (const name of documented.headers) {
    const value = response.headers.get(name);
    if (value === null) continue;
    if (name.toLowerCase() === 'deprecation' && !structuredDate.test(value.trim())) {
      findings.push({
        code: 'header-syntax',
        path: name,
        expected: 'Deprecation as a Structured Field Date such as @1767225600 (RFC 9745)',
        actual: JSON.stringify(value),
      });
    }
    if (name.toLowerCase() === 'sunset' && (!httpDate.test(value.trim()) || Number.isNaN(Date.parse(value)))) {
      findings.push({
        code: 'header-syntax',
        path: name,
        expected: 'Sunset as an HTTP-date such as Wed, 30 Jun 2027 23:59:59 GMT (RFC 8594)',
        actual: JSON.stringify(value),
      });
    }
  }
  return findings;
}
