import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PromptInterceptor, clearLineKeys, type PromptShell } from '../../src/main/prompt/promptInterceptor';

function interceptor(options: { shell?: PromptShell; prefix?: '#' | '##'; atPrompt?: () => boolean } = {}) {
  const state = { atPrompt: true, programReadsKeys: false };
  const prompt = new PromptInterceptor({
    shell: () => options.shell ?? 'bash',
    prefix: () => options.prefix ?? '#',
    atPrompt: options.atPrompt ?? (() => state.atPrompt),
    programReadsKeys: () => state.programReadsKeys,
  });
  prompt.promptShown();
  return { prompt, state };
}

describe('PromptInterceptor', () => {
  it('takes a `# ` line typed key by key away from the shell and clears its line', () => {
    const { prompt } = interceptor();
    let toShell = '';
    for (const key of '# list the files here') toShell += prompt.input(key).toShell;
    expect(toShell).toBe('# list the files here');
    const enter = prompt.input('\r');
    expect(enter.requests).toEqual([{ kind: 'instruction', text: 'list the files here' }]);
    expect(enter.toShell).toBe(clearLineKeys('bash'));
    expect(enter.toShell).not.toContain('\r');
  });

  it('passes ordinary commands through, Enter included', () => {
    const { prompt } = interceptor();
    const result = prompt.input('ls -la\r');
    expect(result).toEqual({ toShell: 'ls -la\r', requests: [] });
  });

  it('joins consecutive `# ` lines of a paste into one instruction', () => {
    const { prompt } = interceptor({ shell: 'zsh' });
    const result = prompt.input('\x1b[200~# deploy to staging,\n# run the tests\x1b[201~\r');
    expect(result.requests).toEqual([{ kind: 'instruction', text: 'deploy to staging,\nrun the tests' }]);
    expect(result.toShell.endsWith(clearLineKeys('zsh'))).toBe(true);
  });

  it('understands backspace and Ctrl+U while the line is typed', () => {
    const { prompt } = interceptor();
    expect(prompt.input('ls\x7f\x7f# why\r').requests).toEqual([{ kind: 'instruction', text: 'why' }]);
    prompt.promptShown();
    expect(prompt.input('# oops\x15echo hi\r')).toEqual({ toShell: '# oops\x15echo hi\r', requests: [] });
  });

  it('asks a quick question with `?? `, and about the last block with a bare `??`', () => {
    const { prompt } = interceptor();
    expect(prompt.input('?? what is using port 80\r').requests).toEqual([{ kind: 'question', text: 'what is using port 80' }]);
    prompt.promptShown();
    expect(prompt.input('??\r').requests).toEqual([{ kind: 'question', text: '' }]);
  });

  it('sends `\\#` lines to the shell as a literal `#` line', () => {
    const { prompt } = interceptor();
    const result = prompt.input('\\# just a comment\r');
    expect(result.requests).toEqual([]);
    expect(result.toShell).toBe('\\# just a comment' + clearLineKeys('bash') + '# just a comment\r');
  });

  it('does not intercept away from the prompt (a running program, a REPL, vim)', () => {
    const { prompt, state } = interceptor();
    state.atPrompt = false;
    expect(prompt.input('# inside python\r')).toEqual({ toShell: '# inside python\r', requests: [] });
  });

  it('does not intercept continuation lines (heredoc) after Enter went to the shell', () => {
    const { prompt } = interceptor();
    expect(prompt.input('cat <<EOF\r').requests).toEqual([]);
    // Still PROMPT state (no command started yet), but the shell reads heredoc lines now.
    expect(prompt.input('# not for the agent\r')).toEqual({ toShell: '# not for the agent\r', requests: [] });
    prompt.promptShown();
    expect(prompt.input('# for the agent\r').requests).toHaveLength(1);
  });

  it('lets Enter through when an ordinary line was edited in ways it cannot follow', () => {
    const { prompt } = interceptor();
    expect(prompt.input('ls a\x1b[D\x1b[Db\r')).toEqual({ toShell: 'ls a\x1b[D\x1b[Db\r', requests: [] });
    prompt.promptShown();
    // History recall (Up) replaces the line with something unknown.
    expect(prompt.input('\x1b[A\r').requests).toEqual([]);
  });

  it('holds Enter back, saying why, when an edited line looks like an instruction', () => {
    const { prompt } = interceptor();
    const held = prompt.input('# a secret\x1b[D\x1b[Cx\r');
    expect(held.toShell).toBe('# a secret\x1b[D\x1b[Cx');
    expect(held.requests).toEqual([]);
    expect(held.refusal).toMatch(/Enter was not sent to the shell.*edited with cursor keys.*Ctrl\+C/);
    // Enter again is held back again; keys after it still reach the line.
    expect(prompt.input('y\r')).toMatchObject({ toShell: 'y', requests: [] });
    expect(prompt.input('\t\r').refusal).toBeDefined();
    // Ctrl+C gives a fresh prompt whose line is known again.
    prompt.input('\x03');
    prompt.promptShown();
    expect(prompt.input('# again\r').requests).toEqual([{ kind: 'instruction', text: 'again' }]);
  });

  it('holds Enter back when a `# ` line follows text typed ahead during a command', () => {
    const { prompt, state } = interceptor();
    prompt.input('sleep 1\r');
    state.atPrompt = false;
    prompt.input('echo typed ahead ');
    state.atPrompt = true;
    prompt.promptShown();
    const held = prompt.input('# x\r');
    expect(held).toMatchObject({ toShell: '# x', requests: [] });
    expect(held.refusal).toMatch(/keys typed while the last command ran/);
    prompt.input('\x03');
    prompt.promptShown();
    // Input ended by Enter while a program ran (`:wq` in vim) does not spoil the next prompt.
    state.atPrompt = false;
    prompt.input(':wq\r');
    state.atPrompt = true;
    prompt.promptShown();
    expect(prompt.input('# y\r').requests).toEqual([{ kind: 'instruction', text: 'y' }]);
  });

  it('Ctrl+C drops what was typed ahead before it (the terminal driver flushes its input)', () => {
    const { prompt, state } = interceptor();
    prompt.input('sleep 30\r');
    state.atPrompt = false;
    for (const key of ['o', 'o', 'p', 's', '\x1b[A', '\x03']) prompt.input(key);
    state.atPrompt = true;
    prompt.promptShown();
    expect(prompt.input('# after ctrl+c\r').requests).toEqual([{ kind: 'instruction', text: 'after ctrl+c' }]);
  });

  it('an arrow typed while a command runs leaves the next line unknown; read by a pager, it does not', () => {
    const { prompt, state } = interceptor();
    prompt.input('make\r');
    state.atPrompt = false;
    // Up, left for the shell: at the prompt it recalls the last command.
    prompt.input('\x1bOA');
    state.atPrompt = true;
    prompt.promptShown();
    expect(prompt.input('# after the arrow\r')).toMatchObject({ requests: [], refusal: expect.stringContaining('keys typed while the last command ran') });
    prompt.input('\x03');
    prompt.promptShown();
    prompt.input('less file\r');
    state.atPrompt = false;
    state.programReadsKeys = true;
    for (const key of ['\x1bOB', '\x1b[6~', '\x1bf', 'q']) prompt.input(key);
    state.programReadsKeys = false;
    state.atPrompt = true;
    prompt.promptShown();
    expect(prompt.input('# after the pager\r').requests).toEqual([{ kind: 'instruction', text: 'after the pager' }]);
  });

  it('does not count keys read by a pager as typed ahead (`q` to quit less)', () => {
    const { prompt, state } = interceptor();
    prompt.input('git log\r');
    state.atPrompt = false;
    state.programReadsKeys = true;
    for (const key of ' jq') prompt.input(key);
    state.programReadsKeys = false;
    state.atPrompt = true;
    prompt.promptShown();
    expect(prompt.input('# hello after pager\r').requests).toEqual([{ kind: 'instruction', text: 'hello after pager' }]);
  });

  it('holds Enter back when a key may have reached the shell just as the pager quit', () => {
    const { prompt, state } = interceptor();
    prompt.input('less file\r');
    state.atPrompt = false;
    state.programReadsKeys = true;
    // `q#` in one go: less may have read only the `q`, and the shell the `#`.
    prompt.input('q#');
    state.programReadsKeys = false;
    state.atPrompt = true;
    prompt.promptShown();
    const held = prompt.input(' hello\r');
    expect(held.requests).toEqual([]);
    expect(held.toShell).toBe(' hello');
    expect(held.refusal).toBeDefined();
    // An ordinary line after pager keys goes through.
    prompt.input('\x03');
    prompt.promptShown();
    expect(prompt.input('ls\r').toShell).toBe('ls\r');
  });

  it('a huge paste typed ahead (full of `#`): only its end is looked at', () => {
    const { prompt, state } = interceptor();
    prompt.input('sleep 5\r');
    state.atPrompt = false;
    prompt.input('# a # b ?? c '.repeat(20_000));
    state.atPrompt = true;
    prompt.promptShown();
    // Without the cap this would try every `#` of 240,000 characters against all that follows it.
    expect(prompt.input('x\r').refusal).toBeDefined();
  });

  it('keeps the line through a redraw of the prompt, and starts afresh after Ctrl+C', () => {
    const { prompt } = interceptor();
    prompt.input('ls -la ');
    // bash re-prints PS1 (and its mark) on Ctrl+L or a resize: the line is still there.
    prompt.promptShown();
    expect(prompt.input('# not an instruction\r').requests).toEqual([]);
    prompt.promptShown();
    prompt.input('echo half-typed\x03');
    prompt.promptShown();
    expect(prompt.input('# now it is\r').requests).toEqual([{ kind: 'instruction', text: 'now it is' }]);
  });

  it('uses `##` without shell integration, and leaves single `#` lines to the shell', () => {
    const { prompt } = interceptor({ prefix: '##' });
    expect(prompt.input('# a comment\r').requests).toEqual([]);
    prompt.promptShown();
    expect(prompt.input('## do it\r').requests).toEqual([{ kind: 'instruction', text: 'do it' }]);
  });

  it('never loses or reorders a byte of ordinary input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), (chunks) => {
        const { prompt } = interceptor();
        let out = '';
        const requests = [];
        let refused = false;
        for (const chunk of chunks) {
          const result = prompt.input(chunk);
          out += result.toShell;
          requests.push(...result.requests);
          refused ||= result.refusal !== undefined;
        }
        // Without intercepted lines, what reaches the shell is exactly what was typed.
        if (requests.length === 0 && !chunks.join('').includes('\\#')) {
          // A held-back Enter is the only byte that may be missing.
          const withoutEnters = (text: string) => text.replace(/[\r\n]/g, '');
          if (refused) expect(withoutEnters(out)).toBe(withoutEnters(chunks.join('')));
          else expect(out).toBe(chunks.join(''));
        }
      }),
    );
  });

  describe('`!auto <task>`', () => {
    it('takes the task away from the shell (never into its history) and clears the line', () => {
      const { prompt } = interceptor();
      let toShell = '';
      for (const key of '!auto fix the failing test') toShell += prompt.input(key).toShell;
      const enter = prompt.input('\r');
      expect(enter.requests).toEqual([{ kind: 'auto', text: 'fix the failing test' }]);
      expect(enter.toShell).toBe(clearLineKeys('bash'));
      expect(toShell + enter.toShell).not.toContain('\r');
    });

    it('a bare `!auto` is taken too (the engine asks for the task); `!autofoo` and `\\!auto` are the shell\'s', () => {
      const { prompt } = interceptor();
      expect(prompt.input('!auto\r').requests).toEqual([{ kind: 'auto', text: '' }]);
      prompt.promptShown();
      expect(prompt.input('!autofoo\r')).toEqual({ toShell: '!autofoo\r', requests: [] });
      prompt.promptShown();
      expect(prompt.input('\\!auto do it\r')).toEqual({ toShell: '\\!auto do it\r', requests: [] });
    });

    it('only at a prompt: while a command runs, `!auto x` goes to the program', () => {
      const { prompt, state } = interceptor();
      state.atPrompt = false;
      expect(prompt.input('!auto x\r')).toEqual({ toShell: '!auto x\r', requests: [] });
    });

    it('a task edited with the cursor keys is held back from the shell, and the notice says it is a task', () => {
      const { prompt } = interceptor();
      prompt.input('!auto deploy');
      prompt.input('\x1b[D');
      const enter = prompt.input('\r');
      expect(enter.toShell).toBe('');
      expect(enter.requests).toEqual([]);
      expect(enter.refusal).toContain('`!auto ` task');
    });
  });
});
