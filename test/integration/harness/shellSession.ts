import { randomBytes } from 'node:crypto';
import ptyModule from 'node-pty';
import type { IPty } from 'node-pty';
import headless from '@xterm/headless';
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import type { Block, TerminalState } from '../../../src/shared/blocks';
import { BlockTracker } from '../../../src/main/blocks/blockTracker';
import { OscScanner } from '../../../src/main/osc/oscScanner';
import { interpretOsc, type Mark } from '../../../src/main/osc/marks';
import { buildShellLaunch, type ShellLaunch } from '../../../src/main/shell/shellLaunch';
import type { SeenMark } from './seenMarks';
import { makeTempDir, skipFishCompletionJob, sleep } from './tempFiles';
import { shellTimeout } from '../../support/shellTimeout';

export { markOption, promptCwd, type SeenMark } from './seenMarks';
export { makeTempDir, removeDir, skipFishCompletionJob, sleep, writeFiles } from './tempFiles';

/**
 * A real shell in a real pty, started the way Tandem starts it (buildShellLaunch), with its
 * output going through the same scanner, mark interpreter and block tracker as a pane, and
 * through a headless xterm so tests can look at the screen and the cursor.
 */

const { spawn } = ptyModule;
const { Terminal } = headless;

export const SHELLS = {
  bash: '/usr/bin/bash',
  zsh: '/usr/bin/zsh',
  fish: '/usr/bin/fish',
} as const;

export type ShellName = keyof typeof SHELLS;

export interface SessionOptions {
  shell: ShellName;
  /** HOME for the shell; a fresh temp dir when absent. */
  home?: string;
  cwd?: string;
  login?: boolean;
  integration?: boolean;
  extraArgs?: string[];
  /** Variables layered over a small clean base environment. */
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Variables the integration reports with each prompt. */
  reportEnv?: string[];
}

/** Time limits here are for a quiet machine; waitUntil and waitForScreen scale them (shellTimeout). */
const DEFAULT_TIMEOUT = 8_000;

export class ShellSession {
  readonly nonce = randomBytes(16).toString('hex');
  readonly marks: SeenMark[] = [];
  readonly tracker: BlockTracker;
  readonly launch: ShellLaunch;
  readonly home: string;
  readonly cwd: string;
  private readonly pty: IPty;
  private readonly scanner = new OscScanner();
  private readonly screen: HeadlessTerminal;
  private readonly chunks: Buffer[] = [];
  private offset = 0;
  private listeners = new Set<() => void>();
  private exitInfo: { exitCode: number; signal?: number } | undefined;
  private states: TerminalState[] = [];
  readonly columns: number;

  private constructor(options: SessionOptions) {
    this.home = options.home ?? makeTempDir('home');
    if (options.shell === 'fish') skipFishCompletionJob(this.home);
    this.cwd = options.cwd ?? this.home;
    const cols = options.cols ?? 200;
    this.columns = cols;
    const rows = options.rows ?? 50;
    this.launch = buildShellLaunch({
      shellPath: SHELLS[options.shell],
      extraArgs: options.extraArgs,
      login: options.login ?? true,
      integration: options.integration ?? true,
      nonce: this.nonce,
      baseEnv: {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        HOME: this.home,
        USER: 'tester',
        LANG: 'C.UTF-8',
        SHELL: SHELLS[options.shell],
        // What a user launching Tandem from VS Code, or a second Tandem, would carry along.
        VSCODE_INJECTION: '1',
        TANDEM_STALE: 'from-a-parent-tandem',
        ...options.env,
      },
      cwd: this.cwd,
      reportEnv: options.reportEnv,
    });
    this.tracker = new BlockTracker(1, this.nonce, this.launch.integration, this.cwd);
    this.tracker.onStarted(() => this.notify());
    this.tracker.onFinished(() => this.notify());
    this.tracker.onStateChanged(({ state }) => {
      this.states.push(state);
      this.notify();
    });
    this.tracker.onIntegrationConfirmed(() => this.notify());
    this.screen = new Terminal({ cols, rows, scrollback: 5_000, allowProposedApi: true });
    this.pty = spawn(this.launch.file, this.launch.args, {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: this.cwd,
      env: this.launch.env,
      encoding: null,
    } as Parameters<typeof spawn>[2]);
    this.pty.onData((data: string | Buffer) => this.onOutput(typeof data === 'string' ? Buffer.from(data) : data));
    this.pty.onExit(({ exitCode, signal }) => {
      this.exitInfo = { exitCode, signal };
      this.launch.cleanup();
      this.notify();
    });
  }

