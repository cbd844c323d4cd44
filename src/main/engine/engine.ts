import { homedir } from 'node:os';
import type { Block } from '../../shared/blocks';
import { closeQuestion, type CloseQuestion, type PaneRunning } from '../../shared/closeQuestion';
import type { HelloResult, PaneInfo, SessionLayout } from '../../shared/protocol';
import type { Settings, SettingsPatch } from '../../shared/settings';
import { AgentSession } from '../agent/agentSession';
import { MemoryKeyStore } from '../agent/modelConnection';
import { EVERY_FAILURE_COUNTS } from '../companion/hintDetector';
import { WatchHints } from '../companion/watchHints';
import { chooseDesktop } from '../desktop/desktopChoice';
import { DEFAULT_EXCLUDED_WINDOWS, WindowExclusion } from '../desktop/privacy/windowExclusion';
import { Pane, type PaneListener } from '../panes/pane';
import { runningInPane } from '../panes/runningInPane';
import { shellPathProblem } from '../panes/shellChoice';
import { TypingActivity } from '../panes/typingActivity';
import type { ApprovalGate } from '../safety/approval/approvalGate';
import { createApprovalGate } from '../safety/approval/gateSetup';
import { EngineLog } from '../log/engineLog';
import { GrantLifetime } from './grantLifetime';
import type { EngineOptions, HeadlessEngineOptions } from './engineOptions';
import { usableDirectory } from './usableDirectory';
import { EngineHistory } from '../history/recording/engineHistory';
import { AuditLog } from '../safety/audit/auditLog';
import { FileLockNotTaken } from '../safety/audit/auditLock';
import { isSecretEnvironmentName } from '../safety/secretScrubber';
import { restoredLine } from '../session/restoredLine';
import { SessionKeeper } from '../session/sessionKeeper';
import { LiveSettings } from '../settings/liveSettings';
import { tandemPaths, type TandemPaths } from '../settings/paths';
import { Tracer } from '../telemetry/tracer';
import { agentDepth } from '../agent/children/agentDepth';
import { plainHostsPath } from '../ssh/plainHosts';
import { EngineWatchers } from '../watchers/engineWatchers';
import { VoiceService } from '../voice/voiceService';

export type { EngineOptions, HeadlessEngineOptions };

export class UserError extends Error {}

const CTRL_C = 0x03;

/**
 * The engine: panes, settings and the saved session, shared by every transport. Exactly
 * one client (window or browser tab) is attached at a time; panes outlive clients, so a
 * reloaded or reopened browser tab finds its shells still running.
 */
export class Engine {
  readonly paths: TandemPaths;
  private readonly liveSettings: LiveSettings;
  private readonly panes = new Map<number, Pane>();
  private nextPaneId = 1;
  private client: PaneListener | undefined;
  private readonly session: SessionKeeper;
  private readonly env: NodeJS.ProcessEnv;
  /** The pane the user typed in last (where the agent works when a request names none), and when. */
  private readonly typing = new TypingActivity();
  readonly agent: AgentSession;
  readonly log: EngineLog;
  private readonly audit: AuditLog;
  /** Spans of the agent's instructions, requests and steps (docs/telemetry.md). */
  readonly tracer: Tracer;
  private readonly gate: ApprovalGate;
  private readonly watchHints: WatchHints;
  private readonly grantLifetime: GrantLifetime;
  /** Every finished block, recorded in the history database (history/recording/). */
  readonly history: EngineHistory;
  /** watchers.toml and the projects' (docs/watchers.md); none in a `tandem agent` run. */
  readonly watchers: EngineWatchers | undefined;
  /** Push-to-talk transcription and spoken answers (docs/voice.md). */
  readonly voice: VoiceService;

