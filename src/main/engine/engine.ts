import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { homedir } from 'node:os';
import type { Block } from '../../shared/blocks';
import type {
  HelloResult,
  LayoutNode,
  PaneInfo,
  RestoredLayoutNode,
  SessionLayout,
} from '../../shared/protocol';
import type { Settings, SettingsPatch } from '../../shared/settings';
import { AgentSession } from '../agent/agentSession';
import { MemoryKeyStore, type ApiKeyStore } from '../agent/modelConnection';
import { Pane, type PaneListener } from '../panes/pane';
import type { ApprovalGate } from '../safety/approval/approvalGate';
import { createApprovalGate } from '../safety/approval/gateSetup';
import { EngineLog } from '../log/engineLog';
import { AuditLog } from '../safety/audit/auditLog';
import { SessionStore } from '../session/sessionStore';
import { loadSettings, updateSettings } from '../settings/configFile';
import { tandemPaths, type TandemPaths } from '../settings/paths';

export interface EngineOptions {
  version: string;
  paths?: TandemPaths;
  env?: NodeJS.ProcessEnv;
  /** A shell chosen on the command line; wins over config.toml. */
  shellOverride?: string;
  /** Where API keys typed into the settings live (the OS keychain in the Electron build). */
  keys?: ApiKeyStore;
  /** First delay before retrying a failed model request (default 1 s, doubling). */
  agentRetryBaseMs?: number;
  /** The system policy file (default /etc/tandem/policy.toml); tests point it elsewhere. */
  systemPolicyFile?: string;
  /** Also print every engine-log line here (`tandem web --verbose`). */
  echoLog?: (line: string) => void;
}

export class UserError extends Error {}

/**
 * The engine: panes, settings and the saved session, shared by every transport. Exactly
 * one client (window or browser tab) is attached at a time; panes outlive clients, so a
 * reloaded or reopened browser tab finds its shells still running.
 */
export class Engine {
  readonly paths: TandemPaths;
  private settingsValue: Settings;
  private settingsError: string | undefined;
  private readonly panes = new Map<number, Pane>();
  private nextPaneId = 1;
  private client: PaneListener | undefined;
  private readonly sessionStore: SessionStore;
  private sessionNotice: string | undefined;
  private lastLayout: SessionLayout | undefined;
  private configWatcher: FSWatcher | undefined;
  private readonly env: NodeJS.ProcessEnv;
  /** The pane the user typed in last: where the agent works when a request names none. */
  private lastActivePaneId: number | undefined;
  readonly agent: AgentSession;
  readonly log: EngineLog;
  private readonly audit: AuditLog;
  private readonly gate: ApprovalGate;

  constructor(private readonly options: EngineOptions) {
    this.env = options.env ?? process.env;
    this.paths = options.paths ?? tandemPaths(this.env);
    this.log = new EngineLog({ file: this.paths.logFile, echo: options.echoLog });
    this.gate = createApprovalGate(this.paths, this.env, { systemPolicyFile: options.systemPolicyFile, log: this.log });
    this.audit = new AuditLog(this.paths.auditFile, this.paths.auditHeadFile, {
      onError: (error) => {
        console.error(`tandem: the audit log could not be written: ${error.message}`);
        this.log.error('audit', 'the audit log could not be written', error);
      },
    });
    this.agent = new AgentSession({
      settings: () => this.settingsValue,
      env: this.env,
      keys: options.keys ?? new MemoryKeyStore(),
      pane: (paneId) => this.panes.get(paneId),
      defaultPaneId: () => (this.lastActivePaneId !== undefined && this.panes.has(this.lastActivePaneId) ? this.lastActivePaneId : this.panes.keys().next().value),
      emit: (event, payload) => this.client?.event(event, payload as never),
      retryBaseMs: options.agentRetryBaseMs,
      gate: this.gate,
      audit: this.audit,
      log: this.log,
    });
    const loaded = loadSettings(this.paths.configFile);
    this.settingsValue = loaded.settings;
    this.settingsError = loaded.error;
    if (loaded.error) this.log.warning('settings', loaded.error);
    this.sessionStore = new SessionStore(this.paths.sessionFile);
    if (this.settingsValue.session.restore) this.sessionNotice = this.sessionStore.load().error;
    if (this.sessionNotice) this.log.warning('session', this.sessionNotice);
    this.watchConfig();
  }

  get settings(): Settings {
    return this.settingsValue;
  }

  /**
   * Make `client` the one attached client; the previous one (another tab) is told it was
   * replaced. Running panes reach the new client once it asks for them (`reattachPane`).
   */
  attachClient(client: PaneListener): void {
    if (this.client && this.client !== client) {
      this.client.event('connection.replaced', {});
      for (const pane of this.panes.values()) pane.detach(this.client);
      this.agent.revokeAllGrants();
    }
    this.client = client;
  }

  reattachPane(paneId: number, client: PaneListener): Promise<PaneInfo> {
    return this.pane(paneId).reattach(client);
  }

  detachClient(client: PaneListener): void {
    if (this.client !== client) return;
    for (const pane of this.panes.values()) pane.detach(client);
    this.client = undefined;
    // "Allow for this session" lasts until the window closes, even where the panes live on.
    this.agent.revokeAllGrants();
  }