  /** Starts the shell and waits for its first prompt (with integration: our B mark). */
  static async start(options: SessionOptions): Promise<ShellSession> {
    const session = new ShellSession(options);
    try {
      if (session.launch.integration) await session.waitForInputStart(1, 15_000);
      else await session.waitForOutput(/\S/, 15_000);
    } catch (error) {
      session.kill();
      throw error;
    }
    return session;
  }

  /** Everything the shell printed, decoded. */
  get output(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  get exited(): { exitCode: number; signal?: number } | undefined {
    return this.exitInfo;
  }

  get state(): TerminalState {
    return this.tracker.state;
  }

  blocks(): Block[] {
    return this.tracker.blocks();
  }

  ourMarks(): SeenMark[] {
    return this.marks.filter((seen) => seen.ours || seen.mark.kind === 'cwd');
  }

  write(data: string): void {
    this.pty.write(data);
  }

  /** Types text the way a fast typist would: in pieces, so no tty input buffer overflows. */
  async type(text: string): Promise<void> {
    const piece = 512;
    for (let i = 0; i < text.length; i += piece) {
      this.pty.write(text.slice(i, i + piece));
      if (text.length > piece) await sleep(15);
    }
  }

  /**
   * Types `command` and Enter, waits until the block it starts has finished and the next
   * prompt is ready for input, and returns that block.
   */
  async run(command: string, timeout = DEFAULT_TIMEOUT): Promise<Block> {
    const known = new Set(this.tracker.blocks().map((block) => block.id));
    const marksBefore = this.marks.length;
    const started = () => this.tracker.blocks().find((block) => !known.has(block.id));
    await this.type(command);
    this.write('\r');
    await this.waitUntil(
      () => started()?.endedAt !== undefined && this.promptReadySince(marksBefore),
      timeout,
      `block for ${JSON.stringify(command.slice(0, 80))} to finish and the next prompt to appear`,
    );
    return started()!;
  }

  /** Whether, since mark index `from`, a new prompt was drawn (OSC 7, then our B). */
  newPromptSince(from: number): boolean {
    const cwd = this.marks.findIndex((seen, i) => i >= from && seen.mark.kind === 'cwd');
    return cwd >= 0 && this.marks.some((seen, i) => i > cwd && seen.ours && seen.mark.kind === 'input-start');
  }

  /** Whether, among the marks since index `from`, a B of ours follows our last C/D. */
  promptReadySince(from: number): boolean {
    let lastCommandMark = -1;
    let lastInputStart = -1;
    for (let i = from; i < this.marks.length; i++) {
      const seen = this.marks[i]!;
      if (!seen.ours) continue;
      if (seen.mark.kind === 'command-start' || seen.mark.kind === 'command-end') lastCommandMark = i;
      if (seen.mark.kind === 'input-start') lastInputStart = i;
    }
    return lastCommandMark >= 0 && lastInputStart > lastCommandMark;
  }

  /** Waits until `n` of our input-start (B) marks have been seen in total. */
  async waitForInputStart(n: number, timeout = DEFAULT_TIMEOUT): Promise<void> {
    await this.waitUntil(() => this.count('input-start') >= n, timeout, `${n} prompt(s) ready for input`);
  }

  async waitForOutput(pattern: RegExp, timeout = DEFAULT_TIMEOUT): Promise<void> {
    await this.waitUntil(() => pattern.test(this.output), timeout, `output matching ${pattern}`);
  }

  async waitForExit(timeout = DEFAULT_TIMEOUT): Promise<{ exitCode: number; signal?: number }> {
    await this.waitUntil(() => this.exitInfo !== undefined, timeout, 'the shell to exit');
    return this.exitInfo!;
  }

  /** Types `exit` and waits for the shell to end (history files are written then). */
  async exit(): Promise<{ exitCode: number; signal?: number }> {
    this.write('exit\r');
    return this.waitForExit();
  }

  /** How many of our marks of this kind have been seen. */
  count(kind: Mark['kind']): number {
    return this.marks.filter((seen) => seen.ours && seen.mark.kind === kind).length;
  }

  finishedBlocks(): Block[] {
    return this.tracker.blocks().filter((block) => block.endedAt !== undefined);
  }

  /**
   * Where the nonce shows up outside our own marks: every occurrence in the raw output
   * must be inside one of our marks (each carries it exactly once), and the screen must
   * never show it. Returns a description of each leak (empty: none).
   */
  async nonceLeaks(): Promise<string[]> {
    const leaks: string[] = [];
    const output = this.output;
    const occurrences = output.split(this.nonce).length - 1;
    const inMarks = this.marks.filter((seen) => seen.ours).length;
    if (occurrences !== inMarks) {
      const withoutOurMarks = output.replace(/\x1b\][0-9]+;[^\x07\x1b]*\x07/g, (osc) => (osc.includes(`tandem=${this.nonce}`) ? '' : osc));
      for (const line of withoutOurMarks.split('\n')) if (line.includes(this.nonce)) leaks.push(`output: ${JSON.stringify(line)}`);
      if (leaks.length === 0) leaks.push(`output: ${occurrences} occurrences, ${inMarks} marks of ours`);
    }
    for (const line of await this.screenLines()) if (line.includes(this.nonce)) leaks.push(`screen: ${JSON.stringify(line)}`);
    return leaks;
  }

