import type { MirrorThread } from '../blocks/mirror/mirrorThread';
import type { EngineLog } from '../log/engineLog';
import type { PromptRequest } from '../prompt/promptInterceptor';
import type { TypingActivity } from './typingActivity';

/** What a pane is started with. */
export interface PaneOptions {
  id: number;
  shellPath?: string;
  shellArgs?: string[];
  cwd: string;
  cols: number;
  rows: number;
  scrollback: number;
  /** The renderer's scrollback as the settings say now (they change while the pane runs); `scrollback` when absent. */
  currentScrollback?: () => number;
  integration: boolean;
  login: boolean;
  env?: NodeJS.ProcessEnv;
  /** Variables whose exported values the shell integration reports (`[context] include_env`, no secrets). */
  reportEnv?: readonly string[];
  /** `[ssh] integrate = "auto"`: the integration wraps an interactive `ssh` to carry itself along (docs/ssh.md). */
  sshIntegrate?: boolean;
  /** The file of servers that refused the ssh bootstrap (`ssh-plain-hosts` in the state folder); undefined: none remembered. */
  sshPlainHosts?: string;
  /** How long the integration may take to report in before the pane falls back to heuristics (default 10 s). */
  integrationTimeoutMs?: number;
  /** Serialized screen to show before the shell's first output (session restore). */
  restoredSnapshot?: string;
  /** A `# ` instruction or `?? ` question typed at the prompt (taken away from the shell). */
  onPromptRequest?: (paneId: number, request: PromptRequest) => void;
  /** Where the pane's warnings and shell start failures are recorded. */
  log?: EngineLog;
  /** Keys to every pane of the engine (a flood here reads less while the user types elsewhere); the pane's own when absent. */
  typing?: TypingActivity;
  /** The mirror thread (tests); the process's own by default. */
  mirrorThread?: MirrorThread;
}
