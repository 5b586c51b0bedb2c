// The document's markers where an editor shows them: the typed client's methods carry `@beta` (v2's
// list, x-stability) and `@deprecated` (the pet read) in their JSDoc, read as TypeScript reads them.
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { majorRoutes } from '../../core/routes.js';
import { projectRoot } from '../support/cli-support.js';

// The tags of each method of OrderClient, as an editor's hover shows them.
function methodTags(): Record<string, string[]> {
  const file = join(projectRoot, 'contracts/client.ts');
  const program = ts.createProgram([file], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const client = checker
    .getExportsOfModule(checker.getSymbolAtLocation(source)!)
    .find((symbol) => symbol.name === 'OrderClient')!;
  const type = checker.getDeclaredTypeOfSymbol(client);
  return Object.fromEntries(
    type.getProperties().map((method) => [method.name, method.getJsDocTags(checker).map((tag) => tag.name)]),
  );
}

const tags = methodTags();

it('marks the method of every operation the document marks with its marker, as a JSDoc tag', () => {
  const marked = majorRoutes.filter((route) => route.stability !== null);
  expect(marked.length).toBeGreaterThan(0);
  for (const route of marked) expect(tags[route.operation]).toContain(route.stability);
});

it("marks the deprecated pet read's method @deprecated, and no stable operation's method either way", () => {
  expect(tags.readPet).toContain('deprecated');
  expect([tags.listOrders, tags.cancelOrder].flat().filter((tag) => tag === 'beta' || tag === 'deprecated')).toEqual(
    [],
  );
});
