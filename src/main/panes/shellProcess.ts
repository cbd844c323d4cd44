import ptyModule from 'node-pty';
import type { IPty } from 'node-pty';
import { dirname } from 'node:path';
import { Emitter } from '../../shared/events';
import { foregroundJobNames, pagerIn } from '../pty/foregroundJob';
import { foregroundGroupOf, hangUp } from '../pty/processTree';
import { writeToPty } from '../pty/ptyWrite';
import { foregroundPrograms } from '../pty/runningPrograms';
import { buildShellLaunch, type ShellLaunch } from '../shell/shellLaunch';
import { resolveShell } from './shellChoice';
import { shellName } from './shellName';

const { spawn } = ptyModule;

/** A shell that exits non-zero this soon after starting gets replaced by a fallback shell. */
const EARLY_EXIT_MS = 1_500;
/** How long our integration may take to send its first mark before we call it off. */
const INTEGRATION_TIMEOUT_MS = 10_000;
/** How long what a foreground job runs is reused (a pager a job starts later is seen after this). */
const FOREGROUND_JOB_REUSE_MS = 250;
/** How long a closing shell gets to exit on SIGHUP (and save its history) before SIGKILL. */
const CLOSE_GRACE_MS = 1_500;

export interface ShellProcessOptions {
  shellPath?: string;
  shellArgs?: string[];
  cwd: string;
  login: boolean;
  integration: boolean;
  /** The pane's secret, carried by our integration's marks. */
  nonce: string;
  env?: NodeJS.ProcessEnv;
  /** Variables whose exported values the integration reports with each prompt. */
  reportEnv?: readonly string[];
  /** The integration wraps an interactive `ssh` (`[ssh] integrate = "auto"`). */
  sshIntegrate?: boolean;
  /** The file of servers remembered as refusing the ssh bootstrap (the wrapper goes plain for them). */
  sshPlainHosts?: string;
  /** How long our integration may take to send its first mark (default 10 s). */
  integrationTimeoutMs?: number;
}

export interface ShellExit {
  exitCode: number;
  signal?: number;
}

export type NoticeLevel = 'info' | 'warning' | 'error';

/**
 * The shell of one pane in its pty: picks the shell, spawns it with our integration,
 * replaces one that fails to start or dies at once with a fallback shell, and reports
 * its output and its end. Knows nothing of marks, blocks or clients.
 */
export class ShellProcess {
  private pty: IPty | undefined;
  private launch: ShellLaunch | undefined;
  private path = '';
  private exitInfo: ShellExit | undefined;
  private integrationTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private userTyped = false;
  private foregroundJob: { group: number; at: number; pager: string | undefined } | undefined;
  private readonly data = new Emitter<Uint8Array>();
  private readonly exit = new Emitter<ShellExit>();
  private readonly spawned = new Emitter<{ integration: boolean; env: Readonly<Record<string, string>> }>();
  private readonly notice = new Emitter<{ level: NoticeLevel; message: string }>();
  private readonly terminalLine = new Emitter<string>();
  private readonly integrationSilent = new Emitter<void>();

  constructor(private readonly options: ShellProcessOptions) {}

  get onData() {
    return this.data.event;
  }

  get onExit() {
    return this.exit.event;
  }

  /** A shell was started (the first, or a fallback): whether our integration was injected. */
  get onSpawned() {
    return this.spawned.event;
  }

  /** A message for the pane's notices. */
  get onNotice() {
    return this.notice.event;
  }

  /** A line to show in the terminal itself (a failed start, a fallback). */
  get onTerminalLine() {
    return this.terminalLine.event;
  }

  /** Our integration sent nothing within its time (INTEGRATION_TIMEOUT_MS by default). */
  get onIntegrationSilent() {
    return this.integrationSilent.event;
  }

  /** Spawns the shell. Never throws: failures become a line in the pane and a fallback shell. */
  start(size: { cols: number; rows: number }): void {
    const choice = resolveShell(this.options.shellPath, this.options.env ?? process.env);
    if (choice.problem) this.notice.fire({ level: 'warning', message: choice.problem });
    if (!choice.path) {
      this.terminalLine.fire(`No usable shell found (${choice.problem ?? 'unknown'}).`);
      this.markExited(127);
      return;
    }
    this.spawnShell(choice.path, this.options.shellArgs ?? [], choice.fallbacks, size);
  }

  /** Absolute path of the shell running (or that ran), '' before start. */
  get shellPath(): string {
    return this.path;
  }

  get exited(): ShellExit | undefined {
    return this.exitInfo;
  }

  get running(): boolean {
    return this.pty !== undefined && !this.closed;
  }

  /** Bytes to the shell. Binary as is: xterm's mouse reports are not valid UTF-8. */
  write(data: Uint8Array | string, fromUser: boolean): void {
    if (!this.pty || this.closed) return;
    if (fromUser) this.userTyped = true;
    writeToPty(this.pty, typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }

  resize(cols: number, rows: number): void {
    if (!this.pty || this.exitInfo) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The pty closed between the check and the call; nothing to resize.
    }
  }

  pause(): void {
    this.pty?.pause();
  }

  resume(): void {
    this.pty?.resume();
  }

  /** Our integration reported in: no timeout any more. */
  integrationConfirmed(): void {
    if (this.integrationTimer) clearTimeout(this.integrationTimer);
  }

  /** Where the wrapper waits for the engine's verdict on an ssh that ended (the shell's private directory). */
  get sshVerdictDir(): string | undefined {
    const file = this.stepEnvFile;
    return file && this.options.sshIntegrate ? dirname(file) : undefined;
  }

