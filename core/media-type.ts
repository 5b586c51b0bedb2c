// A Content-Type value as RFC 9110 writes one, read by the kit itself: what the kit's own check says
// of it does not wait on Prism's parser, which throws on some values (issue 59).

// RFC 9110 §5.6.2 token, §5.6.4 quoted-string (obs-text included), §5.6.6 parameters: empty ones
// (`;;`, a trailing `;`) are allowed, a name without a value is not.
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quotedString = '"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E\\x80-\\xFF]|\\\\[\\t \\x21-\\x7E\\x80-\\xFF])*"';
const mediaTypeSyntax = new RegExp(`^${token}/${token}(?:[ \\t]*;[ \\t]*(?:${token}=(?:${token}|${quotedString}))?)*$`);
const quotedStrings = new RegExp(quotedString, 'g');

/** What is wrong with a Content-Type value as a media type, or undefined when it is one. */
export type MediaTypeProblem = 'list' | 'syntax';

/**
 * Whether a Content-Type value is one media type as RFC 9110 §8.3.1 writes it. Content-Type is a
 * singleton field (§5.5): two field lines reach the kit joined by a comma, as one list value, and a
 * list is no media type, even of two identical ones.
 * @example
 * mediaTypeProblem('application/json; charset=utf-8') // undefined
 * mediaTypeProblem('application/json, application/json') // 'list'
 * mediaTypeProblem('application/json; charset=') // 'syntax'
 */
export function mediaTypeProblem(value: string): MediaTypeProblem | undefined {
  if (mediaTypeSyntax.test(value)) return undefined;
  return value.replace(quotedStrings, '""').includes(',') ? 'list' : 'syntax';
}

/** The explanation a finding gives after a Content-Type value that is no media type. */
export const mediaTypeProblemText: Record<MediaTypeProblem, string> = {
  list: 'a list of media types: Content-Type is a singleton field, one media type (RFC 9110 §5.5, §8.3)',
  syntax: 'not a media type as RFC 9110 §8.3.1 writes one (type/subtype, then parameters name=value)',
};
