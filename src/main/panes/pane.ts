import { randomBytes } from 'node:crypto';
import type { Block, TerminalState } from '../../shared/blocks';
import { Emitter, type Disposable } from '../../shared/events';
import type { Events, NoticeEnd, PaneInfo } from '../../shared/protocol';
import type { BlockOutput } from '../blocks/mirror/blockOutputs';
import type { RemoteShellInfo } from '../osc/marks';
import { latencyMarks } from '../log/latencyMarks';
import { PtyThrottle } from '../pty/flowControl';
import { EnterAfterEcho } from './enterAfterEcho';
import { PaneDelivery, type PaneListener } from './paneDelivery';
import { floodScreen } from './floodSkip';
import type { PaneOptions } from './paneOptions';
import { clampSize } from './paneSize';
import { PaneStream } from './paneStream';
import { watchPane, type PaneWatcher } from './paneWatcher';
import { PromptInput } from './promptInput';
import { StepEnvFile } from './stepEnvFile';
import { ShellProcess, type NoticeLevel, type ShellExit } from './shellProcess';
import { promptShellAt, shellName } from './shellName';

export type { PaneListener, PaneOptions };

/** The topic of the notice that the integration went silent (withdrawn when it reports in late). */
const INTEGRATION_SILENT = 'integration-silent';

/**
 * One terminal pane, layered like a pty host: the shell process (ShellProcess), what its
 * output means (PaneStream: marks, blocks, mirror), how output and events reach the client
 * (PaneDelivery), and the keys on their way in (PromptInput). The pane wires them together
 * and is what the engine and the agent talk to.
 */
export class Pane {
  readonly id: number;
  readonly nonce = randomBytes(16).toString('hex');
  private readonly process: ShellProcess;
  private readonly stream: PaneStream;
  private readonly delivery: PaneDelivery;
  private readonly input: PromptInput;
  private readonly typing: EnterAfterEcho;
  private readonly exitedEvent = new Emitter<void>();
  private readonly commandTypedEvent = new Emitter<string>();
  private size: { cols: number; rows: number };
  private closed = false;
  /**
   * While a chunk is read: watchers' work on it, to run after it, and whether it goes to the
   * client at once (`sendFirst`: it ends a block or shows a prompt), before that work.
   */
  private watcherWork: { work: (() => void)[]; sendFirst: boolean } | undefined;
  /** Old scrollback from the saved session: goes into the mirror, and to the renderer as the snapshot. */
  private restored: string | undefined;
  private readonly stepEnv: StepEnvFile;

  constructor(private readonly options: PaneOptions) {
    this.id = options.id;
    this.size = clampSize(options.cols, options.rows);
    this.restored = options.restoredSnapshot || undefined;
    this.process = new ShellProcess({ ...options, nonce: this.nonce });
    this.stepEnv = new StepEnvFile(() => this.process.stepEnvFile);
    const throttle = new PtyThrottle(
      () => this.process.pause(),
      () => this.process.resume(),
    );
    const ssh = { type: (text: string) => this.process.write(text, false), notice: (message: string) => this.notice('warning', message), foreground: () => this.process.foregroundPrograms(), verdictDir: () => this.process.sshVerdictDir, plainHostsFile: options.sshPlainHosts, warn: (message: string) => options.log?.warning('pane', `pane ${this.id}: ${message}`) };
    this.stream = new PaneStream({ ...options, ...this.size, paneId: this.id, nonce: this.nonce, throttle, ssh });
    this.delivery = new PaneDelivery(this.id, throttle, floodScreen(() => this.size, () => this.stream.mirror.parsedScreen, options), undefined, options.typing);
    const onPromptRequest = options.onPromptRequest;
    this.input = new PromptInput({
      shell: () => promptShellAt(this.tracker.remote, this.process.shellPath),
      integration: () => this.stream.integration,
      atPrompt: () => this.tracker.state === 'PROMPT' && !this.process.exited,
      programReadsKeys: () => this.stream.mirror.isAlternateScreen || this.process.foregroundPager() !== undefined,
      requested: onPromptRequest && ((request) => onPromptRequest(this.id, request)),
    });
    this.stream.mirror.onParsed(() => this.delivery.screenParsed());
    this.typing = new EnterAfterEcho(
      (keys) => this.toShell(keys, false),
      (keys) => this.write(keys),
      (then) => this.delivery.whenCaughtUp(then),
    );
    this.wireShell();
    this.wireStream();
  }

  /** Spawns the shell. Never throws: failures become a message in the pane and a fallback shell. */
  start(): void {
    this.process.start(this.size);
  }

