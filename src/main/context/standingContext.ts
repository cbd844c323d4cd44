import { blockFailed, type Block } from '../../shared/blocks';
import { plural } from '../../shared/countWords';
import type { RemoteShellInfo } from '../osc/marks';
import { scrubSecrets } from '../safety/secretScrubber';
import { findErrorLines, formatCount } from './outputExcerpt';
import { remotePaneLines } from './remotePaneContext';

/**
 * The small context that goes with every request: where the user is (OS, shell, cwd, pane, and
 * the host when the pane's shell is on another one) and
 * an index of the last blocks — what ran, how it ended, how long ago, how much it printed.
 * Never raw output: the model fetches that with the `terminal_history` tool.
 */

/** One row of the block index. */
export interface BlockIndexEntry {
  block: Block;
  /** Lines of output the block printed (0 when none or unknown). */
  lineCount: number;
  /** The block failed or its output has lines that look like errors. */
  hasErrors: boolean;
}

export interface StandingContextInput {
  /** e.g. "Linux 6.8 (x64)". */
  os: string;
  /** e.g. "bash" or "/usr/bin/zsh". */
  shell: string;
  cwd: string;
  paneId: number;
  blocks: readonly BlockIndexEntry[];
  /** Epoch ms used for ages. */
  now: number;
  /** Most recent blocks listed (default 10). */
  maxBlocks?: number;
  /** Allow-listed environment variables, already filtered and scrubbed (`[context] include_env`). */
  environment?: Readonly<Record<string, string>>;
  /** The pane's shell is on another host (reached with `ssh`): `os` is then this machine's, `cwd` the remote one. */
  remote?: RemoteShellInfo;
}

export const DEFAULT_MAX_INDEXED_BLOCKS = 10;
/** Longest command shown in the index, in characters. */
export const MAX_INDEXED_COMMAND_CHARS = 200;

/**
 * The block's stable, 1-based number in its pane's history: the ordinal in its id
 * (`p2b17` → 17), which never changes when older blocks are forgotten. Undefined when the id
 * does not have that shape.
 */
export function blockIndexNumber(block: Pick<Block, 'id'>): number | undefined {
  const match = /^p\d+b(\d+)$/.exec(block.id);
  if (!match) return undefined;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** Whether a block counts as failed: a non-zero exit code (a quit pager aside), or output with error-looking lines. */
export function blockHasErrors(block: Pick<Block, 'exitCode' | 'pagerQuit'>, outputText: string | undefined): boolean {
  if (blockFailed(block)) return true;
  if (!outputText) return false;
  return findErrorLines(outputText).some((m) => m.severity === 'error');
}

/**
 * The index row of a block, from its output as the block outputs return it (undefined: gone).
 * Its line count is the lines of text it left on the screen; when the scrollback kept only
 * the end, what it printed in all. (Counting printed bytes alone would call zsh's
 * end-of-line mark after a silent command — spaces and a carriage return — one line.)
 */
export function blockIndexEntry(
  block: Block,
  output: { text: string; lineCount: number; truncated?: boolean; printed?: { lines: number } } | undefined,
): BlockIndexEntry {
  const lineCount = output?.truncated ? Math.max(output.printed?.lines ?? 0, output.lineCount) : (output?.lineCount ?? 0);
  return { block, lineCount, hasErrors: blockHasErrors(block, output?.text) };
}

/** "0s ago", "12s ago", "3m ago", "2h ago", "4d ago". */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(Number.isFinite(ms) ? ms / 1000 : 0));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/**
 * A command on one line: line breaks shown as ` ⏎ `, other control characters as `�`,
 * cut to `maxChars` with `…`. Secrets typed on the command line are redacted.
 */
export function singleLineCommand(command: string, maxChars = MAX_INDEXED_COMMAND_CHARS): string {
  const oneLine = scrubSecrets(command)
    .text.trim()
    .replace(/\r?\n|\r/g, ' ⏎ ')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '\ufffd')
    .replace(/\t/g, ' ');
  if (oneLine.length <= maxChars) return oneLine;
  let cut = Math.max(0, maxChars - 1);
  const code = oneLine.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${oneLine.slice(0, cut)}…`;
}

function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
}

function statusOf(block: Block): string {
  if (block.endedAt === undefined) return 'running';
  if (block.exitCode === undefined) return 'exit ?';
  if (block.pagerQuit) return `pager quit by the user (exit ${block.exitCode})`;
  return `exit ${block.exitCode}`;
}

function compareBlocks(a: Block, b: Block): number {
  const ia = blockIndexNumber(a);
  const ib = blockIndexNumber(b);
  if (ia !== undefined && ib !== undefined && ia !== ib) return ia - ib;
  return a.startedAt - b.startedAt;
}

/**
 * The standing context: an environment line, then the last `maxBlocks` blocks of the pane,
 * oldest first, one line each:
 * `#12 p1b12 | exit 1, errors | 5s ago | 542 lines | npm test`.
 */
export function buildStandingContext(input: StandingContextInput): string {
  const maxBlocks = Math.max(0, Math.floor(input.maxBlocks ?? DEFAULT_MAX_INDEXED_BLOCKS));
  const lines = input.remote
    ? remotePaneLines({ os: input.os, cwd: input.cwd, paneId: input.paneId, remote: input.remote })
    : [`Environment: OS ${oneLine(input.os) || 'unknown'}; shell ${oneLine(input.shell) || 'unknown'}; cwd ${oneLine(input.cwd) || 'unknown'}; pane ${input.paneId}.`];
  const variables = Object.entries(input.environment ?? {});
  if (variables.length > 0) lines.push(`Environment variables: ${variables.map(([name, value]) => `${name}=${oneLine(value)}`).join(' ')}`);
  const pane = input.blocks.filter((e) => e.block.paneId === input.paneId).sort((a, b) => compareBlocks(a.block, b.block));
  if (pane.length === 0) {
    lines.push(`No commands have run in pane ${input.paneId} yet.`);
    return lines.join('\n');
  }
  const shown = maxBlocks === 0 ? [] : pane.slice(-maxBlocks);
  const count = shown.length === pane.length ? `${formatCount(pane.length)}` : `last ${formatCount(shown.length)} of ${formatCount(pane.length)}`;
  lines.push(`Command blocks in pane ${input.paneId} (${count}, oldest first; #n is the block's index):`);
  for (const entry of shown) {
    const { block } = entry;
    const index = blockIndexNumber(block);
    const status = statusOf(block) + (entry.hasErrors ? ', errors' : '');
    const age = block.endedAt === undefined ? `started ${formatAge(input.now - block.startedAt)}` : formatAge(input.now - block.endedAt);
    const size = entry.lineCount > 0 ? plural(entry.lineCount, 'line') : block.endedAt === undefined ? 'no output yet' : 'no output';
    const command = singleLineCommand(block.command) || '(command unknown)';
    lines.push(`${index === undefined ? '#?' : `#${index}`} ${block.id} | ${status} | ${age} | ${size} | ${command}`);
  }
  lines.push(
    'Block output is not shown here; fetch it with the terminal_history tool (by index, blockId, last or search; detail summary, errors_only or full).',
  );
  return lines.join('\n');
}
