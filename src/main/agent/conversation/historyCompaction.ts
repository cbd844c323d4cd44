import type { AgentMessage } from '../backends/modelBackend';
import { estimateMessagesTokens } from './conversationHistory';
import { compactionSummary, startsTurn } from './compactionSummary';

/** After a compaction, the newest messages kept whole take at most this share of the threshold … */
const KEPT_WHOLE_SHARE = 0.5;
/** … and Tandem's summary of the older ones at most this share (its oldest turns go first). */
const SUMMARY_SHARE = 0.25;

/** What a compaction folded into Tandem's summary. */
export interface CompactionFacts {
  /** History messages (from the start) the summary stands for. */
  messages: number;
  /** Turns of the conversation among them (a turn begins with a message of the user's). */
  turns: number;
  /** Their estimated size, and the summary's. */
  fromTokens: number;
  toTokens: number;
}

/**
 * Older turns folded into one summary Tandem writes from them (no model call: deterministic,
 * so every request of a conversation folds in the same place until the next compaction). The
 * newest messages go whole. The result is a valid message sequence: it starts with the user,
 * roles alternate as in the history, and every tool call is sent with its result.
 *
 * `foldedBefore` is where the last compaction cut (0: none yet); the cut only moves forward,
 * and only once the history sent passes `thresholdTokens`: then as far as it takes for the
 * messages kept whole to fit in half the threshold (at least the newest exchange stays).
 */
export function compactHistory(
  history: readonly AgentMessage[],
  thresholdTokens: number,
  foldedBefore = 0,
): { messages: AgentMessage[]; facts?: CompactionFacts } {
  let cut = Math.min(foldedBefore, lastCut(history));
  if (cut === 0 || estimateMessagesTokens(withSummary(history, cut, thresholdTokens)) > thresholdTokens) {
    const total = estimateMessagesTokens(history as AgentMessage[]);
    if (cut > 0 || total > thresholdTokens) cut = Math.max(cut, cutKeeping(history, thresholdTokens * KEPT_WHOLE_SHARE));
  }
  if (cut === 0) return { messages: [...history] };
  const messages = withSummary(history, cut, thresholdTokens);
  const summaryTokens = estimateMessagesTokens([{ role: 'user', content: [messages[0]!.content[0]!] }]);
  return {
    messages,
    facts: {
      messages: cut,
      turns: turnsIn(history.slice(0, cut)),
      fromTokens: estimateMessagesTokens(history.slice(0, cut)),
      toTokens: summaryTokens,
    },
  };
}

/**
 * Where a cut may go: before an assistant message (the summary then goes first, as the user's),
 * or before a message of the user's that is not tool results (the summary joins it). Never
 * between a tool call and its result.
 */
function isCut(history: readonly AgentMessage[], index: number): boolean {
  const message = history[index];
  if (!message || index === 0) return false;
  return message.role === 'assistant' || !message.content.some((part) => part.type === 'tool_result');
}

/** The newest cut that still leaves a message after it: the newest exchange always goes whole. */
function lastCut(history: readonly AgentMessage[]): number {
  for (let index = history.length - 1; index > 0; index--) if (isCut(history, index)) return index;
  return 0;
}

/**
 * The earliest cut at the start of a turn after which the messages fit `keepTokens`; when the
 * newest turn alone is larger, the earliest cut inside it that fits; else the newest cut.
 */
function cutKeeping(history: readonly AgentMessage[], keepTokens: number): number {
  let kept = 0;
  let turnCut = 0;
  let anyCut = 0;
  for (let index = history.length - 1; index > 0; index--) {
    kept += estimateMessagesTokens([history[index]!]);
    if (!isCut(history, index)) continue;
    if (anyCut !== 0 && kept > keepTokens) break;
    anyCut = index;
    if (startsTurn(history[index]!)) turnCut = index;
  }
  return turnCut || anyCut;
}

function withSummary(history: readonly AgentMessage[], cut: number, thresholdTokens: number): AgentMessage[] {
  const summary = { type: 'text' as const, text: compactionSummary(history.slice(0, cut), Math.floor(thresholdTokens * SUMMARY_SHARE)) };
  const kept = history.slice(cut);
  const first = kept[0]!;
  if (first.role === 'assistant') return [{ role: 'user', content: [summary] }, ...kept];
  return [{ role: 'user', content: [summary, ...first.content] }, ...kept.slice(1)];
}

/** A history cut mid-turn counts that turn too. */
function turnsIn(messages: readonly AgentMessage[]): number {
  return Math.max(1, messages.filter(startsTurn).length);
}
