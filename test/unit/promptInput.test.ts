import { describe, expect, it } from 'vitest';
import { PromptInput } from '../../src/main/panes/promptInput';

/** At a fresh prompt: nothing typed yet. */
function promptInput(): PromptInput {
  const input = new PromptInput({ shell: () => 'bash', integration: () => true, atPrompt: () => true, programReadsKeys: () => false, requested: () => undefined });
  input.promptShown();
  return input;
}

describe('PromptInput.commandKeys', () => {
  it('types the line, and Enter apart from it', () => {
    expect(promptInput().commandKeys('ls -la', false)).toEqual({ line: 'ls -la', enter: '\r' });
  });

  it('a multi-line command goes as one bracketed paste, then Enter', () => {
    expect(promptInput().commandKeys('for f in *\ndo echo $f; done', true)).toEqual({ line: '\x1b[200~for f in *\ndo echo $f; done\x1b[201~', enter: '\r' });
  });

  it('without bracketed paste, a multi-line command is all Enter keys: its first newline would run its first line', () => {
    expect(promptInput().commandKeys('echo a\necho b', false)).toEqual({ line: '', enter: 'echo a\necho b\r' });
  });

  it('a half-typed line is cleared first, as part of the line', () => {
    const input = promptInput();
    input.fromUser('git sta');
    const { line, enter } = input.commandKeys('ls', false);
    expect(line.endsWith('ls')).toBe(true);
    expect(line.length).toBeGreaterThan('ls'.length);
    expect(enter).toBe('\r');
  });
});