  constructor(private readonly options: EngineOptions) {
    this.env = options.env ?? process.env;
    this.paths = options.paths ?? tandemPaths(this.env);
    this.log = new EngineLog({ file: this.paths.logFile, echo: options.echoLog });
    this.liveSettings = new LiveSettings(this.paths, this.log);
    this.gate = createApprovalGate(this.paths, this.env, { systemPolicyFile: options.systemPolicyFile, log: this.log, runPolicyFiles: options.headless?.runPolicyFiles });
    this.audit = new AuditLog(this.paths.auditFile, this.paths.auditHeadFile, {
      onError: (error) => {
        const what = error instanceof FileLockNotTaken ? 'the audit log was written without its lock' : 'the audit log could not be written';
        console.error(`tandem: ${what}: ${error.message}`);
        this.log.error('audit', what, error);
      },
    });
    this.tracer = new Tracer({
      env: this.env,
      file: this.paths.traceFile,
      settings: () => this.settings.telemetry,
      oneTrace: options.headless !== undefined,
      onError: (error) => this.log.error('telemetry', 'the trace file could not be written', error),
      stream: options.headless?.spanStream,
      version: options.version,
      onProblem: (message) => {
        this.log.warning('telemetry', message);
        // A headless run has no banner: its stderr is where the person or program running it looks.
        if (options.headless) process.stderr.write(`tandem: ${message}\n`);
      },
    });
    this.history = new EngineHistory({ file: this.paths.historyFile, settings: () => this.settings.history, log: this.log, batchMs: options.historyBatchMs });
    const desktop =
      options.desktop ??
      chooseDesktop({
        platform: process.platform,
        env: this.env,
        exclusion: new WindowExclusion(() => this.gate.visionExclusions(DEFAULT_EXCLUDED_WINDOWS)),
        electron: options.electron,
      });
    this.agent = new AgentSession({
      history: this.history,
      tracer: this.tracer,
      headless: options.headless !== undefined,
      // Queued instructions come back with the session (a `tandem agent` run queues nothing).
      queueFile: options.headless === undefined && this.settings.session.restore ? this.paths.queueFile : undefined,
      settings: () => this.settings,
      env: this.env,
      keys: options.keys ?? new MemoryKeyStore(),
      pane: (paneId) => this.panes.get(paneId),
      defaultPaneId: () => {
        const typedIn = this.typing.lastPane;
        return typedIn !== undefined && this.panes.has(typedIn) ? typedIn : this.panes.keys().next().value;
      },
      emit: (event, payload) => this.client?.event(event, payload as never),
      retryBaseMs: options.agentRetryBaseMs,
      gate: this.gate,
      audit: this.audit,
      log: this.log,
      autoChanged: (paneId) => this.watchHints.quietIn(paneId),
      planRules: options.headless?.planRules,
      requestRefusal: options.headless?.requestRefusal,
      childAgents: options.selfCommand && {
        selfCommand: () => options.selfCommand,
        depth: agentDepth(this.env),
        ...options.headless?.childAgents,
      },
      desktop,
    });
    this.watchHints = new WatchHints(
      {
        settings: () => this.settings.companion,
        show: (paneId, hint) => this.client?.event('companion.hint', { paneId, hint }),
      },
      // A headless run's client shows no hints. Loading the bash grammar to judge failures for them
      // took about 25 ms of its main thread between its start and its first request; its gate loads
      // the grammar when it first judges a step.
      options.headless ? EVERY_FAILURE_COUNTS : undefined,
    );
    this.watchers =
      options.headless === undefined
        ? new EngineWatchers({
            paths: this.paths,
            home: this.home,
            log: this.log,
            audit: this.audit,
            desktop,
            focusedPane: () => this.typing.lastPane,
            ...{ selfCommand: options.selfCommand, env: this.env, waitLimit: () => this.settings.watchers.wait_limit, emit: (event, payload) => this.client?.event(event, payload) },
          })
        : undefined;
    this.voice = new VoiceService({ settings: () => this.settings.voice, env: this.env, log: this.log });
    this.voice.voicePhraseHeard = (text) => this.watchers?.service.voicePhraseHeard(text); // fires `voice` watchers
    this.session = new SessionKeeper(this.paths.sessionFile, this.keepsSession && this.settings.session.restore, this.log);
    this.grantLifetime = new GrantLifetime(() => this.agent.revokeAllGrants(), options.grantsKeptWithoutWindowMs);
    this.liveSettings.onChanged((change) => {
      this.client?.event('settings.changed', change);
      this.agent.settingsChanged();
      this.watchHints.settingsChanged();
    });
  }

  get settings(): Settings {
    const settings = this.liveSettings.current;
    return this.options.headless?.adjustSettings?.(settings) ?? settings;
  }

  /** The desktop app and browser mode keep the session; a `tandem agent` run leaves it alone. */
  private get keepsSession(): boolean {
    return this.options.headless === undefined;
  }

  /**
   * Make `client` the one attached client; the previous one (another tab) is told it was
   * replaced. Running panes reach the new client once it asks for them (`reattachPane`).
   * The session's grants go on: the conversation they belong to is the engine's, and the
   * new window's panel lists them.
   */
  attachClient(client: PaneListener): void {
    if (this.client && this.client !== client) {
      this.client.event('connection.replaced', {});
      for (const pane of this.panes.values()) pane.detach(this.client);
    }
    this.client = client;
    this.grantLifetime.windowBack();
  }

