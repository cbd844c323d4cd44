import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import ptyModule from 'node-pty';
import type { IPty } from 'node-pty';
import type { Block, TerminalState } from '../../shared/blocks';
import type { Events, PaneInfo } from '../../shared/protocol';
import { AlternateScreenDetector } from '../blocks/alternateScreenDetector';
import type { BlockOutput } from '../blocks/mirror/blockOutputs';
import { BlockTracker } from '../blocks/blockTracker';
import { PaneMirror } from '../blocks/mirror/paneMirror';
import { PromptHeuristics } from '../blocks/promptHeuristics';
import { OscScanner } from '../osc/oscScanner';
import { interpretOsc } from '../osc/marks';
import { DeliveryWindow, PtyThrottle } from '../pty/flowControl';
import { FLOODING_BYTES, MIRROR_WINDOW, NO_READ_AHEAD_AFTER_INPUT_MS, READ_AHEAD_COST, RENDERER_WINDOW } from '../pty/flowPolicy';
import { BacklogCost } from '../pty/backlogCost';
import { OutputBatcher } from '../pty/outputBatcher';
import { foregroundGroupOf, hangUp } from '../pty/processTree';
import type { EngineLog } from '../log/engineLog';
import type { PaneWatcher } from './paneWatcher';
import { toDisposable, type Disposable } from '../../shared/events';
import { PromptInterceptor, clearLineKeys, type PromptRequest, type PromptShell } from '../prompt/promptInterceptor';
import { buildShellLaunch, type ShellLaunch } from '../shell/shellLaunch';
import { resolveShell } from './shellChoice';

const { spawn } = ptyModule;

export const MIN_COLS = 2;
export const MIN_ROWS = 1;
export const MAX_COLS = 2_000;
export const MAX_ROWS = 1_000;
/** A shell that exits non-zero this soon after starting gets replaced by a fallback shell. */
const EARLY_EXIT_MS = 1_500;
/** How long our integration may take to send its first mark before we call it off. */
const INTEGRATION_TIMEOUT_MS = 10_000;
/** How long a closing shell gets to exit on SIGHUP (and save its history) before SIGKILL. */
const CLOSE_GRACE_MS = 1_500;
export interface PaneOptions {
  id: number;
  shellPath?: string;
  shellArgs?: string[];
  cwd: string;
  cols: number;
  rows: number;
  scrollback: number;
  integration: boolean;
  login: boolean;
  env?: NodeJS.ProcessEnv;
  /** Serialized screen to show before the shell's first output (session restore). */
  restoredSnapshot?: string;
  /** A `# ` instruction or `?? ` question typed at the prompt (taken away from the shell). */
  onPromptRequest?: (paneId: number, request: PromptRequest) => void;
  /** Where the pane's warnings and shell start failures are recorded. */
  log?: EngineLog;
}

export interface PaneListener {
  output(paneId: number, bytes: Uint8Array): void;
  event<E extends keyof Events>(event: E, payload: Events[E]): void;
}

export function clampSize(cols: number, rows: number): { cols: number; rows: number } {
  const safe = (value: number, min: number, max: number) =>
    Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
  return { cols: safe(cols, MIN_COLS, MAX_COLS), rows: safe(rows, MIN_ROWS, MAX_ROWS) };
}

/**
 * One terminal pane: a shell in a pty, the OSC scanner and block tracker on its output,
 * a headless mirror of its screen, and the batching and flow control towards the renderer.
 */
export class Pane {
  readonly id: number;
  readonly nonce = randomBytes(16).toString('hex');
  private pty: IPty | undefined;
  private launch: ShellLaunch | undefined;
  private readonly scanner = new OscScanner();
  private readonly alternateScreen = new AlternateScreenDetector();
  private readonly mirror: PaneMirror;
  private readonly tracker: BlockTracker;
  private readonly heuristics: PromptHeuristics;
  private readonly batcher: OutputBatcher;
  private readonly backlogCost = new BacklogCost();
  private readonly throttle: PtyThrottle;
  private readonly rendererWindow: DeliveryWindow;
  private readonly mirrorWindow: DeliveryWindow;
  private inputDuringFloodAt = -Infinity;
  private streamOffset = 0;
  private size: { cols: number; rows: number };
  private shellPath = '';
  private integrationOn: boolean;
  private integrationTimer: NodeJS.Timeout | undefined;
  private exitInfo: { exitCode: number; signal?: number } | undefined;
  private listener: PaneListener | undefined;
  private closed = false;
  private userTyped = false;
  private readonly observers = new Set<PaneWatcher>();
  private readonly interceptor: PromptInterceptor;
  private readonly inputDecoder = new TextDecoder();

