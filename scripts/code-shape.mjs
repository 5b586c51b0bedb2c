// What issue 35 asks of the code's shape, measured: source files over 400 lines, functions over 60
// lines, the share of comment lines per folder, and exported names defined twice. Hand-written
// sources only (no generated code, no tests). Run: node scripts/code-shape.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const folders = ['core', 'mocks', 'contracts', 'verify', 'cli'];
const files = execFileSync('git', ['ls-files', ...folders.map((folder) => `${folder}/*.ts`)], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .filter((file) => !file.includes('/generated/') && !file.endsWith('.test.ts'));

const longFiles = [];
const longFunctions = [];
const shares = new Map(folders.map((folder) => [folder, { comments: 0, lines: 0 }]));
const exported = new Map();
const repeated = [];

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  if (lines.length > 400) longFiles.push(`${lines.length} ${file}`);
  const share = shares.get(file.split('/')[0]);
  for (const line of lines.map((each) => each.trim()).filter(Boolean)) {
    share.lines++;
    if (/^(\/\/|\/\*|\*)/.test(line)) share.comments++;
  }
  if (file !== 'mocks/index-browser.ts' && !file.split('/').includes('generated'))
    for (const [, name] of text.matchAll(
      /^export (?:async )?(?:function|const|class|interface|type) ([A-Za-z0-9_]+)/gm,
    )) {
      if (exported.has(name)) repeated.push(`${name} in ${exported.get(name)} and ${file}`);
      else exported.set(name, file);
    }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    const isFunction =
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node);
    if (isFunction && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const length = source.getLineAndCharacterOfPosition(node.end).line - start + 1;
      if (length > 60) longFunctions.push(`${length} ${file}:${start + 1} ${node.name?.getText() ?? '(anonymous)'}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const list = (title, items) => console.log(`${title}: ${items.length === 0 ? 'none' : `\n  ${items.join('\n  ')}`}`);
list(
  'files over 400 lines',
  longFiles.sort((a, b) => Number.parseInt(b, 10) - Number.parseInt(a, 10)),
);
list(
  'functions over 60 lines',
  longFunctions.sort((a, b) => Number.parseInt(b, 10) - Number.parseInt(a, 10)),
);
list('exported names defined twice', repeated);
console.log('comment lines, of non-blank lines:');
for (const [folder, { comments, lines }] of shares)
  console.log(`  ${folder}: ${comments}/${lines} = ${((100 * comments) / lines).toFixed(1)}%`);
