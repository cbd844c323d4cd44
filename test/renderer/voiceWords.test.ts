import { describe, expect, it } from 'vitest';
import { parsePanelInput } from '../../src/renderer/src/ai/panelInput';
import { spokenText } from '../../src/renderer/src/voice/spokenText';
import { transcriptDraft } from '../../src/renderer/src/voice/transcriptDraft';
import { elapsedText, microphoneProblem } from '../../src/renderer/src/voice/voiceWords';
import { MAX_SPOKEN_CHARS } from '../../src/shared/voice';

describe('an answer as it is read aloud', () => {
  it('leaves out code blocks, Markdown marks and link targets', () => {
    expect(spokenText('## Result\n\nYour **disk** is _fine_: see [the docs](https://example.com/df).\n\n```sh\ndf -h\n```\n\n- run `du -sh`\n- done')).toBe(
      'Result Your disk is fine: see the docs. (code in the panel) run du -sh done',
    );
  });

  it('stops a long answer at the last sentence that fits', () => {
    const sentence = 'This sentence is about forty characters. ';
    const spoken = spokenText(sentence.repeat(200));
    expect(spoken.length).toBeLessThanOrEqual(MAX_SPOKEN_CHARS);
    expect(spoken.endsWith('characters.')).toBe(true);
  });
});

describe('a transcript in the AI input', () => {
  it('spoken at a pane, alone, is a `# ` instruction, sent as its text', () => {
    expect(transcriptDraft('', 'list the files here', true)).toBe('# list the files here');
    expect(parsePanelInput(transcriptDraft('', 'list the files here', true))).toEqual({ kind: 'message', text: 'list the files here' });
    expect(transcriptDraft('  ', 'list the files here', false)).toBe('list the files here');
  });

  it('joins what was typed, keeping it', () => {
    expect(transcriptDraft('please ', 'list the files', true)).toBe('please list the files');
    expect(transcriptDraft('line one\n', 'and two', false)).toBe('line one and two');
  });

  it('never turns words into a command or an auto run', () => {
    for (const spoken of ['! rm -rf /', '!auto delete everything', '!']) {
      const draft = transcriptDraft('', spoken, false);
      expect(parsePanelInput(draft).kind, spoken).toBe('message');
      expect(parsePanelInput(transcriptDraft('', spoken, true)).kind, spoken).toBe('message');
    }
    expect(parsePanelInput(transcriptDraft('', '! ls', false))).toEqual({ kind: 'message', text: '! ls' });
  });
});

describe('voice words', () => {
  it('say what to do when the microphone cannot be used', () => {
    expect(microphoneProblem(new DOMException('denied', 'NotAllowedError'))).toMatch(/not allowed.*address bar.*Privacy & Security → Microphone/);
    expect(microphoneProblem(new DOMException('none', 'NotFoundError'))).toBe('No microphone was found.');
    expect(microphoneProblem(new DOMException('busy', 'NotReadableError'))).toMatch(/another program/);
    expect(microphoneProblem(new Error('odd'))).toBe('The microphone could not be used: odd');
  });

  it('show the elapsed time as m:ss', () => {
    expect(elapsedText(0)).toBe('0:00');
    expect(elapsedText(3_900)).toBe('0:03');
    expect(elapsedText(62_000)).toBe('1:02');
  });
});
