// Characters that act rather than show in a terminal or a CI log: C0 controls (ESC starts a terminal
// escape, CR rewrites a line, LF starts a new one), DEL, C1 controls (U+009B is a one-byte CSI), the
// line and paragraph separators, and the Unicode bidirectional marks, embeddings, overrides and
// isolates (which reorder what follows them on the line: "Trojan Source", CVE-2021-42574).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this module finds, on purpose
const acting = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

// A line that starts with `::` (or the runner's older `##[`) is a GitHub Actions workflow command,
// after any leading whitespace.
const workflowCommand = /^([^\S\n]*)(:|#)(?=:|#\[)/gm;

/** How `printable` writes a text. */
export interface PrintableOptions {
  /** Leave LF as it is (the kit's own line breaks in a multi-line text): each line is then made safe alone. */
  keepLineFeeds?: boolean;
}

/**
 * A text that came from outside the kit (a HAR file, an upstream's answer, a broker), made safe to
 * print on a line of a terminal or a CI log: every control character (C0, DEL, C1), line or paragraph
 * separator and Unicode bidirectional control written as `\u{…}` (its code point in hex), and a text
 * that would start a workflow command (`::error::…`, `::add-mask::…`, `##[…]`) with its first
 * character written so. Printable text, `\` included, is left as it is. The reporters apply it at the
 * edge, after redaction: a secret is taken out whole first. With `keepLineFeeds` (a report that is a
 * file of several lines, JUnit's), LF stays and each line is held to the workflow-command rule.
 * @example
 * printable('::error::pwned') // '\\u{3a}:error::pwned'
 * printable('ok\u001b[2J\rdone') // 'ok\\u{1b}[2J\\u{d}done'
 */
export function printable(text: string, options: PrintableOptions = {}): string {
  return text
    .replace(acting, (character) =>
      options.keepLineFeeds && character === '\n' ? character : `\\u{${character.codePointAt(0)!.toString(16)}}`,
    )
    .replace(
      workflowCommand,
      (_, space: string, first: string) => `${space}\\u{${first.codePointAt(0)!.toString(16)}}`,
    );
}
