import type { Block } from '../../shared/blocks';
import { plural } from '../../shared/countWords';
import type { BlockOutput } from '../blocks/mirror/blockOutputs';
import { formatBytes, headGapTail, headTail } from '../context/outputExcerpt';
import { scrubSecrets } from '../safety/secretScrubber';

/** Output lines and characters a single block may put in front of the model. */
export const BLOCK_OUTPUT_LIMITS = { maxLines: 200, maxChars: 16_000 };

/**
 * A block as the model reads it: what ran, where, how it ended, and its output — scrubbed
 * of secrets, head + tail when long (with what was left out stated), and fenced as data.
 */
export function blockForModel(
  block: Block,
  output: BlockOutput | undefined,
  extra: { note?: string; limits?: { maxLines: number; maxChars: number } } = {},
): string {
  const lines = [`Command: ${scrubSecrets(block.command).text}`, `Pane: ${block.paneId} · cwd: ${block.cwd || 'unknown'}`];
  const exit = block.exitCode === undefined ? (block.endedAt ? 'unknown' : 'still running') : String(block.exitCode);
  const duration = block.endedAt ? ` · duration ${formatDuration(block.endedAt - block.startedAt)}` : '';
  lines.push(`Exit code: ${exit}${block.pagerQuit ? ' (the user quit the pager before the output ended; not a failure)' : ''}${duration}`);
  if (block.usedAlternateScreen) lines.push('It used the full screen (an editor, pager or TUI); only what stayed on the normal screen is below.');
  if (extra.note) lines.push(extra.note);
  if (!output) {
    lines.push('Output: not available (it scrolled out of the scrollback).');
    return lines.join('\n');
  }
  const limits = extra.limits ?? BLOCK_OUTPUT_LIMITS;
  const printed = output.truncated && output.printed && output.printed.lines > output.lineCount ? output.printed : undefined;
  if (printed) {
    // The scrollback kept only the end: the true totals, and how it began as it streamed by.
    const head = printed.head === undefined ? undefined : scrubSecrets(printed.head).text;
    const kept = scrubSecrets(output.text).text;
    const excerpt = head === undefined ? headTail(kept, { ...limits, printed }) : headGapTail(head, kept, printed, limits);
    const shown = head === undefined ? 'the end that is kept is below' : 'how it began (kept as it streamed by) and how it ended are below';
    lines.push(`Output (${plural(printed.lines, 'line')}, ${formatBytes(printed.bytes)} printed in total; its middle scrolled out of the scrollback, ${shown}):`);
    lines.push(fenceAsData(block.id, excerpt.text));
  } else {
    // Scrubbed before it is shortened, so a cut can never leave half a secret behind.
    const excerpt = headTail(scrubSecrets(output.text).text, limits);
    const size = `${plural(excerpt.totalLines, 'line')}, ${formatBytes(Buffer.byteLength(output.text))}`;
    const lost = output.truncated ? '; its beginning scrolled out of the scrollback' : '';
    lines.push(`Output (${size}${excerpt.truncated ? ', shortened to head and tail' : ''}${lost}):`);
    lines.push(fenceAsData(block.id, excerpt.text));
  }
  return lines.join('\n');
}

/** Terminal output and file content are data: fenced, and a forged closing fence is defused. */
export function fenceAsData(source: string, text: string): string {
  return `<output block="${source}">\n${text.replace(/<\/output>/gi, '<\\/output>')}\n</output>`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
