import type { Block } from '../../../shared/blocks';
import type { Settings } from '../../../shared/settings';
import { summarizeOutput } from '../../context/outputSummary';
import { scrubSecrets } from '../../safety/secretScrubber';
import { LIMITS, type BlockRecord } from '../historyRecord';
import type { Authorship } from './blockAuthors';
import type { GitPlace } from './gitPlaces';

/** Where a block ran, as far as the recorder knows it. */
export interface BlockPlace {
  host: string;
  /** The shell's name (`bash`, `zsh`, `fish`). */
  shell: string;
  /** The pane, named so records of two processes' panes stay apart: `<session>/<pane id>`. */
  pane: string;
  /** This engine's run: neighbours are looked up within it. */
  session: string;
}

/**
 * One finished block as it is written: every text scrubbed of secrets first, then cut to the
 * size `[history] max_output_kb` allows (cutting after scrubbing, so a cut never halves a
 * secret the scrubber would have caught whole). `output` is the block's text from the mirror,
 * or undefined when `keep_output = "none"`.
 */
export function blockRecordOf(
  block: Block,
  output: string | undefined,
  place: BlockPlace,
  history: Settings['history'],
  authorship: Authorship | undefined,
  git: GitPlace | null = null,
): BlockRecord {
  const endedAt = block.endedAt ?? Date.now();
  const capChars = history.max_output_kb * 1024;
  const scrubbedOutput = output === undefined ? undefined : scrubSecrets(output).text;
  return {
    command: cut(scrubSecrets(block.command).text, LIMITS.commandChars),
    cwd: block.cwd || null,
    host: place.host,
    shell: place.shell || null,
    pane: place.pane,
    session: place.session,
    startedAt: block.startedAt,
    endedAt,
    durationMs: Math.max(0, endedAt - block.startedAt),
    exitCode: block.exitCode ?? null,
    author: authorship?.author ?? 'you',
    decision: authorship?.decision ?? null,
    rule: authorship?.rule ? cut(authorship.rule, LIMITS.textChars) : null,
    conversation: authorship?.conversation ?? null,
    repoRoot: git ? cut(git.repoRoot, LIMITS.textChars) : null,
    gitBranch: git?.branch ? cut(git.branch, LIMITS.textChars) : null,
    outputDigest: scrubbedOutput === undefined ? null : cut(summarizeOutput(scrubbedOutput), Math.min(capChars, LIMITS.digestChars)),
    output: scrubbedOutput !== undefined && history.keep_output === 'full' ? cut(scrubbedOutput, Math.min(capChars, LIMITS.outputChars)) : null,
  };
}

/** The text within `max` characters: its start and its end, with what was left out between them said. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `\n… [${text.length - max} characters omitted] …\n`;
  const half = Math.max(0, Math.floor((max - marker.length) / 2));
  return `${text.slice(0, endOnWholeCharacter(text, half))}${marker}${text.slice(startOnWholeCharacter(text, text.length - half))}`;
}

/** Not between the two halves of a surrogate pair. */
function endOnWholeCharacter(text: string, end: number): number {
  return end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

function startOnWholeCharacter(text: string, start: number): number {
  return start < text.length && isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
