import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../support/cli-support.js';

/**
 * Every fenced code block of README.md and docs/*.md says, in an HTML comment on the line before
 * it, how the suite runs it, or why it does not. The marks (docs/architecture.md, "The docs' code
 * blocks", says the same for writers):
 *
 * - `<!-- block: vitest-file -->`: a complete vitest file, its first line `// NAME.test.ts`; run by
 *   test/package/package.test.ts in a project that installed the packed kit.
 * - `<!-- block: vitest-suite -->`: a file of the whole-suite pattern, its first line `// PATH`;
 *   written at PATH in a project of its own, which vitest then runs (package.test.ts).
 * - `<!-- block: vitest-file-msw3 -->`: a complete vitest file for msw 3, its first line `// NAME.test.ts`;
 *   run by test/package/msw3.test.ts under msw 3.0.5 on Node 24 (msw 3 does not run on Node 20).
 * - `<!-- block: vite-app-msw3 -->`: a file of a Vite app on msw 3's `msw/vite` plugin, its first line
 *   `// PATH` in the app's folder; test/package/msw3.test.ts builds the app and opens it in Chromium.
 * - `<!-- block: module -->`: a whole TypeScript module (its first line may name it `// PATH`),
 *   type-checked against the installed kit, every such block in one tsc run (package.test.ts).
 * - `<!-- block: fragment FRAME -->`: lines that need what FRAME declares around them (the frames
 *   are in doc-frames.ts, each saying what it provides); type-checked in the same tsc run.
 * - `<!-- block: shell-mock -->`: shell lines against a petstore-mock at 127.0.0.1:4010, run by bash
 *   against one started petstore-mock of the installed kit (its address put for 127.0.0.1:4010);
 *   a `curl` line whose comment starts with a status must answer that status (package.test.ts).
 * - `<!-- block: shell-verify -->`: a petstore-verify command against a petstore-mock at
 *   127.0.0.1:4010, run by bash against the installed kit's petstore-mock (its address put for
 *   127.0.0.1:4010) once the provider's install line is run; it must pass (package.test.ts).
 * - `<!-- block: scenario-file -->`, `<!-- block: seed-file -->`: YAML the kit's own loaders must
 *   take as it stands (docs.test.ts).
 * - `<!-- block: journal-entry -->`: a journal entry as GET /__mock/requests gives it: the same fields
 *   and values as the entry of that call (its method and path) on a mock of the default seed, its
 *   time aside (docs.test.ts).
 * - `<!-- block: workflow -->`: a GitHub Actions workflow: parsed as YAML, and the inputs it gives the
 *   kit's action (`uses: ./node_modules/petstore-contract-kit`) are ones action.yml declares, its
 *   required ones included (docs.test.ts); GitHub's runners are not run here.
 * - `<!-- not-run: REASON -->`: not run, for the reason given (an output shown, a command against
 *   a deployment or a CI service, an install line); a mark without a reason fails.
 */
export type BlockMark =
  | {
      kind:
        | 'vitest-file'
        | 'vitest-file-msw3'
        | 'vite-app-msw3'
        | 'vitest-suite'
        | 'module'
        | 'shell-mock'
        | 'shell-verify'
        | 'scenario-file'
        | 'seed-file'
        | 'workflow'
        | 'journal-entry';
    }
  | { kind: 'fragment'; frame: string }
  | { kind: 'not-run'; reason: string };

export interface DocBlock {
  /** The Markdown file, relative to the project's root. */
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The fence's info string (`ts`, `sh`, or empty). */
  language: string;
  /** The block's text, with its final newline. */
  code: string;
  /** What the comment before it says, or undefined when there is none (or not one the test knows). */
  mark: BlockMark | undefined;
  /** The comment before the block as written, or undefined. */
  markText: string | undefined;
}

/** README.md and every docs/*.md, relative to the project's root. */
export async function documentFiles(): Promise<string[]> {
  const docs = (await readdir(join(projectRoot, 'docs'))).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

const simpleKinds = new Set([
  'vitest-file',
  'vitest-file-msw3',
  'vite-app-msw3',
  'vitest-suite',
  'module',
  'shell-mock',
  'shell-verify',
  'scenario-file',
  'seed-file',
  'workflow',
  'journal-entry',
]);

/** A mark's text (the inside of the comment), as data; undefined when it is no mark. */
export function parseMark(text: string): BlockMark | undefined {
  const block = /^block: ([a-z0-9-]+)(?: ([a-z0-9-]+))?$/.exec(text);
  if (block) {
    const [, kind, frame] = block;
    if (kind === 'fragment' && frame) return { kind, frame };
    if (simpleKinds.has(kind!) && frame === undefined) return { kind } as BlockMark;
    return undefined;
  }
  const notRun = /^not-run: (.*\S.*)$/s.exec(text);
  return notRun ? { kind: 'not-run', reason: notRun[1]!.replace(/\s+/g, ' ').trim() } : undefined;
}

/** Every fenced block of one Markdown text, with the mark on the line before it. */
export function blocksOf(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)\s*$/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    if (end === -1) throw new Error(`${file}:${index + 1}: a code block that never closes`);
    const before = lines[index - 1] ?? '';
    const comment = /^<!-- (.*) -->$/.exec(before.trim());
    blocks.push({
      file,
      line: index + 1,
      language: open[1]!,
      code: `${lines.slice(index + 1, end).join('\n')}\n`,
      markText: comment?.[1],
      mark: comment ? parseMark(comment[1]!) : undefined,
    });
    index = end;
  }
  return blocks;
}

/** Every fenced block of the README and docs/, in file order. */
export async function documentBlocks(): Promise<DocBlock[]> {
  const blocks: DocBlock[] = [];
  for (const file of await documentFiles())
    blocks.push(...blocksOf(file, await readFile(join(projectRoot, file), 'utf8')));
  return blocks;
}

/** A block's first line `// NAME` (a file name the block is written to), or undefined. */
export function namedFile(block: DocBlock): string | undefined {
  return /^\/\/ ([\w./-]+\.[cm]?[jt]s)\b/.exec(block.code)?.[1];
}

/** Where a block is, for a failure's message. */
export const where = (block: DocBlock) => `${block.file}:${block.line}`;
