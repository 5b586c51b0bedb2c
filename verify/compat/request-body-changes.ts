import type { ApiOperation } from './api-document.js';
import { type CompatFinding, compatFinding } from './compat-finding.js';
import { mediaTypeChanges } from './media-type-changes.js';

/**
 * The request body of an operation kept in both documents: one added as required or made required
 * (an error: a client sending none is refused), one removed (a warning: a client still sending it may
 * be refused or ignored), one added as optional (info), and the media types it takes. Its schema is
 * not compared (spec gap 56: the document has no body, and the generator refuses them).
 * @example
 * requestBodyChanges({ oldOperation, newOperation })[0]?.code // 'request-body-media-type-removed'
 */
export function requestBodyChanges(pair: { oldOperation: ApiOperation; newOperation: ApiOperation }): CompatFinding[] {
  const was = pair.oldOperation.requestBody;
  const is = pair.newOperation.requestBody;
  const operation = pair.newOperation.label;
  const path = '/requestBody';
  const findings: CompatFinding[] = [];
  const described = (required: boolean) => `${required ? 'a required' : 'an optional'} request body`;
  if (was === undefined && is === undefined) return findings;
  if (was === undefined || is === undefined) {
    const code =
      is === undefined
        ? 'request-body-removed'
        : is.required
          ? 'request-body-added-required'
          : 'request-body-added-optional';
    findings.push(
      compatFinding(code, {
        operation,
        path,
        expected: was === undefined ? 'no request body' : described(was.required),
        actual: is === undefined ? 'no request body' : described(is.required),
      }),
    );
    return findings;
  }
  if (!was.required && is.required) {
    findings.push(
      compatFinding('request-body-became-required', { operation, path, expected: 'optional', actual: 'required' }),
    );
  }
  mediaTypeChanges({ operation, path, side: 'request-body', findings }, was.media, is.media);
  return findings;
}
