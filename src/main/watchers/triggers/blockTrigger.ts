import type { Disposable, Event } from '../../../shared/events';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { TriggerEvent } from '../firing/firingGate';
import type { BlockWatcherConfig } from '../watcherSchema';
import { blockMatches, outputMatch } from './blockRule';
import type { UserBlock } from './userBlocks';

/** How much of a block's output (its end) the model is given with the firing. */
const OUTPUT_TAIL_CHARS = 4_000;

export interface BlockTriggerHost {
  finishedBlocks: Event<UserBlock>;
  /** The pane the user typed in last (`pane = "focused"`). */
  focusedPane(): number | undefined;
}

/** A block watcher's trigger: the user's finished blocks that match its command, exit and output rule. */
export function startBlockTrigger(rule: BlockWatcherConfig, host: BlockTriggerHost, emit: (event: TriggerEvent) => void): Disposable {
  return host.finishedBlocks((finished) => {
    void judge(rule, host, finished).then((event) => event && emit(event));
  });
}

async function judge(rule: BlockWatcherConfig, host: BlockTriggerHost, { block, output }: UserBlock): Promise<TriggerEvent | undefined> {
  if (rule.pane === 'focused' && host.focusedPane() !== block.paneId) return undefined;
  if (!blockMatches(rule, { command: block.command, exitCode: block.exitCode })) return undefined;
  const text = scrubSecrets(await output().catch(() => '')).text;
  const matched = rule.output === undefined ? undefined : outputMatch(rule.output, text);
  if (rule.output !== undefined && matched === undefined) return undefined;
  const command = scrubSecrets(block.command).text;
  const exit = block.exitCode === undefined ? 'ended' : `exited ${block.exitCode}`;
  const tail = text.length > OUTPUT_TAIL_CHARS ? `…${text.slice(-OUTPUT_TAIL_CHARS)}` : text;
  return {
    reason: `\`${command}\` ${exit} in pane ${block.paneId}${matched ? `: ${matched}` : ''}`,
    details: [`Command: ${command}`, `Exit code: ${block.exitCode ?? 'unknown'}`, `Directory: ${block.cwd || 'unknown'}`, `Output:\n${tail}`].join('\n'),
  };
}
