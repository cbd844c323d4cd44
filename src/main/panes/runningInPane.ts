import type { PaneRunning } from '../../shared/closeQuestion';
import type { Pane } from './pane';

/** A command line named in a question is cut to this many characters. */
const COMMAND_MAX_CHARS = 40;

/** What closing it would end in a pane: the subset of Pane this needs. */
export type PaneRunningSource = Pick<Pane, 'id' | 'exited' | 'state' | 'blocks' | 'foregroundPrograms'>;

/**
 * What closing a pane would end, by name: the programs in its terminal's foreground; when
 * the shell itself has the terminal but runs a command (a `while :; do …; done` loop, a
 * `read`), that command line; and the agent's `!auto` run when it works in this pane.
 */
export function runningInPane(pane: PaneRunningSource, autoRunHere: boolean): PaneRunning {
  if (pane.exited) return { paneId: pane.id, alive: false, programs: [] };
  const programs = [...pane.foregroundPrograms()];
  if (programs.length === 0 && pane.state === 'EXECUTING') {
    const command = [...pane.blocks()].reverse().find((block) => block.endedAt === undefined)?.command.trim();
    if (command) programs.push(`“${shorten(command.replace(/\s+/g, ' '))}”`);
  }
  if (autoRunHere) programs.push('an !auto run');
  return { paneId: pane.id, alive: true, programs };
}

function shorten(text: string): string {
  return text.length > COMMAND_MAX_CHARS ? `${text.slice(0, COMMAND_MAX_CHARS - 1)}…` : text;
}