  /** Attach a fresh pane's first client. Its output starts at offset 0 (after any restored snapshot). */
  attach(listener: PaneListener): PaneInfo {
    this.delivery.attach(listener);
    const snapshot = this.restored;
    if (snapshot) {
      this.stream.writeRestored(snapshot);
      this.restored = undefined;
    }
    return { ...this.info(), snapshot, blocks: this.blocks() };
  }

  /**
   * Attach a client to a pane that has been running (browser tab reloaded): it gets the
   * mirror's serialized screen with the blocks in it, and the stream offset the snapshot
   * corresponds to exactly. What the shell prints meanwhile follows, in order.
   */
  reattach(listener: PaneListener): Promise<PaneInfo> {
    const offset = this.stream.offset;
    const blocks = this.blocks();
    this.delivery.beginReattach();
    // The mirror answers right after parsing the writes sent before this, before later ones.
    return this.stream.mirror.snapshot().then(({ text, state, blocks: snapshotBlocks }) => {
      setImmediate(() => this.delivery.endReattach(listener));
      return { ...this.info(), snapshot: text, snapshotState: state || undefined, streamOffset: offset, blocks, snapshotBlocks };
    });
  }

  detach(listener: PaneListener): void {
    this.delivery.detach(listener);
  }

  info(): PaneInfo {
    return {
      paneId: this.id,
      shell: this.process.shellPath,
      shellName: this.shellName,
      integration: this.stream.integration,
      cwd: this.tracker.cwd,
      state: this.tracker.state,
      cols: this.size.cols,
      rows: this.size.rows,
      streamOffset: this.stream.offset,
      exited: this.process.exited,
      ...(this.tracker.remote && { remote: this.tracker.remote }),
    };
  }

  /** Mirror content as escape sequences; waits for the mirror to catch up first. */
  snapshot(scrollback?: number): Promise<string> {
    return this.stream.mirror.serialize(scrollback);
  }

  get cwd(): string {
    return this.tracker.cwd;
  }

  get state(): TerminalState {
    return this.tracker.state;
  }

  get exited(): boolean {
    return this.process.exited !== undefined;
  }

  get integration(): boolean {
    return this.stream.integration;
  }

  /** The remote shell the pane is on now (reached with `ssh`, integrated), or undefined on the local shell. */
  get remote(): RemoteShellInfo | undefined {
    return this.tracker.remote;
  }

  /** Absolute path of the shell running (it may be a fallback). */
  get shell(): string {
    return this.process.shellPath;
  }

  get shellName(): string {
    return shellName(this.process.shellPath);
  }

  /** A step's variables reach it: the local shell's integration reads them from a file here, which a remote shell cannot. */
  get stepEnvApplies(): boolean {
    return this.process.stepEnvFile !== undefined && this.stream.integration && !this.tracker.remote;
  }

  get isAlternateScreen(): boolean {
    return this.stream.mirror.isAlternateScreen;
  }

  blocks(): Block[] {
    return this.tracker.blocks();
  }

  /** What the shell exports now, as far as its start and the integration's reports tell. */
  environment(): Record<string, string> {
    return this.stream.environment.values();
  }

  /** Clean text a block printed, and how much it printed in all (both from the mirror). */
  async outputOf(blockId: string): Promise<BlockOutput | undefined> {
    if (!this.tracker.find(blockId)) return undefined;
    return (await this.stream.mirror.readBlock(blockId)) ?? { text: '', truncated: true, lineCount: 0 };
  }

  screenText(): Promise<string> {
    return this.stream.mirror.screenText();
  }

  /** Keyboard and paste input from the user. `# ` lines at a prompt go to the agent instead. */
  write(data: Uint8Array | string): void {
    if (!this.process.running || this.typing.hold(data)) return;
    this.delivery.userInput();
    // Before the write: once the key is in, the pager may quit and the shell take the
    // terminal back before a look after it (on a loaded machine it did). It looks at /proc
    // for the first key of a block only, never at a prompt.
    this.noteKeyForPager();
    const { toShell, requests, refusal } = this.input.fromUser(data);
    this.toShell(toShell, true);
    if (latencyMarks.on) latencyMarks.mark('input-written', { pane: this.id });
    this.input.dispatch(requests);
    // Its cause is gone once a command starts there (the line was dealt with) or a run takes the pane.
    if (refusal) this.notice('warning', refusal, { ends: ['command', 'run-start'] });
  }

