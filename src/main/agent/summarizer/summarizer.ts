import type { SummarySource } from '../../../shared/agent';
import type { AgentTracing } from '../../telemetry/agentTracing';
import { splitLines, summarizeOutput } from '../../context/outputExcerpt';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { ModelUsage } from '../backends/modelBackend';
import { modelInput } from './modelInput';
import { classifyOutput, type OutputType } from './outputType';
import type { SmallModelChoice } from './smallModel';
import { SummaryCache } from './summaryCache';
import { summaryPrompt } from './summaryPrompts';
import { isSimpleCommand, SUMMARY_MIN_LINES } from './summaryThreshold';

/** The small model gets this long to answer; then the summary is made locally. */
export const SUMMARY_TIMEOUT_MS = 10_000;
/** After a timeout the small model is left alone this long: a hung endpoint must not cost every call 10 s. */
export const TIMEOUT_BACKOFF_MS = 60_000;
/** A summary is short: this caps what it can cost. */
export const SUMMARY_MAX_TOKENS = 400;

export type { SummarySource };

export interface BlockSummary {
  text: string;
  outputType: OutputType;
  source: SummarySource;
  /** Lines of the output summarised. */
  lineCount: number;
}

export interface SummaryRequest {
  blockId: string;
  command: string;
  exitCode: number | undefined;
  finished: boolean;
  /** The block's output. Scrubbed again here, so nothing unscrubbed can reach the model. */
  text: string;
}

export interface SummarizerOptions {
  /** The small model to ask now, or why there is none (AI off, no key, none named). */
  smallModel(): SmallModelChoice;
  /** A summary's tokens, priced at the small model, for the panel's figures and the budget. */
  countUsage?(usage: ModelUsage, model: string): void;
  /** Each summary request is a `chat {model}` span with source `summarizer`. */
  tracing?: Pick<AgentTracing, 'summaryStarted' | 'summaryEnded'>;
  timeoutMs?: number;
}

/**
 * The small-model role: condenses a block's output with a prompt for its output type. Short
 * output and simple commands pass as they are; when the small model cannot be asked, fails or
 * takes longer than the timeout, local filtering stands in and the result says why. Summaries
 * by the model are kept per block; fallbacks are not (the model may answer next time).
 */
export class Summarizer {
  private readonly cache = new SummaryCache<BlockSummary>();
  /** Set by a timeout: until `until`, summaries are local and say why. */
  private backoff: { until: number; reason: string } | undefined;

  constructor(private readonly options: SummarizerOptions) {}

  async summarize(request: SummaryRequest): Promise<BlockSummary> {
    const fingerprint = SummaryCache.fingerprint(`${request.command}\n${request.finished ? request.exitCode : 'running'}\n${request.text}`);
    const cached = this.cache.get(request.blockId, fingerprint);
    if (cached) return cached;
    const command = scrubSecrets(request.command).text;
    const text = scrubSecrets(request.text).text;
    const lines = splitLines(text);
    const outputType = classifyOutput(command, lines);
    const lineCount = lines.length;
    if (lineCount < SUMMARY_MIN_LINES) return { text, outputType, lineCount, source: { kind: 'as-is', reason: `shorter than ${SUMMARY_MIN_LINES} lines` } };
    if (isSimpleCommand(command)) return { text, outputType, lineCount, source: { kind: 'as-is', reason: 'a simple command (cd, pwd, echo, which)' } };

    const choice = this.options.smallModel();
    if (!choice.ok) return localSummary(text, outputType, lineCount, choice.reason);
    if (this.backoff && Date.now() < this.backoff.until) {
      return localSummary(text, outputType, lineCount, `${this.backoff.reason} a moment ago, so it is left alone for a minute`);
    }
    const pending = this.ask(choice, { ...request, command, text }, outputType, lineCount);
    this.cache.set(request.blockId, fingerprint, pending);
    const summary = await pending;
    if (summary.source.kind !== 'model') this.cache.forget(request.blockId, pending);
    return summary;
  }

  private async ask(choice: Extract<SmallModelChoice, { ok: true }>, request: SummaryRequest, outputType: OutputType, lineCount: number): Promise<BlockSummary> {
    const input = modelInput(request.text);
    const prompt = summaryPrompt({ ...request, outputType, text: input.text, totalLines: lineCount, reduction: input.reduction });
    const timeoutMs = this.options.timeoutMs ?? SUMMARY_TIMEOUT_MS;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The race holds even against a backend that would not stop when aborted.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error('timed out'));
      }, timeoutMs);
    });
    const span = this.options.tracing?.summaryStarted({ backendKind: choice.backend.kind, model: choice.model });
    try {
      const streamed = choice.backend.stream(
        { model: choice.model, system: prompt.system, messages: [{ role: 'user', content: [{ type: 'text', text: prompt.user }] }], tools: [], maxTokens: SUMMARY_MAX_TOKENS },
        { text: () => undefined, toolUse: () => undefined },
        abort.signal,
      );
      streamed.catch(() => undefined);
      const result = await Promise.race([streamed, timedOut]);
      this.options.tracing?.summaryEnded(span, choice.model, { usage: result.usage });
      this.options.countUsage?.(result.usage, choice.model);
      this.backoff = undefined;
      const answer = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('').trim();
      if (!answer) return localSummary(request.text, outputType, lineCount, `the small model ${choice.model} answered with no text`);
      const cut = result.stopReason === 'max_tokens' ? '\n[the summary reached its length limit here]' : '';
      return { text: scrubSecrets(answer).text + cut, outputType, lineCount, source: { kind: 'model', model: choice.model } };
    } catch (error) {
      this.options.tracing?.summaryEnded(span, choice.model, { error: abort.signal.aborted ? 'timeout' : 'failed' });
      if (!abort.signal.aborted) return localSummary(request.text, outputType, lineCount, `the small model ${choice.model} failed: ${error instanceof Error ? error.message : String(error)}`);
      const reason = `the small model ${choice.model} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`;
      this.backoff = { until: Date.now() + TIMEOUT_BACKOFF_MS, reason };
      return localSummary(request.text, outputType, lineCount, reason);
    } finally {
      clearTimeout(timer);
    }
  }
}

function localSummary(text: string, outputType: OutputType, lineCount: number, reason: string): BlockSummary {
  return { text: summarizeOutput(text), outputType, lineCount, source: { kind: 'local', reason } };
}
