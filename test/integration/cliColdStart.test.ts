import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/main/safety/audit/auditLog';
import { makeTestHome, removeTestHome, testHomeEnv } from '../support/testHome';

/**
 * What the built `tandem` command loads under plain Node, recorded by a module hook that
 * notes every URL Node loads, and which of our source files the loaded chunks hold (the
 * bundler marks each with a `// src/…` line); an `Intl.NumberFormat` built is noted as
 * `intl:NumberFormat` (the first one loads ICU's locale data). How long it takes is the bench's business
 * (`node bench/run.js cli`); this guards the structure that makes it short. Needs the build
 * (`npm test` builds first).
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const launcher = join(repo, 'bin/tandem.js');
const UI_AND_ENGINE_PACKAGES = ['node-pty', 'electron', '@xterm/', 'react', 'react-dom', '@anthropic-ai/sdk', 'openai', 'ws'];
const ENGINE_SOURCE_DIRS = ['src/main/engine/', 'src/main/panes/', 'src/main/pty/', 'src/main/server/', 'src/main/electron/', 'src/main/session/', 'src/main/blocks/', 'src/renderer/'];

let scratch: string;
let home: string;
let recorder: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'out/main/cli.js'))) throw new Error('out/main/cli.js is missing: run `npm run build` before this test');
  scratch = mkdtempSync(join(tmpdir(), 'tandem-cold-start-'));
  home = makeTestHome();
  const hooks = join(scratch, 'recordHooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.TANDEM_LOADED_MODULES, url + '\\n');\n  return next(url, context);\n}\n`);
  recorder = join(scratch, 'record.mjs');
  writeFileSync(
    recorder,
    `import { appendFileSync } from 'node:fs';\nimport { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
      `Intl.NumberFormat = new Proxy(Intl.NumberFormat, { construct(target, args) { appendFileSync(process.env.TANDEM_LOADED_MODULES, 'intl:NumberFormat\\n'); return Reflect.construct(target, args); } });\n`,
  );
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  removeTestHome(home);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every URL Node loaded, ours and the packages'. */
  urls: string[];
  /** The source files inside the loaded chunks of out/main. */
  sources: string[];
}

function runTandem(args: string[], nodeFlags: string[] = []): Run {
  const record = join(scratch, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(record, '');
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(recorder).href, ...nodeFlags, launcher, ...args], {
    cwd: home,
    env: { ...testHomeEnv(home), TANDEM_LOADED_MODULES: record },
    encoding: 'utf8',
  });
  const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  const chunks = urls.filter((url) => url.startsWith(pathToFileURL(join(repo, 'out/main')).href));
  const sources = chunks.flatMap((url) => [...readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ (src\/\S+)$/gm)].map((m) => m[1]!));
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, urls, sources };
}

const packagesIn = (urls: string[]): string[] => urls.filter((url) => url.includes('/node_modules/'));
/** The packages whose files Node loaded from node_modules, by name. */
const packageNames = (urls: string[]): string[] => [...new Set(packagesIn(urls).map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)![1]!))];