  constructor(private readonly options: PaneOptions) {
    this.id = options.id;
    this.size = clampSize(options.cols, options.rows);
    this.mirror = new PaneMirror(this.size.cols, this.size.rows, options.scrollback, {
      parsed: (bytes) => this.mirrorWindow.acknowledged(bytes),
      lost: (reason) => {
        this.mirrorWindow.reset();
        this.notice('warning', `The engine's copy of this pane's screen was lost (${reason}); output printed before now is no longer available to the AI.`);
      },
    });
    this.integrationOn = options.integration;
    this.tracker = new BlockTracker(this.id, this.nonce, options.integration, options.cwd, {
      started: (block) => this.onBlockStarted(block),
      finished: (block) => this.onBlockFinished(block),
      stateChanged: (state, cwd) => this.emitState(state, cwd),
      promptShown: () => this.onPromptShown(),
      integrationConfirmed: () => this.onIntegrationConfirmed(),
    });
    this.heuristics = new PromptHeuristics(this.mirror, this.tracker, () => this.streamOffset);
    this.interceptor = new PromptInterceptor({
      shell: () => promptShellOf(this.shellPath),
      prefix: () => (this.integrationOn ? '#' : '##'),
      atPrompt: () => this.tracker.state === 'PROMPT' && !this.exitInfo && this.options.onPromptRequest !== undefined,
    });
    this.throttle = new PtyThrottle(
      () => this.pty?.pause(),
      () => this.pty?.resume(),
    );
    this.mirrorWindow = new DeliveryWindow(MIRROR_WINDOW, {
      full: () => this.throttle.hold('mirror'),
      reopened: () => this.throttle.release('mirror'),
    });
    this.rendererWindow = new DeliveryWindow(RENDERER_WINDOW, { reopened: () => this.batcher.flushNow() });
    this.batcher = new OutputBatcher(
      (bytes, remaining) => {
        this.backlogCost.sent(bytes.length, remaining);
        this.sendToRenderer(bytes);
      },
      {
        room: () => this.rendererWindow.room(),
        flushed: () => this.limitReadAhead(),
      },
    );
    if (options.restoredSnapshot) this.restored = options.restoredSnapshot;
  }

  /** Old scrollback from the saved session: goes into the mirror, and to the renderer as the snapshot. */
  private restored: string | undefined;

  /** Spawns the shell. Never throws: failures become a message in the pane and a fallback shell. */
  start(): void {
    const choice = resolveShell(this.options.shellPath, this.options.env ?? process.env);
    if (choice.problem) this.notice('warning', choice.problem);
    if (!choice.path) {
      this.writeNotice(`No usable shell found (${choice.problem ?? 'unknown'}).`);
      this.markExited(127);
      return;
    }
    this.spawnShell(choice.path, this.options.shellArgs ?? [], this.options.integration, choice.fallbacks);
  }

  /** Attach a fresh pane's first client. Its output starts at offset 0 (after any restored snapshot). */
  attach(listener: PaneListener): PaneInfo {
    this.listener = listener;
    this.rendererWindow.reset();
    const snapshot = this.restored;
    if (snapshot) {
      this.mirror.write(snapshot);
      this.restored = undefined;
    }
    return { ...this.info(), snapshot };
  }

  /**
   * Attach a client to a pane that has been running (browser tab reloaded): it gets the
   * mirror's serialized screen and the stream offset the snapshot corresponds to exactly.
   */
  reattach(listener: PaneListener): Promise<PaneInfo> {
    // The snapshot will hold exactly the first `offset` bytes: output still waiting in the
    // batcher is among them and must not be sent again. What the shell prints meanwhile is
    // held and delivered after the answer, so the new client misses and repeats nothing.
    const offset = this.streamOffset;
    this.batcher.discardPending();
    this.listener = undefined;
    this.held = [];
    this.rendererWindow.reset();
    this.limitReadAhead();
    // The mirror serializes right after parsing the writes sent before this, before later ones.
    return this.mirror.serialize().then((snapshot) => {
      setImmediate(() => this.release(listener));
      return { ...this.info(), snapshot, streamOffset: offset };
    });
  }

  /** Output and events produced while a client re-attaches, in order. */
  private held: ({ bytes: Uint8Array } | { send: (listener: PaneListener) => void })[] | undefined;

