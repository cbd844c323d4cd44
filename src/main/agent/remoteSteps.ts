import type { GateDecision } from '../safety/approval/gateDecision';
import type { ToolResultContent } from './backends/modelBackend';
import type { AgentPane } from './agentPane';

/**
 * What the agent's tools do in a pane whose shell is on another host (reached with `ssh`).
 * Commands run there, judged by the gate without this machine's files (safety/approval/remoteHost.ts);
 * everything else acts on this machine, and says so.
 */

/**
 * File edits are made on this machine: in a pane on another host the same path names another
 * file, so an edit there is refused (the model is told why) rather than written here.
 */
export function refuseEditOnRemoteHost(pane: Pick<AgentPane, 'remote'> | undefined, proposed: { command: string }): GateDecision | undefined {
  const remote = pane?.remote;
  if (!remote) return undefined;
  return {
    decision: 'deny',
    blocked: false,
    level: 'yellow',
    reasons: [`the pane is on ${remote.host} over ssh`],
    rule: `builtin: file edits are made on this machine only; the pane is on ${remote.host} (edit there with a command, which asks)`,
    decidedBy: 'builtin',
    command: proposed.command,
    shape: proposed.command,
    host: remote.host,
  };
}

/** Tools that see or act on the screen (screenshots, screen text, window lists, UI actions). */
const DESKTOP_TOOLS: ReadonlySet<string> = new Set(['screenshot', 'read_screen_text', 'list_windows', 'ui_action', 'computer']);
/** Tools that read files directly, on this machine. */
const LOCAL_FILE_TOOLS: ReadonlySet<string> = new Set(['read_file', 'list_directory']);

/** The note a tool's result carries when the active pane is on another host; undefined when it needs none. */
export function remotePaneNote(tool: string, pane: Pick<AgentPane, 'id' | 'remote'> | undefined): string | undefined {
  const host = pane?.remote?.host;
  if (host === undefined) return undefined;
  if (DESKTOP_TOOLS.has(tool)) return `(This acted on this machine's desktop, not on ${host}: pane ${pane!.id} is on ${host} over ssh.)`;
  if (tool === 'listen') return `(This recorded this machine's audio, not ${host}'s: pane ${pane!.id} is on ${host} over ssh.)`;
  if (LOCAL_FILE_TOOLS.has(tool)) return `(This read this machine's files, not ${host}'s: pane ${pane!.id} is on ${host} over ssh; read files there with a command.)`;
  return undefined;
}

/** `content` with `note` after it (as a text part beside an image). */
export function withNote(content: ToolResultContent, note: string | undefined): ToolResultContent {
  if (note === undefined) return content;
  return typeof content === 'string' ? `${content}\n${note}` : [...content, { type: 'text', text: note }];
}
