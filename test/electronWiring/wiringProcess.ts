import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeTestHome, removeTestHome, testHomeEnv } from '../support/testHome';

const builtEntry = fileURLToPath(new URL('../../out/main/index.js', import.meta.url));
const register = fileURLToPath(new URL('./standIn/register.mjs', import.meta.url));
const mainProcess = fileURLToPath(new URL('./mainProcess.mjs', import.meta.url));
const GRACEFUL_QUIT_LIMIT_MS = 15_000;

export interface StandInOptions {
  /** What Electron's argv holds after the executable (switches, app path, arguments). */
  argv?: string[];
  packaged?: boolean;
  /** Another Tandem already holds the single-instance lock. */
  lockTaken?: boolean;
  /** Chromium switches the app sees through app.commandLine. */
  switches?: string[];
  /** Stand-in Electron APIs that throw (e.g. 'protocol.handle'). */
  failing?: string[];
  env?: NodeJS.ProcessEnv;
}

export interface ExitReport {
  code: number | null;
  summary?: WorldSummary;
}

export interface WorldSummary {
  calls: { name: string; detail?: unknown }[];
  menu: { set: boolean; value: unknown };
  windows: { url: string; webPreferences: Record<string, unknown>; minimized: boolean; focused: boolean; shown: boolean; destroyed: boolean; devToolsToggles: number }[];
  schemes: { scheme: string; privileges: Record<string, boolean> }[];
  dialogs: { title: string; content: string }[];
  openedExternally: string[];
}

/**
 * The built Electron entry running in a Node child process with the stand-in `electron`
 * module; `call` runs one of mainProcess.mjs's operations there.
 */
export class WiringProcess {
  readonly home = makeTestHome('tandem-wiring-');
  readonly child: ChildProcess;
  readonly exited: Promise<ExitReport>;
  readonly ready: Promise<void>;
  stdout = '';
  stderr = '';
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private exitReport: ExitReport = { code: null };

  constructor(options: StandInOptions = {}) {
    if (!existsSync(builtEntry)) throw new Error(`${builtEntry} is missing: run \`npm run build\` first.`);
    const argv = options.argv ?? (options.packaged ? [] : ['/opt/Tandem/resources/app']);
    this.child = spawn(process.execPath, ['--import', register, mainProcess], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...testHomeEnv(this.home),
        ...options.env,
        STANDIN_ARGV: JSON.stringify(argv),
        STANDIN_PACKAGED: options.packaged ? '1' : '0',
        STANDIN_LOCK: options.lockTaken ? 'taken' : 'free',
        STANDIN_SWITCHES: (options.switches ?? []).join(','),
        STANDIN_FAIL: (options.failing ?? []).join(','),
      },
    });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    let becameReady: () => void = () => {};
    this.ready = new Promise((resolve) => (becameReady = resolve));
    this.child.on('message', (message: { id?: number; result?: unknown; error?: string; event?: string; code?: number; summary?: WorldSummary }) => {
      if (message.event === 'ready') becameReady();
      if (message.event === 'exit') this.exitReport = { code: message.code ?? null, summary: message.summary };
      if (message.id === undefined) return;
      const request = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) request?.reject(new Error(message.error));
      else request?.resolve(message.result);
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code) => {
        for (const request of this.pending.values()) request.reject(new Error(`the main process exited (${code}): ${this.stderr}`));
        this.pending.clear();
        resolve({ ...this.exitReport, code });
      });
    });
  }

  async call<T = Record<string, unknown>>(op: string, args?: Record<string, unknown>): Promise<T> {
    await this.ready;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, op, args });
    });
  }

  /**
   * Quits the way a user does (the engine closes its shells, which then stop writing into the
   * test home), and kills the process only if that does not finish in time.
   */
  async stop(): Promise<void> {
    if (this.running()) {
      const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, GRACEFUL_QUIT_LIMIT_MS).unref());
      await Promise.race([this.call('quit').then(() => this.exited), gaveUp]).catch(() => undefined);
    }
    if (this.running()) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
    removeTestHome(this.home);
  }

  private running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}