describe('the tandem command loads only what a subcommand runs', () => {
  it('--version loads no package and, of our code, only the argument parser', () => {
    const run = runTandem(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^tandem \d+\.\d+\.\d+/);
    expect(packagesIn(run.urls)).toEqual([]);
    expect(run.sources).toContain('src/main/cli/arguments.ts');
    expect(run.sources.filter((source) => !source.startsWith('src/main/cli'))).toEqual(['src/main/version.ts']);
  });

  it('agent --version answers like --version, without the agent, the engine or a model SDK', () => {
    const run = runTandem(['agent', '--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(runTandem(['--version']).stdout);
    expect(packagesIn(run.urls)).toEqual([]);
    expect(run.urls).not.toContain('intl:NumberFormat');
    expect(run.sources.filter((source) => !source.startsWith('src/main/cli'))).toEqual(['src/main/version.ts']);
  });

  it('policy check loads the gate and the grammar, none of the engine, the UI, node-pty or a model SDK', () => {
    const run = runTandem(['policy', 'check', '--', 'rm -rf ~']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'deny', level: 'red' });
    expect(run.sources).toContain('src/main/safety/approval/gateSetup.ts');
    // The only package read from node_modules: zod, smol-toml and picomatch are bundled (read
    // from there, file by file, they made the check about 80 ms slower).
    expect(packageNames(run.urls)).toEqual(['web-tree-sitter']);
    expect(run.urls).not.toContain('intl:NumberFormat');
    expect(packagesIn(run.urls).filter((url) => UI_AND_ENGINE_PACKAGES.some((name) => url.includes(`/node_modules/${name}`)))).toEqual([]);
    expect(run.sources.filter((source) => ENGINE_SOURCE_DIRS.some((dir) => source.startsWith(dir)))).toEqual([]);
    expect(run.urls.filter((url) => /mirrorWorker/.test(url))).toEqual([]);
  });

  it('audit verify loads the verifier, not the gate or the engine, and counts without ICU', async () => {
    const file = join(scratch, 'audit.jsonl');
    const log = new AuditLog(file, join(scratch, 'audit.head'));
    for (const event of ['proposed', 'approved', 'executed'] as const) void log.append({ event, command: 'ls', level: 'green' });
    await log.flush();
    expect(log.lastError).toBeUndefined();
    const run = runTandem(['audit', 'verify', '--file', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('audit log intact: 3 entries');
    expect(run.urls).not.toContain('intl:NumberFormat');
    expect(run.sources).toContain('src/main/safety/audit/auditVerify.ts');
    expect(packageNames(run.urls)).toEqual([]);
    expect(run.sources.filter((source) => source.startsWith('src/main/safety/approval/') || ENGINE_SOURCE_DIRS.some((dir) => source.startsWith(dir)))).toEqual([]);
    expect(packagesIn(run.urls).filter((url) => UI_AND_ENGINE_PACKAGES.some((name) => url.includes(`/node_modules/${name}`)))).toEqual([]);
  });

  it('trace list loads the trace reader, not the gate, the engine or a model SDK', () => {
    // No traces.jsonl in the test home yet: it says so and exits 1.
    const run = runTandem(['trace', 'list']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('does not exist yet');
    expect(run.sources).toContain('src/main/telemetry/traceFile.ts');
    expect(packageNames(run.urls)).toEqual([]);
    expect(run.sources.filter((source) => source.startsWith('src/main/safety/') || source.startsWith('src/main/agent/') || ENGINE_SOURCE_DIRS.some((dir) => source.startsWith(dir)))).toEqual([]);
    expect(packagesIn(run.urls).filter((url) => UI_AND_ENGINE_PACKAGES.some((name) => url.includes(`/node_modules/${name}`)))).toEqual([]);
  });

  it('history stats opens the history store, not the gate, the engine or a model SDK', () => {
    const run = runTandem(['history', 'stats', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ records: 0, schema_version: 2 });
    expect(run.sources).toContain('src/main/history/historyStore.ts');
    // node-sqlite3-wasm is loaded with require(), which the module hook does not see.
    expect(packageNames(run.urls)).toEqual([]);
    expect(run.sources.filter((source) => source.startsWith('src/main/safety/approval/') || source.startsWith('src/main/agent/') || ENGINE_SOURCE_DIRS.some((dir) => source.startsWith(dir)))).toEqual([]);
  });

  it('watchers list reads the files, not the engine, the gate, the file watcher, the history store or a model SDK', () => {
    const run = runTandem(['watchers', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ files: [{ source: 'user' }], watchers: [] });
    expect(run.sources).toContain('src/main/watchers/watcherSchema.ts');
    expect(packageNames(run.urls).filter((name) => name !== 'smol-toml' && name !== 'zod' && name !== 'croner')).toEqual([]);
    // The block rule's command patterns (policy.toml's pattern language) are the one piece of safety/ it needs.
    expect(run.sources.filter((source) => (source.startsWith('src/main/safety/') && source !== 'src/main/safety/policy/commandPatterns.ts') || source.startsWith('src/main/agent/') || source.startsWith('src/main/history/') || ENGINE_SOURCE_DIRS.some((dir) => source.startsWith(dir)))).toEqual([]);
    expect(packagesIn(run.urls).filter((url) => url.includes('/node_modules/@parcel/') || UI_AND_ENGINE_PACKAGES.some((name) => url.includes(`/node_modules/${name}`)))).toEqual([]);
  });

  it('tandem agent runs the engine under plain Node without Electron, the renderer, React or the browser-mode server', () => {
    // No key set up: the run starts its shell, finds no model and ends with exit 4 at once.
    const run = runTandem(['agent', '--json', '-c', 'hello']);
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/"type":"result".*"exit_code":4/);
    expect(run.sources).toContain('src/main/engine/engine.ts');
    expect(run.urls.some((url) => url.includes('/node_modules/node-pty/'))).toBe(true);
    expect(packagesIn(run.urls).filter((url) => ['electron', 'react', 'react-dom', 'ws', '@agentclientprotocol/', 'openai'].some((name) => url.includes(`/node_modules/${name}`)))).toEqual([]);
    // Nothing the first request does not use: the file watcher and the diff load with a file_change
    // trigger or an edit step, and the SDK's OpenTelemetry API is bundled (70 files to resolve otherwise).
    expect(packageNames(run.urls).filter((name) => ['@parcel/watcher', 'diff'].includes(name) || name.startsWith('@opentelemetry/'))).toEqual([]);
    expect(run.sources.filter((source) => ['src/renderer/', 'src/main/electron/', 'src/main/server/', 'src/main/headless/acp/'].some((dir) => source.startsWith(dir)))).toEqual([]);
    // The OpenAI SDK (bundled into a chunk of its own) loads only for that backend.
    expect(run.urls.filter((url) => /\/chunks\/openai-/.test(url))).toEqual([]);
  });

  it('tandem agent compiles no WebAssembly before it needs it: no bash grammar before a step is judged, no scrubber automaton for short texts', () => {
    // No key set up: the run starts its shell and its engine, scrubs its instruction, finds no model and ends (so no HTTP parser either).
    const run = runTandem(['agent', '--json', '-c', 'hello'], ['--trace-wasm-compilation-times']);
    expect(run.code).toBe(4);
    expect(run.stdout.split('\n').filter((line) => /using (Liftoff|TurboFan)/.test(line))).toEqual([]);
  });

  it("policy check never hands the bash grammar to V8's optimizing compiler (a one-line check would wait for it to exit)", () => {
    const run = runTandem(['policy', 'check', '--', 'ls -la | grep x'], ['--trace-wasm-compilation-times']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    // V8's compile threads print the trace to the same stdout while the verdict is written: on a
    // busy machine a trace line can end up on the verdict's line, before or after it.
    const verdictLine = lines.find((line) => line.includes('{"')) ?? '';
    expect(JSON.parse(verdictLine.slice(verdictLine.indexOf('{'), verdictLine.lastIndexOf('}') + 1))).toMatchObject({ level: 'green' });
    // The trace names the compiler of each function; Liftoff compiles them all.
    expect(lines.some((line) => line.includes('using Liftoff'))).toBe(true);
    expect(lines.filter((line) => line.includes('using TurboFan'))).toEqual([]);
  });
});