  /**
   * Types a whole command at the prompt and presses Enter, as if the user had (a plan step).
   * The line goes first; once the shell has echoed it (EnterAfterEcho), `env` is written for the
   * shell integration (which exports it for this command line alone), `beforeEnter` runs, and
   * Enter is pressed: until Enter the line runs nothing, so none of that comes before the keys.
   */
  typeCommand(command: string, { env, beforeEnter }: { env?: () => Readonly<Record<string, string>> | undefined; beforeEnter?: () => void } = {}): void {
    if (!this.process.running) return;
    const { line, enter } = this.input.commandKeys(command, this.stream.mirror.bracketedPasteMode);
    this.typing.type(line, enter, {
      beforeEnter: () => {
        const variables = this.stream.integration ? env?.() : undefined;
        if (variables) this.stepEnv.write(variables, (error) => this.options.log?.warning('pane', `pane ${this.id}: the step's environment could not be written; it runs without it`, error));
        beforeEnter?.();
      },
      pressed: () => {
        latencyMarks.mark('step-enter-written', { pane: this.id });
        this.commandTypedEvent.fire(command);
      },
    });
    latencyMarks.mark('step-line-written', { pane: this.id });
  }

  /** Send SIGINT to the foreground job the way Ctrl+C does. */
  interrupt(): void {
    this.write('\x03');
  }

  /** The foreground job gets SIGKILL (a plan step that ignored Ctrl+C past its timeout). */
  killForeground(): boolean {
    return this.process.killForeground();
  }

  /** The pager (`less`, git's `pager`…) in the foreground, waiting for keys, if there is one. */
  foregroundPager(): string | undefined {
    return this.process.foregroundPager();
  }

  /** The programs in the terminal's foreground by name; [] while the shell has it. */
  foregroundPrograms(): string[] {
    return this.process.foregroundPrograms();
  }

  /** Presses `q` for a pager in the foreground (as the user would to quit it); its name, or undefined. */
  quitPager(): string | undefined {
    const pager = this.process.foregroundPager();
    if (pager) this.write('q');
    return pager;
  }

  /** Watch blocks and prompts of this pane until the returned Disposable is disposed. */
  observe(watcher: PaneWatcher): Disposable {
    return watchPane(watcher, {
      tracker: this.tracker,
      stream: this.stream,
      exited: this.exitedEvent.event,
      commandTyped: this.commandTypedEvent.event,
      afterOutput: (work, sendFirst) => {
        if (!this.watcherWork) return work();
        this.watcherWork.work.push(work);
        this.watcherWork.sendFirst ||= sendFirst;
      },
    });
  }

  resize(cols: number, rows: number): { cols: number; rows: number } {
    this.size = clampSize(cols, rows);
    this.stream.mirror.resize(this.size.cols, this.size.rows);
    this.delivery.resized(this.size.cols, this.size.rows);
    this.process.resize(this.size.cols, this.size.rows);
    return this.size;
  }

  acknowledge(bytes: number): void {
    this.delivery.acknowledge(bytes);
  }

  /** Ends the shell and everything it started; resolves once the shell is gone (or after a grace period). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.typing.dispose();
    this.stream.stop();
    this.delivery.discardPending();
    // Whoever watches the shell (a plan step running in it) hears that it is gone.
    this.exitedEvent.fire();
    return this.process.close().finally(() => {
      this.stream.dispose();
      this.exitedEvent.dispose();
    });
  }

  private get tracker() {
    return this.stream.tracker;
  }

  private wireShell(): void {
    this.process.onData((chunk) => {
      if (!this.closed) this.receive(chunk);
    });
    this.process.onTerminalLine((text) => this.writeNotice(text));
    this.process.onNotice(({ level, message }) => this.notice(level, message));
    this.process.onSpawned(({ integration, env }) => {
      this.stream.environment.shellStarted(env);
      this.stream.setIntegration(integration);
      this.emitState();
    });
    this.process.onIntegrationSilent(() => {
      if (this.tracker.integrationConfirmed) return;
      this.stream.setIntegration(false);
      this.notice('warning', 'Shell integration did not report in; blocks now come from prompt heuristics.', { topic: INTEGRATION_SILENT });
      this.emitState();
    });
    this.process.onExit((exit) => {
      if (!this.closed) this.markExited(exit);
    });
  }

  private wireStream(): void {
    this.stream.mirror.onLost((reason) => {
      this.notice('warning', `The engine's copy of this pane's screen was lost (${reason}); output printed before now is no longer available to the AI.`);
    });
    this.stream.mirror.onOff(({ reason, detail }) => {
      this.options.log?.warning('mirror', `pane ${this.id}: the mirror is off: ${reason}`, detail);
      const message = `The engine's copy of this pane's screen is off (${reason}). The terminal works as usual, but the AI cannot read this pane's output and a reloaded window cannot show the screen from before. Restart Tandem to try again; the engine log has the details.`;
      this.emitEvent('pane.notice', { paneId: this.id, level: 'warning', message });
    });
    this.tracker.onStarted(({ block }) => this.emitEvent('block.started', block));
    this.tracker.onFinished((block) => {
      this.emitEvent('block.finished', block);
      this.sendChunkAtOnce();
    });
    this.tracker.onStateChanged(() => this.emitState());
    this.tracker.onPromptShown(() => {
      this.sendChunkAtOnce();
      this.input.promptShown();
      // The typed step did not run (a syntax error): its environment must not reach the user's next command.
      if (this.tracker.state === 'PROMPT') this.stepEnv.promptShown();
    });
    this.tracker.onIntegrationConfirmed(() => {
      this.process.integrationConfirmed();
      if (this.stream.integration) return;
      // Late (a slow .zshrc): blocks come from trusted marks again, and the notice saying otherwise goes.
      this.stream.setIntegration(true);
      this.options.log?.info('pane', `pane ${this.id}: shell integration reported in late; blocks come from its marks again`);
      this.emitEvent('pane.notice.withdrawn', { paneId: this.id, topic: INTEGRATION_SILENT });
      this.emitState();
    });
  }

  /** A key for a pager (or full-screen program) of the running block: a 141 it ends with is the user quitting it. */
  private noteKeyForPager(): void {
    if (!this.tracker.running || this.tracker.userTypedInPager) return;
    if (this.stream.mirror.isAlternateScreen || this.process.foregroundPager() !== undefined) this.tracker.markUserInPager();
  }