  private release(listener: PaneListener): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.listener = listener;
    for (const item of held) {
      if ('bytes' in item) this.sendToRenderer(item.bytes);
      else item.send(listener);
    }
  }

  private emitEvent<E extends keyof Events>(event: E, payload: Events[E]): void {
    if (this.held) this.held.push({ send: (listener) => listener.event(event, payload) });
    else this.listener?.event(event, payload);
  }

  detach(listener: PaneListener): void {
    if (this.listener !== listener) return;
    this.listener = undefined;
    this.rendererWindow.reset();
  }

  info(): PaneInfo {
    return {
      paneId: this.id,
      shell: this.shellPath,
      shellName: shellName(this.shellPath),
      integration: this.integrationOn,
      cwd: this.tracker.cwd,
      state: this.tracker.state,
      cols: this.size.cols,
      rows: this.size.rows,
      streamOffset: this.streamOffset,
      exited: this.exitInfo,
    };
  }

  /** Mirror content as escape sequences; waits for the mirror to catch up first. */
  async snapshot(scrollback?: number): Promise<string> {
    return this.mirror.serialize(scrollback);
  }

  get cwd(): string {
    return this.tracker.cwd;
  }

  get state(): TerminalState {
    return this.tracker.state;
  }

  get shell(): string {
    return this.shellPath;
  }

  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  blocks(): Block[] {
    return this.tracker.blocks();
  }

  /** Clean text a block printed (from the mirror). */
  /** Clean text a block printed (from the mirror). */
  async outputOf(blockId: string): Promise<BlockOutput | undefined> {
    if (!this.tracker.find(blockId)) return undefined;
    return (await this.mirror.readBlock(blockId)) ?? { text: '', truncated: true, lineCount: 0 };
  }

  screenText(): Promise<string> {
    return this.mirror.screenText();
  }

  /** Keyboard and paste input from the user. `# ` lines at a prompt go to the agent instead. */
  write(data: Uint8Array | string): void {
    if (!this.pty || this.closed) return;
    this.userTyped = true;
    if (this.rendererWindow.outstanding > FLOODING_BYTES) {
      // A key during a flood (Ctrl+C, q): what is in flight already is all that stays ahead of it.
      this.inputDuringFloodAt = performance.now();
      this.limitReadAhead();
    }
    if (this.tracker.state === 'PROMPT' && this.options.onPromptRequest) {
      const text = typeof data === 'string' ? data : this.inputDecoder.decode(data, { stream: true });
      const { toShell, requests } = this.interceptor.input(text);
      this.writeRaw(toShell);
      for (const request of requests) this.options.onPromptRequest(this.id, request);
      return;
    }
    // Not at a prompt: the interceptor only notes what may be typed ahead into the next one.
    this.interceptor.input(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    this.writeRaw(data);
  }

  private writeRaw(data: Uint8Array | string): void {
    if (!this.pty || (typeof data === 'string' ? data.length : data.byteLength) === 0) return;
    if (!this.integrationOn) this.heuristics.beforeInput(data);
    // Bytes go through as bytes: xterm's binary mouse reports are not valid UTF-8.
    this.pty.write(typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }

  /**
   * Types a whole command at the prompt and presses Enter, as if the user had (a plan step).
   * A half-typed line is cleared first; the shells keep it in their kill ring (Ctrl+Y).
   */
  typeCommand(command: string): void {
    if (!this.pty || this.closed) return;
    const multiLine = command.includes('\n');
    const body = multiLine && this.mirror.bracketedPasteMode ? `\x1b[200~${command}\x1b[201~` : command;
    // Clearing an empty line would ring the bell (and make bash redraw its prompt).
    const clear = this.interceptor.currentLine === '' ? '' : clearLineFor(this.shellPath);
    this.interceptor.commandTyped();
    this.writeRaw(clear + body + '\r');
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

  /** Watch blocks and prompts of this pane until the returned Disposable is disposed. */
  observe(observer: PaneWatcher): Disposable {
    this.observers.add(observer);
    return toDisposable(() => this.observers.delete(observer));
  }

  /** A full-screen program (vim, less) has the screen. */
  get isAlternateScreen(): boolean {
    return this.mirror.isAlternateScreen;
  }

  get integration(): boolean {
    return this.integrationOn;
  }

  get shellName(): string {
    return shellName(this.shellPath);
  }

  resize(cols: number, rows: number): { cols: number; rows: number } {
    this.size = clampSize(cols, rows);
    this.mirror.resize(this.size.cols, this.size.rows);
    if (this.pty && !this.exitInfo) {
      try {
        this.pty.resize(this.size.cols, this.size.rows);
      } catch {
        // The pty closed between the check and the call; nothing to resize.
      }
    }
    return this.size;
  }

  acknowledge(bytes: number): void {
    this.rendererWindow.acknowledged(bytes);
  }

  /** Send SIGINT to the foreground job the way Ctrl+C does. */
  interrupt(): void {
    this.write('\x03');
  }

  /** Ends the shell and everything it started; resolves once the shell is gone (or after a grace period). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (this.integrationTimer) clearTimeout(this.integrationTimer);
    this.heuristics.dispose();
    this.batcher.discardPending();
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
    return exited.finally(() => {
      this.launch?.cleanup();
      this.mirror.dispose();
    });
  }

  private spawnShell(path: string, args: string[], integration: boolean, fallbacks: string[]): void {
    this.shellPath = path;
    this.exitInfo = undefined;
    let launch: ShellLaunch;
    try {
      launch = buildShellLaunch({
        shellPath: path,
        extraArgs: args,
        login: this.options.login,
        integration,
        nonce: this.nonce,
        baseEnv: this.options.env ?? process.env,
        cwd: this.options.cwd,
      });
    } catch (error) {
      this.notice('warning', `Shell integration could not be prepared: ${messageOf(error)}`);
      launch = buildShellLaunch({
        shellPath: path,
        extraArgs: args,
        login: this.options.login,
        integration: false,
        nonce: this.nonce,
        baseEnv: this.options.env ?? process.env,
        cwd: this.options.cwd,
      });
    }
    this.launch = launch;
    this.integrationOn = launch.integration;
    if (!launch.integration) this.tracker.disableIntegration();
    const startedAt = Date.now();
    let pty: IPty;
    try {
      pty = spawn(launch.file, launch.args, {
        name: 'xterm-256color',
        cols: this.size.cols,
        rows: this.size.rows,
        cwd: this.options.cwd,
        env: launch.env,
        encoding: null,
      } as Parameters<typeof spawn>[2]);
    } catch (error) {
      launch.cleanup();
      this.writeNotice(`Could not start ${path}: ${messageOf(error)}`);
      this.tryFallback(fallbacks);
      return;
    }
    this.pty = pty;
    pty.onData((data: string | Buffer) => {
      if (this.pty !== pty || this.closed) return;
      this.emitOutput(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    });
    pty.onExit(({ exitCode, signal }) => {
      if (this.pty !== pty || this.closed) return;
      launch.cleanup();
      // A shell that dies before the user typed anything is broken (bad rc file, bad
      // binary); one that exits after input was sent is just the user typing `exit`.
      const early = Date.now() - startedAt < EARLY_EXIT_MS && exitCode !== 0 && !this.userTyped;
      if (early && fallbacks.length > 0) {
        this.writeNotice(`${path} exited right after starting (code ${exitCode}).`);
        this.tryFallback(fallbacks);
        return;
      }
      this.markExited(exitCode, signal);
    });
    if (launch.integration) {
      this.integrationTimer = setTimeout(() => {
        if (this.tracker.integrationConfirmed || this.closed) return;
        this.integrationOn = false;
        this.tracker.disableIntegration();
        this.notice('warning', 'Shell integration did not report in; blocks now come from prompt heuristics.');
        this.emitState(this.tracker.state, this.tracker.cwd);
      }, INTEGRATION_TIMEOUT_MS);
      this.integrationTimer.unref();
    } else {
      this.notice('info', `Shell integration is off for ${shellName(path)}; blocks come from prompt heuristics.`);
    }
    this.emitState(this.tracker.state, this.tracker.cwd);
  }

  private tryFallback(fallbacks: string[]): void {
    const [next, ...rest] = fallbacks;
    if (!next) {
      this.markExited(127);
      return;
    }
    this.writeNotice(`Starting ${next} instead.`);
    this.notice('warning', `Fell back to ${next}.`);
    this.spawnShell(next, [], this.options.integration, rest);
  }

  private markExited(exitCode: number, signal?: number): void {
    this.exitInfo = signal ? { exitCode, signal } : { exitCode };
    this.tracker.shellExited(signal ? undefined : exitCode, this.streamOffset);
    this.batcher.flushAll();
    for (const observer of this.observers) observer.exited?.();
    const how = signal ? `was killed by signal ${signal}` : `exited with code ${exitCode}`;
    this.emitEvent('pane.exit', {
      paneId: this.id,
      exitCode,
      signal: signal || undefined,
      message: `${shellName(this.shellPath) || 'The shell'} ${how}.`,
    });
  }

  /** A line of text in the terminal itself, dim, so the user sees it where they look. */
  private writeNotice(text: string): void {
    this.options.log?.warning('shell', `pane ${this.id}: ${text}`);
    this.emitOutput(Buffer.from(`\r\n\x1b[2m[tandem] ${text}\x1b[0m\r\n`, 'utf8'));
  }

  private notice(level: 'info' | 'warning' | 'error', message: string): void {
    if (level !== 'info') this.options.log?.[level]('pane', `pane ${this.id}: ${message}`);
    this.emitEvent('pane.notice', { paneId: this.id, level, message });
  }

  private emitOutput(chunk: Uint8Array): void {
    const base = this.streamOffset;
    let written = 0;
    for (const osc of this.scanner.push(chunk)) {
      const mark = interpretOsc(osc);
      if (!mark) continue;
      this.segmentBeforeMark(chunk.subarray(written, osc.end));
      written = osc.end;
      this.tracker.handle(mark, base + osc.end);
    }
    this.segmentBeforeMark(chunk.subarray(written));
    this.streamOffset = base + chunk.length;
    // Only a full window lets the backlog grow past one batch; lines are counted for it alone
    // (counting costs about 1 ms per MB).
    if (this.rendererWindow.isFull) this.backlogCost.added(chunk);
    this.batcher.push(chunk);
    this.limitReadAhead();
    if (!this.integrationOn) this.heuristics.afterOutput();
    if (this.observers.size > 0) for (const observer of this.observers) observer.output?.();
  }

  private limitReadAhead(): void {
    const afterInput = performance.now() - this.inputDuringFloodAt < NO_READ_AHEAD_AFTER_INPUT_MS;
    const limit = afterInput ? 0 : READ_AHEAD_COST;
    const waiting = this.backlogCost.cost(this.batcher.pending);
    if (waiting > limit) this.throttle.hold('read-ahead');
    else if (waiting <= limit / 2) this.throttle.release('read-ahead');
  }

  /** Output up to the next mark: the block that is current now is the one it belongs to. */
  private segmentBeforeMark(bytes: Uint8Array): void {
    if (this.alternateScreen.push(bytes)) {
      this.tracker.markAlternateScreen();
      for (const observer of this.observers) observer.alternateScreen?.();
    }
    this.writeToMirror(bytes);
  }

  private writeToMirror(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.mirror.write(bytes);
    this.mirrorWindow.sent(bytes.length);
  }

  private sendToRenderer(bytes: Uint8Array): void {
    if (this.held) {
      this.held.push({ bytes });
      return;
    }
    if (!this.listener) return;
    this.rendererWindow.sent(bytes.length);
    this.listener.output(this.id, bytes);
  }

  private onBlockStarted(block: Block): void {
    const heuristicMark = this.heuristics.outputStartMark;
    if (heuristicMark !== undefined) this.mirror.startBlockAtMark(block.id, heuristicMark);
    else this.mirror.startBlock(block.id);
    this.emitEvent('block.started', block);
    for (const observer of this.observers) observer.blockStarted?.(block);
  }

  private onBlockFinished(block: Block): void {
    this.mirror.endBlock(block.id);
    this.emitEvent('block.finished', block);
    for (const observer of this.observers) observer.blockFinished?.(block);
  }

  private onIntegrationConfirmed(): void {
    if (this.integrationTimer) clearTimeout(this.integrationTimer);
    if (!this.integrationOn) {
      this.integrationOn = true;
      this.emitState(this.tracker.state, this.tracker.cwd);
    }
  }

  private emitState(state: TerminalState, cwd: string): void {
    this.emitEvent('pane.state', { paneId: this.id, state, cwd, integration: this.integrationOn });
  }

  private onPromptShown(): void {
    this.interceptor.promptShown();
    for (const observer of this.observers) observer.promptShown?.();
  }
}

export function shellName(path: string): string {
  return basename(path).replace(/^-/, '');
}

function promptShellOf(path: string): PromptShell {
  const name = shellName(path);
  return name === 'bash' || name === 'zsh' || name === 'fish' ? name : 'other';
}

function clearLineFor(path: string): string {
  return clearLineKeys(promptShellOf(path));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
