// The import graph of src/, for the cycle check of test/architecture.test.ts. ESLint's
// import/no-cycle did this check, and was nine tenths of `npm run lint`'s time (about 50 of its
// 59 CPU seconds): it resolves and parses every module again from each file it lints. Here each
// file is parsed once, by TypeScript's parser alone (no type check), and the graph is walked once.
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** Each .ts file under the folder (paths from the root, with `/`), and the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The specifiers a module loads when it runs: imports, re-exports and `import()`. Imports and
 * re-exports of types only are left out, as import/no-cycle left them out: TypeScript erases
 * them, so they make no cycle when the code runs.
 */
export function runtimeSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !typeOnlyImport(node.importClause)) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !typeOnlyExport(node)) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      !node.isTypeOnly &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** `import type { A }`, or `import { type A, type B }`; a bare `import './x.js'` runs it. */
function typeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** `export type { A } from`, or `export { type A } from`. */
function typeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((element) => element.isTypeOnly)
  );
}

/** The .ts file a relative specifier names (`./a.js` is `./a.ts`), if it is one of `files`. */
function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = posix.join(posix.dirname(from), specifier);
  const candidates = [base.replace(/\.(m|c)?js$/, '.$1ts'), base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * Reads every .ts file under `folder` of `root` (tests beside the source included) into its
 * graph of runtime imports between those files.
 * @example const graph = await importGraph('/repo', 'src');
 */
export async function importGraph(root: string, folder = 'src'): Promise<ImportGraph> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  const files = entries
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'),
    )
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  const known = new Set(files);
  const texts = await Promise.all(files.map((file) => readFile(join(root, file), 'utf8')));
  return new Map(
    files.map((file, index) => {
      const targets = runtimeSpecifiers(file, texts[index]!)
        .map((specifier) => resolve(file, specifier, known))
        .filter((target): target is string => target !== undefined);
      return [file, [...new Set(targets)]];
    }),
  );
}

/**
 * One cycle of each group of files that import each other round (a strongly connected
 * component of more than one file, or a file importing itself), as a path that ends where it
 * starts: `['src/a.ts', 'src/b.ts', 'src/a.ts']`. None when the graph has no cycle.
 */
export function importCycles(graph: ImportGraph): string[][] {
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || (graph.get(group[0]!) ?? []).includes(group[0]!))
    .map((group) => cycleThrough(graph, new Set(group), group.sort()[0]!));
}

/** Tarjan's algorithm, without recursion (a long chain of imports would not overflow the stack). */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** The shortest way from `start` back to itself, within `group`. */
function cycleThrough(graph: ImportGraph, group: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (const target of graph.get(node) ?? []) {
      if (!group.has(target)) continue;
      if (target === start) {
        const between: string[] = [];
        for (let step = node; step !== start; step = cameFrom.get(step)!) between.unshift(step);
        return [start, ...between, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}
