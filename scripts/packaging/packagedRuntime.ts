import { extractAll } from '@electron/asar';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MirrorCommand, MirrorEvent } from '../../src/main/blocks/mirror/mirrorProtocol';
import type { FromOwnerThread, OwnerThreadData, ToOwnerThread } from '../../src/main/history/ownerThread/ownerThreadMessages';
import { ownerAddress } from '../../src/main/history/ownerLock';
import { MIRROR_WORKER, OWNER_WORKER } from './layoutRules';

/** Upper bound for one smoke run; each ends as soon as it has its answer. */
const RUN_LIMIT_MS = 60_000;

export interface RuntimeResult {
  name: string;
  problems: string[];
}

function runNode(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd, env, timeout: RUN_LIMIT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? String(error) : '') });
    });
  });
}

/**
 * The packed engine, run under plain Node from a copy of app.asar with app.asar.unpacked
 * laid over it: the code paths Electron does not change. `tandem policy check` loads the
 * bash grammar (.wasm) and the packed dependencies; node-pty spawns a shell; the mirror
 * worker, copied alone into an empty directory, parses output. Electron itself cannot run
 * here; this proves the package carries what the engine needs.
 */
export async function checkPackagedRuntime(appDir: string, scratch: string): Promise<RuntimeResult[]> {
  const app = join(scratch, 'app');
  extractAll(join(appDir, 'resources', 'app.asar'), app); // also copies the unpacked files
  const home = join(scratch, 'home');
  mkdirSync(home, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local/state'), XDG_DATA_HOME: join(home, '.local/share'), LANG: 'C.UTF-8' };
  const results: RuntimeResult[] = [];

  const cli = pathToFileURL(join(app, 'out/main/cli.js')).href;
  const policy = await runNode(`const { main } = await import(${JSON.stringify(cli)}); await main(['policy', 'check', '--cwd', ${JSON.stringify(home)}, '--', 'rm -rf /']);`, home, env);
  const verdict = (() => {
    try {
      return JSON.parse(policy.stdout.trim().split('\n').pop() ?? '') as { decision?: string; level?: string };
    } catch {
      return undefined;
    }
  })();
  results.push({
    name: 'the packed engine classifies a command (tandem policy check: grammar .wasm, dependencies)',
    problems: verdict?.decision === 'deny' && verdict.level === 'red' ? [] : [`tandem policy check -- 'rm -rf /' did not answer deny/red (exit ${policy.code}): ${(policy.stdout + policy.stderr).trim().slice(0, 600)}`],
  });

  const pty = pathToFileURL(join(app, 'node_modules/node-pty/lib/index.js')).href;
  const spawned = await runNode(
    `const pty = (await import(${JSON.stringify(pty)})).default; let out = ''; const child = pty.spawn('/bin/sh', ['-c', 'printf packed-pty-works'], { cols: 80, rows: 24 }); child.onData((d) => (out += d)); child.onExit(({ exitCode }) => { console.log(JSON.stringify({ out, exitCode })); });`,
    home,
    env,
  );
  results.push({
    name: "the packed node-pty spawns a shell (its compiled pty.node)",
    problems: spawned.stdout.includes('packed-pty-works') ? [] : [`node-pty from the package did not run a shell (exit ${spawned.code}): ${(spawned.stdout + spawned.stderr).trim().slice(0, 600)}`],
  });

  // A file_change watcher's library: the packed @parcel/watcher loads its watcher.node and reports a write.
  const parcel = pathToFileURL(join(app, 'node_modules/@parcel/watcher/index.js')).href;
  const watched = join(scratch, 'watched');
  mkdirSync(watched, { recursive: true });
  const watching = await runNode(
    `const watcher = (await import(${JSON.stringify(parcel)})).default; const { writeFileSync } = await import('node:fs');` +
      ` const seen = new Promise((resolve) => { const sub = watcher.subscribe(${JSON.stringify(watched)}, (error, events) => { if (events.length) sub.then((s) => s.unsubscribe()).then(() => resolve(events)); });` +
      ` sub.then(() => writeFileSync(${JSON.stringify(join(watched, 'saved.txt'))}, 'x')); }); console.log(JSON.stringify(await seen));`,
    home,
    env,
  );
  results.push({
    name: 'the packed @parcel/watcher sees a file saved (its watcher.node)',
    problems: watching.stdout.includes('saved.txt') ? [] : [`@parcel/watcher from the package did not report a write (exit ${watching.code}): ${(watching.stdout + watching.stderr).trim().slice(0, 600)}`],
  });

  results.push({ name: 'the mirror worker runs on its own (copied alone, nothing beside it)', problems: await checkWorkerAlone(app, scratch) });
  results.push({ name: 'the history owner worker runs from app.asar.unpacked alone and stores and finds a record', problems: await checkOwnerWorkerUnpacked(appDir, scratch) });
  return results;
}

/**
 * The history thread as the packaged engine starts it: from app.asar.unpacked, where only the
 * unpacked files are (its bundle and node-sqlite3-wasm), never the asar's chunks.
 */
async function checkOwnerWorkerUnpacked(appDir: string, scratch: string): Promise<string[]> {
  const chunks = join(appDir, 'resources', 'app.asar.unpacked', 'out/main/chunks');
  let names: string[];
  try {
    names = readdirSync(chunks).filter((file) => OWNER_WORKER.test(`out/main/chunks/${file}`));
  } catch {
    return [`${chunks} cannot be read`];
  }
  const name = names.find((file) => readFileSync(join(chunks, file), 'utf8').includes('workerData'));
  if (!name) return ['no history owner worker in app.asar.unpacked'];
  const file = join(scratch, 'history', 'history.sqlite');
  mkdirSync(join(scratch, 'history'), { recursive: true });
  const data: OwnerThreadData = { file, address: ownerAddress(file) };
  const worker = new Worker(join(chunks, name), { workerData: data, stdout: true, stderr: true });
  const send = (message: ToOwnerThread) => worker.postMessage(message);
  try {
    return await new Promise<string[]>((resolve) => {
      const limit = setTimeout(() => resolve([`the history owner worker did not answer within ${RUN_LIMIT_MS / 1000} s`]), RUN_LIMIT_MS);
      const done = (problems: string[]): void => {
        clearTimeout(limit);
        resolve(problems);
      };
      worker.on('error', (error) => done([`the history owner worker failed: ${error.message}`]));
      worker.on('exit', (code) => done([`the history owner worker exited (code ${code}) before answering`]));
      worker.on('message', (message: FromOwnerThread) => {
        if (message.kind === 'elected') {
          if (!message.owner) return done([`the history owner worker did not take the database: ${message.error ?? 'another owner answered'}`]);
          send({ kind: 'call', id: 1, op: 'record', args: [{ command: 'echo packed-history-works', host: 'packed', startedAt: 1, author: 'you' }] });
          send({ kind: 'call', id: 2, op: 'search', args: { query: 'packed-history' } });
        } else if (message.kind === 'result' && message.id === 2) {
          const found = message.result.ok && JSON.stringify(message.result.value).includes('echo packed-history-works');
          done(found ? [] : [`the history owner worker's search answered ${JSON.stringify(message.result).slice(0, 300)}`]);
        }
      });
    });
  } finally {
    send({ kind: 'close' });
    await worker.terminate();
  }
}

async function checkWorkerAlone(app: string, scratch: string): Promise<string[]> {
  const chunks = join(app, 'out/main/chunks');
  const name = readdirSync(chunks).find((file) => MIRROR_WORKER.test(`out/main/chunks/${file}`));
  if (!name) return ['no mirror worker in the package'];
  const alone = join(scratch, 'worker-alone');
  mkdirSync(alone, { recursive: true });
  copyFileSync(join(chunks, name), join(alone, name));
  const worker = new Worker(join(alone, name), { stdout: true, stderr: true });
  try {
    return await new Promise<string[]>((resolve) => {
      const limit = setTimeout(() => resolve([`the mirror worker did not answer within ${RUN_LIMIT_MS / 1000} s`]), RUN_LIMIT_MS);
      const done = (problems: string[]): void => {
        clearTimeout(limit);
        resolve(problems);
      };
      worker.on('error', (error) => done([`the mirror worker failed: ${error.message}`]));
      worker.on('exit', (code) => done([`the mirror worker exited (code ${code}) before answering`]));
      worker.on('message', (event: MirrorEvent) => {
        if (event.kind === 'ready') {
          const commands: MirrorCommand[] = [
            { op: 'open', mirror: 1, cols: 40, rows: 5, scrollback: 10 },
            { op: 'write', mirror: 1, data: 'packed \u001b[1mmirror\u001b[0m works' },
            { op: 'screenText', mirror: 1, request: 1 },
          ];
          worker.postMessage(commands);
        } else if (event.kind === 'answer') {
          const text = String(event.value);
          done(text.includes('packed mirror works') ? [] : [`the mirror worker's screen reads ${JSON.stringify(text.slice(0, 200))}`]);
        }
      });
    });
  } finally {
    await worker.terminate();
  }
}
