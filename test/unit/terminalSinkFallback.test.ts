import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamWriter } from '../../src/main/headless/output/eventSink';
import { TerminalSink } from '../../src/main/headless/output/terminalSink';

describe("tandem agent's terminal form", () => {
  it('says when the request went to a fallback backend, and which', () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const sink = new TerminalSink(new StreamWriter(stream), false);
    sink.event({ type: 'fallback', from: { backend: 'anthropic', model: 'claude-sonnet-5-5' }, to: { backend: 'openai-compatible', model: 'llama3' }, reason: 'Cannot reach https://api.anthropic.com (ECONNREFUSED).' });
    expect(text).toBe('Cannot reach https://api.anthropic.com (ECONNREFUSED). Falling back to openai-compatible llama3.\n');
  });
});
