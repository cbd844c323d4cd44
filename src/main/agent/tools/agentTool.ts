import type { AgentPane } from '../agentPane';
import type { EditRequest } from '../fileEdits/fileEdit';
import type { ToolDefinition } from '../backends/modelBackend';
import type { PlanStep } from '../plan/planStep';
import type { FinishedRun } from '../plan/stepRunner';
import type { Summarizer } from '../summarizer/summarizer';
import type { DesktopOffer } from '../vision/desktopOffer';
import type { UiRequest } from '../vision/uiRequest';
import type { VisionRequest } from '../vision/visionRequest';
import type { SpawnRequest } from '../children/spawnRequest';
import type { FileToolContext } from './filePaths';
import type { StepDecider } from '../../../shared/agent';
import type { HistoryResult, SearchQuery, StoredRecord } from '../../history/historyRecord';

/**
 * One tool of the agent, in one module: the schema the model sees, how a call is approved,
 * and how its result is shown in the panel and given to the model. The registry
 * (toolRegistry.ts) lists them; the dispatcher (toolDispatcher.ts) runs their calls.
 */
export type AgentTool = ImmediateTool | GatedTool;

/** How a tool is offered to the model: always as `definition`, unless it says otherwise for the desktop at hand. */
interface OfferedTool {
  readonly definition: ToolDefinition;
  /** Whether it can work with this desktop (absent: always offered). */
  offeredWith?(desktop: DesktopOffer): boolean;
  /** Its definition beside the other tools offered with this desktop (absent: `definition`). */
  definitionWith?(desktop: DesktopOffer): ToolDefinition;
}

/** Runs without asking (it only reads; the policy may still refuse a path). */
export interface ImmediateTool extends OfferedTool {
  readonly approval: 'none';
  /** Never throws for bad input: the result says what was wrong. */
  run(input: unknown, context: ToolContext): Promise<ToolResult>;
}

/**
 * Each call becomes a plan step: the approval gate judges it, and when the gate asks, the
 * user decides on the step's card in the plan. `steps` says what the step does: a command
 * typed into the pane, or a file edit (its card shows the diff).
 */
export type GatedTool = CommandTool | FileEditTool | LookTool | UiTool;

interface GatedToolBase extends OfferedTool {
  readonly approval: 'gate';
  /** The step a call proposes, or why it cannot be one (the model is told). */
  propose(input: unknown): { ok: true; step: ProposedStep } | { ok: false; refusal: string };
}

/** Its steps are commands; the model is told what `report` makes of a step's run. */
export interface CommandTool extends GatedToolBase {
  readonly steps: 'command';
  /** What the model is told about a step that ran to its end. */
  report(step: Readonly<PlanStep>, run: FinishedRun, ownFilesChanged: string[]): string;
}

/** Its steps change a file (fileEdits/): the diff is worked out when the step comes up, and the model is told whether it was applied. */
export interface FileEditTool extends GatedToolBase {
  readonly steps: 'edit';
}

/** Its steps look at the screen (vision/): the gate's `[approval.vision]`, then the desktop capability. */
export interface LookTool extends GatedToolBase {
  readonly steps: 'look';
}

/** Its steps act on the screen (vision/UiSteps): resolved to the window they reach, then `[approval.ui]`. */
export interface UiTool extends GatedToolBase {
  readonly steps: 'ui';
}

export interface ProposedStep {
  /** The command line; for an edit, a one-line description of it (`edit_file src/app.ts`). */
  command: string;
  purpose: string;
  /** Absent: the active pane. */
  paneId?: number;
  /** An edit step's file (as the model gave it: relative to the pane's cwd) and change. */
  edit?: { path: string; request: EditRequest };
  /** A look step's request. */
  vision?: VisionRequest;
  /** A UI action step's request. */
  ui?: UiRequest;
  /** A spawn_agent step: the child it asks for (the dispatcher's ChildAgents makes its command line). */
  spawn?: SpawnRequest;
}

/** What an immediate tool is given: where it runs, and the panes it may read. */
export interface ToolContext extends FileToolContext {
  pane(paneId: number): AgentPane | undefined;
  defaultPaneId: number | undefined;
  /** The small-model summarizer for `terminal_history`'s detail "summary"; absent: local filtering. */
  summarizer?: Summarizer;
  /** The block history `search_history` reads; absent: it says there is none. */
  history?: Pick<ToolHistory, 'search'>;
}

/** The agent's side of the block history. */
export interface ToolHistory {
  /** A plan step's command started as this block: it was the agent's (or an `!auto` run's), decided by `decider`. */
  claim(blockId: string, step: { auto: boolean; decider?: StepDecider; conversation: string }): void;
  search(query: SearchQuery): Promise<HistoryResult<StoredRecord[]>>;
}

/** A call's result: `content` for the model (scrubbed by the dispatcher), `summary` for the panel's line. */
export interface ToolResult {
  content: string;
  isError: boolean;
  summary: string;
}

/** A string argument of a call's input, when the model gave one (for the panel's line). */
export function stringArgument(input: unknown, name: string): string | undefined {
  const value = input && typeof input === 'object' ? (input as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}
