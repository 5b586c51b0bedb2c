// Writes docs/cli.md: every command's --help, as the built commands print it. A test fails when the
// file and the help drift apart (run `npm run build && node scripts/write-cli-docs.mjs` after a change).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each command as docs/reference.md names it, and how to run its help. */
const commands = [
  ['petstore-mock', ['dist/bin/petstore-mock.js', '--help']],
  ['petstore-verify', ['dist/bin/petstore-verify.js', '--help']],
  ['petstore-verify explore', ['dist/bin/petstore-verify.js', 'explore', '--help']],
  ['petstore-verify proxy', ['dist/bin/petstore-verify.js', 'proxy', '--help']],
  ['petstore-verify har', ['dist/bin/petstore-verify.js', 'har', '--help']],
  ['petstore-verify publish-pact', ['dist/bin/petstore-verify.js', 'publish-pact', '--help']],
  ['petstore-verify compat', ['dist/bin/petstore-verify.js', 'compat', '--help']],
];

/** The text of docs/cli.md from the commands' help. */
function cliDocs() {
  const sections = commands.map(([name, args]) => {
    const help = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    return `## \`${name}\`\n\n<!-- not-run: the command's --help as it prints it; docs.test.ts compares it with the built command's -->\n\`\`\`\n${help.trimEnd()}\n\`\`\`\n`;
  });
  return `# The commands\n\nEvery command's \`--help\`, as it prints it (\`scripts/write-cli-docs.mjs\` writes this file; a test\nfails when it drifts). \`docs/reference.md\` lists every flag of each.\n\n${sections.join('\n')}`;
}

// `--stdout` prints the text instead of writing it: the test compares it with the file.
if (process.argv.includes('--stdout')) process.stdout.write(cliDocs());
else writeFileSync(new URL('../docs/cli.md', import.meta.url), cliDocs());