  /** Where the next typed command's extra environment goes (with integration; see ShellLaunch). */
  get stepEnvFile(): string | undefined {
    return this.launch?.integration ? this.launch.stepEnvFile : undefined;
  }

  /**
   * The pager (`less`, `more`…) in the foreground job, reading keys from the terminal, if
   * there is one. Which job is in the foreground is read afresh each time (one small /proc
   * read); its processes (a walk of /proc) are reused for a moment while the same job stays
   * there, so keys typed into a REPL do not each walk /proc.
   */
  foregroundPager(): string | undefined {
    const pid = this.pty?.pid;
    if (!pid || this.exitInfo) return undefined;
    const group = foregroundGroupOf(pid);
    if (group === undefined || group === pid) return undefined;
    const now = Date.now();
    const known = this.foregroundJob;
    if (known && known.group === group && now - known.at < FOREGROUND_JOB_REUSE_MS) return known.pager;
    const pager = pagerIn(foregroundJobNames(pid));
    this.foregroundJob = { group, at: now, pager };
    return pager;
  }

  /**
   * The programs in the terminal's foreground, [] while the shell has it (see
   * foregroundPrograms). Where /proc cannot tell (macOS), node-pty's name of the foreground
   * process, when it is not the shell's own.
   */
  foregroundPrograms(): string[] {
    const pty = this.pty;
    if (!pty || this.exitInfo || this.closed) return [];
    const fromProc = foregroundPrograms(pty.pid);
    if (fromProc) return fromProc;
    const name = shellName(pty.process);
    return name && name !== shellName(this.path) ? [name] : [];
  }

  /** The foreground job gets SIGKILL (a plan step that ignored Ctrl+C past its timeout). */
  killForeground(): boolean {
    const pid = this.pty?.pid;
    if (!pid) return false;
    const group = foregroundGroupOf(pid);
    if (group === undefined || group === pid) return false;
    try {
      process.kill(-group, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the shell and everything it started; resolves once the shell is gone (or after a grace period). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (this.integrationTimer) clearTimeout(this.integrationTimer);
    const pty = this.pty;
    const exited =
      pty && !this.exitInfo
        ? new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CLOSE_GRACE_MS);
            pty.onExit(() => {
              clearTimeout(timer);
              resolve();
            });
            hangUp(pty.pid, CLOSE_GRACE_MS);
          })
        : Promise.resolve();
    return exited.finally(() => this.launch?.cleanup());
  }

  private spawnShell(path: string, args: string[], fallbacks: string[], size: { cols: number; rows: number }): void {
    this.path = path;
    this.exitInfo = undefined;
    const launch = this.prepareLaunch(path, args);
    this.launch = launch;
    const startedAt = Date.now();
    let pty: IPty;
    try {
      pty = spawn(launch.file, launch.args, {
        name: 'xterm-256color',
        cols: size.cols,
        rows: size.rows,
        cwd: this.options.cwd,
        env: launch.env,
        encoding: null,
      } as Parameters<typeof spawn>[2]);
    } catch (error) {
      launch.cleanup();
      this.terminalLine.fire(`Could not start ${path}: ${messageOf(error)}`);
      this.tryFallback(fallbacks, size);
      return;
    }
    this.pty = pty;
    pty.onData((data: string | Buffer) => {
      if (this.pty !== pty || this.closed) return;
      this.data.fire(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    });
    pty.onExit(({ exitCode, signal }) => {
      if (this.pty !== pty || this.closed) return;
      launch.cleanup();
      // A shell that dies before the user typed anything is broken (bad rc file, bad
      // binary); one that exits after input was sent is just the user typing `exit`.
      const early = Date.now() - startedAt < EARLY_EXIT_MS && exitCode !== 0 && !this.userTyped;
      if (early && fallbacks.length > 0) {
        this.terminalLine.fire(`${path} exited right after starting (code ${exitCode}).`);
        this.tryFallback(fallbacks, size);
        return;
      }
      this.markExited(exitCode, signal);
    });
    if (launch.integration) {
      this.integrationTimer = setTimeout(() => {
        if (!this.closed) this.integrationSilent.fire();
      }, this.options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS);
      this.integrationTimer.unref();
    }
    if (!launch.integration) {
      this.notice.fire({ level: 'info', message: `Shell integration is off for ${shellName(path)}; blocks come from prompt heuristics.` });
    }
    this.spawned.fire({ integration: launch.integration, env: launch.env });
  }

  private prepareLaunch(path: string, args: string[]): ShellLaunch {
    const launchWith = (integration: boolean) =>
      buildShellLaunch({
        shellPath: path,
        extraArgs: args,
        login: this.options.login,
        integration,
        nonce: this.options.nonce,
        baseEnv: this.options.env ?? process.env,
        cwd: this.options.cwd,
        reportEnv: this.options.reportEnv,
        ssh: this.options.sshIntegrate,
        sshPlainHosts: this.options.sshPlainHosts,
      });
    try {
      return launchWith(this.options.integration);
    } catch (error) {
      this.notice.fire({ level: 'warning', message: `Shell integration could not be prepared: ${messageOf(error)}` });
      return launchWith(false);
    }
  }

  private tryFallback(fallbacks: string[], size: { cols: number; rows: number }): void {
    const [next, ...rest] = fallbacks;
    if (!next) {
      this.markExited(127);
      return;
    }
    this.terminalLine.fire(`Starting ${next} instead.`);
    this.notice.fire({ level: 'warning', message: `Fell back to ${next}.` });
    this.spawnShell(next, [], rest, size);
  }

  private markExited(exitCode: number, signal?: number): void {
    this.exitInfo = signal ? { exitCode, signal } : { exitCode };
    this.exit.fire(this.exitInfo);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
