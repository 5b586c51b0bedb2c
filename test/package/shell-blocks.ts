import type { DocBlock } from './doc-blocks.js';

/** The docs' examples name the mock at this address; a test puts its own mock's for it. */
export const docsMockAddress = '127.0.0.1:4010';

// On the script's first line, so that a block's line k is the script's line k + 1. curl reports each
// answer's status with the line it was called from.
const curlPrelude =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${...}, on purpose
  'set -e; curl() { local status; status=$(command curl -sS -o /dev/null -w "%{http_code}" "$@"); echo "${BASH_LINENO[0]} $status"; }\n';

/**
 * A `<!-- block: shell-mock -->` as a bash script against the mock at `address` (host:port), each
 * curl printing the line it is on and the status it got.
 *
 * @example
 * await writeFile(script, curlScript(block, '127.0.0.1:40123'));
 */
export function curlScript(block: DocBlock, address: string): string {
  return curlPrelude + block.code.replaceAll(docsMockAddress, address);
}

/**
 * What a shell-mock block's run answered, and what its comments say each curl must answer, both as
 * `FILE:LINE: COMMAND → STATUS` lines (`→ any` where a comment names no status), for one `toEqual`.
 *
 * @example
 * const { answered, expected } = curlStatuses(block, exit.stdout);
 * expect(answered).toEqual(expected);
 */
export function curlStatuses(block: DocBlock, stdout: string): { answered: string[]; expected: string[] } {
  const lines = block.code.split('\n');
  const expected = lines.flatMap((line, index) =>
    /^curl /.test(line)
      ? [
          `${block.file}:${block.line + index + 1}: ${line.replace(/\s+#.*/, '')} → ${/#\s*(\d{3})\b/.exec(line)?.[1] ?? 'any'}`,
        ]
      : [],
  );
  const answered = stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .map(
      ([line, status]) =>
        `${block.file}:${block.line + Number(line) - 1}: ${lines[Number(line) - 2]!.replace(/\s+#.*/, '')} → ${status}`,
    )
    .map((line, index) => (expected[index]?.endsWith('→ any') ? line.replace(/→ \d+$/, '→ any') : line));
  return { answered, expected };
}