  hello(): HelloResult {
    const notices = [this.settingsError, this.sessionNotice].filter(Boolean);
    return {
      version: this.options.version,
      platform: process.platform,
      settings: this.settingsValue,
      settingsError: notices.length > 0 ? notices.join('\n') : undefined,
      configPath: this.paths.configFile,
      policyProblems: this.gate.policyProblems(),
      restoredSession: this.settingsValue.session.restore ? this.sessionStore.restoredLayout() : undefined,
      livePanes: [...this.panes.values()].map((pane) => pane.info()),
    };
  }

  createPane(
    request: { cols: number; rows: number; shell?: string; cwd?: string; restoreKey?: string },
    client: PaneListener,
  ): PaneInfo {
    const restored = request.restoreKey ? this.sessionStore.takeScrollback(request.restoreKey) : undefined;
    const id = this.nextPaneId++;
    const pane = new Pane({
      id,
      shellPath: request.shell || this.options.shellOverride || this.settingsValue.shell.path || undefined,
      shellArgs: this.settingsValue.shell.args,
      cwd: usableDirectory(request.cwd ?? restored?.cwd) ?? usableDirectory(this.env.HOME) ?? homedir(),
      cols: request.cols,
      rows: request.rows,
      scrollback: this.settingsValue.terminal.scrollback,
      integration: this.settingsValue.shell.integration,
      login: this.settingsValue.shell.login,
      env: this.env,
      restoredSnapshot: restored ? restored.scrollback + restoredBanner(restored.savedAt) : undefined,
      onPromptRequest: (paneId, promptRequest) => this.agent.promptRequest(paneId, promptRequest),
      log: this.log,
    });
    this.panes.set(id, pane);
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
    this.lastActivePaneId = paneId;
    pane.write(bytes);
  }

  closePane(paneId: number): Promise<void> {
    const pane = this.panes.get(paneId);
    if (!pane) return Promise.resolve();
    this.panes.delete(paneId);
    return pane.close();
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
    try {
      this.settingsValue = updateSettings(this.paths.configFile, patch);
    } catch (error) {
      throw new UserError((error as Error).message);
    }
    this.settingsError = undefined;
    if (patch.ai) this.agent.settingsChanged();
    return this.settingsValue;
  }

  /**
   * Remember the renderer's layout and write the session file with fresh scrollback. Saves
   * run one after another, so an older layout can never be written last.
   */
  saveSession(layout?: SessionLayout): Promise<void> {
    if (layout) this.lastLayout = layout;
    const save = this.savingSession.then(() => this.writeSession());
    this.savingSession = save.catch(() => undefined);
    return save;
  }

  private savingSession: Promise<void> = Promise.resolve();

  private async writeSession(): Promise<void> {
    if (!this.lastLayout || !this.settingsValue.session.restore) return;
    const panes = [];
    const used = new Set<number>();
    const convert = (node: LayoutNode): RestoredLayoutNode | undefined => {
      if (node.kind === 'pane') {
        const pane = this.panes.get(node.paneId);
        if (!pane) return undefined;
        used.add(node.paneId);
        return { kind: 'pane', restoreKey: `k${node.paneId}`, cwd: pane.cwd, shell: pane.shell };
      }
      const children = node.children.map(convert);
      const kept = children.flatMap((child, index) => (child ? [{ child, size: node.sizes[index] ?? 1 }] : []));
      if (kept.length === 0) return undefined;
      if (kept.length === 1) return kept[0]!.child;
      return { kind: 'split', direction: node.direction, sizes: kept.map((k) => k.size), children: kept.map((k) => k.child) };
    };
    const tabs = this.lastLayout.tabs.flatMap((tab) => {
      const layout = convert(tab.layout);
      return layout ? [{ title: tab.title, layout }] : [];
    });
    for (const id of used) {
      const pane = this.panes.get(id)!;
      panes.push({
        key: `k${id}`,
        cwd: pane.cwd,
        shell: pane.shell,
        scrollback: await pane.snapshot(this.settingsValue.terminal.scrollback),
      });
    }
    this.sessionStore.save({ tabs, activeTab: Math.min(this.lastLayout.activeTab, Math.max(0, tabs.length - 1)), panes });
  }

  async shutdown(): Promise<void> {
    this.configWatcher?.close();
    this.agent.dispose();
    try {
      await this.saveSession();
    } finally {
      await Promise.all([...this.panes.keys()].map((id) => this.closePane(id)));
      await this.audit.flush();
    }
  }

  /** Edits to config.toml made in an editor apply live; a broken edit is reported, never rewritten. */
  private watchConfig(): void {
    try {
      this.configWatcher = watch(this.paths.configDir, (_event, file) => {
        if (file !== 'config.toml') return;
        const loaded = loadSettings(this.paths.configFile);
        this.settingsError = loaded.error;
        if (loaded.error) this.log.warning('settings', loaded.error);
        else this.settingsValue = loaded.settings;
        this.client?.event('settings.changed', { settings: this.settingsValue, error: loaded.error });
        this.agent.settingsChanged();
      });
      this.configWatcher.on('error', () => this.configWatcher?.close());
    } catch {
      // No config directory yet: nothing to watch until the settings UI creates it.
    }
  }
}

function restoredBanner(savedAt: number): string {
  return `\r\n\x1b[2m── restored from the session saved ${new Date(savedAt).toLocaleString()} ──\x1b[0m\r\n`;
}

function usableDirectory(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return existsSync(path) && statSync(path).isDirectory() ? path : undefined;
  } catch {
    return undefined;
  }
}
