import { KitError } from '../../core/errors.js';

/**
 * The codes of the errors `petstore-verify compat` throws: input it cannot judge (exit 2).
 * @example
 * compatErrorCodes.nothing_compared // 'two documents (or a pact and a document) with no operation to compare: nothing was judged'
 */
export const compatErrorCodes = {
  unreadable_document: 'a document or a pact file that cannot be read: missing, a folder, no permission',
  invalid_document:
    'a document that is not YAML or JSON, not OpenAPI 3.x, holds a $ref that resolves to nothing or to a URL, or a pattern a pact value is judged by that is no regular expression',
  invalid_pact:
    'a pact file that is not a Pact: not JSON, no consumer name, no interactions, an interaction without a request or a status',
  nothing_compared: 'two documents (or a pact and a document) with no operation to compare: nothing was judged',
} as const;

/** A code of `compatErrorCodes`. */
export type CompatErrorCode = keyof typeof compatErrorCodes;

/**
 * An error of the compatibility check: a `KitError` whose code is one of `compatErrorCodes`.
 * @example
 * throw new CompatError('nothing_compared', 'old.yaml and new.yaml hold no operation: nothing to compare');
 */
export class CompatError extends KitError<CompatErrorCode> {
  override name = 'CompatError';
}