  reattachPane(paneId: number, client: PaneListener): Promise<PaneInfo> {
    return this.pane(paneId)
      .reattach(client)
      .then((info) => (this.history.recorder.isPrivate(paneId) ? { ...info, private: true } : info));
  }

  /** Asks the window to open a tab that runs `ssh ARGS…` (`tandem ssh`); false when no window is attached. */
  openSshTab(args: string[]): boolean {
    if (!this.client) return false;
    this.client.event('ssh.open-tab', { args });
    return true;
  }

  detachClient(client: PaneListener): void {
    if (this.client !== client) return;
    for (const pane of this.panes.values()) pane.detach(client);
    this.client = undefined;
    // "Allow for session" lasts until the window closes, even where the panes live on; a
    // reload comes straight back and keeps it (GrantLifetime).
    this.grantLifetime.windowGone();
  }

  /** The user's home directory as this engine sees it (its environment's HOME). */
  get home(): string {
    return this.env.HOME || homedir();
  }

  hello(): HelloResult {
    return {
      version: this.options.version,
      platform: process.platform,
      settings: this.settings,
      settingsError: this.liveSettings.error,
      settingsNotice: this.liveSettings.notice,
      sessionError: this.session.error,
      configPath: this.paths.configFile,
      shellOverride: this.options.shellOverride,
      home: this.home,
      policyProblems: this.gate.policyProblems(),
      restoredSession: this.settings.session.restore ? this.session.restoredLayout() : undefined,
      livePanes: [...this.panes.values()].map((pane) => pane.info()),
      hostWarnings: this.options.hostWarnings,
      companionHints: this.watchHints.current(),
    };
  }

  createPane(
    request: { cols: number; rows: number; shell?: string; cwd?: string; restoreKey?: string },
    client: PaneListener,
  ): PaneInfo {
    const restored = request.restoreKey ? this.session.takeScrollback(request.restoreKey) : undefined;
    const id = this.nextPaneId++;
    const pane = new Pane({
      id,
      shellPath: request.shell || this.options.shellOverride || this.settings.shell.path || undefined,
      shellArgs: this.settings.shell.args,
      cwd: usableDirectory(request.cwd ?? restored?.cwd) ?? usableDirectory(this.env.HOME) ?? homedir(),
      cols: request.cols,
      rows: request.rows,
      scrollback: this.settings.terminal.scrollback,
      currentScrollback: () => this.settings.terminal.scrollback,
      integration: this.settings.shell.integration,
      login: this.settings.shell.login,
      env: this.env,
      reportEnv: this.settings.context.include_env.filter((name) => !isSecretEnvironmentName(name)),
      sshIntegrate: this.settings.ssh.integrate === 'auto',
      sshPlainHosts: plainHostsPath(this.paths.stateDir),
      integrationTimeoutMs: this.options.integrationTimeoutMs,
      restoredSnapshot: restored ? restored.scrollback + restoredLine(restored.savedAt, request.cols) : undefined,
      onPromptRequest: (paneId, promptRequest) => {
        this.watchHints.asked(paneId);
        if (promptRequest.kind === 'auto') this.autoFromPrompt(paneId, promptRequest.text);
        else this.agent.promptRequest(paneId, promptRequest);
      },
      log: this.log,
      typing: this.typing,
    });
    this.panes.set(id, pane);
    this.history.watch(pane);
    this.watchHints.watch(id, (watcher) => pane.observe(watcher));
    this.watchers?.watchPane(id, pane.cwd, (watcher) => pane.observe(watcher), (blockId) => pane.outputOf(blockId));
    const attached = pane.attach(client);
    pane.start();
    return { ...pane.info(), snapshot: attached.snapshot, streamOffset: attached.streamOffset };
  }

  pane(paneId: number): Pane {
    const pane = this.panes.get(paneId);
    if (!pane) throw new UserError(`There is no pane ${paneId}; it may have been closed.`);
    return pane;
  }

  /** Keyboard input for a pane; it also makes that pane the agent's default. */
  input(paneId: number, bytes: Uint8Array): void {
    const pane = this.panes.get(paneId);
    if (!pane) return; // Input for a pane closed a moment ago.
    this.typing.typed(paneId);
    this.watchHints.input(paneId);
    // Ctrl+C in the pane of an auto run interrupts its step (the shell gets it) and ends the run.
    if (bytes.includes(CTRL_C) && this.agent.autoPaneId === paneId) this.agent.stopAuto('ctrl-c');
    pane.write(bytes);
  }

