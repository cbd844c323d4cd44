import type { Settings } from '../../shared/settings';
import type { HostWarning } from '../../shared/protocol';
import type { ApiKeyStore } from '../agent/modelConnection';
import type { PlanRules } from '../agent/plan/plan';
import type { ChildAgentsHost } from '../agent/children/childAgents';
import type { Desktop } from '../desktop/desktop';
import type { ElectronSurface } from '../desktop/electron/electronSurface';
import type { TandemPaths } from '../settings/paths';
import type { SpanStream } from '../telemetry/traceSinks';

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
  /** How long a shell's integration may take to report in before its pane falls back to heuristics (default 10 s). */
  integrationTimeoutMs?: number;
  /** The system policy file (default /etc/tandem/policy.toml); tests point it elsewhere. */
  systemPolicyFile?: string;
  /** Also print every engine-log line here (`tandem web --verbose`). */
  echoLog?: (line: string) => void;
  /** The desktop capability; default: chosen for this system (X11 when DISPLAY is set, and Electron with `electron`). */
  desktop?: Desktop;
  /** In the Electron app: Tandem's window and Electron's desktop APIs, so the agent can see (and act in) Tandem's own window and panes. */
  electron?: ElectronSurface;
  /** Warnings about how the host runs (the Electron entry: the OS sandbox is off), sent with hello. */
  hostWarnings?: HostWarning[];
  /** How long session grants outlive the last window (GRANTS_KEPT_WITHOUT_WINDOW_MS); tests shorten it. */
  grantsKeptWithoutWindowMs?: number;
  /** A `tandem agent` run (src/main/headless/): no saved session, its own narrowing policy, its plan rules and settings. */
  headless?: HeadlessEngineOptions;
  /** How long finished blocks wait to be written to the history together (default 500 ms). */
  historyBatchMs?: number;
  /** The argv that starts this program (`tandem`), for child agents; absent: spawn_agent is not offered. */
  selfCommand?: readonly string[];
}

export interface HeadlessEngineOptions {
  /** `--policy FILE`s (a child agent's parent's first): judged with the user's policy, but they can only narrow it. */
  runPolicyFiles?: readonly string[];
  /** `TANDEM_TRACE_SINK=stdout`: finished spans go to the run's event stream (only an NDJSON stream takes them). */
  spanStream?: SpanStream;
  /** The rules of every plan of the run (who refuses what nobody approves, its step limit). */
  planRules(): PlanRules | undefined;
  /** The run's flags over config.toml (`--max-steps`, `--max-tokens`). */
  adjustSettings?(settings: Settings): Settings;
  /** Why no model request may go now: the run's budget (`--budget-usd`), its child agents' cost included, is spent. */
  requestRefusal?(): string | undefined;
  /** Child agents' steps that ask go to the run's approval mode; left of the run's budget (`--budget-usd`). */
  childAgents?: Pick<ChildAgentsHost, 'asks' | 'budgetLeftUsd' | 'childCost'>;
}
