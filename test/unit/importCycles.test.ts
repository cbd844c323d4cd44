import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const SRC_MAIN = resolve(import.meta.dirname, '../../src/main');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** Every relative import (type-only ones too: they tie modules together just the same), as a graph. */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const imports = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    graph.set(file, imports.flatMap((imported) => (imported.fileName.startsWith('.') ? (resolveImport(file, imported.fileName) ?? []) : [])));
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each as paths relative to `root`. */
function importCycles(root: string): string[][] {
  const graph = importGraph(root);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-cycles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds a cycle, type-only imports and folder imports included', () => {
    mkdirSync(join(scratch, 'rules'));
    writeFileSync(join(scratch, 'entry.ts'), "import { rule } from './rules';\nexport type Level = 'a';\nexport const run = rule;\n");
    writeFileSync(join(scratch, 'rules', 'index.ts'), "import type { Level } from '../entry';\nexport const rule = (level: Level) => level;\n");
    writeFileSync(join(scratch, 'leaf.ts'), "import { run } from './entry';\nexport const x = run;\n");
    expect(importCycles(scratch)).toEqual([['entry.ts', 'rules/index.ts']]);
  });

  it('src/main/safety has none', () => {
    expect(importCycles(join(SRC_MAIN, 'safety'))).toEqual([]);
  });

  it('src/main and src/shared have none', () => {
    expect(importCycles(SRC_MAIN)).toEqual([]);
    expect(importCycles(resolve(SRC_MAIN, '../shared'))).toEqual([]);
  });
});
