// A generated project of 50,000 files for the watchers suite: a git work tree (its sources
// committed, so `git check-ignore` reads a real index) with nested source, test and docs
// folders, a gitignored build/ and a node_modules/, all small text files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOTAL_FILES = 50_000;
const pad = (n, width = 2) => String(n).padStart(width, '0');
const letters = 'abcde';

/**
 * Where each kind of file lives; `n` picks one of many, spread over the tree. The same
 * formulas write the tree and name files in it, so a name is always of an existing file.
 */
export const TREE = {
  source: (n) => `src/mod-${pad((n * 7) % 40)}/part-${(n * 3) % 10}/leaf-${letters[n % 5]}/file-${pad(n % 11)}.ts`,
  style: (n) => `src/mod-${pad((n * 13) % 40)}/part-${(n * 7) % 10}/leaf-${letters[(n + 2) % 5]}/style-${n % 2}.css`,
  config: (n) => `src/mod-${pad((n * 11) % 40)}/part-${(n * 9) % 10}/leaf-${letters[(n + 4) % 5]}/meta.json`,
  test: (n) => `test/suite-${pad((n * 3) % 20)}/group-${(n * 7) % 10}/case-${letters[n % 4]}/case-${pad(n % 10)}.test.ts`,
  doc: (n) => `docs/topic-${(n * 3) % 10}/chapter-${(n * 7) % 10}/page-${pad(n % 20)}.md`,
  /** Ignored by git (build/ in .gitignore), and matched by a `**\/*.json` glob. */
  built: (n) => `build/out-${pad((n * 3) % 20)}/chunk-${(n * 7) % 10}/bundle-${pad(n % 10)}.json`,
  /** Never watched. */
  dependency: (n) => `node_modules/pkg-${pad((n * 17) % 160, 3)}/package.json`,
};

/** A folder deep in each part of the tree, for files the bench adds (probes). */
export const DEEP = {
  source: 'src/mod-39/part-9/leaf-e',
  test: 'test/suite-19/group-9/case-d',
  doc: 'docs/topic-9/chapter-9',
};

export function makeProjectTree() {
  const root = mkdtempSync(join(tmpdir(), 'tandem-bench-watchers-'));
  let files = 0;
  const folders = new Set();
  const write = (path, text) => {
    writeFileSync(join(root, path), text);
    files++;
  };
  const folder = (path) => {
    mkdirSync(join(root, path), { recursive: true });
    const parts = path.split('/');
    parts.forEach((_, i) => folders.add(parts.slice(0, i + 1).join('/')));
  };
  const t0 = performance.now();
  write('.gitignore', 'node_modules/\nbuild/\n*.log\n');
  write('package.json', '{ "name": "bench-project", "private": true }\n');
  write('tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
  for (let m = 0; m < 40; m++) {
    for (let p = 0; p < 10; p++) {
      for (const leaf of letters) {
        const dir = `src/mod-${pad(m)}/part-${p}/leaf-${leaf}`;
        folder(dir);
        for (let f = 0; f < 11; f++) write(`${dir}/file-${pad(f)}.ts`, `export const value${f} = ${m * 1000 + p * 10 + f};\n`);
        for (let f = 0; f < 2; f++) write(`${dir}/style-${f}.css`, `.mod-${m} .part-${p} { margin: ${f}px; }\n`);
        write(`${dir}/meta.json`, `{ "module": ${m}, "part": ${p}, "leaf": "${leaf}" }\n`);
      }
    }
  }
  for (let s = 0; s < 20; s++) {
    for (let g = 0; g < 10; g++) {
      for (const kase of letters.slice(0, 4)) {
        const dir = `test/suite-${pad(s)}/group-${g}/case-${kase}`;
        folder(dir);
        for (let f = 0; f < 10; f++) write(`${dir}/case-${pad(f)}.test.ts`, `test('case ${s}.${g}.${kase}.${f}', () => {});\n`);
      }
    }
  }
  for (let t = 0; t < 10; t++) {
    for (let c = 0; c < 10; c++) {
      const dir = `docs/topic-${t}/chapter-${c}`;
      folder(dir);
      for (let f = 0; f < 20; f++) write(`${dir}/page-${pad(f)}.md`, `# Topic ${t}, chapter ${c}, page ${f}\n`);
    }
  }
  for (let o = 0; o < 20; o++) {
    for (let c = 0; c < 10; c++) {
      const dir = `build/out-${pad(o)}/chunk-${c}`;
      folder(dir);
      for (let f = 0; f < 10; f++) {
        write(`${dir}/bundle-${pad(f)}.js`, `export default ${o * 100 + c * 10 + f};\n`);
        write(`${dir}/bundle-${pad(f)}.json`, `{ "chunk": ${c} }\n`);
      }
    }
  }
  // node_modules takes what is left of the 50,000: 160 packages of a package.json and a lib/.
  const packages = 160;
  const left = TOTAL_FILES - files;
  for (let k = 0; k < packages; k++) {
    const dir = `node_modules/pkg-${pad(k, 3)}`;
    folder(`${dir}/lib`);
    write(`${dir}/package.json`, `{ "name": "pkg-${k}", "version": "1.0.${k}" }\n`);
    const libFiles = Math.floor(left / packages) - 1 + (k < left % packages ? 1 : 0);
    for (let f = 0; f < libFiles; f++) write(`${dir}/lib/part-${pad(f)}.js`, `module.exports = ${f};\n`);
  }
  const writtenMs = performance.now() - t0;
  // No automatic gc after the commit: git would pack 40,000 objects in the background while the bench measures.
  const config = ['user.name=bench', 'user.email=bench@tandem.invalid', 'gc.auto=0', 'maintenance.auto=false'].flatMap((setting) => ['-c', setting]);
  const git = (...args) => execFileSync('git', [...config, ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the generated project');
  return {
    root,
    files,
    folders: folders.size,
    writtenMs,
    gitMs: performance.now() - t0 - writtenMs,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