  /**
   * Whether a line editor started reading a line since byte `from`: readline, zle and fish
   * all switch bracketed paste on then. The sign that typed keys reach a (nested) shell's
   * editor rather than whatever ran before it.
   */
  editorReadySince(from: number): boolean {
    return Buffer.concat(this.chunks).subarray(from).includes('\x1b[?2004h');
  }

  /**
   * Waits until `predicate` holds for the screen (and cursor) as xterm has parsed it: for
   * what a line editor redraws, which no mark announces.
   */
  async waitForScreen(
    predicate: (lines: string[], cursor: { x: number; y: number; line: string }) => boolean,
    timeout: number,
    what: string,
  ): Promise<void> {
    timeout = shellTimeout(timeout);
    const deadline = Date.now() + timeout;
    for (;;) {
      if (predicate(await this.screenLines(), await this.cursor())) return;
      if (Date.now() > deadline) {
        throw new Error(`Timed out after ${timeout} ms waiting for ${what}.\nScreen:\n${(await this.screenLines()).slice(-8).join('\n')}`);
      }
      await sleep(20);
    }
  }

  /** The output since byte `from` with every OSC sequence removed (what the user sees, roughly). */
  textSince(from: number): string {
    return Buffer.concat(this.chunks)
      .subarray(from)
      .toString('utf8')
      .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '');
  }

  /** Bytes of output so far. */
  get outputLength(): number {
    return this.offset;
  }

  /** Screen lines (visible + scrollback) as plain text, trailing blanks trimmed. */
  async screenLines(): Promise<string[]> {
    await new Promise<void>((resolve) => this.screen.write('', resolve));
    const buffer = this.screen.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  async cursor(): Promise<{ x: number; y: number; line: string }> {
    await new Promise<void>((resolve) => this.screen.write('', resolve));
    const buffer = this.screen.buffer.active;
    const y = buffer.baseY + buffer.cursorY;
    return { x: buffer.cursorX, y, line: buffer.getLine(y)?.translateToString(true) ?? '' };
  }

  kill(): void {
    if (!this.exitInfo) {
      try {
        this.pty.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.launch.cleanup();
    this.screen.dispose();
  }

  async waitUntil(predicate: () => boolean, baseTimeout: number, what: string): Promise<void> {
    if (predicate()) return;
    const timeout = shellTimeout(baseTimeout);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`Timed out after ${timeout} ms waiting for ${what}.\nOutput so far:\n${JSON.stringify(this.output.slice(-3000))}`));
      }, timeout);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  private onOutput(chunk: Buffer): void {
    this.chunks.push(chunk);
    const base = this.offset;
    for (const osc of this.scanner.push(chunk)) {
      const mark = interpretOsc(osc);
      if (!mark) continue;
      const offset = base + osc.end;
      this.marks.push({ mark, offset, ours: mark.nonce === this.nonce, id: osc.id, payload: osc.payload });
      this.tracker.handle(mark, offset);
    }
    this.offset += chunk.length;
    this.screen.write(chunk);
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * Runs `commands` in a shell the way a user types them (one after the other, waiting a
 * moment between them) and then `exit`, without relying on any mark: for comparing what
 * the user's files record with and without integration.
 */
export async function runAndExit(
  options: SessionOptions,
  commands: string[],
): Promise<{ session: ShellSession; exitCode: number }> {
  const session = await ShellSession.start(options);
  try {
    if (session.launch.integration) {
      for (const command of commands) await session.run(command);
    } else {
      await sleep(300);
      for (const command of commands) {
        await session.type(command);
        session.write('\r');
        await sleep(350);
      }
    }
    const { exitCode } = await session.exit();
    return { session, exitCode };
  } finally {
    session.kill();
  }
}
