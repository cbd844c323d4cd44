import { matchingPattern } from '../../safety/policy/commandPatterns';
import type { BlockWatcherConfig } from '../watcherSchema';

/** A finished block as a block watcher judges it. */
export interface FinishedBlock {
  command: string;
  exitCode: number | undefined;
}

/**
 * Whether a finished block matches a watcher's `command` and `exit` (the `output` regex is
 * tried afterwards, on the block's scrubbed output, only for blocks that pass these). The
 * command uses the policy's pattern language (`npm test*`, where `*` never crosses `;`,
 * `&&`, `|` …), so `npm test*` is not fired by `npm test; rm x`.
 */
export function blockMatches(rule: Pick<BlockWatcherConfig, 'command' | 'exit'>, block: FinishedBlock): boolean {
  if (rule.command !== undefined && matchingPattern([rule.command], block.command) === undefined) return false;
  return exitMatches(rule.exit, block.exitCode);
}

export function exitMatches(spec: string, exitCode: number | undefined): boolean {
  if (spec === 'any') return true;
  if (exitCode === undefined) return false;
  if (spec.startsWith('!=')) return exitCode !== Number(spec.slice(2));
  return exitCode === Number(spec);
}

/** The first line of `output` the watcher's regex finds, or undefined. */
export function outputMatch(pattern: string, output: string): string | undefined {
  const match = new RegExp(pattern, 'm').exec(output);
  if (!match) return undefined;
  const lineStart = output.lastIndexOf('\n', match.index) + 1;
  const lineEnd = output.indexOf('\n', match.index);
  return output.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim();
}

/** The rule in words, for the watcher list: `npm test* exits !=0, output /FAIL/`. */
export function describeBlockRule(rule: Pick<BlockWatcherConfig, 'command' | 'exit' | 'output' | 'pane'>): string {
  const command = rule.command ? `\`${rule.command}\`` : 'any command';
  const exit = rule.exit === 'any' ? 'ends' : rule.exit.startsWith('!=') ? `exits with anything but ${rule.exit.slice(2)}` : `exits with ${rule.exit}`;
  const where = rule.pane === 'focused' ? ' in the pane typed in last' : '';
  return `${command} ${exit}${rule.output ? `, output matching /${rule.output}/` : ''}${where}`;
}
