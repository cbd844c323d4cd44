import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readSentPayload } from '../../src/renderer/src/ai/sentPayloadView';
import { importRendererModule } from './support/rendererModule';

type SentPayloadModule = typeof import('../../src/renderer/src/ai/SentPayloadButton');

// "What was sent", readable: both wire formats become the system prompt, messages with their
// parts (text with real line breaks, tool calls and results named) and the tools offered.

let ReadableRequest: SentPayloadModule['ReadableRequest'];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  ({ ReadableRequest } = await importRendererModule<SentPayloadModule>('ai/SentPayloadButton.tsx'));
});

afterAll(() => vi.unstubAllGlobals());

const anthropicBody = {
  model: 'claude-sonnet-5-5',
  max_tokens: 4096,
  system: 'You are Tandem.\nEnvironment: bash in /home/me',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'list the files\nplease' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Listing.' }, { type: 'tool_use', id: 'toolu_1', name: 'run_command', input: { command: 'ls', purpose: 'look' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Exit code: 0\na\nb', is_error: false }] },
  ],
  tools: [{ name: 'run_command', input_schema: { type: 'object' } }, { name: 'read_file', input_schema: { type: 'object' } }],
  stream: true,
};

describe('what was sent, readable', () => {
  it('reads an Anthropic request: system prompt, each message and part, the tools', () => {
    const view = readSentPayload(JSON.stringify(anthropicBody, null, 2));
    expect(view).toMatchObject({ model: 'claude-sonnet-5-5', system: 'You are Tandem.\nEnvironment: bash in /home/me', tools: ['run_command', 'read_file'] });
    expect(view?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(view?.messages[0]?.parts).toEqual([{ kind: 'text', text: 'list the files\nplease' }]);
    expect(view?.messages[1]?.parts[1]).toEqual({ kind: 'tool-call', label: 'run_command (toolu_1)', text: JSON.stringify({ command: 'ls', purpose: 'look' }, null, 2) });
    expect(view?.messages[2]?.parts[0]).toEqual({ kind: 'tool-result', label: 'result of toolu_1', text: 'Exit code: 0\na\nb' });
  });

  it('reads an OpenAI chat request: the system message, tool calls and tool messages', () => {
    const body = {
      model: 'llama3.1',
      messages: [
        { role: 'system', content: 'You are Tandem.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Exit code: 0' },
      ],
      tools: [{ type: 'function', function: { name: 'run_command' } }],
    };
    const view = readSentPayload(JSON.stringify(body));
    expect(view?.system).toBe('You are Tandem.');
    expect(view?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(view?.messages[1]?.parts).toEqual([{ kind: 'tool-call', label: 'run_command (c1)', text: '{\n  "command": "ls"\n}' }]);
    expect(view?.messages[2]?.parts).toEqual([{ kind: 'tool-result', label: 'result of c1', text: 'Exit code: 0' }]);
    expect(view?.tools).toEqual(['run_command']);
  });

  it('anything else is left to the raw JSON', () => {
    expect(readSentPayload('not json')).toBeUndefined();
    expect(readSentPayload('{"prompt":"x"}')).toBeUndefined();
  });

  it('renders text with its line breaks, not as escaped \\n', () => {
    const html = renderToStaticMarkup(createElement(ReadableRequest, { request: readSentPayload(JSON.stringify(anthropicBody))! }));
    expect(html).toContain('System prompt');
    expect(html).toContain('You are Tandem.\nEnvironment: bash in /home/me');
    expect(html).toContain('list the files\nplease');
    expect(html).not.toContain('\\n');
    expect(html).toContain('calls run_command (toolu_1)');
    expect(html).toContain('result of toolu_1');
    expect(html).toContain('Tools offered: run_command, read_file');
  });
});