  /**
   * `!auto <task>` typed at a pane's prompt. A task that cannot start now (the agent is busy,
   * a run works) is not lost: the line goes back to the prompt, to be entered again.
   */
  private autoFromPrompt(paneId: number, task: string): void {
    const pane = this.panes.get(paneId);
    if (!task) {
      pane?.notice('info', 'Type the task after !auto, for example: !auto fix the failing test', { ends: ['typing', 'command', 'run-start', 'timeout'] });
      return;
    }
    this.client?.event('agent.prompt-instruction', { paneId, text: `!auto ${task}` });
    this.agent.startAuto(paneId, task).catch((error: unknown) => {
      // Typed back, not entered: the prompt's line model follows it like the user's keys.
      pane?.write(`!auto ${task}`);
      const why = error instanceof Error ? error.message : String(error);
      pane?.notice('warning', `${why} Your task is back at the prompt: press Enter to start it then.`, { ends: ['command', 'run-start', 'agent-idle'] });
    });
  }

  /** The pane with the keyboard, while the window has focus (null: none). */
  focusPane(paneId: number | null): void {
    this.watchHints.focus(paneId);
  }

  /** The user works on a pane's output in the AI panel: Watch mode does not take them for stuck. */
  panelActivity(paneId: number): void {
    this.watchHints.asked(paneId);
  }

  closePane(paneId: number): Promise<void> {
    const pane = this.panes.get(paneId);
    if (!pane) return Promise.resolve();
    this.panes.delete(paneId);
    this.watchHints.unwatch(paneId);
    this.watchers?.unwatchPane(paneId);
    this.agent.paneClosed(paneId);
    // Private until its shell is gone: nothing it finishes on the way out is recorded.
    return pane.close().finally(() => this.history.recorder.paneClosed(paneId));
  }

  /** What closing these panes would end, for each that still exists (every pane when none are named). */
  runningIn(paneIds?: readonly number[]): PaneRunning[] {
    return (paneIds ?? [...this.panes.keys()]).flatMap((paneId) => {
      const pane = this.panes.get(paneId);
      return pane ? [runningInPane(pane, this.agent.autoPaneId === paneId)] : [];
    });
  }

  /** What to ask before the desktop app's window closes (ending every pane), or undefined to close at once. */
  quitQuestion(): CloseQuestion | undefined {
    return closeQuestion(this.settings.terminal.confirm_close, 'window', this.runningIn());
  }

  /** Private mode: while on, nothing of the pane is recorded in the history. */
  setPrivate(paneId: number, on: boolean): { private: boolean } {
    this.pane(paneId);
    this.history.recorder.setPrivate(paneId, on);
    this.client?.event('pane.private', { paneId, private: on });
    return { private: on };
  }

  blocks(paneId: number): Block[] {
    return this.pane(paneId).blocks();
  }

  async blockOutput(blockId: string): Promise<{ text: string; truncated: boolean; lineCount: number }> {
    const paneId = Number(/^p(\d+)b\d+$/.exec(blockId)?.[1]);
    const output = Number.isFinite(paneId) ? await this.panes.get(paneId)?.outputOf(blockId) : undefined;
    if (!output) throw new UserError(`There is no block ${blockId}.`);
    return output;
  }

  updateSettings(patch: SettingsPatch): Settings {
    const shellProblem = patch.shell?.path ? shellPathProblem(patch.shell.path, this.env) : undefined;
    if (shellProblem) throw new UserError(`Not saved: the shell path cannot be used: ${shellProblem}.`);
    let settings: Settings;
    try {
      settings = this.liveSettings.update(patch);
    } catch (error) {
      throw new UserError((error as Error).message);
    }
    if (patch.ai) this.agent.settingsChanged();
    if (patch.companion) this.watchHints.settingsChanged();
    return settings;
  }

  /** Remember the renderer's layout and write the session file with fresh scrollback. */
  saveSession(layout?: SessionLayout): Promise<void> {
    if (layout) this.session.remember(layout);
    if (!this.keepsSession || !this.settings.session.restore) return Promise.resolve();
    return this.session.save((paneId) => this.panes.get(paneId), this.settings.terminal.scrollback);
  }

  async shutdown(): Promise<void> {
    this.grantLifetime.dispose();
    this.liveSettings.dispose();
    this.watchHints.dispose();
    this.watchers?.dispose();
    this.agent.dispose();
    try {
      await this.saveSession();
    } finally {
      await Promise.all([...this.panes.keys()].map((id) => this.closePane(id)));
      await Promise.all([this.audit.flush(), this.tracer.flush(), this.history.close()]);
    }
  }
}
