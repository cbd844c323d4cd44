import { describe, expect, it } from 'vitest';
import { messageSequenceProblem } from '../support/modelServer/messageSequence';

// The scripted model server's check of a request's messages, as the Anthropic API makes it.

const call = { type: 'tool_use', id: 't1', name: 'read_file', input: {} };
const result = { type: 'tool_result', tool_use_id: 't1', content: 'ok' };
const ask = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

describe('the message sequence check', () => {
  it('accepts a question, a call, its result and a follow-up', () => {
    expect(messageSequenceProblem([ask, { role: 'assistant', content: [call] }, { role: 'user', content: [result, { type: 'text', text: 'and?' }] }])).toBeUndefined();
  });

  it('refuses what the API refuses', () => {
    const cases: [string, unknown][] = [
      ['first message must use the "user" role', [{ role: 'assistant', content: [{ type: 'text', text: 'x' }] }]],
      ['roles must alternate', [ask, ask]],
      ['without tool_result blocks immediately after', [ask, { role: 'assistant', content: [call] }, ask]],
      ['unexpected tool_use_id', [ask, { role: 'assistant', content: [{ type: 'text', text: 'x' }] }, { role: 'user', content: [result] }]],
      ['tool_result blocks must come first', [ask, { role: 'assistant', content: [call] }, { role: 'user', content: [{ type: 'text', text: 'x' }, result] }]],
      ['without results', [ask, { role: 'assistant', content: [call] }]],
    ];
    for (const [problem, messages] of cases) expect(messageSequenceProblem(messages), problem).toContain(problem);
  });
});