  /**
   * Output of the shell (or a notice line of ours): read for marks, then on to the client. What
   * the pane's watchers do about its marks (a block's end: the step's result, history, hints)
   * waits until the chunk's frame is sent; the frame goes at once then, a block's end or a
   * prompt being where a burst of output ends anyway (and so does a typed step's echo).
   */
  /**
   * The chunk being read ends a block or shows a prompt: it goes out now, not on the batcher's
   * timer (the output just before it went within the batching period, so the prompt after a
   * short command waited 5 ms), whether or not a watcher listens.
   */
  private sendChunkAtOnce(): void {
    if (this.watcherWork) this.watcherWork.sendFirst = true;
  }

  private receive(chunk: Uint8Array): void {
    if (latencyMarks.on) latencyMarks.mark('output-read', { pane: this.id, offset: this.stream.offset + chunk.length });
    const watchers = { work: [] as (() => void)[], sendFirst: false };
    this.watcherWork = watchers;
    try {
      this.stream.push(chunk);
    } finally {
      this.watcherWork = undefined;
    }
    this.delivery.output(chunk);
    // A typed step's echo goes at once too: it is what the user (or `tandem agent`) waits to see.
    if (watchers.sendFirst || this.typing.waiting) this.delivery.sendNow();
    runAll(watchers.work);
    this.typing.output();
  }

  private toShell(data: Uint8Array | string, fromUser: boolean): void {
    if ((typeof data === 'string' ? data.length : data.byteLength) === 0) return;
    this.stream.beforeInput(data);
    this.process.write(data, fromUser);
  }

  private markExited(exit: ShellExit): void {
    const { exitCode, signal } = exit;
    this.typing.dispose();
    this.tracker.shellExited(signal ? undefined : exitCode, this.stream.offset);
    this.delivery.flushAll();
    this.exitedEvent.fire();
    const how = signal ? `was killed by signal ${signal}` : `exited with code ${exitCode}`;
    this.emitEvent('pane.exit', {
      paneId: this.id,
      exitCode,
      signal: signal || undefined,
      message: `${this.shellName || 'The shell'} ${how}.`,
    });
  }

  /** A line of text in the terminal itself, dim, so the user sees it where they look. */
  private writeNotice(text: string): void {
    this.options.log?.warning('shell', `pane ${this.id}: ${text}`);
    this.receive(Buffer.from(`\r\n\x1b[2m[tandem] ${text}\x1b[0m\r\n`, 'utf8'));
  }

  /**
   * A notice over the pane (`pane-notice`). `ends`: what takes it away by itself (else the user
   * does); `topic`: what it is about, so the engine can withdraw it once that is over.
   */
  notice(level: NoticeLevel, message: string, { ends, topic }: { ends?: NoticeEnd[]; topic?: string } = {}): void {
    if (level !== 'info') this.options.log?.[level]('pane', `pane ${this.id}: ${message}`);
    this.emitEvent('pane.notice', { paneId: this.id, level, message, ...(ends && { ends }), ...(topic && { topic }) });
  }

  private emitState(): void {
    this.emitEvent('pane.state', { paneId: this.id, state: this.tracker.state, cwd: this.tracker.cwd, integration: this.stream.integration, remote: this.tracker.remote });
  }

  private emitEvent<E extends keyof Events>(event: E, payload: Events[E]): void {
    this.delivery.event(event, payload, this.stream.position);
  }
}

/** Runs every piece of work even if one throws; the first error is rethrown after all have run (as Emitter.fire does). */
function runAll(work: readonly (() => void)[]): void {
  let failure: { error: unknown } | undefined;
  for (const run of work) {
    try {
      run();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
