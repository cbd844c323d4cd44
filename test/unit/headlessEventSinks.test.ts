import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/main/headless/agentStream';
import { QuietSink, StreamWriter, type EventSink } from '../../src/main/headless/output/eventSink';
import { TerminalSink } from '../../src/main/headless/output/terminalSink';

function collected(stream: PassThrough): () => string {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  return () => text;
}

const unreachable = 'Cannot reach http://127.0.0.1:9 (fetch failed).';
const failedRun: AgentStreamEvent[] = [
  { type: 'error', message: unreachable, retryable: true },
  {
    type: 'result',
    subtype: 'error_model',
    is_error: true,
    exit_code: 4,
    duration_ms: 10,
    num_turns: 0,
    usage: { input_tokens: 0, output_tokens: 0, context_tokens: 0 },
    session_id: 's',
    result: '',
    reason: unreachable,
  },
];

function play(sink: EventSink, events: AgentStreamEvent[]): void {
  for (const event of events) sink.event(event);
}

describe('what a failed run says, in the readable forms', () => {
  it('--quiet says on stderr why the run failed once, not once as the error and again as the result', () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const stderr = collected(err);
    const stdout = collected(out);
    play(new QuietSink(new StreamWriter(out), new StreamWriter(err)), failedRun);
    expect(stderr()).toBe(`tandem agent: ${unreachable}\n`);
    expect(stdout()).toBe('');
  });

  it('--quiet still gives the result\'s reason when no error said it', () => {
    const err = new PassThrough();
    const stderr = collected(err);
    play(new QuietSink(new StreamWriter(new PassThrough()), new StreamWriter(err)), [{ ...failedRun[1]!, reason: 'the last step that ran failed: false (exit 1)' } as AgentStreamEvent]);
    expect(stderr()).toBe('tandem agent: the last step that ran failed: false (exit 1)\n');
  });

  it('the terminal form shows the error once', () => {
    const out = new PassThrough();
    const text = collected(out);
    play(new TerminalSink(new StreamWriter(out), false), failedRun);
    expect(text().split(unreachable)).toHaveLength(2);
  });
});
