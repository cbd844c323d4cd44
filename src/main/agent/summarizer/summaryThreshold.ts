/**
 * The seed's smart filtering: what is worth a summary at all. Short output and commands that
 * only say where you are or what something is go to the model as they are.
 */
import { programName, simpleCommands } from './commandWords';

/** Output shorter than this is sent as is. */
export const SUMMARY_MIN_LINES = 50;

const SIMPLE_PROGRAMS = new Set(['cd', 'pwd', 'echo', 'which']);

/** Every simple command of the line is `cd`, `pwd`, `echo` or `which` (`cd src && pwd`). */
export function isSimpleCommand(command: string): boolean {
  const commands = simpleCommands(command);
  return commands.length > 0 && commands.every(([program]) => SIMPLE_PROGRAMS.has(programName(program!)));
}

/** Whether a block's output goes to the summarizer (otherwise it goes as is). */
export function needsSummary(command: string, lineCount: number): boolean {
  return lineCount >= SUMMARY_MIN_LINES && !isSimpleCommand(command);
}
